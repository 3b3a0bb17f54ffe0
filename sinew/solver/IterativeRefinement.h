// Iterative refinement of a KKT solve against the exact matrix (internal;
// docs/solvers.md, "Sparse solver backends"): the backends that regularize
// the constraint block (EigenLDLT, CholmodSchur) remove that change here.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "sinew/solver/LinearSolver.h"

namespace sinew {

/// Improves x for K x = b with corrections dx = solve(r) of the residual r
/// (r is the caller's workspace) until the residual is at round-off, while
/// each step at least halves it after the first `minSteps` (redundant rows,
/// whose residual cannot vanish, stop it), at most 30 steps.
template <class Solve>
void refineAgainst(const SparseMatrixd& K, const Eigen::VectorXd& b, Eigen::VectorXd& x, Eigen::VectorXd& r,
                   int minSteps, Solve&& solve) {
  const double tol = 1e-14 * std::max(1.0, b.lpNorm<Eigen::Infinity>());
  double prev = INFINITY;
  for (int k = 0; k < 30; ++k) {
    r = b - K * x;
    const double norm = r.lpNorm<Eigen::Infinity>();
    if (norm <= tol || (k >= minSteps && norm > 0.5 * prev)) break;
    prev = norm;
    x += solve(r);
  }
}

}  // namespace sinew
