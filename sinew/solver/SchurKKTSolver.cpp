#include "sinew/solver/SchurKKTSolver.h"

#include <algorithm>
#include <cmath>

#include "sinew/solver/KKTSolver.h"

namespace sinew {

namespace {

// Kernels on one diagonal block of S (n dofs) and the rows of A that touch
// it (z: one row of n values per A row). The block is kept as the inverse X
// of its Cholesky factor (S_b = L Lᵀ, X = L⁻¹, column-major, lower
// triangle): applying X is a triangular product, not a triangular solve,
// so the many per-row applications have no division and no dependency
// chain. K is n when it is known at compile time (3 for particles, 6 for
// rigid bodies, so the loops unroll fully), 0 otherwise. Hand-written so a
// step never allocates.
template <int K>
struct Block {
  int n;
  int size() const { return K > 0 ? K : n; }

  /// a ← (chol a)⁻¹ in place. False if a is not positive definite.
  bool invertCholesky(double* a) const {
    const int m = size();
    for (int j = 0; j < m; ++j) {
      double d = a[j + j * m];
      for (int k = 0; k < j; ++k) d -= a[j + k * m] * a[j + k * m];
      if (!(d > 0)) return false;
      d = std::sqrt(d);
      a[j + j * m] = d;
      for (int i = j + 1; i < m; ++i) {
        double s = a[i + j * m];
        for (int k = 0; k < j; ++k) s -= a[i + k * m] * a[j + k * m];
        a[i + j * m] = s / d;
      }
    }
    // X L = I column by column from the right: X_ij = −(Σ_{j<k≤i} X_ik L_kj) / L_jj,
    // bottom-up so that L_kj (k ≤ i) is still in place when it is needed.
    for (int j = m - 1; j >= 0; --j) {
      const double d = 1.0 / a[j + j * m];
      for (int i = m - 1; i > j; --i) {
        double s = 0;
        for (int k = j + 1; k <= i; ++k) s += a[i + k * m] * a[k + j * m];
        a[i + j * m] = -s * d;
      }
      a[j + j * m] = d;
    }
    return true;
  }
  /// x ← X x (top-down rows read only entries not yet overwritten).
  void mul(const double* X, double* x) const {
    const int m = size();
#pragma GCC unroll 6
    for (int i = m - 1; i >= 0; --i) {
      double s = 0;
#pragma GCC unroll 6
      for (int j = 0; j <= i; ++j) s += X[i + j * m] * x[j];
      x[i] = s;
    }
  }
  /// x ← Xᵀ x.
  void mulTransposed(const double* X, double* x) const {
    const int m = size();
#pragma GCC unroll 6
    for (int j = 0; j < m; ++j) {
      double s = 0;
#pragma GCC unroll 6
      for (int i = j; i < m; ++i) s += X[i + j * m] * x[i];
      x[j] = s;
    }
  }
  double dot(const double* a, const double* b) const {
    const int m = size();
    double s = 0;
#pragma GCC unroll 6
    for (int k = 0; k < m; ++k) s += a[k] * b[k];
    return s;
  }
  void axpy(double w, const double* a, double* b) const {
    const int m = size();
#pragma GCC unroll 6
    for (int k = 0; k < m; ++k) b[k] += w * a[k];
  }
};

/// a ← (chol a)⁻¹ for a 6×6 block a whose translational part is
/// diagonal and not coupled to its rotational one, as a rigid body's mass
/// block about its centre of mass is: the factor splits into a diagonal
/// and a 3×3 one, which costs a fifth of the general inversion. False if
/// the block is not of that form, or not positive definite.
bool invertSplitCholesky(double* a) {
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 6; ++i)
      if (i != j && a[i + 6 * j] != 0) return false;
  for (int j = 0; j < 3; ++j)
    if (!(a[j + 6 * j] > 0)) return false;
  double r[9];
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) r[i + 3 * j] = a[3 + i + 6 * (3 + j)];
  if (!Block<3>{3}.invertCholesky(r)) return false;
  // Only now is a written: on false, the caller inverts it whole.
  for (int j = 0; j < 3; ++j) {
    a[j + 6 * j] = 1 / std::sqrt(a[j + 6 * j]);
    for (int i = 0; i < 3; ++i) a[3 + i + 6 * (3 + j)] = r[i + 3 * j];
  }
  return true;
}

