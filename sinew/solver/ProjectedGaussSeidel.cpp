#include "sinew/solver/ProjectedGaussSeidel.h"

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>

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
/// The change one more sweep would make, row by row from r as it stands:
/// the sweeps' own stopping measure, taken at once.
double violation(const Eigen::MatrixXd& W, const PGSBounds& bounds, const Eigen::VectorXd& r,
                 const Eigen::VectorXd& x, double wmin) {
  double largest = 0, lo, hi;
  for (int i = 0; i < x.size(); ++i) {
    if (W(i, i) <= wmin) continue;
    rowBounds(bounds, x, i, lo, hi);
    largest = std::max(largest, std::abs(std::clamp(x[i] - r[i] / W(i, i), lo, hi) - x[i]) * W(i, i));
  }
  return largest;
}

bool withinBounds(const PGSBounds& bounds, const Eigen::VectorXd& x) {
  double lo, hi;
  for (int i = 0; i < x.size(); ++i) {
    rowBounds(bounds, x, i, lo, hi);
    if (x[i] < lo || x[i] > hi) return false;
  }
  return true;
}

/// The least-norm δ over the free rows F that minimizes |W_FF δ + r_F|:
/// where W_FF is singular (redundant rows) the smallest change that zeroes
/// the rows' velocities, so that redundant rows keep their split of the
/// load, and a residual in W_FF's null space where none does. `quick`:
/// by a Cholesky factorization of W_FF + εI refined three times (iterated
/// Tikhonov, which tends to the same δ where one exists, at a quarter of
/// the cost or less); else by a complete orthogonal decomposition, which
/// also gives the right residual where none exists.
Eigen::VectorXd freeRowsStep(const Eigen::MatrixXd& W, const std::vector<int>& F, const Eigen::VectorXd& r,
                             bool quick) {
  const int nf = static_cast<int>(F.size());
  Eigen::MatrixXd WFF(nf, nf);
  Eigen::VectorXd y(nf);
  for (int a = 0; a < nf; ++a) {
    y[a] = -r[F[a]];
    for (int b = 0; b < nf; ++b) WFF(a, b) = W(F[a], F[b]);
  }
  if (quick) {
    const double eps = 1e-9 * WFF.diagonal().maxCoeff();
    const Eigen::VectorXd d0 = WFF.diagonal();
    WFF.diagonal().array() += eps;
    const Eigen::LLT<Eigen::MatrixXd> llt(WFF);
    WFF.diagonal() = d0;
    if (llt.info() != Eigen::Success) return Eigen::VectorXd::Constant(nf, std::numeric_limits<double>::quiet_NaN());
    Eigen::VectorXd d = llt.solve(y);
    for (int k = 0; k < 3; ++k) d += llt.solve(y - WFF * d);
    return d;
  }
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(WFF);
  cod.setThreshold(1e-10);
  return cod.solve(y);
}

/// Subspace minimization between sweeps. Gauss–Seidel finds which rows sit
/// at a bound long before it settles the others where some are redundant
/// (a box face on a face): their impulses trade, or drift together toward
/// a bound, by a little each sweep. With the rows at a bound held there,
/// the free rows' impulses that zero their velocities (W_FF δ = −r_F) end
/// the solve where they are within the bounds and no sweep would move
/// them by more than tol: the box QP's optimality. Where r_F has a part in
/// W_FF's null space, the objective falls linearly along it: the impulses
/// move that way to the nearest bound, which then holds that row, and the
/// solve is tried again. Every move stays within the bounds and lowers the
/// objective, so x is kept as a Gauss–Seidel iterate where the step does
/// not end the solve.
bool subspaceStep(const Eigen::MatrixXd& W, const PGSBounds& bounds, Eigen::VectorXd& r, Eigen::VectorXd& x,
                  double tol, double wmin) {
  const int nb = static_cast<int>(x.size());
  std::vector<int> F;
  Eigen::VectorXd xs, rs;
  double lo, hi;
  constexpr int kPasses = 6;
  for (int pass = 0; pass < kPasses; ++pass) {
    if (pass > 0 && violation(W, bounds, r, x, wmin) <= tol) return true;
    F.clear();
    for (int i = 0; i < nb; ++i) {
      rowBounds(bounds, x, i, lo, hi);
      if (W(i, i) > wmin && x[i] > lo && x[i] < hi) F.push_back(i);
    }
    const int nf = static_cast<int>(F.size());
    if (nf == 0) return false;
    // The candidate δ over F, into xs and rs.
    auto take = [&](const Eigen::VectorXd& d) {
      xs = x, rs = r;
      for (int a = 0; a < nf; ++a) {
        xs[F[a]] += d[a];
        rs += W.col(F[a]) * d[a];
      }
      return d.allFinite() && withinBounds(bounds, xs);
    };
    if (pass == 0 && take(freeRowsStep(W, F, r, true)) && violation(W, bounds, rs, xs, wmin) <= tol) {
      x.swap(xs), r.swap(rs);
      return true;
    }
    if (!take(freeRowsStep(W, F, r, false))) return false;
    x.swap(xs), r.swap(rs);
    if (violation(W, bounds, r, x, wmin) <= tol) return true;
    // Along the residual's null-space part v = −r_F, to the nearest bound.
    auto distance = [&](int i) {  // the move's length at which row i meets its bound
      const double v = -r[i];
      rowBounds(bounds, x, i, lo, hi);
      return v > 0 ? (hi - x[i]) / v : v < 0 ? (lo - x[i]) / v : std::numeric_limits<double>::infinity();
    };
    double t = std::numeric_limits<double>::infinity();
    for (int i : F) t = std::min(t, distance(i));
    if (!std::isfinite(t)) return false;
    xs = x, rs = r;
    for (int i : F) {
      // The rows that meet their bounds there (within round-off) land on them exactly.
      const double ti = distance(i);
      const double dx = ti <= t * (1 + 1e-12) ? (r[i] < 0 ? hi : lo) - x[i] : -r[i] * t;
      xs[i] += dx;
      rs += W.col(i) * dx;
    }
    if (!withinBounds(bounds, xs)) return false;
    x.swap(xs), r.swap(rs);
  }
  return false;
}
}  // namespace

namespace {
constexpr int kFirstSubspaceTry = 16;
}

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
    // Each try costs about nb/3 sweeps or more; tried at doubling
    // intervals they cost no more than the sweeps between them.
    if (sweep >= kFirstSubspaceTry && (sweep & (sweep - 1)) == 0 && subspaceStep(W, bounds, r, x, tol, wmin)) {
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
