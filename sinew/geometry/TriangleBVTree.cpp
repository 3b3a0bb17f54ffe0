#include "sinew/geometry/TriangleBVTree.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "sinew/Error.h"
#include "sinew/geometry/TriangleIntersection.h"

namespace sinew {

using Eigen::Vector3d;

namespace {

/// The feature of a triangle nearest to a point: a vertex (0–2), an edge
/// (3: v0v1, 4: v1v2, 5: v2v0) or the face (6). Ericson, Real-Time
/// Collision Detection §5.1.5, keeping track of the Voronoi region.
int closestPointOnTriangle(const Vector3d& p, const Vector3d& a, const Vector3d& b, const Vector3d& c,
                           Vector3d& q) {
  const Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return q = a, 0;
  const Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return q = b, 1;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return q = a + (d1 / (d1 - d3)) * ab, 3;
  const Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return q = c, 2;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return q = a + (d2 / (d2 - d6)) * ac, 5;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return q = b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b), 4;
  const double denom = 1 / (va + vb + vc);
  q = a + ab * (vb * denom) + ac * (vc * denom);
  return 6;
}

double boxDistanceSq(const Eigen::AlignedBox3d& box, const Vector3d& p) {
  return (p - p.cwiseMax(box.min()).cwiseMin(box.max())).squaredNorm();
}

}  // namespace

TriangleBVTree::TriangleBVTree(const PolygonalMesh& mesh, bool allowOpen) {
  if (mesh.numFaces() == 0) throw ModelError("collision mesh has no faces");
  myClosed = mesh.isClosed();
  if (!myClosed && !allowOpen)
    throw ModelError("collision mesh is not closed and consistently oriented: signed distances need an inside");
  for (int i = 0; i < mesh.numVertices(); ++i) myVerts.push_back(mesh.getVertex(i));
  myNumFaces = mesh.numFaces();
  std::map<std::pair<int, int>, int> edges;
  int numEdges = 0;
  auto edgeIndex = [&](int i, int j) { return edges.emplace(std::minmax(i, j), numEdges).first->second; };
  for (const auto& f : mesh.getFaces())
    for (size_t k = 1; k + 1 < f.size(); ++k) {
      Tri t{{f[0], f[k], f[k + 1]}, {}};
      const Vector3d &a = myVerts[t.v[0]], &b = myVerts[t.v[1]], &c = myVerts[t.v[2]];
      if (!((b - a).cross(c - a).norm() > 0)) continue;  // a degenerate fan triangle has no nearest interior
      for (int e = 0; e < 3; ++e) {
        t.edge[e] = edgeIndex(t.v[e], t.v[(e + 1) % 3]);
        if (t.edge[e] == numEdges) ++numEdges;
      }
      myTris.push_back(t);
    }
  if (myTris.empty()) throw ModelError("collision mesh has only degenerate faces");
  myEdgeNormals.resize(numEdges);
  myVertexEdges.resize(myVerts.size());
  for (const auto& [ends, e] : edges) {
    myVertexEdges[ends.first].push_back({ends.second, e});
    myVertexEdges[ends.second].push_back({ends.first, e});
  }
  computeNormals();
  for (const Tri& t : myTris) myCentroids.push_back((myVerts[t.v[0]] + myVerts[t.v[1]] + myVerts[t.v[2]]) / 3);
  myOrder.resize(myTris.size());
  for (size_t i = 0; i < myOrder.size(); ++i) myOrder[i] = static_cast<int>(i);
  myNodes.reserve(2 * myTris.size());
  build(0, static_cast<int>(myTris.size()));
}

