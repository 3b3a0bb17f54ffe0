#include "sinew/solver/BlockCholesky.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>

#include "sinew/math/StaticSize.h"

namespace sinew {

namespace {

// Dense kernels on column-major blocks (leading dimension = row count).
// Always inlined: called with compile-time sizes (see withStaticSize) the
// loops unroll fully.

/// T −= P Qᵀ; lower triangle only when `lower` (T square).
[[gnu::always_inline]] inline void subtractProduct(double* T, const double* P, const double* Q, int rows, int cols,
                                                   int inner, bool lower) {
  for (int c = 0; c < cols; ++c)
    for (int k = 0; k < inner; ++k) {
      const double q = Q[c + k * cols];
      const double* p = P + k * rows;
      double* t = T + c * rows;
      for (int r = lower ? c : 0; r < rows; ++r) t[r] -= p[r] * q;
    }
}

/// B ← B D⁻ᵀ for lower-triangular D (n × n) and B (rows × n).
[[gnu::always_inline]] inline void solveRightTransposed(double* B, const double* D, int rows, int n) {
  for (int c = 0; c < n; ++c) {
    double* b = B + c * rows;
    for (int k = 0; k < c; ++k) {
      const double d = D[c + k * n];
      const double* bk = B + k * rows;
      for (int r = 0; r < rows; ++r) b[r] -= bk[r] * d;
    }
    const double inv = 1.0 / D[c + c * n];
    for (int r = 0; r < rows; ++r) b[r] *= inv;
  }
}

/// D ← chol(D) (lower, n × n); the smallest pivot relative to the original
/// diagonal a goes into minRatio. False if a pivot is not positive.
[[gnu::always_inline]] inline bool cholesky(double* D, const double* a, int n, double& minRatio) {
  double ratio = minRatio;
  for (int j = 0; j < n; ++j) {
    double d = D[j + j * n];
    for (int k = 0; k < j; ++k) d -= D[j + k * n] * D[j + k * n];
    ratio = std::min(ratio, d / a[j]);
    if (!(d > 0)) return false;
    d = std::sqrt(d);
    D[j + j * n] = d;
    const double inv = 1.0 / d;
    for (int i = j + 1; i < n; ++i) {
      double s = D[i + j * n];
      for (int k = 0; k < j; ++k) s -= D[i + k * n] * D[j + k * n];
      D[i + j * n] = s * inv;
    }
  }
  minRatio = ratio;
  return true;
}

/// x_I −= B x_J (B rows × n), or with `transposed` x_J −= Bᵀ x_I.
[[gnu::always_inline]] inline void subtractBlockProduct(double* y, const double* B, const double* x, int rows, int n,
                                                        bool transposed) {
  for (int j = 0; j < n; ++j) {
    const double* b = B + j * rows;
    if (transposed) {
      double s = 0;
      for (int i = 0; i < rows; ++i) s += b[i] * x[i];
      y[j] -= s;
    } else {
      for (int i = 0; i < rows; ++i) y[i] -= b[i] * x[j];
    }
  }
}

}  // namespace

void BlockCholesky::analyze(const std::vector<int>& sizes, const std::vector<std::pair<int, int>>& pairs) {
  const int ng = static_cast<int>(sizes.size());
  // Order the group graph once to reduce fill.
  std::vector<Eigen::Triplet<double>> trips;
  for (int g = 0; g < ng; ++g) trips.emplace_back(g, g, 0.0);
  for (auto [a, b] : pairs)
    if (a != b) trips.emplace_back(std::min(a, b), std::max(a, b), 0.0);
  Eigen::SparseMatrix<double, Eigen::ColMajor, int> P(ng, ng);
  P.setFromTriplets(trips.begin(), trips.end());
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> pinv;
  Eigen::AMDOrdering<int>()(P, pinv);
  myOrderOf.resize(ng);
  mySize.resize(ng);
  myStart.resize(ng + 1);
  for (int k = 0; k < ng; ++k) myOrderOf[pinv.indices()[k]] = k;
  myStart[0] = 0;
  for (int k = 0; k < ng; ++k) {
    mySize[k] = sizes[pinv.indices()[k]];
    myStart[k + 1] = myStart[k] + mySize[k];
  }
  myN = myStart[ng];
  myUniformSize = ng > 0 ? mySize[0] : 0;
  for (int k = 0; k < ng; ++k)
    if (mySize[k] != myUniformSize) myUniformSize = 0;
  // Symbolic factorization: a column's structure is its own lower pattern
  // plus its children's, less itself; its parent is its first row.
  std::vector<std::vector<int>> below(ng);
  for (auto [a, b] : pairs) {
    const int I = std::max(myOrderOf[a], myOrderOf[b]), J = std::min(myOrderOf[a], myOrderOf[b]);
    if (I != J) below[J].push_back(I);
  }
  for (int J = 0; J < ng; ++J) {
    auto& s = below[J];
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    if (!s.empty()) below[s[0]].insert(below[s[0]].end(), s.begin() + 1, s.end());
  }
  // Storage: each column's diagonal block, then its blocks below.
  myDiagPos.resize(ng);
  myCol.assign(ng, {});
  int pos = 0;
  for (int J = 0; J < ng; ++J) {
    myDiagPos[J] = pos;
    pos += mySize[J] * mySize[J];
    for (int I : below[J]) {
      myCol[J].push_back({I, pos});
      pos += mySize[I] * mySize[J];
    }
  }
  myL.assign(pos, 0.0);
  myDiag.resize(myN);
  // The updates each column makes on the columns after it.
  myUpdates.assign(ng, {});
  for (int J = 0; J < ng; ++J)
    for (size_t b = 0; b < myCol[J].size(); ++b)
      for (size_t a = b; a < myCol[J].size(); ++a) {
        const int I = myCol[J][a].group, K = myCol[J][b].group;
        const int t = I == K ? myDiagPos[I] : blockPosition(I, K);
        myUpdates[J].push_back({t, myCol[J][a].pos, myCol[J][b].pos, mySize[I], mySize[K], mySize[J], I == K});
      }
}

int BlockCholesky::blockPosition(int I, int J) const {
  for (const OffBlock& b : myCol[J])
    if (b.group == I) return b.pos;
  return -1;  // not reached: the symbolic factorization holds every fill block
}

int BlockCholesky::position(int g, int r, int h, int c) const {
  const int I = myOrderOf[g], K = myOrderOf[h];
  if (I == K) return myDiagPos[I] + std::max(r, c) + std::min(r, c) * mySize[I];
  if (I > K) return blockPosition(I, K) + r + c * mySize[I];
  return blockPosition(K, I) + c + r * mySize[K];
}

bool BlockCholesky::factor() {
  for (int J = 0; J < static_cast<int>(mySize.size()); ++J)
    for (int j = 0; j < mySize[J]; ++j) myDiag[myStart[J] + j] = myL[myDiagPos[J] + j + j * mySize[J]];
  double ratio = INFINITY;
  bool ok = true;
  withStaticSize(myUniformSize, [&](auto N) {
    for (int J = 0; J < static_cast<int>(mySize.size()) && ok; ++J) ok = factorColumn<N()>(J, myL.data(), ratio);
  });
  myMinPivotRatio = ratio;
  return ok;
}

template <int N>
bool BlockCholesky::factorColumn(int J, double* L, double& minRatio) const {
  // Right-looking: every earlier column has already updated this one.
  const int n = N > 0 ? N : mySize[J];
  double* D = L + myDiagPos[J];
  if (!cholesky(D, myDiag.data() + myStart[J], n, minRatio)) return false;
  for (const OffBlock& b : myCol[J]) solveRightTransposed(L + b.pos, D, N > 0 ? N : mySize[b.group], n);
  for (const Update& u : myUpdates[J]) {
    if (N > 0) subtractProduct(L + u.t, L + u.p, L + u.q, N, N, N, u.diagonal);
    else subtractProduct(L + u.t, L + u.p, L + u.q, u.rows, u.cols, u.inner, u.diagonal);
  }
  return true;
}

void BlockCholesky::solve(double* x) const {
  withStaticSize(myUniformSize, [&](auto N) {
    solveLowerWith<N()>(x);
    solveUpperWith<N()>(x);
  });
}

void BlockCholesky::solveLower(double* x) const {
  withStaticSize(myUniformSize, [&](auto N) { solveLowerWith<N()>(x); });
}

void BlockCholesky::solveLowerRows(double* X, int k) const {
  const int ng = static_cast<int>(mySize.size());
  const double* L = myL.data();
  // Row r −= l · row s, along the k right-hand sides.
  auto axpy = [k](double* r, double l, const double* s) {
    for (int c = 0; c < k; ++c) r[c] -= l * s[c];
  };
  for (int J = 0; J < ng; ++J) {  // L Y = X, as solveLowerWith on each column
    const int n = mySize[J];
    const double* D = L + myDiagPos[J];
    double* XJ = X + static_cast<size_t>(myStart[J]) * k;
    for (int j = 0; j < n; ++j) {
      double* xj = XJ + static_cast<size_t>(j) * k;
      const double d = 1 / D[j + j * n];  // one division per row, not per value
      for (int c = 0; c < k; ++c) xj[c] *= d;
      for (int i = j + 1; i < n; ++i) axpy(XJ + static_cast<size_t>(i) * k, D[i + j * n], xj);
    }
    for (const OffBlock& b : myCol[J]) {
      const int rows = mySize[b.group];
      const double* B = L + b.pos;
      double* XI = X + static_cast<size_t>(myStart[b.group]) * k;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < rows; ++i) axpy(XI + static_cast<size_t>(i) * k, B[i + j * rows], XJ + static_cast<size_t>(j) * k);
    }
  }
}