/// Calls f(Block<K>{n}) with K = n for the common sizes, else K = 0.
template <class F>
void withBlock(int n, F&& f) {
  if (n == 6) f(Block<6>{n});
  else if (n == 3) f(Block<3>{n});
  else f(Block<0>{n});
}

}  // namespace

bool SchurKKTSolver::findDiagonalBlocks(const SparseMatrixd& S, std::vector<int>& starts) {
  starts.clear();
  if (!S.isCompressed()) return false;
  const int n = static_cast<int>(S.cols());
  const int* outer = S.outerIndexPtr();
  const int* inner = S.innerIndexPtr();
  for (int c = 0; c < n;) {
    // A block starts at its own diagonal and every column of it holds
    // exactly the block's rows.
    const int size = outer[c + 1] - outer[c];
    if (size == 0 || inner[outer[c]] != c || c + size > n) return false;
    for (int k = c; k < c + size; ++k) {
      if (outer[k + 1] - outer[k] != size) return false;
      for (int p = 0; p < size; ++p)
        if (inner[outer[k] + p] != c + p) return false;
    }
    starts.push_back(c);
    c += size;
  }
  starts.push_back(n);
  return true;
}

// ------------------------------------------------------------------ plan

bool SchurKKTSolver::structureMatches(const SparseMatrixd& S, const ConstraintRows& G,
                                      const ConstraintRows& N) const {
  if (!myValid || S.rows() != myN || S.nonZeros() != mySNnz || G.numRows() != myMg || N.numRows() != myMn ||
      G.entries.size() + N.entries.size() != myEntryRows.size())
    return false;
  size_t k = 0;
  for (auto& e : G.entries)
    if (e.row() != myEntryRows[k] || e.col() != myEntryCols[k++]) return false;
  for (auto& e : N.entries)
    if (myMg + e.row() != myEntryRows[k] || e.col() != myEntryCols[k++]) return false;
  return true;
}

void SchurKKTSolver::buildPlan(const SparseMatrixd& S, const ConstraintRows& G, const ConstraintRows& N) {
  std::vector<int> starts;
  findDiagonalBlocks(S, starts);
  myN = static_cast<int>(S.rows());
  myMg = G.numRows();
  myMn = N.numRows();
  mySNnz = S.nonZeros();
  myEntryRows.clear();
  myEntryCols.clear();
  for (auto& e : G.entries) myEntryRows.push_back(e.row()), myEntryCols.push_back(e.col());
  for (auto& e : N.entries) myEntryRows.push_back(myMg + e.row()), myEntryCols.push_back(e.col());

  myBlocks.assign(starts.size() - 1, BlockRows());
  myBlockOfDof.resize(myN);
  for (size_t b = 0; b + 1 < starts.size(); ++b) {
    myBlocks[b].start = starts[b];
    myBlocks[b].size = starts[b + 1] - starts[b];
    std::fill(myBlockOfDof.begin() + starts[b], myBlockOfDof.begin() + starts[b + 1], static_cast<int>(b));
  }
  for (size_t k = 0; k < myEntryRows.size(); ++k) myBlocks[myBlockOfDof[myEntryCols[k]]].rows.push_back(myEntryRows[k]);
  int l = 0, z = 0;
  for (auto& B : myBlocks) {
    std::sort(B.rows.begin(), B.rows.end());
    B.rows.erase(std::unique(B.rows.begin(), B.rows.end()), B.rows.end());
    B.xOffset = l;
    B.zOffset = z;
    l += B.size * B.size;
    z += static_cast<int>(B.rows.size()) * B.size;
  }
  myLinv.assign(l, 0.0);
  myZ.assign(z, 0.0);
  // Each entry's slot: row-major rows × size slice of its block.
  myEntryDst.resize(myEntryRows.size());
  for (size_t k = 0; k < myEntryRows.size(); ++k) {
    const BlockRows& B = myBlocks[myBlockOfDof[myEntryCols[k]]];
    const int local = static_cast<int>(std::lower_bound(B.rows.begin(), B.rows.end(), myEntryRows[k]) - B.rows.begin());
    myEntryDst[k] = B.zOffset + local * B.size + (myEntryCols[k] - B.start);
  }
  // When every slot gets exactly one entry (no repeated (row, dof), no dof
  // of a row's block left out) the fill can assign instead of clearing and
  // accumulating.
  std::vector<char> hit(z, 0);
  myZCoveredOnce = myEntryDst.size() == static_cast<size_t>(z);
  for (int d : myEntryDst) myZCoveredOnce = myZCoveredOnce && !hit[d]++;
  buildMatrixPattern();
  myValid = true;
}

