#include "sinew/geometry/MeshBase.h"

#include <string>

#include "sinew/Error.h"

namespace sinew {

void MeshBase::checkVertexIndex(int idx) const {
  if (idx < 0 || idx >= numVertices()) {
    throw ModelError("vertex index " + std::to_string(idx) + " out of range [0," +
                     std::to_string(numVertices()) + ")");
  }
}

const Eigen::Vector3d& MeshBase::getVertex(int idx) const {
  checkVertexIndex(idx);
  return myVertices[idx];
}

void MeshBase::setVertex(int idx, const Eigen::Vector3d& pos) {
  checkVertexIndex(idx);
  myVertices[idx] = pos;
}

int MeshBase::addVertex(const Eigen::Vector3d& pos) {
  myVertices.push_back(pos);
  return numVertices() - 1;
}

void MeshBase::removeVertex(int idx) {
  checkVertexIndex(idx);
  // Removing a vertex that a face still uses would leave a dangling index.
  if (vertexInUse(idx)) {
    throw ModelError("cannot remove vertex " + std::to_string(idx) + ": it is still referenced");
  }
  myVertices.erase(myVertices.begin() + idx);
  vertexRemoved(idx);
}

void MeshBase::clear() {
  myVertices.clear();
}

void MeshBase::transform(const Eigen::Isometry3d& X) {
  for (auto& v : myVertices) v = X * v;
  transformAttributes(X.linear());
}

void MeshBase::transform(const Eigen::Affine3d& X) {
  for (auto& v : myVertices) v = X * v;
  transformAttributes(X.linear());
}

void MeshBase::scale(double sx, double sy, double sz) {
  const Eigen::Vector3d s(sx, sy, sz);
  for (auto& v : myVertices) v = v.cwiseProduct(s);
  transformAttributes(s.asDiagonal().toDenseMatrix());
}

void MeshBase::translate(const Eigen::Vector3d& offset) {
  for (auto& v : myVertices) v += offset;
}

Eigen::Vector3d MeshBase::computeCentroid() const {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  if (myVertices.empty()) return sum;
  for (const auto& v : myVertices) sum += v;
  return sum / static_cast<double>(myVertices.size());
}

Eigen::AlignedBox3d MeshBase::computeBounds() const {
  Eigen::AlignedBox3d box;  // default-constructed box is empty
  for (const auto& v : myVertices) box.extend(v);
  return box;
}

}  // namespace sinew