void TriangleBVTree::computeNormals() {
  myFaceNormals.resize(myTris.size());
  myVertexNormals.assign(myVerts.size(), Vector3d::Zero());
  std::fill(myEdgeNormals.begin(), myEdgeNormals.end(), Vector3d::Zero());
  for (size_t i = 0; i < myTris.size(); ++i) {
    const Tri& t = myTris[i];
    const Vector3d n = (myVerts[t.v[1]] - myVerts[t.v[0]]).cross(myVerts[t.v[2]] - myVerts[t.v[0]]);
    // A triangle squeezed flat by a deformation keeps its last normal.
    if (n.norm() > 0) myFaceNormals[i] = n.normalized();
    for (int e = 0; e < 3; ++e) {
      myEdgeNormals[t.edge[e]] += myFaceNormals[i];
      // Angle-weighted vertex normal: the triangle's angle at the vertex.
      const Vector3d& p = myVerts[t.v[e]];
      const Vector3d u = (myVerts[t.v[(e + 1) % 3]] - p).normalized(), w = (myVerts[t.v[(e + 2) % 3]] - p).normalized();
      if (u.allFinite() && w.allFinite())
        myVertexNormals[t.v[e]] += std::acos(std::clamp(u.dot(w), -1.0, 1.0)) * myFaceNormals[i];
    }
  }
}

bool TriangleBVTree::refit(const PolygonalMesh& mesh) {
  if (mesh.numVertices() != static_cast<int>(myVerts.size()) || mesh.numFaces() != myNumFaces) return false;
  for (size_t i = 0; i < myVerts.size(); ++i) myVerts[i] = mesh.getVertex(static_cast<int>(i));
  computeNormals();
  // Children follow their parent in myNodes (build is pre-order), so a
  // backward pass meets both children of a node before the node.
  for (int i = static_cast<int>(myNodes.size()) - 1; i >= 0; --i) {
    Node& nd = myNodes[i];
    if (nd.left >= 0) {
      nd.box = myNodes[nd.left].box.merged(myNodes[nd.right].box);
      continue;
    }
    nd.box.setEmpty();
    for (int k = nd.first; k < nd.first + nd.count; ++k)
      for (int v : myTris[myOrder[k]].v) nd.box.extend(myVerts[v]);
  }
  return true;
}

int TriangleBVTree::build(int first, int count) {
  const int idx = static_cast<int>(myNodes.size());
  myNodes.emplace_back();
  Eigen::AlignedBox3d box, cbox;
  for (int k = first; k < first + count; ++k) {
    const Tri& t = myTris[myOrder[k]];
    for (int v : t.v) box.extend(myVerts[v]);
    cbox.extend(myCentroids[myOrder[k]]);
  }
  myNodes[idx].box = box;
  if (count <= 4) {
    myNodes[idx].first = first;
    myNodes[idx].count = count;
    return idx;
  }
  // Median split of the centroids along the box's longest side.
  int axis;
  cbox.sizes().maxCoeff(&axis);
  const int mid = first + count / 2;
  std::nth_element(myOrder.begin() + first, myOrder.begin() + mid, myOrder.begin() + first + count,
                   [&](int a, int b) { return myCentroids[a][axis] < myCentroids[b][axis]; });
  const int left = build(first, mid - first);
  const int right = build(mid, first + count - mid);
  myNodes[idx].left = left;
  myNodes[idx].right = right;
  return idx;
}

void TriangleBVTree::search(int node, const Vector3d& p, Nearest& best, double& bestSq) const {
  const Node& nd = myNodes[node];
  if (nd.left < 0) {
    Vector3d q;
    for (int k = nd.first; k < nd.first + nd.count; ++k) {
      const int ti = myOrder[k];
      const Tri& t = myTris[ti];
      const int feature = closestPointOnTriangle(p, myVerts[t.v[0]], myVerts[t.v[1]], myVerts[t.v[2]], q);
      const double dsq = (p - q).squaredNorm();
      if (dsq < bestSq) {
        bestSq = dsq;
        best.point = q;
        best.triangle = ti;
        best.normal = feature < 3 ? myVertexNormals[t.v[feature]]
                      : feature < 6 ? myEdgeNormals[t.edge[feature - 3]]
                                    : myFaceNormals[ti];
      }
    }
    return;
  }
  // Nearer child first, so the farther one is usually pruned.
  double dl = boxDistanceSq(myNodes[nd.left].box, p), dr = boxDistanceSq(myNodes[nd.right].box, p);
  int a = nd.left, b = nd.right;
  if (dr < dl) std::swap(a, b), std::swap(dl, dr);
  if (dl < bestSq) search(a, p, best, bestSq);
  if (dr < bestSq) search(b, p, best, bestSq);
}