void SchurKKTSolver::buildMatrixPattern() {
  const int m = myMg + myMn;
  // Rows sharing a block are coupled. Consecutive rows on the same blocks
  // (a joint's rows) have the same pattern: they form one group of the
  // blocked factorization.
  std::vector<std::vector<int>> rowBlocks(m);
  for (size_t b = 0; b < myBlocks.size(); ++b)
    for (int r : myBlocks[b].rows) rowBlocks[r].push_back(static_cast<int>(b));
  std::vector<int> group(m), local(m), sizes;
  for (int r = 0; r < m; ++r) {
    if (r == 0 || rowBlocks[r] != rowBlocks[r - 1]) sizes.push_back(0);
    group[r] = static_cast<int>(sizes.size()) - 1;
    local[r] = sizes.back()++;
  }
  std::vector<std::pair<int, int>> pairs;
  for (auto& B : myBlocks)
    for (size_t j = 0; j < B.rows.size(); ++j)
      for (size_t i = 0; i < j; ++i)
        if (group[B.rows[i]] != group[B.rows[j]]) pairs.emplace_back(group[B.rows[i]], group[B.rows[j]]);
  myChol.analyze(sizes, pairs);
  auto pos = [&](int r, int c) { return myChol.position(group[r], local[r], group[c], local[c]); };
  myPerm.resize(m);
  myDiagPos.resize(m);
  for (int i = 0; i < m; ++i) {
    myPerm[i] = myChol.offset(group[i]) + local[i];
    myDiagPos[i] = pos(i, i);
  }
  myPairPos.clear();
  for (auto& B : myBlocks) {
    B.pairOffset = static_cast<int>(myPairPos.size());
    for (size_t j = 0; j < B.rows.size(); ++j)
      for (size_t i = 0; i <= j; ++i) myPairPos.push_back(pos(B.rows[i], B.rows[j]));
  }
}

// --------------------------------------------------------------- numbers

bool SchurKKTSolver::factorBlocks(const SparseMatrixd& S) {
  // Each block's columns are contiguous in S's value array.
  bool ok = true;
  myDiagScale = 1.0;
  for (auto& B : myBlocks) {
    const double* s = S.valuePtr() + S.outerIndexPtr()[B.start];
    double* x = myLinv.data() + B.xOffset;
    std::copy(s, s + B.size * B.size, x);
    for (int k = 0; k < B.size; ++k) myDiagScale = std::max(myDiagScale, std::abs(x[k + k * B.size]));
    if (B.size == 6 && invertSplitCholesky(x)) continue;
    withBlock(B.size, [&](auto K) { ok = ok && K.invertCholesky(x); });
  }
  return ok;
}

