// projectedGaussSeidel, the dense box-QP solver of the exact friction pass
// (guide §8.9.4): redundant rows sharing a load, rows drifting together to
// their bounds, and the optimality conditions of random redundant problems.
#include <gtest/gtest.h>

#include <random>

#include "sinew/solver/ProjectedGaussSeidel.h"

namespace sinew {
namespace {

/// The box QP's optimality at x, from the rows' velocities r: a row within
/// its bounds moves at most tol, one at its lower bound does not approach
/// (r ≥ −tol), one at its upper bound does not separate (r ≤ tol). The
/// sweeps bound each row's velocity as it is updated; the rows updated
/// after it in the last sweep move it again, each by |W_ij|/W_jj times its
/// own change at most: 10 tol here.
void expectOptimal(const PGSBounds& b, const Eigen::VectorXd& r, const Eigen::VectorXd& x, double tol) {
  for (int i = 0; i < x.size(); ++i) {
    double lo, hi;
    b.at(x, i, lo, hi);
    ASSERT_GE(x[i], lo) << "row " << i;
    ASSERT_LE(x[i], hi) << "row " << i;
    if (x[i] > lo && x[i] < hi) EXPECT_LE(std::abs(r[i]), 10 * tol) << "row " << i;
    if (x[i] == lo && lo < hi) EXPECT_GE(r[i], -10 * tol) << "row " << i;
    if (x[i] == hi && lo < hi) EXPECT_LE(r[i], 10 * tol) << "row " << i;
  }
}

/// The objective ½xᵀWx + r₀ᵀx from x = 0, whose gradient is r.
double objective(const Eigen::MatrixXd& W, const Eigen::VectorXd& r0, const Eigen::VectorXd& x) {
  return 0.5 * x.dot(W * x) + r0.dot(x);
}

/// A redundant problem: `rows` rows on `dofs` velocities (W = J Jᵀ), every
/// third one-sided (a normal row), the others friction-like boxes.
struct RandomProblem {
  Eigen::MatrixXd W;
  Eigen::VectorXd r0;
  PGSBounds b;
  RandomProblem(std::mt19937& rng, int rows, int dofs) {
    std::uniform_real_distribution<double> U(-1, 1);
    Eigen::MatrixXd J(rows, dofs);
    for (int i = 0; i < J.size(); ++i) J.data()[i] = U(rng);
    W = J * J.transpose();
    r0.resize(rows);
    for (int i = 0; i < rows; ++i) r0[i] = U(rng);
    b.lo.resize(rows), b.hi.resize(rows);
    for (int i = 0; i < rows; ++i) {
      if (i % 3 == 0) {
        b.lo[i] = 0, b.hi[i] = std::numeric_limits<double>::infinity();
      } else {
        b.lo[i] = -0.2 - 0.5 * std::abs(U(rng)), b.hi[i] = -b.lo[i];
      }
    }
  }
};

// A bar (unit mass and inertia) falling and turning onto four supports at
// x = −1, −1/3, 1/3, 1: four contact rows [1, x_i] for two free velocities.
// Stopping it needs total impulse 1 and moment −0.3; the four rows share
// that in many ways (W is singular). The velocities left are zero: the bar
// stops, within the tolerance, whatever the split, and the supports'
// impulses sum to the momentum it had.
TEST(ProjectedGaussSeidel, RedundantSupportsStopTheBar) {
  Eigen::Matrix<double, 4, 2> J;
  const double xs[4] = {-1, -1.0 / 3, 1.0 / 3, 1};
  for (int i = 0; i < 4; ++i) J.row(i) << 1, xs[i];
  const Eigen::MatrixXd W = J * J.transpose();
  const Eigen::Vector2d uFree(-1, 0.3);
  Eigen::VectorXd r = J * uFree, x = Eigen::VectorXd::Zero(4);
  const double inf = std::numeric_limits<double>::infinity();
  const PGSBounds b{Eigen::VectorXd::Zero(4), Eigen::VectorXd::Constant(4, inf), {}};
  const double tol = 1e-12;
  const int sweeps = projectedGaussSeidel(W, b, r, x, tol);
  EXPECT_LE(sweeps, 32);
  expectOptimal(b, r, x, tol);
  const Eigen::Vector2d u = uFree + J.transpose() * x;
  EXPECT_NEAR(u.norm(), 0, 1e-11);
  EXPECT_NEAR(x.sum(), 1, 1e-11);
  double moment = 0;
  for (int i = 0; i < 4; ++i) moment += xs[i] * x[i];
  EXPECT_NEAR(moment, -0.3, 1e-11);
}

// Two friction rows of one direction at two contacts, taken with opposite
// signs, both asked to move the same way: the rows' sum costs nothing
// (W·(1, 1)ᵀ = 0), so the least energy has both at their bound μθ = 1.
// Plain sweeps move each by 2e-3 a sweep (500 sweeps); the subspace step,
// first tried after 64, follows the free direction to the bounds at once.
TEST(ProjectedGaussSeidel, RowsThatDriftTogetherReachTheirBoundsAtOnce) {
  Eigen::Matrix2d W;
  W << 1, -1, -1, 1;
  Eigen::VectorXd r = Eigen::Vector2d(-1e-3, -1e-3), x = Eigen::Vector2d::Zero();
  const PGSBounds b{Eigen::Vector2d(-1, -1), Eigen::Vector2d(1, 1), {}};
  const int sweeps = projectedGaussSeidel(W, b, r, x, 1e-14);
  EXPECT_LE(sweeps, 64);
  EXPECT_EQ(x[0], 1.0);
  EXPECT_EQ(x[1], 1.0);
  expectOptimal(b, r, x, 1e-14);
}

// Random redundant problems (12 rows on 5 velocities, friction-like boxes
// and one-sided rows): every solve ends at the QP's optimality within the
// tolerance, with the rows' velocities following the impulses.
TEST(ProjectedGaussSeidel, RandomRedundantProblemsEndOptimal) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const RandomProblem p(rng, 12, 5);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(12), r = p.r0;
    const double tol = 1e-10 * p.W.diagonal().maxCoeff();
    const int sweeps = projectedGaussSeidel(p.W, p.b, r, x, tol, 20000);
    ASSERT_LE(sweeps, 20000) << "trial " << trial;
    expectOptimal(p.b, r, x, tol);
    EXPECT_NEAR((r - (p.r0 + p.W * x)).cwiseAbs().maxCoeff(), 0, 1e-9) << "r follows x";
  }
}

