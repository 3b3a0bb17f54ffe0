// Square feet standing on the ground, each hinged to a chassis (the legs
// of demos/WalkingMachine): four contact rows per foot for the three
// directions its face can push, with penetrations that no rigid motion
// removes exactly, each joint's five bilateral rows, and the loops closed
// through the ground. The exact path's held-active-set responses come from
// a nearly singular factorization here, and with six feet its pivoting
// cycles. Whichever way KKTSolver goes, its impulses must solve the
// contact problem (seed 000 eq. 1.6): joints held exactly, contacts that
// push and do not penetrate, friction within μ times the push, and the
// ground's impulses equal to the machine's momentum change.
#include <gtest/gtest.h>

#include <random>

#include "sinew/math/Spatial.h"
#include "sinew/solver/KKTSolver.h"

namespace sinew {
namespace {

constexpr double kMu = 0.8;

/// The problem: dofs [v ω] of the chassis, then of each foot.
struct FeetOnGround {
  int feet;
  SparseMatrixd S;
  Eigen::VectorXd bf;
  ConstraintRows G, N;
  FrictionRows D;

  /// Everything moving at (vx, 0, vz) and turning about y at 0.5 rad/s;
  /// corner i of foot f pressed in by penetration(4 f + i).
  FeetOnGround(int numFeet, double vx, double vz, const Eigen::VectorXd& penetration) : feet(numFeet) {
    const int n = 6 * (feet + 1);
    const double h = 1e-3, g = -9.8;
    Eigen::VectorXd mass(n), v(n);
    for (int b = 0; b <= feet; ++b) {
      const double m = b == 0 ? 3 : 0.2;
      const Vector3d J = b == 0 ? Vector3d(0.03, 0.09, 0.1) : Vector3d(7e-4, 7e-4, 3e-5);
      mass.segment(6 * b, 6) << m, m, m, J;
      v.segment(6 * b, 6) << vx, 0, vz, 0, 0.5, 0;
    }
    S = SparseMatrixd(n, n);
    for (int i = 0; i < n; ++i) S.insert(i, i) = mass[i];
    S.makeCompressed();
    bf = mass.cwiseProduct(v);
    for (int b = 0; b <= feet; ++b) bf[6 * b + 2] += h * mass[6 * b] * g;
    // The tripod's hips first, then the other tripod's.
    const Vector3d hips[6] = {{-0.22, 0.19, 0}, {0, -0.19, 0}, {0.22, 0.19, 0},
                              {-0.22, -0.19, 0}, {0, 0.19, 0}, {0.22, -0.19, 0}};
    for (int f = 0; f < feet; ++f) {
      // Hinge of axis y 0.2 m above the foot's centre: the relative
      // velocity there, and relative rotation about x and z.
      const int foot = 1 + f;
      const Vector3d r0 = hips[f], r1(0, 0, 0.2);
      for (int k = 0; k < 3; ++k) {
        const Vector3d e = Vector3d::Unit(k);
        addRow(G, {{0, 0, e}, {0, 1, r0.cross(e)}, {foot, 0, -e}, {foot, 1, -r1.cross(e)}}, 0);
      }
      addRow(G, {{0, 1, Vector3d::UnitX()}, {foot, 1, -Vector3d::UnitX()}}, 0);
      addRow(G, {{0, 1, Vector3d::UnitZ()}, {foot, 1, -Vector3d::UnitZ()}}, 0);
      // Its four corners, 1.5 cm from its centre, 0.1 m below it.
      for (int i = 0; i < 4; ++i) {
        const Vector3d c((i & 1 ? 1 : -1) * 0.015, (i & 2 ? 1 : -1) * 0.015, -0.1);
        const int normal = N.numRows();
        addRow(N, {{foot, 0, Vector3d::UnitZ()}, {foot, 1, c.cross(Vector3d::UnitZ())}}, penetration[4 * f + i] / h);
        for (int k = 0; k < 2; ++k) {
          const Vector3d t = Vector3d::Unit(k);
          addRow(D.rows, {{foot, 0, t}, {foot, 1, c.cross(t)}}, 0);
          D.normalRow.push_back(normal);
          D.mu.push_back(kMu);
        }
      }
    }
  }
  struct Part {
    int body, angular;  ///< the body, and 0 for its v, 1 for its ω
    Vector3d j;
  };
  static void addRow(ConstraintRows& rows, std::initializer_list<Part> parts, double rhs) {
    const int row = rows.numRows();
    for (const Part& p : parts)
      for (int k = 0; k < 3; ++k)
        if (p.j[k] != 0) rows.entries.emplace_back(row, 6 * p.body + 3 * p.angular + k, p.j[k]);
    rows.rhs.push_back(rhs);
    rows.compliance.push_back(0);
  }
  Eigen::VectorXd times(const ConstraintRows& rows, const Eigen::VectorXd& u) const {
    Eigen::VectorXd w = Eigen::VectorXd::Zero(rows.numRows());
    for (const auto& e : rows.entries) w[e.row()] += e.value() * u[e.col()];
    return w;
  }
};

/// Solves the problem and checks its solution; returns the solves that
/// took the Gauss–Seidel path.
long expectContactSolution(LinearSolverType type, double vx, double vz, const Eigen::VectorXd& penetration) {
  FeetOnGround p(static_cast<int>(penetration.size()) / 4, vx, vz, penetration);
  KKTSolver kkt(type);
  kkt.setFriction(&p.D);
  Eigen::VectorXd u, lambda, theta;
  EXPECT_TRUE(kkt.solve(p.S, true, p.bf, p.G, p.N, u, lambda, theta));
  const Eigen::VectorXd phi = kkt.frictionImpulses();
  // The joints hold exactly.
  EXPECT_LT(p.times(p.G, u).lpNorm<Eigen::Infinity>(), 1e-10);
  // Contacts push and end without penetrating, and a contact that pushes
  // does not lift off: exactly on the pivoting path, and within 1e-5 m/s
  // (2·10⁻⁵ of the landing speed) where Gauss–Seidel's 2000 sweeps end.
  const double vtol = 1e-5;
  const int nn = p.N.numRows();
  const Eigen::VectorXd w = p.times(p.N, u) - Eigen::Map<const Eigen::VectorXd>(p.N.rhs.data(), nn);
  for (int i = 0; i < nn; ++i) {
    EXPECT_GE(theta[i], 0.0);
    EXPECT_GE(w[i], -vtol);
    if (theta[i] > 1e-9) EXPECT_LT(w[i], vtol);
  }
  if (phi.size() != p.D.numRows()) {
    ADD_FAILURE() << "no friction impulses";
    return 0;
  }
  for (int k = 0; k < p.D.numRows(); ++k) EXPECT_LE(std::abs(phi[k]), kMu * theta[p.D.normalRow[k]] * (1 + 1e-9));
  // The ground's impulses are the machine's momentum change (the joints'
  // impulses are internal): vertically the pushes, along x and y friction.
  const Eigen::VectorXd P = p.S * u - p.bf;
  Vector3d dP = Vector3d::Zero(), ground(0, 0, theta.sum());
  for (int b = 0; b <= p.feet; ++b) dP += P.segment<3>(6 * b);
  for (int k = 0; k < p.D.numRows(); ++k) ground[k % 2] += phi[k];
  EXPECT_LT((dP - ground).norm(), 1e-9);
  return kkt.lcpFallbacks() + kkt.frictionFallbacks();
}

TEST(KKTSolverRedundantContact, TripodLandingOnTheGroundGetsAContactSolution) {
  // Landing at 0.5 m/s while sliding at 0.3 m/s with the corners pressed
  // in unevenly; settling; at rest with every corner touching.
  Eigen::VectorXd uneven(12), slight(12), even = Eigen::VectorXd::Constant(12, 1e-6);
  uneven << 1e-4, 3e-4, 0.5e-4, 2e-4, 0, 1e-4, 1e-4, 0, 2e-4, 0.5e-4, 0.5e-4, 3e-4;
  slight << 0, 1e-5, 2e-5, 0, 1e-5, 0, 0, 1e-5, 0, 0, 2e-5, 1e-5;
  for (auto type : {LinearSolverType::Auto, LinearSolverType::EigenLDLT}) {
    SCOPED_TRACE(toString(type));
    expectContactSolution(type, 0.3, -0.5, uneven);
    expectContactSolution(type, 0.05, -0.1, slight);
    expectContactSolution(type, 0.0, 0.0, even);
  }
}

TEST(KKTSolverRedundantContact, SixFeetLandingGetAContactSolution) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> U(0, 2e-4);
  long gaussSeidel = 0;
  for (int trial = 0; trial < 20; ++trial) {
    Eigen::VectorXd pen = Eigen::VectorXd::NullaryExpr(24, [&] { return U(rng); });
    gaussSeidel += expectContactSolution(LinearSolverType::Auto, 0.3, -0.5, pen);
    gaussSeidel += expectContactSolution(LinearSolverType::Auto, 0.0, -0.01, pen * 0.01);
  }
  // Both loops of legs closed through the ground: the pivoting cycles or
  // the friction pass fails in many of these, so both paths are checked.
  EXPECT_GT(gaussSeidel, 10);
}

}  // namespace
}  // namespace sinew
