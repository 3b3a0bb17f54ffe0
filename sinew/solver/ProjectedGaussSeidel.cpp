#include "sinew/solver/ProjectedGaussSeidel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sinew/math/LeastNorm.h"

namespace sinew {

namespace {
void clampToBounds(const Eigen::MatrixXd& W, const PGSBounds& bounds, Eigen::VectorXd& r, Eigen::VectorXd& x) {
  double lo, hi;
  for (int i = 0; i < x.size(); ++i) {
    bounds.at(x, i, lo, hi);
    const double d = std::clamp(x[i], lo, hi) - x[i];
    if (d != 0) r += W.col(i) * d, x[i] += d;
  }
}
/// Row i's Gauss–Seidel update at (x, r): the change of its impulse that
/// zeroes its velocity, within its bounds.
double rowUpdate(const Eigen::MatrixXd& W, const PGSBounds& bounds, const Eigen::VectorXd& r,
                 const Eigen::VectorXd& x, int i) {
  double lo, hi;
  bounds.at(x, i, lo, hi);
  return std::clamp(x[i] - r[i] / W(i, i), lo, hi) - x[i];
}

/// The change one more sweep would make to each row, from r as it
/// stands (a Jacobi reading of the sweeps' stopping measure, which takes
/// each row's change as it is updated).
double violation(const Eigen::MatrixXd& W, const PGSBounds& bounds, const Eigen::VectorXd& r,
                 const Eigen::VectorXd& x, double wmin) {
  double largest = 0;
  for (int i = 0; i < x.size(); ++i)
    if (W(i, i) > wmin) largest = std::max(largest, std::abs(rowUpdate(W, bounds, r, x, i)) * W(i, i));
  return largest;
}

bool withinBounds(const PGSBounds& bounds, const Eigen::VectorXd& x) {
  double lo, hi;
  for (int i = 0; i < x.size(); ++i) {
    bounds.at(x, i, lo, hi);
    if (x[i] < lo || x[i] > hi) return false;
  }
  return true;
}

/// The rows strictly within their bounds (and moved by an impulse).
void freeRows(const Eigen::MatrixXd& W, const PGSBounds& bounds, const Eigen::VectorXd& x, double wmin,
              std::vector<int>& F) {
  F.clear();
  double lo, hi;
  for (int i = 0; i < x.size(); ++i) {
    bounds.at(x, i, lo, hi);
    if (W(i, i) > wmin && x[i] > lo && x[i] < hi) F.push_back(i);
  }
}

/// The least-norm δ over the free rows F that minimizes |W_FF δ + r_F|, by
/// a complete orthogonal decomposition: where W_FF is singular (redundant
/// rows) the smallest change that zeroes the rows' velocities, so that
/// redundant rows keep their split of the load, and where no δ zeroes
/// them, a residual in W_FF's null space.
Eigen::VectorXd freeRowsStep(const Eigen::MatrixXd& W, const std::vector<int>& F, const Eigen::VectorXd& r) {
  const int nf = static_cast<int>(F.size());
  Eigen::MatrixXd WFF(nf, nf);
  Eigen::VectorXd y(nf);
  for (int a = 0; a < nf; ++a) {
    y[a] = -r[F[a]];
    for (int b = 0; b < nf; ++b) WFF(a, b) = W(F[a], F[b]);
  }
  return leastNormSolve(WFF, y, 1e-10);
}

/// Whether moving x to xs (r to rs) lowers the objective ½xᵀWx + cᵀx, whose
/// gradient is r: the change is (xs − x)ᵀ(r + rs)/2 exactly for a quadratic.
bool lowers(const Eigen::VectorXd& x, const Eigen::VectorXd& xs, const Eigen::VectorXd& r,
            const Eigen::VectorXd& rs, const std::vector<int>& F) {
  double change = 0;
  for (int i : F) change += (xs[i] - x[i]) * (r[i] + rs[i]);
  return change <= 0;
}

/// Subspace minimization between sweeps. Gauss–Seidel finds which rows sit
/// at a bound long before it settles the others where some are redundant
/// (a box face on a face): their impulses trade, or drift together toward
/// a bound, by a little each sweep. With the rows at a bound held there,
/// the free rows' impulses that zero their velocities (W_FF δ = −r_F) end
/// the solve where they are within the bounds and no sweep would move
/// them by more than tol: the box QP's optimality. Where the free rows'
/// velocities keep a part in W_FF's null space (least squares cannot zero
/// it), the objective falls along that part without limit: with fixed
/// bounds the impulses move that way (by an exact line search where W_FF
/// turns out to curve along it) to the nearest bound, which then holds
/// that row, and the solve is tried again. Every move stays within the
/// bounds and is taken only if it lowers the objective (checked), so x is
/// kept as a Gauss–Seidel iterate where the step does not end the solve;
/// where the free rows are settled and a held row wants to leave its
/// bound, the sweeps go on.
bool subspaceStep(const Eigen::MatrixXd& W, const PGSBounds& bounds, Eigen::VectorXd& r, Eigen::VectorXd& x,
                  double tol, double wmin) {
  std::vector<int> F;
  Eigen::VectorXd xs, rs;
  // The step δ over F into xs and rs; whether it is within the bounds.
  auto take = [&](const Eigen::VectorXd& d) {
    xs = x, rs = r;
    for (size_t a = 0; a < F.size(); ++a) {
      xs[F[a]] += d[a];
      rs += W.col(F[a]) * d[a];
    }
    return d.allFinite() && withinBounds(bounds, xs);
  };
  constexpr int kPasses = 6;
  for (int pass = 0; pass < kPasses; ++pass) {
    if (pass > 0 && violation(W, bounds, r, x, wmin) <= tol) return true;  // the last move's rows at their bounds
    freeRows(W, bounds, x, wmin, F);
    if (F.empty()) return false;
    if (!take(freeRowsStep(W, F, r)) || !lowers(x, xs, r, rs, F)) return false;
    x.swap(xs), r.swap(rs);
    if (violation(W, bounds, r, x, wmin) <= tol) return true;
    // A coupled bound (friction under a free normal row) would move along
    // the way: no move along the residual there.
    if (std::any_of(bounds.boundBy.begin(), bounds.boundBy.end(), [](int b) { return b >= 0; })) return false;
    freeRows(W, bounds, x, wmin, F);
    double vv = 0, vWv = 0, largest = 0, wmax = 0;
    for (int i : F) vv += r[i] * r[i], largest = std::max(largest, std::abs(r[i])), wmax = std::max(wmax, W(i, i));
    // The free rows settled: a held row wants to leave its bound, which
    // the sweeps do.
    if (F.empty() || largest <= tol) return false;
    for (int i : F)
      for (int j : F) vWv += r[i] * W(i, j) * r[j];
    // v = −r_F must lie in W_FF's null space (to the decomposition's
    // threshold); else it is what the least squares left of the range,
    // round-off, and the sweeps go on.
    if (vWv > 1e-9 * wmax * vv) return false;
    // Along v: to the nearest bound, or to the objective's least along it
    // where W_FF still curves there; a curvature at round-off counts as
    // none, and an unbounded direction is left to the sweeps.
    double lo, hi;
    auto distance = [&](int i) {  // the move's length at which row i meets its bound
      const double v = -r[i];
      bounds.at(x, i, lo, hi);
      return v > 0 ? (hi - x[i]) / v : v < 0 ? (lo - x[i]) / v : std::numeric_limits<double>::infinity();
    };
    double tBound = std::numeric_limits<double>::infinity();
    for (int i : F) tBound = std::min(tBound, distance(i));
    const double tLeast = vWv > 1e-12 * wmax * vv ? vv / vWv : std::numeric_limits<double>::infinity();
    const double t = std::min(tBound, tLeast);
    if (!std::isfinite(t)) return false;
    xs = x, rs = r;
    for (int i : F) {
      // The rows that meet their bounds there (within round-off) land on them exactly.
      const double ti = distance(i);
      const double dx = tBound <= tLeast && ti <= t * (1 + 1e-12) ? (r[i] < 0 ? hi : lo) - x[i] : -r[i] * t;
      xs[i] += dx;
      rs += W.col(i) * dx;
    }
    if (!withinBounds(bounds, xs) || !lowers(x, xs, r, rs, F)) return false;
    x.swap(xs), r.swap(rs);
  }
  return false;
}

constexpr int kFirstSubspaceTry = 64;
/// Above this many rows the step is not tried: each decomposition costs
/// about 1.7 nb sweeps and a try may make several (a pile's dense
/// fallbacks of 500 rows took 11 ms a step with it instead of 4.9).
constexpr int kMaxSubspaceRows = 256;
}

int projectedGaussSeidel(const Eigen::MatrixXd& W, const PGSBounds& bounds, Eigen::VectorXd& r, Eigen::VectorXd& x,
                         double tol, int maxSweeps) {
  const int nb = static_cast<int>(x.size());
  if (nb == 0) return 0;
  const double wmin = 1e-14 * W.diagonal().cwiseAbs().maxCoeff();
  // Within the bounds first: they may have shrunk since x was found.
  clampToBounds(W, bounds, r, x);
  int sweeps = maxSweeps + 1;
  for (int sweep = 1; sweep <= maxSweeps; ++sweep) {
    double largest = 0;
    for (int i = 0; i < nb; ++i) {
      if (W(i, i) <= wmin) continue;
      const double d = rowUpdate(W, bounds, r, x, i);
      if (d == 0) continue;
      r += W.col(i) * d;
      x[i] += d;
      largest = std::max(largest, std::abs(d) * W(i, i));
    }
    if (largest <= tol) {
      sweeps = sweep;
      break;
    }
    // A decomposition of the free rows costs several nf³ flops, about
    // 1.7 nf sweeps (a try makes one, and one more after each move along a
    // null space): tried at doubling intervals from the 64th sweep, where
    // most solves have ended, once a decomposition costs no more than a
    // few times the sweeps so far (nb ≤ 2 sweep; with nb ≤ sweep the
    // 27-box pile took 777 µs a step instead of 646). The 10-box pile's
    // friction solves (about 70 rows): 2.34e9 instructions over 1000 steps
    // without the step, 1.73e9 with tries from the 16th sweep, 1.39e9 from
    // the 64th, 1.42e9 from the 128th.
    if (sweep >= kFirstSubspaceTry && (sweep & (sweep - 1)) == 0 && nb <= std::min(2 * sweep, kMaxSubspaceRows) &&
        subspaceStep(W, bounds, r, x, tol, wmin)) {
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
