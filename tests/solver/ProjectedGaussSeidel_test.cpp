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
/// (r ≥ −tol), one at its upper bound does not separate (r ≤ tol).
void expectOptimal(const PGSBounds& b, const Eigen::VectorXd& r, const Eigen::VectorXd& x, double tol) {
  for (int i = 0; i < x.size(); ++i) {
    ASSERT_GE(x[i], b.lo[i]) << "row " << i;
    ASSERT_LE(x[i], b.hi[i]) << "row " << i;
    if (x[i] > b.lo[i] && x[i] < b.hi[i]) EXPECT_LE(std::abs(r[i]), tol) << "row " << i;
    if (x[i] == b.lo[i]) EXPECT_GE(r[i], -tol) << "row " << i;
    if (x[i] == b.hi[i]) EXPECT_LE(r[i], tol) << "row " << i;
  }
}

// A bar (unit mass and inertia) falling and turning onto four supports at
// x = −1, −1/3, 1/3, 1: four contact rows [1, x_i] for two free velocities.
// Stopping it needs total impulse 1 and moment −0.3; the four rows share
// that in many ways (W is singular). The velocities left are zero: the bar
// stops, within the tolerance, whatever the split.
TEST(ProjectedGaussSeidel, RedundantSupportsStopTheBarAndShareTheLoad) {
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
}

// Two friction rows of one direction at two contacts, taken with opposite
// signs, both asked to move the same way: the rows' sum costs nothing
// (W (1, 1) = 0), so the least energy has both at their bound μθ = 1.
// Plain sweeps move each by 2e-3 a sweep (500 sweeps); the subspace step
// follows the free direction to the bounds at once.
TEST(ProjectedGaussSeidel, RowsThatDriftTogetherReachTheirBoundsAtOnce) {
  Eigen::Matrix2d W;
  W << 1, -1, -1, 1;
  Eigen::VectorXd r = Eigen::Vector2d(-1e-3, -1e-3), x = Eigen::Vector2d::Zero();
  const PGSBounds b{Eigen::Vector2d(-1, -1), Eigen::Vector2d(1, 1), {}};
  const int sweeps = projectedGaussSeidel(W, b, r, x, 1e-14);
  EXPECT_LE(sweeps, 32);
  EXPECT_EQ(x[0], 1.0);
  EXPECT_EQ(x[1], 1.0);
  expectOptimal(b, r, x, 1e-14);
}

// Random redundant problems (12 rows on 5 velocities, friction-like boxes
// and one-sided rows): every solve ends at the QP's optimality within the
// tolerance, with the rows' velocities following the impulses.
TEST(ProjectedGaussSeidel, RandomRedundantProblemsEndOptimal) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-1, 1);
  const double inf = std::numeric_limits<double>::infinity();
  for (int trial = 0; trial < 50; ++trial) {
    Eigen::MatrixXd J(12, 5);
    for (int i = 0; i < J.size(); ++i) J.data()[i] = U(rng);
    const Eigen::MatrixXd W = J * J.transpose();
    Eigen::VectorXd r0(12);
    for (int i = 0; i < 12; ++i) r0[i] = U(rng);
    PGSBounds b{Eigen::VectorXd(12), Eigen::VectorXd(12), {}};
    for (int i = 0; i < 12; ++i) {
      const bool oneSided = i % 3 == 0;
      b.lo[i] = oneSided ? 0 : -0.2 - 0.5 * std::abs(U(rng));
      b.hi[i] = oneSided ? inf : -b.lo[i];
    }
    Eigen::VectorXd x = Eigen::VectorXd::Zero(12), r = r0;
    const double tol = 1e-10 * W.diagonal().maxCoeff();
    const int sweeps = projectedGaussSeidel(W, b, r, x, tol, 20000);
    ASSERT_LE(sweeps, 20000) << "trial " << trial;
    expectOptimal(b, r, x, tol);
    EXPECT_NEAR((r - (r0 + W * x)).cwiseAbs().maxCoeff(), 0, 1e-9) << "r follows x";
  }
}

}  // namespace
}  // namespace sinew
