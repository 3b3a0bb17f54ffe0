// The least-norm least-squares solve of a small dense system, for the
// places that meet rank-deficient matrices on purpose: the subspace step of
// projected Gauss–Seidel over redundant contact rows (guide §8.6, §8.9.4)
// and the weights of a nodal-based attachment (guide §6.4.8).
#pragma once

#include <Eigen/Core>

namespace sinew {

/// The x of least norm among those that minimize |A x − b|, with A's rank
/// taken at the relative pivot `threshold` (Eigen's complete orthogonal
/// decomposition; a negative threshold: Eigen's default, round-off). The
/// threshold is set before the decomposition, which forms its Z for the
/// rank it finds then: set afterwards, a threshold that lowers the rank
/// made the solve read Z coefficients never formed.
Eigen::VectorXd leastNormSolve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, double threshold = -1);

}  // namespace sinew