void SchurKKTSolver::fillConstraintBlocks(const ConstraintRows& G, const ConstraintRows& N,
                                          const std::vector<char>& active) {
  // Rows outside the active set keep zero entries: they decouple.
  size_t k = 0;
  if (myZCoveredOnce) {
    for (auto& e : G.entries) myZ[myEntryDst[k++]] = e.value();
    for (auto& e : N.entries) myZ[myEntryDst[k++]] = active[e.row()] ? e.value() : 0.0;
  } else {
    std::fill(myZ.begin(), myZ.end(), 0.0);
    for (auto& e : G.entries) myZ[myEntryDst[k++]] += e.value();
    for (auto& e : N.entries) {
      if (active[e.row()]) myZ[myEntryDst[k]] += e.value();
      ++k;
    }
  }
  // Each row g of a block becomes z = L⁻¹ gᵀ, so G S⁻¹ Gᵀ = Z Zᵀ.
  for (auto& B : myBlocks)
    withBlock(B.size, [&](auto K) {
      for (size_t i = 0; i < B.rows.size(); ++i) K.mul(myLinv.data() + B.xOffset, myZ.data() + B.zOffset + i * B.size);
    });
}

void SchurKKTSolver::assemble(const ConstraintRows& G, const ConstraintRows& N, const std::vector<char>& active,
                              double eps) {
  std::vector<double>& values = myChol.values();
  std::fill(values.begin(), values.end(), 0.0);
  double* a = values.data();
  for (int i = 0; i < myMg; ++i) a[myDiagPos[i]] += G.compliance[i] + eps;
  for (int i = 0; i < myMn; ++i) a[myDiagPos[myMg + i]] += active[i] ? N.compliance[i] + eps : 1.0;
  for (auto& B : myBlocks)
    withBlock(B.size, [&](auto K) {
      const double* z = myZ.data() + B.zOffset;
      const int* pos = myPairPos.data() + B.pairOffset;
      const int r = static_cast<int>(B.rows.size());
      for (int j = 0; j < r; ++j)
        for (int i = 0; i <= j; ++i) a[*pos++] += K.dot(z + i * B.size, z + j * B.size);
    });
}

bool SchurKKTSolver::assembleAndFactor(const ConstraintRows& G, const ConstraintRows& N,
                                       const std::vector<char>& active) {
  assemble(G, N, active, 0.0);
  // A pivot that lost all but a few digits means redundant rows (a closed
  // loop of joints): add the KKT path's regularization, which bounds their
  // impulses, and factor again (and refine the solution against the exact
  // system). Otherwise A is factored exactly and its solution taken as it
  // is.
  myRegularized = false;
  if (myChol.factor() && myChol.minPivotRatio() >= 1e-13) return true;
  myRegularized = true;
  assemble(G, N, active, 1e-12 * myDiagScale);
  return myChol.factor();
}

void SchurKKTSolver::eliminate(const Eigen::VectorXd& bf, const Eigen::VectorXd& c, Eigen::VectorXd& u,
                               Eigen::VectorXd& mu) {
  const int m = myMg + myMn;
  // y = L⁻¹ b_f block by block; A's right-hand side is c − Z y.
  myY = bf;
  myRhs.resize(m);
  for (int i = 0; i < m; ++i) myRhs[myPerm[i]] = c[i];
  for (auto& B : myBlocks)
    withBlock(B.size, [&](auto K) {
      double* y = myY.data() + B.start;
      K.mul(myLinv.data() + B.xOffset, y);
      for (size_t i = 0; i < B.rows.size(); ++i)
        myRhs[myPerm[B.rows[i]]] -= K.dot(myZ.data() + B.zOffset + i * B.size, y);
    });
  myChol.solve(myRhs.data());
  mu.resize(m);
  for (int i = 0; i < m; ++i) mu[i] = myRhs[myPerm[i]];
  // u = L⁻ᵀ (y + Zᵀ μ).
  u.resize(myN);
  for (auto& B : myBlocks)
    withBlock(B.size, [&](auto K) {
      double* x = u.data() + B.start;
      std::copy(myY.data() + B.start, myY.data() + B.start + B.size, x);
      for (size_t i = 0; i < B.rows.size(); ++i) K.axpy(mu[B.rows[i]], myZ.data() + B.zOffset + i * B.size, x);
      K.mulTransposed(myLinv.data() + B.xOffset, x);
    });
}

