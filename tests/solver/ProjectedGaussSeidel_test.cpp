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
/// after it move it again, by a few times tol at most: 10 tol here.
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
/// third one-sided (a normal row), the others boxes (fixed) or, with
/// `coupled`, bounded by 0.5 times the one-sided row before them.
struct RandomProblem {
  Eigen::MatrixXd W;
  Eigen::VectorXd r0;
  PGSBounds b;
  RandomProblem(std::mt19937& rng, int rows, int dofs, bool coupled) {
    std::uniform_real_distribution<double> U(-1, 1);
    Eigen::MatrixXd J(rows, dofs);
    for (int i = 0; i < J.size(); ++i) J.data()[i] = U(rng);
    W = J * J.transpose();
    r0.resize(rows);
    for (int i = 0; i < rows; ++i) r0[i] = U(rng);
    b.lo.resize(rows), b.hi.resize(rows);
    if (coupled) b.boundBy.assign(rows, -1);
    for (int i = 0; i < rows; ++i) {
      if (i % 3 == 0) {
        b.lo[i] = 0, b.hi[i] = std::numeric_limits<double>::infinity();
      } else if (coupled) {
        b.boundBy[i] = i - i % 3, b.hi[i] = 0.5;
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
    const RandomProblem p(rng, 12, 5, false);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(12), r = p.r0;
    const double tol = 1e-10 * p.W.diagonal().maxCoeff();
    const int sweeps = projectedGaussSeidel(p.W, p.b, r, x, tol, 20000);
    ASSERT_LE(sweeps, 20000) << "trial " << trial;
    expectOptimal(p.b, r, x, tol);
    EXPECT_NEAR((r - (p.r0 + p.W * x)).cwiseAbs().maxCoeff(), 0, 1e-9) << "r follows x";
  }
}

// A particle (mass 2) landing on a plane through four coincident contacts
// (redundant rows: W is singular), each with a normal row along z and box
// friction rows along x and y bounded by μ = 0.5 times that contact's
// normal impulse (the dense fallback of the contact solve): whatever the
// split, the particle stops along z, and along each tangent axis it
// sticks where |v| ≤ μ|v_z| and else keeps |v| − μ|v_z| (Coulomb's box law).
TEST(ProjectedGaussSeidel, CoupledFrictionBoundsGiveCoulombsStickAndSlip) {
  const double m = 2, mu = 0.5;
  const int copies = 4, rows = 3 * copies;
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(rows, 3);
  PGSBounds b{Eigen::VectorXd::Zero(rows), Eigen::VectorXd::Zero(rows), std::vector<int>(rows, -1)};
  for (int c = 0; c < copies; ++c) {
    J(3 * c, 2) = 1, J(3 * c + 1, 0) = 1, J(3 * c + 2, 1) = 1;
    b.hi[3 * c] = std::numeric_limits<double>::infinity();
    for (int k = 1; k <= 2; ++k) b.boundBy[3 * c + k] = 3 * c, b.hi[3 * c + k] = mu;
  }
  const Eigen::MatrixXd W = J * J.transpose() / m;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int trial = 0; trial < 40; ++trial) {
    const Eigen::Vector3d v0(U(rng), U(rng), -0.2 - std::abs(U(rng)));
    const Eigen::VectorXd r0 = J * v0;
    Eigen::VectorXd x = Eigen::VectorXd::Zero(rows), r = r0;
    const int sweeps = projectedGaussSeidel(W, b, r, x, 1e-13, 2000);
    ASSERT_LE(sweeps, 2000) << "trial " << trial;
    const Eigen::Vector3d u = v0 + J.transpose() * x / m;
    EXPECT_NEAR(u.z(), 0, 1e-12) << "trial " << trial;
    for (int k = 0; k < 2; ++k) {
      const double slide = std::max(std::abs(v0[k]) - mu * std::abs(v0.z()), 0.0);
      EXPECT_NEAR(u[k], std::copysign(slide, v0[k]), 1e-12) << "trial " << trial << ", axis " << k;
    }
    expectOptimal(b, r, x, 1e-13);
  }
}

// Stopped at any sweep, before or just after a subspace step (tried after
// sweeps 64 and 128), a solve with fixed bounds leaves no more energy than
// it started with: every sweep's update and every move of the step lowers
// the objective. Harder problems (40 rows on 12 velocities, a tolerance
// of 1e-14) that the sweeps do not finish by then.
TEST(ProjectedGaussSeidel, StoppedAnywhereItNeverRaisesTheObjective) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const RandomProblem p(rng, 40, 12, false);
    double last = 0;  // the objective at x = 0
    for (int maxSweeps : {1, 16, 63, 64, 65, 127, 128, 129, 400}) {
      Eigen::VectorXd x = Eigen::VectorXd::Zero(40), r = p.r0;
      projectedGaussSeidel(p.W, p.b, r, x, 1e-14 * p.W.diagonal().maxCoeff(), maxSweeps);
      const double f = objective(p.W, p.r0, x);
      EXPECT_LE(f, 1e-14) << "trial " << trial << ", " << maxSweeps << " sweeps";
      EXPECT_LE(f, last + 1e-12 * std::abs(last)) << "trial " << trial << ", " << maxSweeps << " sweeps";
      last = f;
    }
  }
}

}  // namespace
}  // namespace sinew
