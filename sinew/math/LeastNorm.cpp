#include "sinew/math/LeastNorm.h"

#include <Eigen/QR>

namespace sinew {

Eigen::VectorXd leastNormSolve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, double threshold) {
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  if (threshold >= 0) cod.setThreshold(threshold);
  cod.compute(A);
  return cod.solve(b);
}

}  // namespace sinew