double SchurKKTSolver::residual(const SparseMatrixd& S, const ConstraintRows& G, const ConstraintRows& N,
                                const std::vector<char>& active, const Eigen::VectorXd& bf,
                                const Eigen::VectorXd& c, const Eigen::VectorXd& u) {
  // S u block by block: each block's columns are contiguous in S.
  myRf = bf;
  for (auto& B : myBlocks)
    withBlock(B.size, [&](auto K) {
      const double* s = S.valuePtr() + S.outerIndexPtr()[B.start];
      for (int c = 0; c < K.size(); ++c) K.axpy(-u[B.start + c], s + c * K.size(), myRf.data() + B.start);
    });
  myRc = c;
  for (int i = 0; i < myMg; ++i) myRc[i] -= G.compliance[i] * myMu[i];
  for (auto& e : G.entries) {
    myRf[e.col()] += e.value() * myMu[e.row()];
    myRc[e.row()] -= e.value() * u[e.col()];
  }
  for (int i = 0; i < myMn; ++i) myRc[myMg + i] = active[i] ? myRc[myMg + i] - N.compliance[i] * myMu[myMg + i] : 0.0;
  for (auto& e : N.entries) {
    if (!active[e.row()]) continue;
    myRf[e.col()] += e.value() * myMu[myMg + e.row()];
    myRc[myMg + e.row()] -= e.value() * u[e.col()];
  }
  return std::max(myRf.lpNorm<Eigen::Infinity>(), myRc.lpNorm<Eigen::Infinity>());
}

bool SchurKKTSolver::solve(const SparseMatrixd& S, bool sPatternChanged, const Eigen::VectorXd& bf,
                           const ConstraintRows& G, const ConstraintRows& N, const std::vector<char>& active,
                           Eigen::VectorXd& u, Eigen::VectorXd& lambda, Eigen::VectorXd& theta) {
  if (sPatternChanged || !structureMatches(S, G, N)) buildPlan(S, G, N);
  if (!factorBlocks(S)) return false;
  fillConstraintBlocks(G, N, active);
  if (!assembleAndFactor(G, N, active)) return false;
  const int m = myMg + myMn;
  myC.resize(m);
  for (int i = 0; i < myMg; ++i) myC[i] = G.rhs[i];
  for (int i = 0; i < myMn; ++i) myC[myMg + i] = active[i] ? N.rhs[i] : 0.0;
  myFactoredHard = myMn == 0 && std::all_of(G.compliance.begin(), G.compliance.end(), [](double c) { return c == 0; });
  if (!eliminateAndRefine(S, G, N, active, bf, u)) return false;
  lambda = myMu.head(myMg);
  theta = myMu.tail(myMn);
  return true;
}

bool SchurKKTSolver::solveResponse(const Eigen::VectorXd& bf, const ConstraintRows& G, const ConstraintRows& N,
                                   Eigen::VectorXd& u, Eigen::VectorXd& lambda, Eigen::VectorXd& theta) {
  if (!myValid || G.numRows() != myMg || N.numRows() != myMn || bf.size() != myN) return false;
  myC.setZero(myMg + myMn);
  // One elimination, unrefined: with redundant rows A carries a relative
  // regularization of round-off size, which moves a response by as little.
  eliminate(bf, myC, u, myMu);
  lambda = myMu.head(myMg);
  theta = myMu.tail(myMn);
  return true;
}

