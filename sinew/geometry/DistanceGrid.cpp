#include "sinew/geometry/DistanceGrid.h"

#include <cmath>
#include <limits>

#include "sinew/Error.h"
#include "sinew/geometry/TriangleBVTree.h"

namespace sinew {

using Eigen::Vector3d;

DistanceGrid::DistanceGrid(const PolygonalMesh& mesh, int maxResolution, double marginFraction) {
  if (maxResolution < 2) throw ModelError("distance grid resolution must be at least 2");
  if (!(marginFraction >= 0)) throw ModelError("distance grid margin fraction must be non-negative");
  const TriangleBVTree tree(mesh);  // throws for an empty or open mesh
  Eigen::AlignedBox3d box = tree.bounds();
  const Vector3d grow = marginFraction * box.sizes();
  box.min() -= grow;
  box.max() += grow;
  myCell = box.sizes().maxCoeff() / maxResolution;
  for (int a = 0; a < 3; ++a) {
    int r = std::max(2, static_cast<int>(std::ceil(box.sizes()[a] / myCell - 1e-9)));
    r += r % 2;  // even, for the guide's quadratic cells
    myRes[a] = r;
  }
  // Centre the grid on the grown box.
  const Vector3d centre = box.center(), half = 0.5 * myCell * myRes.cast<double>();
  myBox = Eigen::AlignedBox3d(centre - half, centre + half);
  const int nx = myRes.x() + 1, ny = myRes.y() + 1, nz = myRes.z() + 1;
  myDist.resize(static_cast<size_t>(nx) * ny * nz);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) myDist[index(i, j, k)] = tree.nearest(vertex(i, j, k)).distance;
  // Normals: the gradient by central differences (one-sided on the border).
  myNormals.resize(myDist.size());
  const int n[3] = {nx, ny, nz};
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const int ijk[3] = {i, j, k};
        Vector3d g;
        for (int a = 0; a < 3; ++a) {
          int lo[3] = {i, j, k}, hi[3] = {i, j, k};
          lo[a] = std::max(0, ijk[a] - 1);
          hi[a] = std::min(n[a] - 1, ijk[a] + 1);
          g[a] = (myDist[index(hi[0], hi[1], hi[2])] - myDist[index(lo[0], lo[1], lo[2])]) / ((hi[a] - lo[a]) * myCell);
        }
        myNormals[index(i, j, k)] = g.norm() > 0 ? g.normalized() : Vector3d::UnitZ();
      }
}

double DistanceGrid::distance(const Vector3d& p, Vector3d* normal) const {
  const Vector3d s = (p - myBox.min()) / myCell;
  if (!(s.minCoeff() >= 0) || (s.array() > myRes.cast<double>().array()).any()) {
    if (normal) normal->setZero();
    return std::numeric_limits<double>::infinity();
  }
  // The cell and the point's local coordinates in it (the last cell takes
  // the far face).
  int c[3];
  Vector3d t;
  for (int a = 0; a < 3; ++a) {
    c[a] = std::min(static_cast<int>(s[a]), myRes[a] - 1);
    t[a] = s[a] - c[a];
  }
  double d = 0;
  Vector3d nsum = Vector3d::Zero();
  for (int corner = 0; corner < 8; ++corner) {
    const int di = corner & 1, dj = (corner >> 1) & 1, dk = (corner >> 2) & 1;
    const double w = (di ? t.x() : 1 - t.x()) * (dj ? t.y() : 1 - t.y()) * (dk ? t.z() : 1 - t.z());
    const int idx = index(c[0] + di, c[1] + dj, c[2] + dk);
    d += w * myDist[idx];
    nsum += w * myNormals[idx];
  }
  if (normal) *normal = nsum.norm() > 0 ? nsum.normalized() : Vector3d::UnitZ();
  return d;
}

}  // namespace sinew
