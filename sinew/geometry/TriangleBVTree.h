// TriangleBVTree: an axis-aligned bounding-box hierarchy over the triangles
// of a closed polygonal mesh, answering the nearest-point and signed-distance
// queries of vertex-penetration contact (guide §8.4.1.2: "the distance to the
// opposing mesh", the normal "toward the nearest point"; §8.4.2's
// bounding-box hierarchy).
//
// The tree is built once in the mesh's own coordinates; a rigid body's mesh
// never changes there, so contact queries transform the point instead of
// the tree. A deforming (FEM) mesh's tree is refitted to its moved
// vertices instead of rebuilt. Inside and outside come from the angle-weighted pseudo-normal of
// the nearest feature (face, edge or vertex; Bærentzen and Aanæs 2005),
// which is exact for a closed, consistently oriented mesh.
#pragma once

#include <Eigen/Geometry>
#include <vector>

#include "sinew/geometry/PolygonalMesh.h"

namespace sinew {

class TriangleBVTree {
 public:
  /// Builds the tree over the fan triangles of `mesh`. Throws ModelError if
  /// the mesh has no faces or, unless `allowOpen`, is not closed and
  /// consistently oriented (signed distances need an inside). The tree of
  /// an open mesh (a sheet of shell elements) answers nearest points,
  /// normals and crossings, but its signs mean nothing: isClosed() says so.
  explicit TriangleBVTree(const PolygonalMesh& mesh, bool allowOpen = false);
  /// Whether the mesh had an inside (signed distances are meaningful).
  bool isClosed() const { return myClosed; }
  /// Refits the tree to `mesh`, the mesh it was built from with its
  /// vertices moved (an FEM surface after a step): the same triangles and
  /// hierarchy, with the boxes and pseudo-normals recomputed bottom-up in
  /// O(n) (§8.4.2: a deforming mesh's hierarchy is refitted, not rebuilt).
  /// Queries stay exact; the boxes only grow looser as the mesh departs
  /// from its shape at build. Returns false, changing nothing, if the
  /// vertex or face count differs (a different mesh: build a new tree).
  bool refit(const PolygonalMesh& mesh);

  struct Nearest {
    Eigen::Vector3d point;   ///< nearest point on the surface
    Eigen::Vector3d normal;  ///< unit outward pseudo-normal there
    double distance = 0;     ///< signed: negative inside the mesh
    int triangle = -1;
  };
  /// The nearest surface point to p and its signed distance.
  Nearest nearest(const Eigen::Vector3d& p) const;
  /// True if p is inside the mesh (signed distance < 0); fills `n` with the
  /// nearest point when it is. Points outside the root box return at once.
  bool inside(const Eigen::Vector3d& p, Nearest& n) const { return within(p, 0, n); }
  /// True if p's signed distance is below `margin` (inside, or outside by
  /// less than it); fills `n` when it is. Points farther than `margin` from
  /// the root box return at once.
  bool within(const Eigen::Vector3d& p, double margin, Nearest& n) const;

  /// A crossing of this tree's triangle `tri` with the other tree's
  /// `otherTri`, along the segment p–q (in this tree's coordinates).
  struct Crossing {
    int tri, otherTri;
    Eigen::Vector3d p, q;
  };
  /// Appends every crossing of this tree's triangles with those of `other`,
  /// whose coordinates map into this tree's by x ↦ R x + t (the
  /// TRI_INTERSECTION collider, §8.4.2): box-overlap descent of both
  /// hierarchies (two boxes overlap when each overlaps the other turned
  /// into its axes and boxed again), then intersectTriangles on the leaf
  /// pairs' triangles whose own boxes meet (grown by 1e-9 of the
  /// coordinates' size: the pairs it skips cannot cross). Each query maps
  /// the other tree's vertices and computes both trees' triangle normals
  /// once, in a scratch kept per thread (it grows to the largest meshes
  /// queried).
  void crossings(const TriangleBVTree& other, const Eigen::Matrix3d& R, const Eigen::Vector3d& t,
                 std::vector<Crossing>& out) const;
  /// Appends the pairs (this tree's triangle, other's triangle) whose
  /// leaves' boxes overlap, the other tree mapped as for crossings(): the
  /// candidates an exact test (the AJL_CONTOUR collider) then decides.
  void candidatePairs(const TriangleBVTree& other, const Eigen::Matrix3d& R, const Eigen::Vector3d& t,
                      std::vector<std::pair<int, int>>& out) const;

  /// Appends to `out` the triangles within distance `radius` of p.
  void trianglesWithin(const Eigen::Vector3d& p, double radius, std::vector<int>& out) const;
  const Eigen::Vector3d& faceNormal(int tri) const { return myFaceNormals[tri]; }
  /// A corner of triangle `tri` (k = 0, 1, 2).
  const Eigen::Vector3d& triangleVertex(int tri, int k) const { return myVerts[myTris[tri].v[k]]; }
  /// The mesh vertex at corner k of triangle `tri`.
  int triangleVertexIndex(int tri, int k) const { return myTris[tri].v[k]; }
  /// The edge of triangle `tri` from corner k to corner k + 1, numbered
  /// over the mesh's triangles (fan diagonals included).
  int triangleEdgeIndex(int tri, int k) const { return myTris[tri].edge[k]; }
  /// The mesh's vertices, in the tree's coordinates.
  const std::vector<Eigen::Vector3d>& vertices() const { return myVerts; }
  /// An edge at a vertex: the vertex at its other end and the edge's index.
  struct EdgeRef {
    int vertex, edge;
  };
  /// The edges at each mesh vertex.
  const std::vector<std::vector<EdgeRef>>& vertexEdges() const { return myVertexEdges; }
  /// The unit angle-weighted pseudo-normal at mesh vertex v.
  Eigen::Vector3d vertexNormal(int v) const { return myVertexNormals[v].normalized(); }

  const Eigen::AlignedBox3d& bounds() const { return myNodes.front().box; }
  int numTriangles() const { return static_cast<int>(myTris.size()); }

 private:
  struct Tri {
    int v[3];
    int edge[3];  ///< pseudo-normal index of edges (v0v1, v1v2, v2v0)
  };
  struct Node {
    Eigen::AlignedBox3d box;
    int left = -1, right = -1;  ///< children; -1 for a leaf
    int first = 0, count = 0;   ///< leaf: range in myOrder
  };
  int build(int first, int count);
  /// Face, edge and angle-weighted vertex pseudo-normals from myVerts.
  void computeNormals();
  void search(int node, const Eigen::Vector3d& p, Nearest& best, double& bestSq) const;
  void collect(int node, const Eigen::Vector3d& p, double radiusSq, std::vector<int>& out) const;
  struct PairQuery;
  /// Calls leaf(aNode, bNode) for each pair of leaves whose boxes overlap.
  template <class F>
  void overlappingLeaves(int node, int otherNode, const PairQuery& q, F&& leaf) const;

  std::vector<Eigen::Vector3d> myVerts, myVertexNormals, myEdgeNormals, myFaceNormals;
  std::vector<Tri> myTris;
  std::vector<std::vector<EdgeRef>> myVertexEdges;
  std::vector<int> myOrder;
  std::vector<Eigen::Vector3d> myCentroids;
  std::vector<Node> myNodes;
  int myNumFaces = 0;  ///< of the mesh it was built from
  bool myClosed = true;
};

}  // namespace sinew