bool SchurKKTSolver::delassus(const std::vector<std::vector<std::pair<int, double>>>& rows,
                              const std::vector<int>& which, int mg, int mn, Eigen::MatrixXd& W) {
  if (!myValid || mg != myMg || mn != myMn) return false;
  const int nb = static_cast<int>(which.size()), m = myMg + myMn;
  // The rank update costs nb²m/2; a response per row about twice the
  // factor's size, two passes over the blocks and the row's products.
  if (0.5 * nb * m > 2.0 * myChol.values().size() + 12.0 * (myN + nb)) return false;
  // y_j = L⁻¹ e_j on the blocks row j touches (zero elsewhere, and never
  // read there: only those segments are cleared).
  myYJ.resize(myN, nb);
  myRowBlocks.resize(nb);
  for (int j = 0; j < nb; ++j) {
    std::vector<int>& blocks = myRowBlocks[j];
    blocks.clear();
    for (auto [col, value] : rows[which[j]]) {
      const int b = myBlockOfDof[col];
      if (std::find(blocks.begin(), blocks.end(), b) == blocks.end()) {
        blocks.push_back(b);
        myYJ.col(j).segment(myBlocks[b].start, myBlocks[b].size).setZero();
      }
      myYJ(col, j) += value;
    }
  }
  // P = −Z Y in myChol's order, as eliminate() forms its right-hand side
  // (the sign does not matter below); Y's columns become L⁻¹ e_j on the way.
  myPJ.setZero(m, nb);
  for (int j = 0; j < nb; ++j)
    for (int b : myRowBlocks[j]) {
      const BlockRows& B = myBlocks[b];
      withBlock(B.size, [&](auto K) {
        double* y = myYJ.col(j).data() + B.start;
        K.mul(myLinv.data() + B.xOffset, y);
        for (size_t i = 0; i < B.rows.size(); ++i)
          myPJ(myPerm[B.rows[i]], j) -= K.dot(myZ.data() + B.zOffset + i * B.size, y);
      });
    }
  // Pᵀ C⁻¹ P = QᵀQ with Q = L_C⁻¹ P: half a solve per row, all rows at once.
  myChol.solveLowerRows(myPJ.data(), nb);
  W.setZero(nb, nb);
  subtractCoupling(nb, W);
  // YᵀY: rows meet only on a block they share.
  myBlockRowsJ.resize(myBlocks.size());
  for (auto& on : myBlockRowsJ) on.clear();
  for (int j = 0; j < nb; ++j)
    for (int b : myRowBlocks[j]) myBlockRowsJ[b].push_back(j);
  for (size_t b = 0; b < myBlocks.size(); ++b) {
    const BlockRows& B = myBlocks[b];
    const std::vector<int>& on = myBlockRowsJ[b];
    for (size_t x = 0; x < on.size(); ++x)
      for (size_t z = 0; z <= x; ++z) {
        const int i = std::max(on[x], on[z]), j = std::min(on[x], on[z]);
        W(i, j) += myYJ.col(i).segment(B.start, B.size).dot(myYJ.col(j).segment(B.start, B.size));
      }
  }
  W.triangularView<Eigen::StrictlyUpper>() = W.transpose();
  return true;
}

bool SchurKKTSolver::eliminateAndRefine(const SparseMatrixd& S, const ConstraintRows& G, const ConstraintRows& N,
                                        const std::vector<char>& active, const Eigen::VectorXd& bf,
                                        Eigen::VectorXd& u) {
  // Refine against the exact system until the residual is at round-off,
  // with the KKT path's tolerance and step limit. Cholesky of the exact A
  // is backward stable, so without regularization the residual is at
  // round-off already (chains of 1000 links, whose pivots fall to 1e-10 of
  // their diagonals, measured 1e-16 of the right-hand side): refinement is
  // for the regularized A of redundant rows.
  eliminate(bf, myC, u, myMu);
  if (!myRegularized) return true;
  const double scale = std::max({1.0, bf.lpNorm<Eigen::Infinity>(), myC.lpNorm<Eigen::Infinity>()});
  for (int k = 0;; ++k) {
    const double r = residual(S, G, N, active, bf, myC, u);
    if (r <= 1e-14 * scale) return true;
    if (k == 3) return r <= 1e-8 * scale;  // e.g. redundant rows: leave them to the KKT path
    eliminate(myRf, myRc, myDu, myDmu);
    u += myDu;
    myMu += myDmu;
  }
}

bool SchurKKTSolver::solveAgain(const Eigen::VectorXd& bf, const ConstraintRows& G, Eigen::VectorXd& u,
                                Eigen::VectorXd& lambda) {
  if (!myValid || !myFactoredHard || G.numRows() != myMg || bf.size() != myN) return false;
  for (double c : G.compliance)
    if (c != 0) return false;
  myC = Eigen::Map<const Eigen::VectorXd>(G.rhs.data(), myMg);
  eliminate(bf, myC, u, myMu);
  lambda = myMu;
  return true;
}

}  // namespace sinew