template <int N>
void BlockCholesky::solveLowerWith(double* x) const {
  const int ng = static_cast<int>(mySize.size());
  const double* L = myL.data();
  for (int J = 0; J < ng; ++J) {  // L y = x
    const int n = N > 0 ? N : mySize[J];
    const double* D = L + myDiagPos[J];
    double* xJ = x + myStart[J];
    for (int j = 0; j < n; ++j) {
      xJ[j] /= D[j + j * n];
      for (int i = j + 1; i < n; ++i) xJ[i] -= D[i + j * n] * xJ[j];
    }
    for (const OffBlock& b : myCol[J])
      subtractBlockProduct(x + myStart[b.group], L + b.pos, xJ, N > 0 ? N : mySize[b.group], n, false);
  }
}

template <int N>
void BlockCholesky::solveUpperWith(double* x) const {
  const int ng = static_cast<int>(mySize.size());
  const double* L = myL.data();
  for (int J = ng - 1; J >= 0; --J) {  // Lᵀ x = y
    const int n = N > 0 ? N : mySize[J];
    const double* D = L + myDiagPos[J];
    double* xJ = x + myStart[J];
    for (const OffBlock& b : myCol[J])
      subtractBlockProduct(xJ, L + b.pos, x + myStart[b.group], N > 0 ? N : mySize[b.group], n, true);
    for (int j = n - 1; j >= 0; --j) {
      for (int i = j + 1; i < n; ++i) xJ[j] -= D[i + j * n] * xJ[i];
      xJ[j] /= D[j + j * n];
    }
  }
}

}  // namespace sinew
