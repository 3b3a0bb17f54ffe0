// Contacts of a body with a CollisionPlane (CollisionPlane.h): exact
// signed distances n·(x − p) of the body's collision-mesh vertices. Vertex
// penetration makes each vertex within reach a contact; a contour region
// (a rigid body) keeps the corners of the hull, on the plane, of those
// vertices and of the points where its edges cross the plane — the
// resolution-independent contact of §8.4.1.1, each corner with its own
// depth, since a plane's depth is exact everywhere, and a vertex inside
// the hull that lies deeper than every corner.
#include "sinew/contact/CollisionManager.h"
#include "sinew/contact/ContactPoints.h"

namespace sinew {

void CollisionManager::detectPlane(const Collider& a, const Collider& b, double margin, double pointTol, bool region) {
  const Geometry* ga = geometryOf(a);
  if (!ga) return;
  const CollisionPlane& plane = *b.plane;
  const Vector3d& n = plane.getNormal();
  const RigidTransform3d TAW = poseOf(a.rigid);
  const PolygonalMesh& mesh = ga->surface();
  const int nv = mesh.numVertices();
  // Scratch kept between calls (detection runs on one thread): a pile's
  // many body-plane pairs allocated these each step.
  thread_local std::vector<Vector3d> x, points;
  thread_local std::vector<double> d, depths;
  thread_local std::vector<int> keys;
  x.resize(nv);
  d.resize(nv);
  for (int v = 0; v < nv; ++v) {
    x[v] = TAW.transformPoint(mesh.getVertex(v));
    d[v] = plane.distance(x[v]);
  }
  auto contact = [&](int key, const Vector3d& p, double depth) {
    ContactPoint c = vertexContact(a, b, key, p);
    c.normal = n;
    c.depth = depth;
    return c;
  };
  if (!region) {
    for (int v = 0; v < nv; ++v) {
      if (!(d[v] < margin) || pulled(a, b, v)) continue;
      ContactPoint c = contact(v, x[v], -d[v]);
      c.vertexArea = ga->vertexAreas[v];
      if (a.mesh) addMasters(*a.mesh, v, 1.0, c.nodesA);
      myContacts.push_back(std::move(c));
    }
    return;
  }
  // The region's points with their contact keys: vertices within reach
  // (their index; those in front of the plane are watched, speculative
  // contact), and crossings of edges with one end behind the plane and the
  // other beyond reach (−2 − the edge's index). Its contacts are the
  // corners of their hull on the plane, each with its own exact depth, and
  // a deepest vertex inside the hull (a ball's lowest point inside its
  // ring of contacts) as one more.
  points.clear(), keys.clear(), depths.clear();
  for (int v = 0; v < nv; ++v)
    if (d[v] < margin) points.push_back(x[v]), keys.push_back(v), depths.push_back(-d[v]);
  for (int v = 0; v < nv; ++v)
    for (const auto& [w, edge] : ga->tree->vertexEdges()[v])
      if (d[v] < 0 && !(d[w] < margin)) {
        points.push_back(x[v] + (d[v] / (d[v] - d[w])) * (x[w] - x[v]));
        keys.push_back(-2 - edge);
        depths.push_back(0.0);
      }
  if (addHullContacts(points, depths, n, pointTol,
                      [&](int k) { myContacts.push_back(contact(keys[k], points[k], depths[k])); }))
    myCarry.reduced = true;
}

}  // namespace sinew
