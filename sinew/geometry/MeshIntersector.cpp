#include "sinew/geometry/MeshIntersector.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "sinew/geometry/RobustPredicates.h"
#include "sinew/math/UnionFind.h"

namespace sinew {

using Eigen::Matrix3d;
using Eigen::Vector3d;

Vector3d IntersectionContour::vectorArea() const {
  Vector3d s = Vector3d::Zero();
  const size_t n = points.size();
  for (size_t i = 0; i + 1 < n + (closed ? 1 : 0); ++i) s += points[i].cross(points[(i + 1) % n]);
  return 0.5 * s;
}

namespace {

/// Where an edge of one side's mesh passes through a face of the other.
struct Pierce {
  int side, edge, face;
  Vector3d point;
  double s;      ///< position along the edge, from its lower-numbered vertex (0) to the other (1)
  bool entering; ///< the edge goes from the face's front to its back
};

class Intersector {
 public:
  Intersector(const TriangleBVTree& a, const TriangleBVTree& b, const Matrix3d& R, const Vector3d& t)
      : myTree{&a, &b}, myVerts{&a.vertices(), &myMovedB}, myR(R) {
    myMovedB.reserve(b.vertices().size());
    for (const Vector3d& v : b.vertices()) myMovedB.push_back(R * v + t);
  }

  MeshIntersection run(const std::vector<std::pair<int, int>>& pairs) {
    myPierceIndex.reserve(64);
    for (const auto& [ta, tb] : pairs) addSegment(ta, tb);
    linkContours();
    for (int side = 0; side < 2; ++side) findRegions(side);
    for (int side = 0; side < 2; ++side) findEdgeCrossings(side);
    return std::move(myOut);
  }

 private:
  /// The pierce of `side`'s edge k of triangle `tri` through the other
  /// side's triangle `face`, or −1; each (edge, face) is decided once.
  int pierce(int side, int tri, int k, int face) {
    const TriangleBVTree& T = *myTree[side];
    const int edge = T.triangleEdgeIndex(tri, k);
    const auto key = (static_cast<uint64_t>(edge) << 33) | (static_cast<uint64_t>(face) << 1) | side;
    const auto [it, fresh] = myPierceIndex.emplace(key, -1);
    if (!fresh) return it->second;
    const int i0 = std::min(T.triangleVertexIndex(tri, k), T.triangleVertexIndex(tri, (k + 1) % 3));
    const int i1 = std::max(T.triangleVertexIndex(tri, k), T.triangleVertexIndex(tri, (k + 1) % 3));
    const Vector3d &e0 = (*myVerts[side])[i0], &e1 = (*myVerts[side])[i1];
    const TriangleBVTree& F = *myTree[1 - side];
    const auto& fv = *myVerts[1 - side];
    const Vector3d &f0 = fv[F.triangleVertexIndex(face, 0)], &f1 = fv[F.triangleVertexIndex(face, 1)],
                   &f2 = fv[F.triangleVertexIndex(face, 2)];
    bool entering;
    if (!edgePiercesTriangle(e0, e1, f0, f1, f2, side == 1, entering)) return -1;
    // The point itself is a construction, in floating point.
    const Vector3d n = (f1 - f0).cross(f2 - f0);
    const double d0 = n.dot(e0 - f0), d1 = n.dot(e1 - f0);
    const double s = d0 != d1 ? std::clamp(d0 / (d0 - d1), 0.0, 1.0) : 0.5;
    it->second = static_cast<int>(myPierces.size());
    myPierces.push_back({side, edge, face, e0 + s * (e1 - e0), s, entering});
    myEdgePierces[side][edge].push_back(it->second);
    myVertexOfEdge[side][edge] = {i0, i1};
    return it->second;
  }

  /// Whether the corners of `side`'s triangle `tri` lie strictly on one
  /// side of the other's triangle `face`: exact signs, which no
  /// perturbation changes, so most candidate pairs end here.
  bool oneSide(int side, int tri, int face) const {
    const TriangleBVTree &T = *myTree[side], &F = *myTree[1 - side];
    const auto &tv = *myVerts[side], &fv = *myVerts[1 - side];
    const Vector3d &f0 = fv[F.triangleVertexIndex(face, 0)], &f1 = fv[F.triangleVertexIndex(face, 1)],
                   &f2 = fv[F.triangleVertexIndex(face, 2)];
    const int s0 = orient3dSign(f0, f1, f2, tv[T.triangleVertexIndex(tri, 0)]);
    return s0 != 0 && orient3dSign(f0, f1, f2, tv[T.triangleVertexIndex(tri, 1)]) == s0 &&
           orient3dSign(f0, f1, f2, tv[T.triangleVertexIndex(tri, 2)]) == s0;
  }

