#include "sinew/solver/ProjectedGaussSeidel.h"

#include <algorithm>
#include <cmath>

namespace sinew {

namespace {
void rowBounds(const PGSBounds& b, const Eigen::VectorXd& x, int i, double& lo, double& hi) {
  if (b.boundBy.empty() || b.boundBy[i] < 0) {
    lo = b.lo[i], hi = b.hi[i];
  } else {
    hi = b.hi[i] * std::max(x[b.boundBy[i]], 0.0);
    lo = -hi;
  }
}

void clampToBounds(const Eigen::MatrixXd& W, const PGSBounds& bounds, Eigen::VectorXd& r, Eigen::VectorXd& x) {
  double lo, hi;
  for (int i = 0; i < x.size(); ++i) {
    rowBounds(bounds, x, i, lo, hi);
    const double d = std::clamp(x[i], lo, hi) - x[i];
    if (d != 0) r += W.col(i) * d, x[i] += d;
  }
}
}  // namespace

int projectedGaussSeidel(const Eigen::MatrixXd& W, const PGSBounds& bounds, Eigen::VectorXd& r, Eigen::VectorXd& x,
                         double tol, int maxSweeps) {
  const int nb = static_cast<int>(x.size());
  if (nb == 0) return 0;
  const double wmin = 1e-14 * W.diagonal().cwiseAbs().maxCoeff();
  double lo, hi;
  // Within the bounds first: they may have shrunk since x was found.
  clampToBounds(W, bounds, r, x);
  int sweeps = maxSweeps + 1;
  for (int sweep = 1; sweep <= maxSweeps; ++sweep) {
    double largest = 0;
    for (int i = 0; i < nb; ++i) {
      if (W(i, i) <= wmin) continue;
      rowBounds(bounds, x, i, lo, hi);
      const double d = std::clamp(x[i] - r[i] / W(i, i), lo, hi) - x[i];
      if (d == 0) continue;
      r += W.col(i) * d;
      x[i] += d;
      largest = std::max(largest, std::abs(d) * W(i, i));
    }
    if (largest <= tol) {
      sweeps = sweep;
      break;
    }
  }
  // A coupled bound may have shrunk after its row's last update: the
  // impulses reported stay within it.
  clampToBounds(W, bounds, r, x);
  return sweeps;
}

}  // namespace sinew
