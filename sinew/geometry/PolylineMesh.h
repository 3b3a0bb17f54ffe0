// PolylineMesh: vertices joined into connected line-segment chains
// (Guide §2.5, checklist ME-04).
//
// Each polyline is a list of >= 2 vertex indices; consecutive entries form a
// segment. A closed loop repeats its first index at the end.
#pragma once

#include <vector>

#include "sinew/geometry/MeshBase.h"

namespace sinew {

class PolylineMesh : public MeshBase {
 public:
  PolylineMesh() = default;
  PolylineMesh(const PolylineMesh&) = default;
  PolylineMesh& operator=(const PolylineMesh&) = default;
  PolylineMesh(PolylineMesh&&) = default;
  PolylineMesh& operator=(PolylineMesh&&) = default;

  std::unique_ptr<MeshBase> clone() const override;
  void clear() override;

  /// Adds a polyline through >= 2 existing vertices; returns its index.
  int addLine(const std::vector<int>& vidxs);
  int numLines() const { return static_cast<int>(myLines.size()); }
  const std::vector<int>& getLine(int lidx) const;
  const std::vector<std::vector<int>>& getLines() const { return myLines; }
  void removeLine(int lidx);

  /// Total length of all segments of all polylines.
  double computeLength() const;

  /// Calls fn(a, b) for every segment.
  template <class Fn>
  void forEachSegment(Fn&& fn) const {
    for (const auto& l : myLines) {
      for (size_t k = 0; k + 1 < l.size(); ++k) fn(myVertices[l[k]], myVertices[l[k + 1]]);
    }
  }

 protected:
  bool vertexInUse(int idx) const override;
  void vertexRemoved(int idx) override;

 private:
  std::vector<std::vector<int>> myLines;
};

}  // namespace sinew