  void addSegment(int ta, int tb) {
    if (oneSide(0, ta, tb) || oneSide(1, tb, ta)) return;
    int found[6], n = 0;
    for (int k = 0; k < 3; ++k)
      if (const int p = pierce(0, ta, k, tb); p >= 0) found[n++] = p;
    for (int k = 0; k < 3; ++k)
      if (const int p = pierce(1, tb, k, ta); p >= 0) found[n++] = p;
    // Exact predicates on one perturbed configuration: two triangles meet
    // in a segment with two ends, or not at all.
    if (n != 2) return;
    mySegs.push_back({found[0], found[1]});
    mySegFaces.emplace_back(ta, tb);
  }

  void linkContours() {
    std::vector<std::vector<int>> at(myPierces.size());
    for (size_t s = 0; s < mySegs.size(); ++s)
      for (int p : mySegs[s]) at[p].push_back(static_cast<int>(s));
    std::vector<char> used(mySegs.size(), 0);
    myContourOf.assign(myPierces.size(), -1);
    auto walk = [&](int start, int seg) {
      IntersectionContour c;
      int cur = start;
      c.points.push_back(myPierces[cur].point);
      myContourOf[cur] = static_cast<int>(myOut.contours.size());
      while (seg >= 0) {
        used[seg] = 1;
        c.faces.push_back(mySegFaces[seg]);
        cur = mySegs[seg][0] == cur ? mySegs[seg][1] : mySegs[seg][0];
        if (cur == start) break;
        c.points.push_back(myPierces[cur].point);
        myContourOf[cur] = static_cast<int>(myOut.contours.size());
        seg = -1;
        for (int s : at[cur])
          if (!used[s]) seg = s;
      }
      c.closed = cur == start && c.points.size() > 2;
      orient(c);
      myOut.contours.push_back(std::move(c));
    };
    // Open contours (at an open mesh's border) from their ends, then loops.
    for (size_t p = 0; p < at.size(); ++p)
      if (at[p].size() == 1 && !used[at[p][0]]) walk(static_cast<int>(p), at[p][0]);
    for (size_t s = 0; s < mySegs.size(); ++s)
      if (!used[s]) walk(mySegs[s][0], static_cast<int>(s));
    for (size_t s = 0; s < mySegs.size(); ++s) {
      const Vector3d &p = myPierces[mySegs[s][0]].point, &q = myPierces[mySegs[s][1]].point;
      myOut.crossings.push_back({mySegFaces[s].first, mySegFaces[s].second, p, q});
    }
  }

  /// Runs the contour along n_A × n_B, which makes it the boundary of the
  /// first mesh's region inside the second positively oriented about the
  /// first mesh's outward normal (its vector area is then ∫ n_A dA there).
  void orient(IntersectionContour& c) const {
    double along = 0;
    const size_t n = c.points.size();
    for (size_t i = 0; i < c.faces.size(); ++i) {
      const Vector3d dir = myTree[0]->faceNormal(c.faces[i].first).cross(myR * myTree[1]->faceNormal(c.faces[i].second));
      along += dir.dot(c.points[(i + 1) % n] - c.points[i]);
    }
    if (along >= 0) return;
    std::reverse(c.points.begin(), c.points.end());
    std::reverse(c.faces.begin(), c.faces.end());
    // Segment i joined points i and i + 1; reversed, faces[i] must join
    // the reversed points i and i + 1 again.
    if (c.closed) std::rotate(c.faces.begin(), c.faces.begin() + 1, c.faces.end());
  }

