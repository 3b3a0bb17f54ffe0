#include "sinew/geometry/PolylineMesh.h"

#include <algorithm>
#include <string>

#include "sinew/Error.h"

namespace sinew {

std::unique_ptr<MeshBase> PolylineMesh::clone() const {
  return std::make_unique<PolylineMesh>(*this);
}

void PolylineMesh::clear() {
  MeshBase::clear();
  myLines.clear();
}

int PolylineMesh::addLine(const std::vector<int>& vidxs) {
  if (vidxs.size() < 2) {
    throw ModelError("a polyline needs at least 2 vertices, got " + std::to_string(vidxs.size()));
  }
  for (int v : vidxs) checkVertexIndex(v);
  myLines.push_back(vidxs);
  return numLines() - 1;
}

const std::vector<int>& PolylineMesh::getLine(int lidx) const {
  if (lidx < 0 || lidx >= numLines()) {
    throw ModelError("polyline index " + std::to_string(lidx) + " out of range");
  }
  return myLines[lidx];
}

void PolylineMesh::removeLine(int lidx) {
  getLine(lidx);  // range check
  myLines.erase(myLines.begin() + lidx);
}

double PolylineMesh::computeLength() const {
  double len = 0;
  forEachSegment(
      [&](const Eigen::Vector3d& a, const Eigen::Vector3d& b) { len += (b - a).norm(); });
  return len;
}

bool PolylineMesh::vertexInUse(int idx) const {
  for (const auto& l : myLines) {
    if (std::find(l.begin(), l.end(), idx) != l.end()) return true;
  }
  return false;
}

void PolylineMesh::vertexRemoved(int idx) {
  for (auto& l : myLines) {
    for (int& v : l) {
      if (v > idx) --v;
    }
  }
}

}  // namespace sinew
