#include "sinew/solver/KKTSolver.h"

#include <algorithm>
#include <cmath>

namespace sinew {

std::string KKTSolver::backendName() const {
  if (myUsedSchur) return "Schur";
  if (myKKTSolver) return myKKTSolver->name();
  if (mySolver) return mySolver->name();
  return toString(myType);
}

bool KKTSolver::assembleKKT(const SparseMatrixd& S, bool sPatternChanged, const ConstraintRows& G,
                            const ConstraintRows& N, const std::vector<int>& krow, int m) {
  const int n = static_cast<int>(S.rows());
  // The structure: every constraint entry's KKT row and column.
  std::vector<int> rows, cols;
  rows.reserve(G.entries.size() + N.entries.size());
  cols.reserve(rows.capacity());
  for (auto& e : G.entries) rows.push_back(n + e.row()), cols.push_back(e.col());
  for (auto& e : N.entries)
    if (krow[e.row()] >= 0) rows.push_back(krow[e.row()]), cols.push_back(e.col());
  Plan& P = myPlan;
  const bool same = P.valid && !sPatternChanged && P.n == n && P.m == m && P.sNnz == S.nonZeros() &&
                    P.rows == rows && P.cols == cols;
  if (!same) {
    myTrips.clear();
    for (int c = 0; c < S.outerSize(); ++c)
      for (SparseMatrixd::InnerIterator it(S, c); it; ++it) myTrips.emplace_back(it.row(), it.col(), 0.0);
    for (size_t k = 0; k < rows.size(); ++k) {
      myTrips.emplace_back(rows[k], cols[k], 0.0);
      myTrips.emplace_back(cols[k], rows[k], 0.0);
    }
    for (int i = 0; i < m; ++i) myTrips.emplace_back(n + i, n + i, 0.0);
    myKKT.resize(n + m, n + m);
    myKKT.setFromTriplets(myTrips.begin(), myTrips.end());
    P.sPos.clear();
    for (int c = 0; c < S.outerSize(); ++c)
      for (SparseMatrixd::InnerIterator it(S, c); it; ++it) P.sPos.push_back(valuePosition(myKKT, it.row(), c));
    P.cPosLo.resize(rows.size());
    P.cPosUp.resize(rows.size());
    for (size_t k = 0; k < rows.size(); ++k) {
      P.cPosLo[k] = valuePosition(myKKT, rows[k], cols[k]);
      P.cPosUp[k] = valuePosition(myKKT, cols[k], rows[k]);
    }
    P.diagPos.resize(m);
    for (int i = 0; i < m; ++i) P.diagPos[i] = valuePosition(myKKT, n + i, n + i);
    P.rows = std::move(rows);
    P.cols = std::move(cols);
    P.n = n;
    P.m = m;
    P.sNnz = S.nonZeros();
    P.valid = true;
  }
  // Values: [S −Gᵀ; −G −R], symmetric and quasi-definite.
  double* v = myKKT.valuePtr();
  std::fill(v, v + myKKT.nonZeros(), 0.0);
  const double* sv = S.valuePtr();
  for (size_t k = 0; k < P.sPos.size(); ++k) v[P.sPos[k]] += sv[k];
  size_t k = 0;
  for (auto& e : G.entries) {
    v[P.cPosLo[k]] -= e.value();
    v[P.cPosUp[k]] -= e.value();
    ++k;
  }
  for (auto& e : N.entries) {
    if (krow[e.row()] < 0) continue;
    v[P.cPosLo[k]] -= e.value();
    v[P.cPosUp[k]] -= e.value();
    ++k;
  }
  const int mg = G.numRows();
  for (int i = 0; i < mg; ++i) v[P.diagPos[i]] -= G.compliance[i];
  for (int i = 0; i < N.numRows(); ++i)
    if (krow[i] >= 0) v[P.diagPos[krow[i] - n]] -= N.compliance[i];
  return !same;
}

bool KKTSolver::useSchur(const SparseMatrixd& S, bool sPatternChanged) {
  if (myType != LinearSolverType::Auto) return false;
  if (sPatternChanged || !myBlocksKnown) {
    std::vector<int> starts;
    myBlockDiagonal = SchurKKTSolver::findDiagonalBlocks(S, starts);
    myBlocksKnown = true;
  }
  return myBlockDiagonal;
}

bool KKTSolver::solveEqualities(const SparseMatrixd& S, bool sPatternChanged, const Eigen::VectorXd& bf,
                                const ConstraintRows& G, const ConstraintRows& N, const std::vector<char>& active,
                                Eigen::VectorXd& u, Eigen::VectorXd& lambda, Eigen::VectorXd& theta) {
  myUsedSchur = useSchur(S, sPatternChanged) && mySchur.solve(S, sPatternChanged, bf, G, N, active, u, lambda, theta);
  if (myUsedSchur) return true;
  const int n = static_cast<int>(S.rows());
  const int mg = G.numRows();
  // Unilateral rows in the active set follow the bilateral ones.
  std::vector<int> krow(N.numRows(), -1);
  int m = mg;
  for (int i = 0; i < N.numRows(); ++i)
    if (active[i]) krow[i] = n + m++;
  bool changed = assembleKKT(S, sPatternChanged, G, N, krow, m);
  if (!myKKTSolver) {
    myKKTSolver = LinearSolver::create(myType, n + m, m);
    changed = true;
  }
  if (!myKKTSolver->factor(myKKT, m, changed)) return false;

  myRhs.resize(n + m);
  myRhs.head(n) = bf;
  for (int i = 0; i < mg; ++i) myRhs[n + i] = -G.rhs[i];
  for (int i = 0; i < N.numRows(); ++i)
    if (krow[i] >= 0) myRhs[krow[i]] = -N.rhs[i];
  myKKTSolver->solve(myRhs, mySol);
  u = mySol.head(n);
  lambda = mySol.segment(n, mg);
  theta.setZero(N.numRows());
  for (int i = 0; i < N.numRows(); ++i)
    if (krow[i] >= 0) theta[i] = mySol[krow[i]];
  return true;
}

bool KKTSolver::solve(const SparseMatrixd& S, bool sPatternChanged, const Eigen::VectorXd& bf,
                      const ConstraintRows& G, const ConstraintRows& N, Eigen::VectorXd& u,
                      Eigen::VectorXd& lambda, Eigen::VectorXd& theta) {
  myPhi.resize(0);
  if (!solveLCP(S, sPatternChanged, bf, G, N, u, lambda, theta)) return false;
  if (!myFriction || myFriction->numRows() == 0) return true;
  return solveFriction(S, bf, G, N, u, lambda, theta);
}

bool KKTSolver::solveAgain(const Eigen::VectorXd& bf, const ConstraintRows& G, const ConstraintRows& N,
                           Eigen::VectorXd& u, Eigen::VectorXd& lambda, Eigen::VectorXd& theta) {
  if (!canSolveAgain() || N.numRows() > 0) return false;
  if (!mySchur.solveAgain(bf, G, u, lambda)) return false;
  theta.resize(0);
  return true;
}

bool KKTSolver::solveFriction(const SparseMatrixd& S, const Eigen::VectorXd& bf, const ConstraintRows& G,
                              const ConstraintRows& N, Eigen::VectorXd& u, Eigen::VectorXd& lambda,
                              Eigen::VectorXd& theta) {
  const FrictionRows& D = *myFriction;
  const int nd = D.numRows(), mg = G.numRows();
  // Bounds from the normal impulses just found; rows without normal
  // impulse carry no friction.
  Eigen::VectorXd bound(nd);
  for (int k = 0; k < nd; ++k) bound[k] = D.mu[k] * std::max(theta[D.normalRow[k]], 0.0);
  // State of each row: 0 sticking (an equality), +1 or −1 sliding with the
  // impulse at ±bound, 2 without friction.
  std::vector<int> state(nd);
  for (int k = 0; k < nd; ++k) state[k] = bound[k] > 0 ? 0 : 2;
  std::vector<std::vector<std::pair<int, double>>> rowEntries(nd);
  for (const auto& e : D.rows.entries) rowEntries[e.row()].emplace_back(e.col(), e.value());
  // Sticking rows are usually redundant (a box's four corners give eight
  // rows for three tangential freedoms), and a hard redundant row may take
  // any impulse along the null space, far beyond its bound. A compliance
  // of 1e-8 of each row's own D S⁻¹ Dᵀ (from S's diagonal) selects the
  // smallest impulses; it lets a sticking contact creep at 1e-8 of the
  // speed its friction impulse would give it (ArtiSynth's stictionCreep).
  const Eigen::VectorXd sdiag = S.diagonal();
  Eigen::VectorXd creep = Eigen::VectorXd::Zero(nd);
  for (int k = 0; k < nd; ++k)
    for (auto [col, v] : rowEntries[k]) creep[k] += 1e-8 * v * v / sdiag[col];
  myPhi.setZero(nd);
  Eigen::VectorXd bfx, lamx;
  std::vector<int> gxRow(nd);
  for (int iter = 0, maxIter = 2 * nd + 5; iter < maxIter; ++iter) {
    myGx = G;
    bfx = bf;
    for (int k = 0; k < nd; ++k) {
      if (state[k] == 0) {
        gxRow[k] = myGx.numRows();
        for (auto [col, v] : rowEntries[k]) myGx.entries.emplace_back(gxRow[k], col, v);
        myGx.rhs.push_back(D.rows.rhs[k]);
        myGx.compliance.push_back(D.rows.compliance[k] + creep[k]);
      } else if (state[k] != 2) {
        myPhi[k] = state[k] * bound[k];
        for (auto [col, v] : rowEntries[k]) bfx[col] += v * myPhi[k];
      }
    }
    if (!solveLCP(S, false, bfx, myGx, N, u, lamx, theta)) return false;
    lambda = lamx.head(mg);
    bool changed = false;
    for (int k = 0; k < nd; ++k) {
      if (state[k] == 2) continue;
      if (state[k] == 0) {
        myPhi[k] = lamx[gxRow[k]];
        if (std::abs(myPhi[k]) > bound[k] * (1 + 1e-12)) state[k] = myPhi[k] > 0 ? 1 : -1, changed = true;
        continue;
      }
      // Sliding: the impulse must oppose the slip w = D u − b.
      double w = -D.rows.rhs[k];
      for (auto [col, v] : rowEntries[k]) w += v * u[col];
      if (state[k] * w > 1e-12) state[k] = 0, changed = true;
    }
    if (!changed) break;
  }
  for (int k = 0; k < nd; ++k)
    if (state[k] == 2) myPhi[k] = 0;
  return true;
}

bool KKTSolver::solveLCP(const SparseMatrixd& S, bool sPatternChanged, const Eigen::VectorXd& bf,
                         const ConstraintRows& G, const ConstraintRows& N, Eigen::VectorXd& u,
                         Eigen::VectorXd& lambda, Eigen::VectorXd& theta) {
  if (G.numRows() == 0 && N.numRows() == 0) {
    myUsedSchur = false;
    if (!mySolver) {
      mySolver = LinearSolver::create(myType, static_cast<int>(S.rows()), 0);
      sPatternChanged = true;
    }
    if (!mySolver->factor(S, 0, sPatternChanged)) return false;
    mySolver->solve(bf, u);
    lambda.resize(0);
    theta.resize(0);
    return true;
  }
  // Block principal pivoting on the unilateral rows: start with the rows
  // that are touching or violated, drop rows that pull, add rows that
  // would be violated.
  std::vector<char> active(N.numRows());
  for (int i = 0; i < N.numRows(); ++i) active[i] = N.rhs[i] >= 0;
  Eigen::VectorXd w;
  const int maxIter = 2 * N.numRows() + 5;
  for (int iter = 0; iter < maxIter; ++iter) {
    if (!solveEqualities(S, sPatternChanged, bf, G, N, active, u, lambda, theta)) return false;
    sPatternChanged = false;
    if (N.numRows() == 0) return true;
    bool changed = false;
    // w = N u + R θ − b over all rows.
    w = Eigen::VectorXd::Zero(N.numRows());
    for (auto& e : N.entries) w[e.row()] += e.value() * u[e.col()];
    for (int i = 0; i < N.numRows(); ++i) {
      w[i] += N.compliance[i] * theta[i] - N.rhs[i];
      const double tol = 1e-12 * (1 + std::abs(N.rhs[i]));
      if (active[i] && theta[i] < -tol) { active[i] = 0; changed = true; }
      else if (!active[i] && w[i] < -tol) { active[i] = 1; changed = true; }
    }
    if (!changed) {
      for (int i = 0; i < N.numRows(); ++i) theta[i] = std::max(theta[i], 0.0);
      return true;
    }
  }
  return true;  // best effort after maxIter passes
}

}  // namespace sinew
