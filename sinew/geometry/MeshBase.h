// MeshBase: the vertex store shared by every mesh kind (Guide §2.5, §2.5.1).
//
// A mesh is a list of vertex positions plus, in subclasses, the topology that
// connects them (faces, polylines, or nothing for point clouds). A vertex's
// index is always its position in the list, so callers can keep parallel
// arrays of per-vertex data. Transforms and scaling act on the positions;
// subclasses adjust their own attributes (e.g. point normals) through a hook.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <memory>
#include <vector>

namespace sinew {

class MeshBase {
 public:
  virtual ~MeshBase() = default;

  /// Deep copy keeping the dynamic type (PolygonalMesh, PolylineMesh, PointMesh).
  virtual std::unique_ptr<MeshBase> clone() const = 0;

  int numVertices() const { return static_cast<int>(myVertices.size()); }
  const Eigen::Vector3d& getVertex(int idx) const;
  void setVertex(int idx, const Eigen::Vector3d& pos);
  const std::vector<Eigen::Vector3d>& getVertices() const { return myVertices; }

  /// Appends a vertex and returns its index.
  int addVertex(const Eigen::Vector3d& pos);
  int addVertex(double x, double y, double z) { return addVertex(Eigen::Vector3d(x, y, z)); }

  /// Removes an unreferenced vertex; later vertices shift down by one and the
  /// topology is renumbered. Throws ModelError if a feature still uses it.
  void removeVertex(int idx);

  /// Removes all vertices and topology.
  virtual void clear();

  /// Applies a rigid transform (rotation then translation) to every vertex.
  void transform(const Eigen::Isometry3d& X);
  /// Applies a general affine transform to every vertex.
  void transform(const Eigen::Affine3d& X);
  void scale(double s) { scale(s, s, s); }
  void scale(double sx, double sy, double sz);
  void translate(const Eigen::Vector3d& offset);

  /// Average of the vertex positions (not the centre of volume).
  Eigen::Vector3d computeCentroid() const;
  /// Axis-aligned box around all vertices (empty box for an empty mesh).
  Eigen::AlignedBox3d computeBounds() const;

 protected:
  MeshBase() = default;
  MeshBase(const MeshBase&) = default;
  MeshBase& operator=(const MeshBase&) = default;

  /// Lets subclasses update direction-like attributes under a linear map.
  virtual void transformAttributes(const Eigen::Matrix3d& /*linear*/) {}
  /// True if some feature refers to vertex idx.
  virtual bool vertexInUse(int idx) const = 0;
  /// Renumbers feature indices after vertex idx was removed.
  virtual void vertexRemoved(int idx) = 0;

  void checkVertexIndex(int idx) const;

  std::vector<Eigen::Vector3d> myVertices;
};

}  // namespace sinew
