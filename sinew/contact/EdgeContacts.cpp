// Edge–edge contacts of VERTEX_EDGE_PENETRATION (guide §8.4.1.3: vertex
// penetration "supplemented with extra constraints formed from edge-edge
// contact", for coarse meshes with sharp edges; AJL_CONTOUR only). Where
// an edge of one mesh passes through the other — in by one face, out by
// the next — with both its ends outside, no vertex penetrates, yet the
// meshes overlap: two boxes crossing edge on edge. The AJL intersection
// finds these edges and the edge of the other mesh they pass under
// (MeshIntersector.h); each pair gives a contact between the nearest
// points of the two edges' lines, with the normal along their cross
// product (out of the mesh whose edge is passed under) and the distance
// between those points as its depth.
#include <algorithm>
#include <cmath>

#include "sinew/contact/CollisionManager.h"
#include "sinew/contact/ContactPoints.h"

namespace sinew {

namespace {

/// Parameters (s, t) in [0, 1]² of the nearest points of segments p0p1 and
/// q0q1 (Ericson §5.1.9; non-parallel segments, which a crossing has).
void nearestOnSegments(const Vector3d& p0, const Vector3d& p1, const Vector3d& q0, const Vector3d& q1, double& s,
                       double& t) {
  const Vector3d d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.dot(d1), e = d2.dot(d2), f = d2.dot(r), c = d1.dot(r), b = d1.dot(d2);
  const double den = a * e - b * b;
  s = den > 0 ? std::clamp((b * f - c * e) / den, 0.0, 1.0) : 0.0;
  t = (b * s + f) / e;
  if (t < 0) t = 0, s = std::clamp(-c / a, 0.0, 1.0);
  else if (t > 1) t = 1, s = std::clamp((b - c) / a, 0.0, 1.0);
}

}  // namespace

void CollisionManager::detectEdgeContacts(const Collider& a, const Collider& b, const MeshIntersection& ajl) {
  const Geometry* ga = geometryOf(a);
  const Geometry* gb = geometryOf(b);
  if (!ga || !gb) return;
  const RigidTransform3d TAW = poseOf(a.rigid), TBW = poseOf(b.rigid);
  const TriangleBVTree *ta = ga->tree.get(), *tb = gb->tree.get();
  for (const EdgeCrossing& x : ajl.edgeCrossings) {
    // Edge ends (vA0, vA1) of A and (vB0, vB1) of B, whichever side was found passing.
    const bool aPasses = x.side == 0;
    const int vA0 = aPasses ? x.v0 : x.w0, vA1 = aPasses ? x.v1 : x.w1;
    const int vB0 = aPasses ? x.w0 : x.v0, vB1 = aPasses ? x.w1 : x.v1;
    const Vector3d a0 = TAW.transformPoint(ta->vertices()[vA0]), a1 = TAW.transformPoint(ta->vertices()[vA1]);
    const Vector3d b0 = TBW.transformPoint(tb->vertices()[vB0]), b1 = TBW.transformPoint(tb->vertices()[vB1]);
    double s, t;
    nearestOnSegments(a0, a1, b0, b1, s, t);
    const Vector3d pA = a0 + s * (a1 - a0), pB = b0 + t * (b1 - b0);
    Vector3d n = (a1 - a0).cross(b1 - b0);
    if (!(n.norm() > 0)) continue;
    n.normalize();
    // Out of the mesh whose edge is passed under: along its faces' outward
    // normals there (B's), or against them (A's).
    const Vector3d out = aPasses ? Vector3d(TBW.R * (tb->faceNormal(x.face0) + tb->faceNormal(x.face1)))
                                 : Vector3d(-(TAW.R * (ta->faceNormal(x.face0) + ta->faceNormal(x.face1))));
    if (n.dot(out) < 0) n = -n;
    const double depth = (pB - pA).dot(n);
    if (!(depth > 0)) continue;
    // Keyed apart from A's vertices (≥ 0): −2 − A's edge index.
    ContactPoint c = vertexContact(a, b, -2 - x.edgeA, pA);
    c.normal = n;
    c.depth = depth;
    if (a.mesh) addMasters(*a.mesh, vA0, 1 - s, c.nodesA), addMasters(*a.mesh, vA1, s, c.nodesA);
    if (b.mesh) addMasters(*b.mesh, vB0, 1 - t, c.nodesB), addMasters(*b.mesh, vB1, t, c.nodesB);
    myContacts.push_back(std::move(c));
  }
}

}  // namespace sinew