void TriangleBVTree::collect(int node, const Vector3d& p, double radiusSq, std::vector<int>& out) const {
  const Node& nd = myNodes[node];
  if (boxDistanceSq(nd.box, p) > radiusSq) return;
  if (nd.left >= 0) {
    collect(nd.left, p, radiusSq, out);
    collect(nd.right, p, radiusSq, out);
    return;
  }
  Vector3d q;
  for (int k = nd.first; k < nd.first + nd.count; ++k) {
    const Tri& t = myTris[myOrder[k]];
    closestPointOnTriangle(p, myVerts[t.v[0]], myVerts[t.v[1]], myVerts[t.v[2]], q);
    if ((p - q).squaredNorm() <= radiusSq) out.push_back(myOrder[k]);
  }
}

struct TriangleBVTree::PairQuery {
  const TriangleBVTree& other;
  Eigen::Matrix3d R, absR;
  Vector3d t;
  PairQuery(const TriangleBVTree& o, const Eigen::Matrix3d& R_, const Vector3d& t_)
      : other(o), R(R_), absR(R_.cwiseAbs()), t(t_) {}
  /// Whether a box of this tree and one of the other's overlap, tested in
  /// both trees' axes: each box against the other turned into its axes and
  /// boxed again (two of the separating-axis test's fifteen axes sets, which
  /// prune most of what boxing a turned box adds).
  bool overlap(const Eigen::AlignedBox3d& a, const Eigen::AlignedBox3d& b) const {
    const Vector3d cb = R * b.center() + t, eb = absR * (0.5 * b.sizes());
    if (((cb - a.center()).cwiseAbs() - eb - 0.5 * a.sizes()).maxCoeff() > 0) return false;
    const Vector3d ca = R.transpose() * (a.center() - t), ea = absR.transpose() * (0.5 * a.sizes());
    return ((ca - b.center()).cwiseAbs() - ea - 0.5 * b.sizes()).maxCoeff() <= 0;
  }
};

template <class F>
void TriangleBVTree::overlappingLeaves(int node, int otherNode, const PairQuery& q, F&& leaf) const {
  const Node& a = myNodes[node];
  const Node& b = q.other.myNodes[otherNode];
  if (!q.overlap(a.box, b.box)) return;
  const bool aLeaf = a.left < 0, bLeaf = b.left < 0;
  if (aLeaf && bLeaf) return leaf(a, b);
  // Descend into the larger box (by volume) unless it is a leaf.
  if (bLeaf || (!aLeaf && a.box.volume() >= b.box.volume())) {
    overlappingLeaves(a.left, otherNode, q, leaf);
    overlappingLeaves(a.right, otherNode, q, leaf);
  } else {
    overlappingLeaves(node, b.left, q, leaf);
    overlappingLeaves(node, b.right, q, leaf);
  }
}

namespace {
/// Scratch of crossings(): the other tree's vertices mapped into this
/// tree's coordinates, and both trees' triangle normals and boxes, each
/// computed the first time a leaf pair needs it in a query (stamped with
/// the query's number): a triangle meets several leaves of the other tree,
/// and every triangle of its leaf.
struct CrossingScratch {
  struct Tri {
    Vector3d normal, lo, hi;  ///< as intersectTriangles takes it; its box
  };
  unsigned query = 0;
  std::vector<unsigned> vertexStamp, otherStamp, ownStamp;
  std::vector<Vector3d> vertices;
  std::vector<Tri> other, own;
};

template <class T>
void fit(std::vector<unsigned>& stamps, std::vector<T>& values, size_t n) {
  if (stamps.size() < n) stamps.resize(n, 0), values.resize(n);
}

void describe(CrossingScratch::Tri& t, const Vector3d& a, const Vector3d& b, const Vector3d& c) {
  t.normal = triangleNormal(a, b, c);
  t.lo = a.cwiseMin(b).cwiseMin(c);
  t.hi = a.cwiseMax(b).cwiseMax(c);
}
}  // namespace

