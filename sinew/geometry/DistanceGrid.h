// DistanceGrid (guide §4.6): a regular grid of signed distances to a closed
// mesh, with a normal at each vertex, interpolated trilinearly inside each
// cell. The SIGNED_DISTANCE collider (§8.4.2) uses a rigid body's grid to
// find the penetrating vertices of the other body with their depths and
// normals at a few multiply-adds each; its effective surface is the
// trilinear zero isosurface, which matches the mesh where the distance is
// linear across a cell (away from edges and corners) and is rounded by a
// cell width near them.
//
// The grid lies in the mesh's own coordinates, axis aligned — or, with
// `fitWithOBB`, along the principal axes of the mesh's surface (an
// oriented bounding box) — over the mesh's bounding box grown by
// `marginFraction` of its widths on each side; its cells are cubes,
// `maxResolution` of them along the longest side, with the resolutions
// r_x, r_y, r_z rounded up to even numbers — or, where all three
// resolutions are given, that many cells along each axis (rounded up to
// even; the cells are then boxes) — so that the grid divides into
// the guide's quadratic cells of 2 × 2 × 2 cells, over which
// quadraticDistance interpolates the distances (not the normals) for a
// smoother surface. Distances at the vertices are exact (the mesh's
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
  explicit DistanceGrid(const PolygonalMesh& mesh, int maxResolution = 20, double marginFraction = 0.1,
                        bool fitWithOBB = false);
  /// With `resolution` all positive, that many cells along each axis
  /// (DistanceGridComp's `resolution`, §4.6); otherwise as above.
  DistanceGrid(const PolygonalMesh& mesh, const Eigen::Vector3i& resolution, int maxResolution, double marginFraction,
               bool fitWithOBB);

  /// The trilinearly interpolated signed distance at p (negative inside)
  /// and, if `normal` is given, the interpolated unit normal. Outside the
  /// grid: +infinity and a zero normal.
  double distance(const Eigen::Vector3d& p, Eigen::Vector3d* normal = nullptr) const;

  /// The distance interpolated quadratically over the composite cell of
  /// 2 × 2 × 2 cells holding p (§4.6: smoother than trilinear, exact for a
  /// field quadratic along each axis), and, if `gradient` is given, its
  /// gradient (not normalized). Outside the grid: +infinity, zero gradient.
  double quadraticDistance(const Eigen::Vector3d& p, Eigen::Vector3d* gradient = nullptr) const;

  const Eigen::Vector3i& resolution() const { return myRes; }  ///< cells along x, y, z
  /// The cells' widths along the grid's axes (equal unless the
  /// resolutions were given), and the largest of them.
  const Eigen::Vector3d& cellSize() const { return myCell; }
  double cellWidth() const { return myCell.maxCoeff(); }
  /// The grid's box, in its own axes (those of orientation()).
  const Eigen::AlignedBox3d& bounds() const { return myBox; }
  /// The grid's axes as columns, in the mesh's coordinates: the identity,
  /// or the principal axes with fitWithOBB.
  const Eigen::Matrix3d& orientation() const { return myR; }
  /// Distance stored at grid vertex (i, j, k).
  double vertexDistance(int i, int j, int k) const { return myDist[index(i, j, k)]; }

 private:
  int index(int i, int j, int k) const { return i + (myRes.x() + 1) * (j + (myRes.y() + 1) * k); }
  /// Grid vertex (i, j, k) in the grid's axes.
  Eigen::Vector3d vertex(int i, int j, int k) const {
    return myBox.min() + myCell.cwiseProduct(Eigen::Vector3d(i, j, k));
  }
  /// p (mesh coordinates) in cell units from the grid's corner; false
  /// outside the grid.
  bool gridCoordinates(const Eigen::Vector3d& p, Eigen::Vector3d& s) const;

  Eigen::Matrix3d myR = Eigen::Matrix3d::Identity();
  Eigen::AlignedBox3d myBox;
  Eigen::Vector3i myRes;
  Eigen::Vector3d myCell = Eigen::Vector3d::Zero();
  std::vector<double> myDist;
  std::vector<Eigen::Vector3d> myNormals;
};

}  // namespace sinew
