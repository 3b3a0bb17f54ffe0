// Projected Gauss–Seidel over a dense Delassus matrix (guide §8.9.4): the
// box-bounded convex QP   min ½ xᵀW x + (r₀ − W x₀)ᵀx,   where r = r₀ +
// W (x − x₀) is the velocity the rows see. Each row's bounds are fixed,
// or (friction) ±μ_i times the current impulse of another row (its normal
// row), updated as that row changes. Each update lowers the objective —
// the kinetic energy the impulses leave, less the work of the rows' right-
// hand sides — so a stopped iteration never adds energy, and redundant
// rows (W singular) only share their load.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <vector>

namespace sinew {

struct PGSBounds {
  Eigen::VectorXd lo, hi;  ///< fixed bounds; for a coupled row, hi is μ
  std::vector<int> boundBy;  ///< −1: fixed; else the row whose impulse times μ bounds |x_i|
  /// Row i's bounds at the impulses x.
  void at(const Eigen::VectorXd& x, int i, double& rowLo, double& rowHi) const {
    if (boundBy.empty() || boundBy[i] < 0) {
      rowLo = lo[i], rowHi = hi[i];
    } else {
      rowHi = hi[i] * std::max(x[boundBy[i]], 0.0);
      rowLo = -rowHi;
    }
  }
};

/// Sweeps from x until no row's velocity changes by more than `tol` in a
/// sweep (|Δx_i| W_ii: redundant rows may trade impulse long after their
/// velocities have settled) or after `maxSweeps`; r is kept equal to r₀ +
/// W (x − x₀). x is first moved into its bounds. From the 64th sweep, at
/// doubling intervals, a subspace step (ProjectedGaussSeidel.cpp) solves
/// the rows off their bounds directly, and ends the solve where that
/// meets the tolerance (up to 256 rows, once the sweeps reach half their
/// number). Returns the sweeps taken, counting to the sweep after which
/// the subspace step ended it (maxSweeps + 1 if not converged).
int projectedGaussSeidel(const Eigen::MatrixXd& W, const PGSBounds& bounds, Eigen::VectorXd& r, Eigen::VectorXd& x,
                         double tol, int maxSweeps = 2000);

}  // namespace sinew
