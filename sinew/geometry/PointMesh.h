// PointMesh: a point cloud with no connectivity, optionally with one normal
// per point (Guide §2.5, §2.5.2; checklist ME-05).
//
// Normals are valid only while there is exactly one per vertex: adding a
// vertex without a normal invalidates them, matching the guide's rule that
// adding features clears attributes. Normals follow transforms (inverse
// transpose of the linear part, renormalized) so they stay perpendicular to
// a scaled surface.
#pragma once

#include <vector>

#include "sinew/geometry/MeshBase.h"

namespace sinew {

class PointMesh : public MeshBase {
 public:
  PointMesh() = default;
  PointMesh(const PointMesh&) = default;
  PointMesh& operator=(const PointMesh&) = default;
  PointMesh(PointMesh&&) = default;
  PointMesh& operator=(PointMesh&&) = default;

  std::unique_ptr<MeshBase> clone() const override;
  void clear() override;

  using MeshBase::addVertex;
  /// Adds a point together with its normal (keeps normals valid if they were).
  int addVertex(const Eigen::Vector3d& pos, const Eigen::Vector3d& nrml);

  /// True when there is one normal per vertex.
  bool hasNormals() const;
  /// Sets one normal per vertex; throws ModelError on a size mismatch.
  void setNormals(const std::vector<Eigen::Vector3d>& nrmls);
  const std::vector<Eigen::Vector3d>& getNormals() const { return myNormals; }
  const Eigen::Vector3d& getNormal(int idx) const;
  void clearNormals() { myNormals.clear(); }

 protected:
  void transformAttributes(const Eigen::Matrix3d& linear) override;
  bool vertexInUse(int /*idx*/) const override { return false; }
  void vertexRemoved(int idx) override;

 private:
  std::vector<Eigen::Vector3d> myNormals;
};

}  // namespace sinew
