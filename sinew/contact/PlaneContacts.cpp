// Contacts of a body with a CollisionPlane (CollisionPlane.h): exact
// signed distances n·(x − p) of the body's collision-mesh vertices. Vertex
// penetration makes each vertex within reach a contact; a contour region
// (a rigid body) keeps the corners of the hull, on the plane, of those
// vertices and of the points where its edges cross the plane — the
// resolution-independent contact of §8.4.1.1, each corner with its own
// depth, since a plane's depth is exact everywhere, raised where a vertex
// inside the hull lies deeper than every corner.
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
  std::vector<Vector3d> x(nv);
  std::vector<double> d(nv);
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
  // Points of the region with their contact keys: vertices within reach
  // (their index), and crossings of edges with one end behind the plane
  // and the other beyond reach (−2 − the edge's index).
  std::vector<Vector3d> points;
  std::vector<int> keys;
  for (int v = 0; v < nv; ++v)
    if (d[v] < margin) points.push_back(x[v]), keys.push_back(v);
  for (int v = 0; v < nv; ++v)
    for (const auto& [w, edge] : ga->tree->vertexEdges()[v])
      if (d[v] < 0 && !(d[w] < margin)) {
        points.push_back(x[v] + (d[v] / (d[v] - d[w])) * (x[w] - x[v]));
        keys.push_back(-2 - edge);
      }
  if (points.empty()) return;
  // A curved body's deepest vertex may lie inside the hull (a ball's lowest
  // point inside its ring of contacts): the corners then take their own
  // depth raised by what that vertex is deeper, so that the region is
  // pushed out as far as its deepest point, as a mesh pair's region is.
  const std::vector<int> hull = hullOnPlane(points, n, pointTol);
  double deepest = -INFINITY, deepestCorner = -INFINITY;
  for (size_t k = 0; k < points.size(); ++k) deepest = std::max(deepest, -plane.distance(points[k]));
  for (int k : hull) deepestCorner = std::max(deepestCorner, -plane.distance(points[k]));
  for (int k : hull)
    myContacts.push_back(contact(keys[k], points[k], -plane.distance(points[k]) + (deepest - deepestCorner)));
}

}  // namespace sinew
