// DistanceGrid (guide §4.6): a regular grid of signed distances to a closed
// mesh, with a normal at each vertex, interpolated trilinearly inside each
// cell. The SIGNED_DISTANCE collider (§8.4.2) uses a rigid body's grid to
// find the penetrating vertices of the other body with their depths and
// normals at a few multiply-adds each; its effective surface is the
// trilinear zero isosurface, which matches the mesh where the distance is
// linear across a cell (away from edges and corners) and is rounded by a
// cell width near them.
//
// The grid lies in the mesh's own coordinates, axis aligned, over the
// mesh's bounding box grown by `marginFraction` of its widths on each side;
// its cells are cubes, `maxResolution` of them along the longest side, with
// the resolutions r_x, r_y, r_z rounded up to even numbers (as the guide's
// quadratic cells require). Distances at the vertices are exact (the mesh's
// bounding-volume tree); normals there are the distance field's gradient
// by central differences, normalized.
#pragma once

#include <Eigen/Geometry>
#include <vector>

#include "sinew/geometry/PolygonalMesh.h"

namespace sinew {

class DistanceGrid {
 public:
  /// Throws ModelError for a mesh that is empty, not closed, or a
  /// resolution below 2.
  explicit DistanceGrid(const PolygonalMesh& mesh, int maxResolution = 20, double marginFraction = 0.1);

  /// The trilinearly interpolated signed distance at p (negative inside)
  /// and, if `normal` is given, the interpolated unit normal. Outside the
  /// grid: +infinity and a zero normal.
  double distance(const Eigen::Vector3d& p, Eigen::Vector3d* normal = nullptr) const;

  const Eigen::Vector3i& resolution() const { return myRes; }  ///< cells along x, y, z
  double cellWidth() const { return myCell; }
  const Eigen::AlignedBox3d& bounds() const { return myBox; }
  /// Distance stored at grid vertex (i, j, k).
  double vertexDistance(int i, int j, int k) const { return myDist[index(i, j, k)]; }

 private:
  int index(int i, int j, int k) const { return i + (myRes.x() + 1) * (j + (myRes.y() + 1) * k); }
  Eigen::Vector3d vertex(int i, int j, int k) const {
    return myBox.min() + myCell * Eigen::Vector3d(i, j, k);
  }

  Eigen::AlignedBox3d myBox;
  Eigen::Vector3i myRes;
  double myCell = 0;
  std::vector<double> myDist;
  std::vector<Eigen::Vector3d> myNormals;
};

}  // namespace sinew