// A column of 15 particles (unit masses) landing together on a plane,
// each resting on the one below: a normal row along z under each particle
// and box friction rows along x and y bounded by μ = 0.5 times that
// contact's normal impulse (the coupled bounds of the dense fallback of the
// contact solve). The load runs down the column over hundreds of sweeps,
// and the subspace steps tried on the way hold the friction rows at their
// moving bounds, so they leave the solve to the sweeps; it must still end
// at the closed form: every particle stops along z, and the column, whose
// particles move alike, slides on the ground by Coulomb's box law: it
// sticks along an axis where |v| ≤ μ|v_z| and else keeps |v| − μ|v_z|.
TEST(ProjectedGaussSeidel, CoupledFrictionBoundsGiveCoulombsLawUnderAColumn) {
  const int n = 15, rows = 3 * n;
  const double mu = 0.5;
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(rows, 3 * n);
  PGSBounds b{Eigen::VectorXd::Zero(rows), Eigen::VectorXd::Zero(rows), std::vector<int>(rows, -1)};
  for (int k = 0; k < n; ++k) {  // contact k under particle k (k = 0: the ground)
    for (int a = 0; a < 3; ++a) {
      const int row = 3 * k + (a == 2 ? 0 : a + 1);
      J(row, 3 * k + a) = 1;
      if (k > 0) J(row, 3 * (k - 1) + a) = -1;
    }
    b.hi[3 * k] = std::numeric_limits<double>::infinity();
    for (int f = 1; f <= 2; ++f) b.boundBy[3 * k + f] = 3 * k, b.hi[3 * k + f] = mu;
  }
  const Eigen::MatrixXd W = J * J.transpose();
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int trial = 0; trial < 10; ++trial) {
    const Eigen::Vector3d v(U(rng), U(rng), -0.2 - std::abs(U(rng)));
    Eigen::VectorXd u0(3 * n);
    for (int k = 0; k < n; ++k) u0.segment<3>(3 * k) = v;
    Eigen::VectorXd x = Eigen::VectorXd::Zero(rows), r = J * u0;
    const int sweeps = projectedGaussSeidel(W, b, r, x, 1e-13, 5000);
    ASSERT_LE(sweeps, 5000) << "trial " << trial;
    EXPECT_GT(sweeps, 64) << "the steps were tried";
    const Eigen::VectorXd u = u0 + J.transpose() * x;
    for (int k = 0; k < n; ++k) {
      EXPECT_NEAR(u[3 * k + 2], 0, 1e-12) << "trial " << trial << ", particle " << k;
      for (int a = 0; a < 2; ++a) {
        const double slide = std::max(std::abs(v[a]) - mu * std::abs(v.z()), 0.0);
        EXPECT_NEAR(u[3 * k + a], std::copysign(slide, v[a]), 1e-11) << "trial " << trial << ", particle " << k;
      }
    }
    expectOptimal(b, r, x, 1e-13);
  }
}

// Stopped at any sweep, before or just after a subspace step (tried after
// sweeps 64, 128 and 256), a solve with fixed bounds leaves no more energy
// than it started with: every sweep's update and every move of the step
// lowers the objective. Harder problems (40 rows on 12 velocities, a
// tolerance of 1e-14) that the sweeps do not finish by the 63rd; in most
// of them a step ends the solve (at sweep 64, 128 or 256).
TEST(ProjectedGaussSeidel, StoppedAnywhereItNeverRaisesTheObjective) {
  std::mt19937 rng(3);
  int endedByAStep = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const RandomProblem p(rng, 40, 12);
    double last = 0;  // the objective at x = 0
    for (int maxSweeps : {1, 16, 63, 64, 65, 127, 128, 129, 255, 256, 257, 400}) {
      Eigen::VectorXd x = Eigen::VectorXd::Zero(40), r = p.r0;
      const int sweeps = projectedGaussSeidel(p.W, p.b, r, x, 1e-14 * p.W.diagonal().maxCoeff(), maxSweeps);
      if (maxSweeps == 63) EXPECT_EQ(sweeps, 64) << "trial " << trial << ": unfinished at 63";
      if (maxSweeps == 400 && (sweeps == 64 || sweeps == 128 || sweeps == 256)) ++endedByAStep;
      const double f = objective(p.W, p.r0, x);
      EXPECT_LE(f, 1e-14) << "trial " << trial << ", " << maxSweeps << " sweeps";
      EXPECT_LE(f, last + 1e-12 * std::abs(last)) << "trial " << trial << ", " << maxSweeps << " sweeps";
      last = f;
    }
  }
  EXPECT_GE(endedByAStep, 10);
}

}  // namespace
}  // namespace sinew
