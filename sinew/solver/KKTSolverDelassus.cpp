// KKTSolver's robust path for unilateral and friction rows (guide §8.9.4,
// seed 000 eq. 1.6): projected Gauss–Seidel over their dense Delassus
// matrix, formed with the bilateral rows held exactly. It takes over where
// the exact path fails: block principal pivoting that cycles, or a friction
// pass that would add energy — both the work of redundant contact rows (a
// shank's square foot on the ground gives four normal rows for three free
// directions), whose held-active-set responses come from a nearly singular
// factorization. Gauss–Seidel needs no such factorization: the joints'
// rows stay exact, redundant contact rows share their load, and no sweep
// adds energy.
#include <algorithm>
#include <cmath>
#include <limits>

#include "sinew/solver/KKTSolver.h"
#include "sinew/solver/ProjectedGaussSeidel.h"

namespace sinew {

bool KKTSolver::solveByDelassus(const SparseMatrixd& S, const Eigen::VectorXd& bf, const ConstraintRows& G,
                                const ConstraintRows& N, Eigen::VectorXd& u, Eigen::VectorXd& lambda,
                                Eigen::VectorXd& theta, bool warm, const Eigen::VectorXd* phiStart) {
  const FrictionRows* D = myFriction && myFriction->numRows() > 0 ? myFriction : nullptr;
  const int nn = N.numRows(), nd = D ? D->numRows() : 0, nb = nn + nd;
  const int n = static_cast<int>(S.rows());
  if (contactsAlone(S, G, false)) {
    // Rigid bodies in contact alone: the sparse operator, never formed.
    myUsedContact = true;
    const bool solved = myContact.solve(S, myContactStale, bf, N, D, u, theta, myPhi, warm, phiStart);
    myContactStale = false;
    lambda.resize(0);
    return solved;
  }
  myPhi.setZero(nd);
  if (nb == 0 || nb > myMaxDenseRows) return true;
  Eigen::VectorXd z = Eigen::VectorXd::Zero(nb);
  if (warm && theta.size() == nn) z.head(nn) = theta.cwiseMax(0.0);
  // The velocities with the bilateral rows alone; its factors give the
  // responses below.
  Eigen::VectorXd u0, l0, t0;
  if (!solveEqualities(S, false, bf, G, N, std::vector<char>(nn, 0), u0, l0, t0)) return false;
  ConstraintRows::EntryLists& entries = myRowEntries;
  N.entryLists(entries);
  if (D) D->rows.entryLists(entries, nn);
  // W = J A⁻¹ Jᵀ + R with the bilateral rows held.
  Eigen::MatrixXd& W = myW;
  std::vector<int> all(nb);
  for (int j = 0; j < nb; ++j) all[j] = j;
  if (!delassusMatrix(S, G, N, entries, all, W)) return false;
  Eigen::VectorXd e(n), uj, lj, tj, r(nb);
  PGSBounds bounds{Eigen::VectorXd::Zero(nb), Eigen::VectorXd::Constant(nb, std::numeric_limits<double>::infinity()),
                   std::vector<int>(nb, -1)};
  double scale = 0;
  for (int j = 0; j < nb; ++j) {
    const bool normal = j < nn;
    const double b = normal ? N.rhs[j] : D->rows.rhs[j - nn];
    W(j, j) += normal ? N.compliance[j] : D->rows.compliance[j - nn];
    r[j] = rowTimes(entries[j], u0) - b;
    scale = std::max({scale, std::abs(b), std::abs(r[j])});
    if (!normal) {
      bounds.boundBy[j] = D->normalRow[j - nn];
      bounds.hi[j] = D->mu[j - nn];
    }
  }
  r += W * z;
  projectedGaussSeidel(W, bounds, r, z, 1e-10 * scale);
  // u and λ: the free solution plus the response to the impulses Jᵀz.
  e.setZero();
  for (int i = 0; i < nb; ++i)
    for (auto [col, value] : entries[i]) e[col] += value * z[i];
  if (!solveResponse(S, e, G, N, uj, lj, tj)) return false;
  u = u0 + uj;
  lambda = l0 + lj;
  theta = z.head(nn);
  myPhi = z.tail(nd);
  return true;
}

}  // namespace sinew
