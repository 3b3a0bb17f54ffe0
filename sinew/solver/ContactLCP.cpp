#include "sinew/solver/ContactLCP.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>

#include "sinew/solver/KKTSolver.h"
#include "sinew/solver/SchurKKTSolver.h"

namespace sinew {

namespace {
/// Below this change per sweep (of the velocity scale) a load no longer
/// runs through the rows, only redundant rows trade impulse: the sweeps'
/// stall rule watches there, and the conjugate steps stop (they speed the
/// passing of a load down a stack; in a jammed pile's trading they cost
/// half a sweep each and save few sweeps).
constexpr double kLoadMovingFloor = 1e-4;

/// The sweeps' second stopping rule, beside the tolerance: every 50 sweeps
/// the largest change of the window (relative to the velocity scale) is
/// compared with the last window's. Once it is below 1e-4, if it did not
/// shrink, or the rate of shrinking, carried on to maxSweeps, would not
/// even halve it, the sweeps left are not worth their time. Redundant
/// contacts in a jammed pile do this: their impulses grow along directions
/// that barely move the bodies, and the change per sweep levels off near
/// 1e-5 (a 100-box pile). Above 1e-4 the sweeps go on: while a load is
/// still passed down a stack, the largest change need not shrink at all.
class SweepStallCheck {
 public:
  explicit SweepStallCheck(int maxSweeps) : myMaxSweeps(maxSweeps) {}
  /// After sweep `sweep` (from 1), whose largest change was `largest` of
  /// the velocity scale.
  bool stalled(int sweep, double largest) {
    myLeast = std::min(myLeast, largest);
    if (sweep % kWindow != 0) return false;
    const double before = myLast, now = myLeast;
    myLast = myLeast;
    myLeast = INFINITY;
    if (now > kLoadMovingFloor || before == INFINITY) return false;
    if (now >= before) return true;
    const double windowsLeft = double(myMaxSweeps - sweep) / kWindow;
    return std::pow(now / before, windowsLeft) > 0.5;
  }