  /// Marks side's vertices inside the other mesh and groups contours into
  /// that side's regions: the inner end of each pierced edge is inside,
  /// and so is every vertex reached from it along edges nothing pierces.
  void findRegions(int side) {
    const TriangleBVTree& T = *myTree[side];
    const int nv = static_cast<int>(T.vertices().size());
    std::vector<int> label(nv, -1);  // a contour the vertex's region holds
    UnionFind uf(static_cast<int>(myOut.contours.size()));
    std::vector<int> queue;
    auto reach = [&](int v, int contour) {
      if (label[v] < 0) label[v] = contour, queue.push_back(v);
      else uf.join(label[v], contour);
    };
    for (auto& [edge, ids] : myEdgePierces[side]) {
      std::sort(ids.begin(), ids.end(), [&](int x, int y) { return myPierces[x].s < myPierces[y].s; });
      const auto [v0, v1] = myVertexOfEdge[side][edge];
      const Pierce &first = myPierces[ids.front()], &last = myPierces[ids.back()];
      if (!first.entering) reach(v0, myContourOf[ids.front()]);
      if (last.entering) reach(v1, myContourOf[ids.back()]);
    }
    for (size_t q = 0; q < queue.size(); ++q)
      for (const auto& [w, edge] : T.vertexEdges()[queue[q]])
        if (!myEdgePierces[side].count(edge)) reach(w, label[queue[q]]);
    myOut.inside[side].assign(nv, 0);
    std::vector<int> regionOf(myOut.contours.size(), -1);
    auto& regions = myOut.regions[side];
    auto regionFor = [&](int contour) -> MeshRegion& {
      int& r = regionOf[uf.find(contour)];
      if (r < 0) r = static_cast<int>(regions.size()), regions.emplace_back();
      return regions[r];
    };
    for (size_t c = 0; c < myOut.contours.size(); ++c) regionFor(static_cast<int>(c)).contours.push_back(static_cast<int>(c));
    for (int v : queue) {
      myOut.inside[side][v] = 1;
      regionFor(label[v]).vertices.push_back(v);
    }
    for (MeshRegion& r : regions) {
      Vector3d area = Vector3d::Zero();
      for (int c : r.contours) area += myOut.contours[c].vectorArea();
      r.area = area.norm();
      std::sort(r.vertices.begin(), r.vertices.end());
    }
  }

  /// Edges of `side` that enter the other mesh by one face and leave it by
  /// a face sharing an edge with the first (their pierces are sorted along
  /// the edge by findRegions).
  void findEdgeCrossings(int side) {
    const TriangleBVTree& F = *myTree[1 - side];
    for (const auto& [edge, ids] : myEdgePierces[side])
      for (size_t k = 0; k + 1 < ids.size(); ++k) {
        const Pierce &in = myPierces[ids[k]], &out = myPierces[ids[k + 1]];
        if (!in.entering || out.entering) continue;
        for (int i = 0; i < 3; ++i) {
          const int shared = F.triangleEdgeIndex(in.face, i);
          if (shared != F.triangleEdgeIndex(out.face, 0) && shared != F.triangleEdgeIndex(out.face, 1) &&
              shared != F.triangleEdgeIndex(out.face, 2))
            continue;
          const int edgeA = side == 0 ? edge : shared, edgeB = side == 0 ? shared : edge;
          if (!myEdgePairs.insert((static_cast<uint64_t>(edgeA) << 32) | static_cast<uint32_t>(edgeB)).second) break;
          const auto [v0, v1] = myVertexOfEdge[side].at(edge);
          myOut.edgeCrossings.push_back({side, edgeA, edgeB, v0, v1, F.triangleVertexIndex(in.face, i),
                                         F.triangleVertexIndex(in.face, (i + 1) % 3), in.face, out.face});
          break;
        }
      }
  }

  const TriangleBVTree* myTree[2];
  std::vector<Vector3d> myMovedB;  ///< the second mesh's vertices in the first's coordinates
  const std::vector<Vector3d>* myVerts[2];
  Matrix3d myR;
  std::unordered_map<uint64_t, int> myPierceIndex;
  std::vector<Pierce> myPierces;
  std::unordered_map<int, std::vector<int>> myEdgePierces[2];
  std::unordered_map<int, std::pair<int, int>> myVertexOfEdge[2];
  std::vector<std::array<int, 2>> mySegs;
  std::vector<std::pair<int, int>> mySegFaces;
  std::vector<int> myContourOf;
  std::unordered_set<uint64_t> myEdgePairs;  ///< (first mesh's edge, second's) of the edge crossings found
  MeshIntersection myOut;
};

}  // namespace

MeshIntersection intersectMeshes(const TriangleBVTree& a, const TriangleBVTree& b, const Matrix3d& R,
                                 const Vector3d& t) {
  std::vector<std::pair<int, int>> pairs;
  a.candidatePairs(b, R, t, pairs);
  return Intersector(a, b, R, t).run(pairs);
}

}  // namespace sinew
