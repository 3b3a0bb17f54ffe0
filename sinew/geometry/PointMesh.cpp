#include "sinew/geometry/PointMesh.h"

#include <Eigen/LU>
#include <string>

#include "sinew/Error.h"

namespace sinew {

std::unique_ptr<MeshBase> PointMesh::clone() const {
  return std::make_unique<PointMesh>(*this);
}

void PointMesh::clear() {
  MeshBase::clear();
  myNormals.clear();
}

int PointMesh::addVertex(const Eigen::Vector3d& pos, const Eigen::Vector3d& nrml) {
  // Only extend the normals if they currently match the vertices; otherwise
  // they were already invalid and a single new normal cannot repair them.
  const bool valid = hasNormals() || numVertices() == 0;
  const int idx = MeshBase::addVertex(pos);
  if (valid) myNormals.push_back(nrml);
  return idx;
}

bool PointMesh::hasNormals() const {
  return !myNormals.empty() && myNormals.size() == myVertices.size();
}

void PointMesh::setNormals(const std::vector<Eigen::Vector3d>& nrmls) {
  if (nrmls.size() != myVertices.size()) {
    throw ModelError("PointMesh needs one normal per vertex: got " + std::to_string(nrmls.size()) +
                     " for " + std::to_string(myVertices.size()) + " vertices");
  }
  myNormals = nrmls;
}

const Eigen::Vector3d& PointMesh::getNormal(int idx) const {
  if (!hasNormals()) throw ModelError("PointMesh has no normals");
  checkVertexIndex(idx);
  return myNormals[idx];
}

void PointMesh::transformAttributes(const Eigen::Matrix3d& linear) {
  if (myNormals.empty()) return;
  // Normals are covectors: they map by the inverse transpose.
  const Eigen::Matrix3d N = linear.inverse().transpose();
  for (auto& n : myNormals) {
    const Eigen::Vector3d m = N * n;
    const double len = m.norm();
    n = len > 0 ? Eigen::Vector3d(m / len) : m;
  }
}

void PointMesh::vertexRemoved(int idx) {
  // The vertex is already gone, so valid normals are now one too many.
  if (myNormals.size() == myVertices.size() + 1) {
    myNormals.erase(myNormals.begin() + idx);
  } else {
    myNormals.clear();
  }
}

}  // namespace sinew
