// The intersection of two triangle meshes as contours and penetration
// regions (guide §8.4.2, the AJL_CONTOUR collider; ArtiSynth's
// SurfaceMeshIntersector): the bounding-box hierarchies give the candidate
// triangle pairs; each edge of one mesh is tested against each candidate
// triangle of the other with the robust predicates of RobustPredicates.h;
// the points where edges pierce faces are joined into piecewise-linear
// contours, closed for closed meshes; and the contours bound the
// penetration regions on each mesh, whose vertices are the mesh's vertices
// inside the other — found by walking the mesh from the inner end of each
// pierced edge along edges no face pierces, not by point-in-mesh queries.
//
// Because the predicates are exact and every degenerate case (a vertex on
// a face, an edge across an edge, coplanar faces) is decided by one
// symbolic perturbation of the second mesh, two triangles meet in a
// segment with exactly two pierce points or not at all, and each pierce
// point is shared by the two segments on either side of its edge: contours
// cannot break.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "sinew/geometry/TriangleBVTree.h"

namespace sinew {

/// One intersection contour, in the first mesh's coordinates.
struct IntersectionContour {
  std::vector<Eigen::Vector3d> points;
  /// The triangles (first mesh, second mesh) of segment i, points[i] to
  /// points[i + 1] (the last one back to points[0] when closed).
  std::vector<std::pair<int, int>> faces;
  bool closed = true;
  /// ½ Σ pᵢ × pᵢ₊₁: for a closed contour, the vector area of any surface
  /// it bounds, whose norm is the area of its projection on the plane
  /// normal to it (the contact area of a flat region).
  Eigen::Vector3d vectorArea() const;
};

/// A penetration region on one mesh (§8.8.1): the vertices of that mesh
/// inside the other, and the contours that bound them.
struct MeshRegion {
  std::vector<int> contours;  ///< indices into MeshIntersection::contours
  std::vector<int> vertices;  ///< mesh vertices inside the other mesh
  double area = 0;            ///< |Σ vector areas of its contours|
};

/// An edge of one mesh that passes through the other, entering by one face
/// and leaving by the next across that mesh's edge `otherEdge`, with both
/// its ends outside: an edge–edge contact (VERTEX_EDGE_PENETRATION, §8.4.1.3).
struct EdgeCrossing {
  int side;          ///< whose edge passes through (0: the first mesh's)
  int edgeA, edgeB;  ///< the two edges' indices in the first and the second mesh's tree
  int v0, v1;        ///< its vertices, in its mesh
  int w0, w1;        ///< the vertices of the other mesh's edge it passes under
  int face0, face1;  ///< the other mesh's faces it enters and leaves by
};

struct MeshIntersection {
  std::vector<IntersectionContour> contours;
  /// One per contour segment, as TriangleBVTree::crossings gives them.
  std::vector<TriangleBVTree::Crossing> crossings;
  /// Per side (0: the first mesh, 1: the second), vertex flags: inside the
  /// other mesh.
  std::vector<char> inside[2];
  /// Per side, its penetration regions.
  std::vector<MeshRegion> regions[2];
  /// Per side, by vertex: an inside vertex's nearest point on the other
  /// mesh, in that mesh's tree coordinates. Left empty here; a caller that
  /// queries the depths once (CollisionManager::intersectPair) keeps them
  /// for its later uses.
  std::vector<TriangleBVTree::Nearest> nearest[2];
  /// Edge–edge crossings, each pair of edges once (found from either side).
  std::vector<EdgeCrossing> edgeCrossings;
};

/// Intersects the meshes of trees a and b, where x ↦ R x + t maps b's
/// coordinates into a's. Both meshes should be closed: an open mesh's
/// contours end at its border (open contours), and its regions there are
/// not meaningful. Triangles of zero area (which the trees leave out) pierce
/// nothing. Candidate pairs whose corners lie strictly on one side of the
/// other's plane are dropped by three exact orientation tests first.
MeshIntersection intersectMeshes(const TriangleBVTree& a, const TriangleBVTree& b, const Eigen::Matrix3d& R,
                                 const Eigen::Vector3d& t);

}  // namespace sinew