 private:
  static constexpr int kWindow = 50;
  int myMaxSweeps;
  double myLast = INFINITY, myLeast = INFINITY;
};
}  // namespace

bool ContactLCP::invertBlocks(const SparseMatrixd& S, bool sPatternChanged) {
  if (sPatternChanged || myStarts.empty() || myStarts.back() != S.rows()) {
    SchurKKTSolver::findDiagonalBlocks(S, myStarts);
    const int nb = static_cast<int>(myStarts.size()) - 1;
    myBlockOf.resize(S.rows());
    myInvOffset.resize(nb);
    int off = 0;
    for (int b = 0; b < nb; ++b) {
      const int size = myStarts[b + 1] - myStarts[b];
      for (int k = myStarts[b]; k < myStarts[b + 1]; ++k) myBlockOf[k] = b;
      myInvOffset[b] = off;
      off += size * size;
    }
    myInv.resize(off);
  }
  // Each block's columns are contiguous in S's value array.
  for (size_t b = 0; b + 1 < myStarts.size(); ++b) {
    const int size = myStarts[b + 1] - myStarts[b];
    const double* Sb = S.valuePtr() + S.outerIndexPtr()[myStarts[b]];
    double* inv = myInv.data() + myInvOffset[b];
    if (size == 6) {  // a rigid body: fixed size, no allocation
      const Eigen::LLT<Eigen::Matrix<double, 6, 6>> llt(Eigen::Map<const Eigen::Matrix<double, 6, 6>>{Sb});
      if (llt.info() != Eigen::Success) return false;
      Eigen::Map<Eigen::Matrix<double, 6, 6>> inv6(inv);
      inv6 = llt.solve(Eigen::Matrix<double, 6, 6>::Identity());
      continue;
    }
    Eigen::LLT<Eigen::MatrixXd> llt(Eigen::Map<const Eigen::MatrixXd>(Sb, size, size));
    if (llt.info() != Eigen::Success) return false;
    Eigen::Map<Eigen::MatrixXd>(inv, size, size) = llt.solve(Eigen::MatrixXd::Identity(size, size));
  }
  return true;
}

void ContactLCP::addRows(const ConstraintRows& rows, ConstraintRows::EntryLists& lists) {
  const int m = rows.numRows();
  rows.entryLists(lists);
  for (int i = 0; i < m; ++i) {
    Row row;
    row.first = static_cast<int>(myJ.size());
    // The blocks (bodies) the row touches, in the order its entries name
    // them (a contact touches one or two), each with its segment of J.
    row.firstBlock = static_cast<int>(myRowBlocks.size());
    for (auto [col, v] : lists[i]) {
      const int b = myBlockOf[col];
      int at = row.first;
      size_t k = row.firstBlock;
      for (; k < myRowBlocks.size() && myRowBlocks[k] != b; ++k) at += myStarts[myRowBlocks[k] + 1] - myStarts[myRowBlocks[k]];
      if (k == myRowBlocks.size()) {
        myRowBlocks.push_back(b);
        myJ.resize(at + myStarts[b + 1] - myStarts[b], 0.0);
      }
      myJ[at + col - myStarts[b]] += v;
    }
    row.numBlocks = static_cast<int>(myRowBlocks.size()) - row.firstBlock;
    myY.resize(myJ.size());
    int at = row.first;
    for (int k = row.firstBlock; k < row.firstBlock + row.numBlocks; ++k) {
      const int b = myRowBlocks[k], size = myStarts[b + 1] - myStarts[b];
      // y = S⁻¹ jᵀ over the block (a rigid body's 6 × 6 at fixed size).
      const double* inv = myInv.data() + myInvOffset[b];
      if (size == 6) {
        Eigen::Map<Eigen::Matrix<double, 6, 1>> y(myY.data() + at);
        y.noalias() = Eigen::Map<const Eigen::Matrix<double, 6, 6>>(inv) * Vec6(myJ.data() + at);
        row.a += Vec6(myJ.data() + at).dot(y);
      } else {
        Eigen::Map<Eigen::VectorXd> y(myY.data() + at, size);
        Eigen::Map<const Eigen::VectorXd> j(myJ.data() + at, size);
        y.noalias() = Eigen::Map<const Eigen::MatrixXd>(inv, size, size) * j;
        row.a += j.dot(y);
      }
      at += size;
    }
    bool rigid = row.numBlocks <= 2;
    for (int k = row.firstBlock; k < row.firstBlock + row.numBlocks; ++k)
      rigid = rigid && myStarts[myRowBlocks[k] + 1] - myStarts[myRowBlocks[k]] == 6;
    if (rigid && row.numBlocks > 0) {
      row.u0 = myStarts[myRowBlocks[row.firstBlock]];
      if (row.numBlocks == 2) row.u1 = myStarts[myRowBlocks[row.firstBlock + 1]];
    }
    row.r = rows.compliance[i];
    row.a += row.r;
    row.invA = row.a > 0 ? 1 / row.a : 0;
    row.b = rows.rhs[i];
    myRows.push_back(row);
  }
}

double ContactLCP::residualBlocks(const Row& row, const Eigen::VectorXd& u, double w) const {
  const double* j = myJ.data() + row.first;
  for (int k = row.firstBlock; k < row.firstBlock + row.numBlocks; ++k) {
    const int s0 = myStarts[myRowBlocks[k]], n = myStarts[myRowBlocks[k] + 1] - s0;
    if (n == 6) w += Vec6(j).dot(u.segment<6>(s0));
    else w += Eigen::Map<const Eigen::VectorXd>(j, n).dot(u.segment(s0, n));
    j += n;
  }
  return w;
}

void ContactLCP::applyBlocks(const Row& row, double dz, Eigen::VectorXd& u) const {
  const double* y = myY.data() + row.first;
  for (int k = row.firstBlock; k < row.firstBlock + row.numBlocks; ++k) {
    const int s0 = myStarts[myRowBlocks[k]], n = myStarts[myRowBlocks[k] + 1] - s0;
    if (n == 6) u.segment<6>(s0) += dz * Vec6(y);
    else u.segment(s0, n) += dz * Eigen::Map<const Eigen::VectorXd>(y, n);
    y += n;
  }
}

void ContactLCP::move(const Row& row, double& z, double target, Eigen::VectorXd& u) const {
  if (target == z) return;
  apply(row, target - z, u);
  z = target;
}

double ContactLCP::objective(const SparseMatrixd& S, const Eigen::VectorXd& u, const Eigen::VectorXd& theta,
                             const Eigen::VectorXd& phi) const {
  // ½zᵀWz − cᵀz = ½ΔuᵀSΔu + Σ (½ r z² − c z), Δu = u − u_free = S⁻¹Jᵀz,
  // block by block (S is block diagonal, both triangles stored).
  double f = 0;
  const double* v = S.valuePtr();
  for (size_t b = 0; b + 1 < myStarts.size(); ++b) {
    const int s0 = myStarts[b], n = myStarts[b + 1] - s0;
    const double* Sb = v + S.outerIndexPtr()[s0];
    if (n == 6) {
      const Eigen::Matrix<double, 6, 1> du = u.segment<6>(s0) - myUFree.segment<6>(s0);
      f += 0.5 * du.dot(Eigen::Map<const Eigen::Matrix<double, 6, 6>>(Sb) * du);
    } else {
      for (int c = 0; c < n; ++c)
        for (int r = 0; r < n; ++r) f += 0.5 * (u[s0 + r] - myUFree[s0 + r]) * Sb[r + c * n] * (u[s0 + c] - myUFree[s0 + c]);
    }
  }
  const Eigen::Index nn = theta.size(), nd = phi.size();
  f += (0.5 * myR.head(nn).cwiseProduct(theta) - myC.head(nn)).dot(theta);
  f += (0.5 * myR.tail(nd).cwiseProduct(phi) - myC.tail(nd)).dot(phi);
  return f;
}

bool ContactLCP::conjugateStep(int nn, int nd, const FrictionRows* D, Eigen::VectorXd& u, Eigen::VectorXd& theta,
                               Eigen::VectorXd& phi) {
  const double step2 = (theta - myZPrev.head(nn)).squaredNorm() + (phi - myZPrev.tail(nd)).squaredNorm();
  const bool go = myHaveDir && myLastStep2 > 0 && step2 <= myLastStep2;
  if (go) {
    // u is linear in z: the unprojected step moves it by β times the
    // velocity change of the direction (one vector update instead of a
    // row update per row); the rows the bounds cut short are then moved
    // back by what they lose. Normal rows first, so that friction keeps
    // within μ times the normal impulse it will have.
    const double beta = step2 / myLastStep2;
    u += beta * myDirU;
    auto project = [&](const Row& row, double& z, double d, double lo, double hi) {
      const double free = z + beta * d, target = std::clamp(free, lo, hi);
      if (target != free) apply(row, target - free, u);
      z = target;
    };
    constexpr double inf = std::numeric_limits<double>::infinity();
    for (int i = 0; i < nn; ++i) project(myRows[i], theta[i], myDir[i], 0.0, inf);
    for (int k = 0; k < nd; ++k) {
      const double bound = D->mu[k] * theta[D->normalRow[k]];
      project(myRows[nn + k], phi[k], myDir[nn + k], -bound, bound);
    }
  }
  // The direction: where this sweep and its step went (restarted, the
  // sweep's own step, when β would exceed 1), in z and in u.
  myDir.resize(nn + nd);
  myDir.head(nn) = theta - myZPrev.head(nn);
  myDir.tail(nd) = phi - myZPrev.tail(nd);
  myDirU = u - myUPrev;
  myHaveDir = true;
  myLastStep2 = step2;
  return go;
}

bool ContactLCP::solve(const SparseMatrixd& S, bool sPatternChanged, const Eigen::VectorXd& bf,
                       const ConstraintRows& N, const FrictionRows* D, Eigen::VectorXd& u, Eigen::VectorXd& theta,
                       Eigen::VectorXd& phi, bool fromTheta, const Eigen::VectorXd* phiStart) {
  if (!invertBlocks(S, sPatternChanged)) return false;
  // The unconstrained velocities.
  u.resize(S.rows());
  for (size_t b = 0; b + 1 < myStarts.size(); ++b) {
    const int s0 = myStarts[b], size = myStarts[b + 1] - s0;
    const double* inv = myInv.data() + myInvOffset[b];
    if (size == 6) u.segment<6>(s0).noalias() = Eigen::Map<const Eigen::Matrix<double, 6, 6>>(inv) * bf.segment<6>(s0);
    else u.segment(s0, size).noalias() = Eigen::Map<const Eigen::MatrixXd>(inv, size, size) * bf.segment(s0, size);
  }
  myRows.clear();
  myRowBlocks.clear();
  myJ.clear();
  myY.clear();
  addRows(N, myEntriesN);
  const int nn = N.numRows(), nd = D ? D->numRows() : 0;
  if (nd > 0) addRows(D->rows, myEntriesD);
  // The friction rows of each normal row.
  std::vector<int> start(nn + 1, 0), friction(nd);
  for (int k = 0; k < nd; ++k) ++start[D->normalRow[k] + 1];
  for (int i = 0; i < nn; ++i) start[i + 1] += start[i];
  {
    std::vector<int> fill(start.begin(), start.end() - 1);
    for (int k = 0; k < nd; ++k) friction[fill[D->normalRow[k]]++] = k;
  }
  // The velocity scale the tolerance is relative to: what the rows see
  // before any impulse, and what they are asked to reach.
  double scale = 0;
  myUFree = u;
  myC.resize(myRows.size());
  myR.resize(myRows.size());
  for (size_t i = 0; i < myRows.size(); ++i) {
    myR[i] = myRows[i].r;  // contiguous, for the objective
    myC[i] = -residual(myRows[i], u, 0);  // b − J u_free: the objective's linear term
    scale = std::max({scale, std::abs(myRows[i].b), std::abs(myC[i])});
  }
  // From the given normal impulses (the exact frictionless solution, say):
  // u = S⁻¹(b_f + Nᵀθ) in this solver's own arithmetic.
  const bool started = fromTheta && theta.size() == nn;
  if (started) {
    for (int i = 0; i < nn; ++i) {
      theta[i] = std::max(theta[i], 0.0);
      apply(myRows[i], theta[i], u);
    }
  } else {
    theta.setZero(nn);
  }
  phi.setZero(nd);
  if (started && phiStart && phiStart->size() == nd) {
    // Within the bounds of the starting normal impulses.
    for (int k = 0; k < nd; ++k) {
      const double bound = D->mu[k] * theta[D->normalRow[k]];
      phi[k] = std::clamp((*phiStart)[k], -bound, bound);
      if (phi[k] != 0) apply(myRows[nn + k], phi[k], u);
    }
  }
  const double tol = mySettings.tolerance * scale;
  mySweeps = 0;
  myConverged = scale == 0;
  // One projected Gauss–Seidel update of a row: its impulse to the value
  // within [lo, hi] nearest the one that zeroes its velocity `w(z)`, and
  // `add(dz)` moves the velocities it acts on.
  auto step = [](const Row& row, double& z, double lo, double hi, double& largest, auto&& w, auto&& add) {
    if (row.a <= 0) return;
    const double zn = std::clamp(z - w(z) * row.invA, lo, hi);
    const double dz = zn - z;
    if (dz == 0) return;
    add(dz);
    z = zn;
    largest = std::max(largest, std::abs(dz) * row.a);
  };
  auto update = [&](const Row& row, double& z, double lo, double hi, double& largest) {
    step(row, z, lo, hi, largest, [&](double zz) { return residual(row, u, zz); }, [&](double dz) { apply(row, dz, u); });
  };
  constexpr double inf = std::numeric_limits<double>::infinity();
  // A contact between rigid bodies whose friction rows act on its bodies
  // (as a contact's do): its rows are swept together on a copy of the two
  // bodies' velocities held in registers, the same updates in the same
  // order as update() makes them, without storing and reloading u between
  // its rows.
  std::vector<char>& onItsBodies = myOnItsBodies;
  onItsBodies.assign(nn, 0);
  for (int i = 0; i < nn; ++i) {
    bool same = myRows[i].u0 >= 0;
    for (int f = start[i]; f < start[i + 1] && same; ++f)
      same = myRows[nn + friction[f]].u0 == myRows[i].u0 && myRows[nn + friction[f]].u1 == myRows[i].u1;
    onItsBodies[i] = same;
  }
  auto sweepContact = [&](const Row& normal, double& theta_i, int f0, int f1, double& largest) {
    using Vector6d = Eigen::Matrix<double, 6, 1>;
    const bool two = normal.u1 >= 0;
    Vector6d ua = u.segment<6>(normal.u0), ub = two ? Vector6d(u.segment<6>(normal.u1)) : Vector6d::Zero();
    // residual() and apply() on the copies.
    auto local = [&](const Row& row, double& z, double lo, double hi) {
      auto w = [&](double zz) {
        const double* j = myJ.data() + row.first;
        double v = row.r * zz - row.b;
        v += Vec6(j).dot(ua);
        if (two) v += Vec6(j + 6).dot(ub);
        return v;
      };
      auto add = [&](double dz) {
        const double* y = myY.data() + row.first;
        ua += dz * Vec6(y);
        if (two) ub += dz * Vec6(y + 6);
      };
      step(row, z, lo, hi, largest, w, add);
    };
    local(normal, theta_i, 0.0, inf);
    for (int f = f0; f < f1; ++f) {
      const int k = friction[f];
      const double bound = D->mu[k] * theta_i;
      local(myRows[nn + k], phi[k], -bound, bound);
    }
    u.segment<6>(normal.u0) = ua;
    if (two) u.segment<6>(normal.u1) = ub;
  };
  SweepStallCheck stall(mySettings.maxSweeps);
  myStalled = false;
  const bool cg = mySettings.conjugateGradient;
  myHaveDir = false;
  // A conjugate step may raise the objective (so, with friction's moving
  // bounds, may a sweep). It is measured after each step, and after the
  // sweeps that follow one until it is back at or below the lowest
  // measured (the start's, at first); a solve that stops short of the
  // tolerance and is then above it goes back to that iterate.
  double lowest = 0;
  bool atLowest = true;  // the current iterate is no higher than the lowest measured
  Eigen::VectorXd& zLowest = myZLowest;
  if (cg) {
    myZPrev.resize(nn + nd);
    zLowest.resize(nn + nd);
    zLowest << theta, phi;
    lowest = objective(S, u, theta, phi);
  }
  while (!myConverged && !myStalled && mySweeps < mySettings.maxSweeps) {
    ++mySweeps;
    if (cg) {
      myZPrev.head(nn) = theta;
      myZPrev.tail(nd) = phi;
      myUPrev = u;
    }
    double largest = 0;
    for (int i = 0; i < nn; ++i) {
      const Row& normal = myRows[i];
      if (onItsBodies[i]) {
        sweepContact(normal, theta[i], start[i], start[i + 1], largest);
        continue;
      }
      update(normal, theta[i], 0.0, inf, largest);
      // Its friction rows, bounded by μ times the normal impulse now.
      for (int f = start[i]; f < start[i + 1]; ++f) {
        const int k = friction[f];
        const double bound = D->mu[k] * theta[i];
        update(myRows[nn + k], phi[k], -bound, bound, largest);
      }
    }
    myConverged = largest <= tol;
    bool stepped = false;
    if (cg && !myConverged && largest > kLoadMovingFloor * scale) stepped = conjugateStep(nn, nd, D, u, theta, phi);
    else myHaveDir = false;
    if (stepped || (!atLowest && !myConverged)) {
      const double f = objective(S, u, theta, phi);
      atLowest = f <= lowest;
      if (atLowest) {
        lowest = f;
        zLowest << theta, phi;
      }
    }
    myStalled = !myConverged && stall.stalled(mySweeps, largest / scale);
  }
  if (!atLowest && !myConverged) {
    for (int i = 0; i < nn; ++i) move(myRows[i], theta[i], zLowest[i], u);
    for (int k = 0; k < nd; ++k) move(myRows[nn + k], phi[k], zLowest[nn + k], u);
  }
  // Coulomb's bound holds for the reported friction even when stopped early.
  for (int k = 0; k < nd; ++k) {
    const double bound = D->mu[k] * theta[D->normalRow[k]];
    const double clamped = std::clamp(phi[k], -bound, bound);
    if (clamped != phi[k]) apply(myRows[nn + k], clamped - phi[k], u);
    phi[k] = clamped;
  }
  return true;
}

}  // namespace sinew
