// Joint kinematics against the guide's formulas (§3.4): T_CD for given
// coordinates, coordinate round-trips for every gimbal axis order, and the
// limit wrenches' rates (eq. 4.34).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "sinew/joints/EllipsoidJoint.h"
#include "sinew/joints/RotaryCouplings.h"

namespace sinew {
namespace {

Matrix3d universalMatrix(double t, double p) {  // §3.4.5
  const double ct = std::cos(t), st = std::sin(t), cp = std::cos(p), sp = std::sin(p);
  Matrix3d R;
  R << ct * cp, -st, ct * sp, st * cp, ct, st * sp, -sp, 0, cp;
  return R;
}

Matrix3d skewedMatrix(double t, double p, double a) {  // §3.4.6
  const double ct = std::cos(t), st = std::sin(t), cp = std::cos(p), sp = std::sin(p);
  const double ca = std::cos(a), sa = std::sin(a), vp = 1 - cp, beta = ca * ca + sa * sa * cp;
  Matrix3d R;
  R << ct * cp - st * sa * sp, -st * beta - sa * ct * sp, ca * (ct * sp - sa * st * vp),  //
      st * cp + ct * sa * sp, ct * beta - sa * st * sp, ca * (st * sp + sa * ct * vp),    //
      -ca * sp, ca * sa * vp, sa * sa + ca * ca * cp;
  return R;
}

Matrix3d gimbalMatrix(double t, double p, double y) {  // §3.4.7
  const double ct = std::cos(t), st = std::sin(t), cp = std::cos(p), sp = std::sin(p), cy = std::cos(y),
               sy = std::sin(y);
  Matrix3d R;
  R << ct * cp, ct * sp * sy - st * cy, ct * sp * cy + st * sy,  //
      st * cp, st * sp * sy + ct * cy, st * sp * cy - ct * sy,   //
      -sp, cp * sy, cp * cy;
  return R;
}

TEST(JointKinematics, UniversalAndSkewedMatchTheGuide) {
  RigidTransform3d T;
  for (double skew : {0.0, 0.5}) {
    UniversalCoupling c(skew);
    c.coordinatesToTCD(T, Eigen::Vector2d(0.4, -0.7));
    EXPECT_LT((T.R - skewedMatrix(0.4, -0.7, skew)).norm(), 1e-14) << skew;
    if (skew == 0) EXPECT_LT((T.R - universalMatrix(0.4, -0.7)).norm(), 1e-14);
    EXPECT_LT(T.p.norm(), 1e-15);
    Eigen::VectorXd q;
    c.TCDToCoordinates(q, T);
    EXPECT_LT((q - Eigen::Vector2d(0.4, -0.7)).norm(), 1e-12) << skew;
  }
}

TEST(JointKinematics, GimbalMatchesTheGuideAndEveryOrderRoundTrips) {
  RigidTransform3d T;
  GimbalCoupling rpy;
  rpy.coordinatesToTCD(T, Eigen::Vector3d(0.3, -0.5, 1.1));
  EXPECT_LT((T.R - gimbalMatrix(0.3, -0.5, 1.1)).norm(), 1e-14);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.4, 1.4);
  for (int o = 0; o < 6; ++o) {
    GimbalCoupling c(static_cast<EulerOrder>(o));
    for (int k = 0; k < 20; ++k) {
      Eigen::Vector3d q(2 * u(rng), u(rng), 2 * u(rng));
      c.coordinatesToTCD(T, q);
      Eigen::VectorXd back;
      c.TCDToCoordinates(back, T);
      EXPECT_LT((back - q).norm(), 1e-10) << "order " << o;
    }
  }
}

TEST(JointKinematics, EllipsoidSurfaceFrame) {
  // §3.4.11: at zero coordinates R_CD = I and p = (0, 0, C); in general
  // p_SD = (A sγ, −B sψ cγ, C cψ cγ) lies on the ellipsoid and S's z is the
  // surface normal.
  const Vector3d ax(0.3, 0.2, 0.25);
  EllipsoidCoupling c(ax, 0.2, false);
  RigidTransform3d T;
  c.coordinatesToTCD(T, Eigen::Vector4d::Zero());
  EXPECT_LT((T.R - Matrix3d::Identity()).norm(), 1e-15);
  EXPECT_LT((T.p - Vector3d(0, 0, 0.25)).norm(), 1e-15);
  const double psi = 0.7, gam = -0.4;
  c.coordinatesToTCD(T, Eigen::Vector4d(psi, gam, 0, 0));
  const Vector3d p(ax.x() * std::sin(gam), -ax.y() * std::sin(psi) * std::cos(gam),
                   ax.z() * std::cos(psi) * std::cos(gam));
  EXPECT_LT((T.p - p).norm(), 1e-15);
  EXPECT_NEAR(p.cwiseQuotient(ax).squaredNorm(), 1.0, 1e-14);
  // With θ = φ = 0 (and any α) C = S, whose z is the normal ∇(Σ x²/a²).
  const Vector3d normal = p.cwiseQuotient(ax.cwiseAbs2()).normalized();
  EXPECT_LT((T.R.col(2) - normal).norm(), 1e-14);
}

TEST(JointKinematics, LimitWrenchesGiveCoordinateRates) {
  // Eq. 4.34: q̇ = N·v̂_GD. Move the coordinates at a known rate and compare.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.8, 0.8);
  const double h = 1e-7;
  std::vector<std::unique_ptr<RigidBodyCoupling>> couplings;
  couplings.push_back(std::make_unique<UniversalCoupling>(0.3));
  couplings.push_back(std::make_unique<GimbalCoupling>(EulerOrder::XZY));
  couplings.push_back(std::make_unique<EllipsoidCoupling>(Vector3d(0.3, 0.2, 0.25), 0.2, true));
  for (auto& c : couplings) {
    const int n = c->numCoordinates();
    Eigen::VectorXd q(n), qdot(n);
    for (int i = 0; i < n; ++i) q[i] = u(rng), qdot[i] = u(rng);
    for (int i = 0; i < n; ++i) c->getCoordinateInfo(i).value = q[i];
    RigidTransform3d T0, T1;
    c->coordinatesToTCD(T0, q);
    c->coordinatesToTCD(T1, q + h * qdot);
    const Twist vel = errorTwist(T0.inverse() * T1) / h;  // v̂ of C relative to D, in C
    c->updateConstraints(T0, T0, Twist::Zero(), vel, false);
    for (int i = 0; i < n; ++i)
      EXPECT_NEAR(c->getCoordinateInfo(i).limitConstraint->getWrenchG().dot(vel), qdot[i], 1e-6) << i;
    for (int k = 0; k < c->numConstraints(); ++k)  // bilateral wrenches do no work on allowed motion
      if (c->getConstraint(k).isBilateral()) EXPECT_NEAR(c->getConstraint(k).getWrenchG().dot(vel), 0, 1e-6);
  }
}

TEST(JointKinematics, ErrorTwistIsTheRotationVectorAtEveryAngle) {
  // Small angles take a series, larger ones the quaternion: both must give
  // angle · axis to round-off, and the translation unchanged.
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double angle : {0.0, 1e-15, 1e-12, 1e-8, 3e-5, 1e-4, 2e-4, 1e-2, 0.7, 2.0, 3.1}) {
    const Vector3d axis = Vector3d(u(rng), u(rng), u(rng)).normalized(), p(u(rng), u(rng), u(rng));
    const Twist e = errorTwist(RigidTransform3d(p, AxisAngle(axis, angle).toMatrix()));
    EXPECT_EQ(e.head<3>(), p);
    EXPECT_LT((e.tail<3>() - angle * axis).norm(), 4e-16 * std::max(1.0, angle)) << angle;
  }
}

}  // namespace
}  // namespace sinew
