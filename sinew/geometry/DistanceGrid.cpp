#include "sinew/geometry/DistanceGrid.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

#include "sinew/Error.h"
#include "sinew/geometry/TriangleBVTree.h"

namespace sinew {

using Eigen::Vector3d;

namespace {

/// The principal axes of a closed mesh's surface (the eigenvectors of its
/// area-weighted second moment about the centroid), right-handed.
Eigen::Matrix3d principalAxes(const TriangleBVTree& tree) {
  double area = 0;
  Vector3d c = Vector3d::Zero();
  for (int t = 0; t < tree.numTriangles(); ++t) {
    const Vector3d &a = tree.triangleVertex(t, 0), &b = tree.triangleVertex(t, 1), &d = tree.triangleVertex(t, 2);
    const double w = 0.5 * (b - a).cross(d - a).norm();
    area += w;
    c += w * (a + b + d) / 3;
  }
  c /= area;
  Eigen::Matrix3d C = Eigen::Matrix3d::Zero();
  for (int t = 0; t < tree.numTriangles(); ++t) {
    const Vector3d v[3] = {tree.triangleVertex(t, 0) - c, tree.triangleVertex(t, 1) - c, tree.triangleVertex(t, 2) - c};
    const double w = 0.5 * (v[1] - v[0]).cross(v[2] - v[0]).norm();
    // Exact over the triangle: (Σ vᵢvᵢᵀ + (Σ vᵢ)(Σ vᵢ)ᵀ) A / 12.
    const Vector3d s = v[0] + v[1] + v[2];
    C += w / 12 * (v[0] * v[0].transpose() + v[1] * v[1].transpose() + v[2] * v[2].transpose() + s * s.transpose());
  }
  Eigen::Matrix3d R = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(C).eigenvectors();
  if (R.determinant() < 0) R.col(2) = -R.col(2);
  return R;
}

}  // namespace

DistanceGrid::DistanceGrid(const PolygonalMesh& mesh, int maxResolution, double marginFraction, bool fitWithOBB)
    : DistanceGrid(mesh, Eigen::Vector3i::Zero(), maxResolution, marginFraction, fitWithOBB) {}

DistanceGrid::DistanceGrid(const PolygonalMesh& mesh, const Eigen::Vector3i& resolution, int maxResolution,
                           double marginFraction, bool fitWithOBB) {
  const bool given = (resolution.array() > 0).all();
  if (!given && maxResolution < 2) throw ModelError("distance grid resolution must be at least 2");
  if (given && resolution.minCoeff() < 2) throw ModelError("distance grid resolution must be at least 2 along each axis");
  if (!(marginFraction >= 0)) throw ModelError("distance grid margin fraction must be non-negative");
  const TriangleBVTree tree(mesh);  // throws for an empty or open mesh
  if (fitWithOBB) myR = principalAxes(tree);
  // The mesh's box in the grid's axes.
  Eigen::AlignedBox3d box;
  for (const Vector3d& v : tree.vertices()) box.extend(myR.transpose() * v);
  const Vector3d grow = marginFraction * box.sizes();
  box.min() -= grow;
  box.max() += grow;
  if (given) {
    // The resolutions asked for (even, for the quadratic cells), each
    // axis's cells spanning the grown box.
    myRes = resolution + resolution.unaryExpr([](int r) { return r % 2; });
    myCell = box.sizes().cwiseQuotient(myRes.cast<double>());
  } else {
    // Cubic cells, maxResolution along the longest side.
    myCell.setConstant(box.sizes().maxCoeff() / maxResolution);
    for (int a = 0; a < 3; ++a) {
      int r = std::max(2, static_cast<int>(std::ceil(box.sizes()[a] / myCell[a] - 1e-9)));
      r += r % 2;  // even, for the guide's quadratic cells
      myRes[a] = r;
    }
  }
  // Centre the grid on the grown box.
  const Vector3d centre = box.center(), half = 0.5 * myCell.cwiseProduct(myRes.cast<double>());
  myBox = Eigen::AlignedBox3d(centre - half, centre + half);
  const int nx = myRes.x() + 1, ny = myRes.y() + 1, nz = myRes.z() + 1;
  myDist.resize(static_cast<size_t>(nx) * ny * nz);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) myDist[index(i, j, k)] = tree.nearest(myR * vertex(i, j, k)).distance;
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
          g[a] = (myDist[index(hi[0], hi[1], hi[2])] - myDist[index(lo[0], lo[1], lo[2])]) / ((hi[a] - lo[a]) * myCell[a]);
        }
        myNormals[index(i, j, k)] = g.norm() > 0 ? Vector3d(myR * g.normalized()) : Vector3d::UnitZ();
      }
}

bool DistanceGrid::gridCoordinates(const Vector3d& p, Vector3d& s) const {
  s = (myR.transpose() * p - myBox.min()).cwiseQuotient(myCell);
  return s.minCoeff() >= 0 && !(s.array() > myRes.cast<double>().array()).any();
}

double DistanceGrid::distance(const Vector3d& p, Vector3d* normal) const {
  Vector3d s;
  if (!gridCoordinates(p, s)) {
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

double DistanceGrid::quadraticDistance(const Vector3d& p, Vector3d* gradient) const {
  Vector3d s;
  if (!gridCoordinates(p, s)) {
    if (gradient) gradient->setZero();
    return std::numeric_limits<double>::infinity();
  }
  // The composite cell starts at an even vertex; u ∈ [0, 2] in it, with
  // the Lagrange basis on its three vertices along each axis.
  int c[3];
  double L[3][3], dL[3][3];
  for (int a = 0; a < 3; ++a) {
    c[a] = std::min(2 * static_cast<int>(s[a] / 2), myRes[a] - 2);
    const double u = s[a] - c[a];
    L[a][0] = 0.5 * (u - 1) * (u - 2), L[a][1] = u * (2 - u), L[a][2] = 0.5 * u * (u - 1);
    dL[a][0] = u - 1.5, dL[a][1] = 2 - 2 * u, dL[a][2] = u - 0.5;
  }
  double d = 0;
  Vector3d g = Vector3d::Zero();
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        const double v = myDist[index(c[0] + i, c[1] + j, c[2] + k)];
        d += L[0][i] * L[1][j] * L[2][k] * v;
        g += v * Vector3d(dL[0][i] * L[1][j] * L[2][k], L[0][i] * dL[1][j] * L[2][k], L[0][i] * L[1][j] * dL[2][k]);
      }
  if (gradient) *gradient = myR * g.cwiseQuotient(myCell);
  return d;
}

}  // namespace sinew
