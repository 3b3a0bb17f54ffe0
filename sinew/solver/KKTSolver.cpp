#include "sinew/solver/KKTSolver.h"

namespace sinew {

std::string KKTSolver::backendName() const {
  if (myKKTSolver) return myKKTSolver->name();
  if (mySolver) return mySolver->name();
  return toString(myType);
}

namespace {
bool samePattern(const SparseMatrixd& a, const SparseMatrixd& b) {
  if (a.rows() != b.rows() || a.nonZeros() != b.nonZeros()) return false;
  return std::equal(a.outerIndexPtr(), a.outerIndexPtr() + a.outerSize() + 1, b.outerIndexPtr()) &&
         std::equal(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros(), b.innerIndexPtr());
}
}  // namespace

bool KKTSolver::solveEqualities(const SparseMatrixd& S, const Eigen::VectorXd& bf, const ConstraintRows& G,
                                const ConstraintRows& N, const std::vector<char>& active, Eigen::VectorXd& u,
                                Eigen::VectorXd& lambda, Eigen::VectorXd& theta) {
  const int n = static_cast<int>(S.rows());
  const int mg = G.numRows();
  // Map unilateral rows in the active set to KKT rows after the bilateral ones.
  std::vector<int> krow(N.numRows(), -1);
  int m = mg;
  for (int i = 0; i < N.numRows(); ++i)
    if (active[i]) krow[i] = n + m++;
  myTrips.clear();
  myTrips.reserve(S.nonZeros() + 2 * (G.entries.size() + N.entries.size()) + m);
  for (int c = 0; c < S.outerSize(); ++c)
    for (SparseMatrixd::InnerIterator it(S, c); it; ++it) myTrips.emplace_back(it.row(), it.col(), it.value());
  // [S −Gᵀ; −G −R]: symmetric, quasi-definite.
  for (auto& e : G.entries) {
    myTrips.emplace_back(n + e.row(), e.col(), -e.value());
    myTrips.emplace_back(e.col(), n + e.row(), -e.value());
  }
  for (auto& e : N.entries) {
    if (krow[e.row()] < 0) continue;
    myTrips.emplace_back(krow[e.row()], e.col(), -e.value());
    myTrips.emplace_back(e.col(), krow[e.row()], -e.value());
  }
  for (int i = 0; i < mg; ++i) myTrips.emplace_back(n + i, n + i, -G.compliance[i]);
  for (int i = 0; i < N.numRows(); ++i)
    if (krow[i] >= 0) myTrips.emplace_back(krow[i], krow[i], -N.compliance[i]);

  SparseMatrixd K(n + m, n + m);
  K.setFromTriplets(myTrips.begin(), myTrips.end());
  bool changed = !samePattern(K, myKKT);
  myKKT = std::move(K);
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
  if (G.numRows() == 0 && N.numRows() == 0) {
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
    if (!solveEqualities(S, bf, G, N, active, u, lambda, theta)) return false;
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
