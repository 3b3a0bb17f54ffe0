// Sparse matrices with known structure for the solver tests: the fill of a
// 3D mesh (a grid Laplacian) and none at all (a chain).
#pragma once

#include <vector>

#include "sinew/solver/LinearSolver.h"

namespace sinew::test {

/// The 7-point Laplacian on an n³ grid plus a diagonal shift: the fill
/// pattern of a 3D mesh (fronts of n² unknowns), SPD, and not diagonally
/// dominant with margin once the shift is small.
inline SparseMatrixd gridLaplacian(int n, double shift) {
  auto id = [n](int i, int j, int k) { return (k * n + j) * n + i; };
  std::vector<Eigen::Triplet<double>> t;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const int r = id(i, j, k);
        t.emplace_back(r, r, 6.0 + shift);
        if (i + 1 < n) t.emplace_back(r, id(i + 1, j, k), -1.0), t.emplace_back(id(i + 1, j, k), r, -1.0);
        if (j + 1 < n) t.emplace_back(r, id(i, j + 1, k), -1.0), t.emplace_back(id(i, j + 1, k), r, -1.0);
        if (k + 1 < n) t.emplace_back(r, id(i, j, k + 1), -1.0), t.emplace_back(id(i, j, k + 1), r, -1.0);
      }
  SparseMatrixd A(n * n * n, n * n * n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

/// A 1D chain Laplacian (tridiagonal): no fill at all.
inline SparseMatrixd chainLaplacian(int n, double shift) {
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, 2.0 + shift);
    if (i + 1 < n) t.emplace_back(i, i + 1, -1.0), t.emplace_back(i + 1, i, -1.0);
  }
  SparseMatrixd A(n, n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

}  // namespace sinew::test
