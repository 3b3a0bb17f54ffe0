// PolygonalMesh: a surface mesh of polygonal faces (Guide §2.5, §2.5.1;
// checklist ME-02, ME-03, ME-22).
//
// Each face is a list of vertex indices in counter-clockwise order seen from
// the outside, so the right-hand rule gives the outward normal. Faces are kept
// as plain index lists: the queries needed here (closedness, normals, area,
// volume) only need edges, which are derived on demand. Volume and centre of
// volume use the divergence theorem and assume a closed, outward-oriented
// surface; polygons are treated as fans of triangles, as triangulate() makes.
#pragma once

#include <vector>

#include "sinew/geometry/MeshBase.h"

namespace sinew {

class PolygonalMesh : public MeshBase {
 public:
  PolygonalMesh() = default;
  PolygonalMesh(const PolygonalMesh&) = default;
  PolygonalMesh& operator=(const PolygonalMesh&) = default;
  PolygonalMesh(PolygonalMesh&&) = default;
  PolygonalMesh& operator=(PolygonalMesh&&) = default;

  std::unique_ptr<MeshBase> clone() const override;
  void clear() override;

  /// Adds a face from >= 3 existing vertex indices in CCW (outward) order;
  /// returns the face index. Throws ModelError on bad or repeated indices.
  int addFace(const std::vector<int>& vidxs);
  int numFaces() const { return static_cast<int>(myFaces.size()); }
  const std::vector<int>& getFace(int fidx) const;
  const std::vector<std::vector<int>>& getFaces() const { return myFaces; }
  void removeFace(int fidx);

  /// Appends the vertices and faces of another mesh (no merging, no CSG).
  void addMesh(const PolygonalMesh& other);

  bool isTriangular() const;
  /// Splits every polygon into a fan of triangles about its first vertex
  /// (exact for the convex faces the factories make).
  void triangulate();
  /// True if every edge is used by exactly two faces, once in each direction,
  /// i.e. the surface is closed and consistently oriented.
  bool isClosed() const;

  /// Unit outward normal of a face (Newell's method, robust for slightly
  /// non-planar polygons); zero for a degenerate face.
  Eigen::Vector3d computeFaceNormal(int fidx) const;
  double computeFaceArea(int fidx) const;
  /// Per-vertex unit normals, averaged from adjacent faces weighted by area.
  std::vector<Eigen::Vector3d> computeVertexNormals() const;

  double computeArea() const;
  /// Enclosed volume; positive for a closed outward-oriented mesh.
  double computeVolume() const;
  /// Centre of the enclosed volume (uniform density).
  Eigen::Vector3d computeCentroidOfVolume() const;
  /// Moves the vertices so the centre of volume is at the origin; returns the
  /// old centre (the amount the mesh was moved by, negated).
  Eigen::Vector3d translateToCenterOfVolume();

  /// Distance from p to the nearest point of the surface (guide §6.4.5),
  /// inside or outside. Tests every triangle of the fan decomposition, so
  /// it costs O(faces): meant for setting models up (choosing nodes to
  /// attach, checking meshes), not for inner loops.
  double distanceToPoint(const Eigen::Vector3d& p) const;
  /// Whether p is inside the surface (guide §6.4.5): its winding number,
  /// the solid angles of the triangles seen from p summed over 4π, exceeds
  /// ½. Exact (1 or 0 up to round-off) for a closed outward-oriented mesh;
  /// for a mesh with small holes it degrades gracefully. O(faces), like
  /// distanceToPoint; a point on the surface may go either way.
  bool pointIsInside(const Eigen::Vector3d& p) const;
  /// The winding number itself.
  double windingNumber(const Eigen::Vector3d& p) const;

  /// Calls fn(a, b, c) for each triangle of the fan decomposition.
  template <class Fn>
  void forEachTriangle(Fn&& fn) const {
    for (const auto& f : myFaces) {
      for (size_t k = 1; k + 1 < f.size(); ++k) {
        fn(myVertices[f[0]], myVertices[f[k]], myVertices[f[k + 1]]);
      }
    }
  }

 protected:
  bool vertexInUse(int idx) const override;
  void vertexRemoved(int idx) override;

 private:
  std::vector<std::vector<int>> myFaces;
};

/// The point of triangle (a, b, c) nearest to p (a vertex, an edge point or
/// an interior point).
Eigen::Vector3d nearestPointOnTriangle(const Eigen::Vector3d& p, const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                       const Eigen::Vector3d& c);

}  // namespace sinew