void TriangleBVTree::crossings(const TriangleBVTree& other, const Eigen::Matrix3d& R, const Vector3d& t,
                               std::vector<Crossing>& out) const {
  if (myNodes.empty() || other.myNodes.empty()) return;
  thread_local CrossingScratch s;
  if (++s.query == 0) {  // the stamps wrapped around: none may match
    for (auto* v : {&s.vertexStamp, &s.otherStamp, &s.ownStamp}) std::fill(v->begin(), v->end(), 0u);
    s.query = 1;
  }
  fit(s.vertexStamp, s.vertices, other.myVerts.size());
  fit(s.otherStamp, s.other, other.myTris.size());
  fit(s.ownStamp, s.own, myTris.size());
  auto vertex = [&](int v) -> const Vector3d& {
    if (s.vertexStamp[v] != s.query) s.vertexStamp[v] = s.query, s.vertices[v] = R * other.myVerts[v] + t;
    return s.vertices[v];
  };
  // Two triangles whose boxes are apart cannot cross. The boxes are grown
  // by far more than the round-off of intersectTriangles' crossing points
  // (relative to the coordinates' size, which a mesh far from its origin
  // sets, not its extent), so that no crossing it would find is skipped.
  auto extent = [](const Eigen::AlignedBox3d& b) {
    return b.diagonal().norm() + std::max(b.min().cwiseAbs().maxCoeff(), b.max().cwiseAbs().maxCoeff());
  };
  const double grow = 1e-9 * (extent(bounds()) + extent(other.bounds()) + t.norm());
  const PairQuery q(other, R, t);
  overlappingLeaves(0, 0, q, [&](const Node& a, const Node& b) {
    Vector3d p, r;
    for (int j = b.first; j < b.first + b.count; ++j) {
      const int tb = other.myOrder[j];
      const Tri& T = other.myTris[tb];
      const Vector3d &u0 = vertex(T.v[0]), &u1 = vertex(T.v[1]), &u2 = vertex(T.v[2]);
      CrossingScratch::Tri& B = s.other[tb];
      if (s.otherStamp[tb] != s.query) {
        s.otherStamp[tb] = s.query;
        describe(B, u0, u1, u2);
        B.lo.array() -= grow;
        B.hi.array() += grow;
      }
      for (int i = a.first; i < a.first + a.count; ++i) {
        const int ta = myOrder[i];
        const Tri& TA = myTris[ta];
        const Vector3d &a0 = myVerts[TA.v[0]], &a1 = myVerts[TA.v[1]], &a2 = myVerts[TA.v[2]];
        CrossingScratch::Tri& A = s.own[ta];
        if (s.ownStamp[ta] != s.query) s.ownStamp[ta] = s.query, describe(A, a0, a1, a2);
        if ((A.lo.array() > B.hi.array()).any() || (B.lo.array() > A.hi.array()).any()) continue;
        if (intersectTriangles(a0, a1, a2, A.normal, u0, u1, u2, B.normal, p, r)) out.push_back({ta, tb, p, r});
      }
    }
  });
}

void TriangleBVTree::candidatePairs(const TriangleBVTree& other, const Eigen::Matrix3d& R, const Vector3d& t,
                                    std::vector<std::pair<int, int>>& out) const {
  if (myNodes.empty() || other.myNodes.empty()) return;
  const PairQuery q(other, R, t);
  overlappingLeaves(0, 0, q, [&](const Node& a, const Node& b) {
    for (int j = b.first; j < b.first + b.count; ++j)
      for (int i = a.first; i < a.first + a.count; ++i) out.emplace_back(myOrder[i], other.myOrder[j]);
  });
}

void TriangleBVTree::trianglesWithin(const Vector3d& p, double radius, std::vector<int>& out) const {
  collect(0, p, radius * radius, out);
}

TriangleBVTree::Nearest TriangleBVTree::nearest(const Vector3d& p) const {
  Nearest best;
  double bestSq = std::numeric_limits<double>::infinity();
  search(0, p, best, bestSq);
  best.normal.normalize();
  const double d = std::sqrt(bestSq);
  best.distance = (p - best.point).dot(best.normal) < 0 ? -d : d;
  return best;
}

bool TriangleBVTree::within(const Vector3d& p, double margin, Nearest& n) const {
  if (margin > 0 ? bounds().exteriorDistance(p) >= margin : !bounds().contains(p)) return false;
  n = nearest(p);
  return n.distance < margin;
}

}  // namespace sinew
