// Tests of the spatial algebra (guide §2.2–2.4, Appendix A): cross-product
// matrices, axis-angle rotations, rigid transforms, the exponential-map
// rotation update, and spatial inertias (composition, mass matrix, kinetic
// energy and fictitious forces), checked against hand-computed physics.
#include "sinew/math/Spatial.h"
#include "sinew/math/CoriolisJacobian.h"

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <cmath>

using sinew::AxisAngle;
using sinew::coriolisJacobian;
using sinew::Matrix3d;
using sinew::Matrix6d;
using sinew::RigidTransform3d;
using sinew::SpatialInertia;
using sinew::Twist;
using sinew::Vector3d;
using sinew::Vector6d;
using sinew::Wrench;

namespace {

constexpr double kTol = 1e-12;

Matrix3d rot(double ax, double ay, double az, double ang) {
  return Eigen::AngleAxisd(ang, Vector3d(ax, ay, az).normalized()).toRotationMatrix();
}

// A generic rotation and a generic (non-diagonal) SPD inertia.
Matrix3d someR() { return rot(1, -2, 0.5, 0.9); }
Matrix3d someJ() {
  Matrix3d J;
  J << 2.0, 0.3, -0.1,  //
      0.3, 1.5, 0.2,    //
      -0.1, 0.2, 1.0;
  return J;
}

bool isRotation(const Matrix3d& R, double tol) {
  return (R.transpose() * R - Matrix3d::Identity()).norm() < tol && std::abs(R.determinant() - 1) < tol;
}

Twist twist(const Vector3d& v, const Vector3d& w) {
  Twist t;
  t << v, w;
  return t;
}

// Exponential of the skew matrix of theta by its power series (independent
// of the library's use of Eigen::AngleAxis).
Matrix3d expSeries(const Vector3d& theta) {
  Matrix3d K = sinew::skew(theta), term = Matrix3d::Identity(), sum = Matrix3d::Identity();
  for (int n = 1; n < 40; ++n) {
    term = term * K / n;
    sum += term;
  }
  return sum;
}

}  // namespace

// ---------------------------------------------------------------------------
// skew, AxisAngle

TEST(MathSpatial, SkewTimesVectorIsCrossProduct) {
  const Vector3d vs[] = {{1, 2, 3}, {-0.5, 4, 0.25}, {0, 0, 1}, {7, -3, -2}};
  for (const Vector3d& v : vs)
    for (const Vector3d& w : vs) EXPECT_TRUE((sinew::skew(v) * w - v.cross(w)).norm() < kTol);
  // Skew-symmetric, and [v]·v = 0.
  Vector3d v(1.5, -2, 0.3);
  EXPECT_TRUE((sinew::skew(v) + sinew::skew(v).transpose()).isZero(0));
  EXPECT_TRUE((sinew::skew(v) * v).norm() < kTol);
}

TEST(MathSpatial, AxisAngleToMatrixAndBack) {
  for (double ang : {0.1, 1.0, 2.0, 3.0}) {
    AxisAngle a(Vector3d(1, 2, -2), ang);  // axis is normalized on construction
    EXPECT_NEAR(a.axis.norm(), 1.0, kTol);
    Matrix3d R = a.toMatrix();
    EXPECT_TRUE(isRotation(R, kTol));
    EXPECT_TRUE((R * a.axis - a.axis).norm() < kTol);  // the axis is fixed
    EXPECT_NEAR(R.trace(), 1 + 2 * std::cos(ang), kTol);  // rotation by ang
    AxisAngle b(R);
    EXPECT_NEAR(b.angle, ang, 1e-10);
    EXPECT_TRUE((b.axis - a.axis).norm() < 1e-10);
    EXPECT_TRUE((b.toMatrix() - R).norm() < kTol);
  }
  // A quarter turn about z maps x to y.
  Matrix3d Rz = AxisAngle(Vector3d(0, 0, 1), M_PI / 2).toMatrix();
  EXPECT_TRUE((Rz * Vector3d(1, 0, 0) - Vector3d(0, 1, 0)).norm() < kTol);
  // Identity by default.
  EXPECT_TRUE((AxisAngle().toMatrix() - Matrix3d::Identity()).norm() < kTol);
}

// ---------------------------------------------------------------------------
// RigidTransform3d

TEST(MathSpatial, RigidTransformConstructors) {
  RigidTransform3d T(1, 2, 3);
  EXPECT_EQ(T.p, Vector3d(1, 2, 3));
  EXPECT_EQ(T.R, Matrix3d::Identity());
  RigidTransform3d U(1, 2, 3, 0, 0, 1, M_PI / 2);
  EXPECT_TRUE((U.transformPoint(Vector3d(1, 0, 0)) - Vector3d(1, 3, 3)).norm() < kTol);
  EXPECT_TRUE((U.transformVector(Vector3d(1, 0, 0)) - Vector3d(0, 1, 0)).norm() < kTol);
  RigidTransform3d I = RigidTransform3d::identity();
  EXPECT_EQ(I.R, Matrix3d::Identity());
  EXPECT_EQ(I.p, Vector3d::Zero());
}

TEST(MathSpatial, RigidTransformCompositionAndInverse) {
  RigidTransform3d A(Vector3d(1, -2, 0.5), someR());
  RigidTransform3d B(Vector3d(-0.3, 0.7, 2), rot(0, 1, 1, -0.4));
  const Vector3d x(0.2, -1.1, 3.0);

  // (A·B) applies B first, then A.
  RigidTransform3d AB = A * B;
  EXPECT_TRUE((AB.transformPoint(x) - A.transformPoint(B.transformPoint(x))).norm() < kTol);
  EXPECT_TRUE(isRotation(AB.R, kTol));

  // T·T⁻¹ = T⁻¹·T = I.
  for (const RigidTransform3d& T : {A, B, AB}) {
    RigidTransform3d I1 = T * T.inverse(), I2 = T.inverse() * T;
    EXPECT_TRUE((I1.R - Matrix3d::Identity()).norm() < kTol);
    EXPECT_TRUE(I1.p.norm() < kTol);
    EXPECT_TRUE((I2.R - Matrix3d::Identity()).norm() < kTol);
    EXPECT_TRUE(I2.p.norm() < kTol);
    // inverseTransformPoint undoes transformPoint and equals the inverse's.
    EXPECT_TRUE((T.inverseTransformPoint(T.transformPoint(x)) - x).norm() < kTol);
    EXPECT_TRUE((T.inverse().transformPoint(x) - T.inverseTransformPoint(x)).norm() < kTol);
  }
  // (A·B)⁻¹ = B⁻¹·A⁻¹.
  RigidTransform3d lhs = AB.inverse(), rhs = B.inverse() * A.inverse();
  EXPECT_TRUE((lhs.R - rhs.R).norm() < kTol);
  EXPECT_TRUE((lhs.p - rhs.p).norm() < kTol);
  // Points feel the translation, vectors do not (§2.3).
  EXPECT_TRUE((A.transformPoint(x) - (A.R * x + A.p)).norm() < kTol);
  EXPECT_TRUE((A.transformVector(x) - A.R * x).norm() < kTol);
  // Transforms preserve distances.
  const Vector3d y(-4, 0.5, 1);
  EXPECT_NEAR((A.transformPoint(x) - A.transformPoint(y)).norm(), (x - y).norm(), kTol);
}

// ---------------------------------------------------------------------------
// rotateByWorldVector

TEST(MathSpatial, RotateByWorldVectorIsExponentialTimesR) {
  const Matrix3d R = someR();
  for (const Vector3d& theta : {Vector3d(0.01, -0.02, 0.03), Vector3d(0.5, 0.2, -0.7), Vector3d(0, 0, 2.5)}) {
    Matrix3d Rn = sinew::rotateByWorldVector(R, theta);
    EXPECT_TRUE(isRotation(Rn, 1e-14));
    EXPECT_TRUE((Rn - expSeries(theta) * R).norm() < 1e-12) << theta.transpose();
  }
  EXPECT_EQ(sinew::rotateByWorldVector(R, Vector3d::Zero()), R);
}

TEST(MathSpatial, RotationExpMatchesTheSeriesAtSmallAndLargeAngles) {
  for (double t : {0.0, 1e-9, 1e-5, 9e-4, 1.1e-3, 0.3, 2.5}) {
    const Vector3d theta = t * Vector3d(0.6, -0.48, 0.64);
    const Matrix3d E = sinew::rotationExp(theta);
    EXPECT_TRUE(isRotation(E, 1e-15)) << t;
    EXPECT_LT((E - Eigen::AngleAxisd(t, Vector3d(0.6, -0.48, 0.64)).toRotationMatrix()).norm(), 1e-15) << t;
  }
}

TEST(MathSpatial, RotateByWorldVectorStaysOrthonormalOverManySteps) {
  // Spin at constant ω for 10000 small steps: R stays a rotation and ends at
  // exp(ω·T)·R0.
  const Vector3d w(0.3, -1.2, 0.8);
  const double h = 1e-3;
  const Matrix3d R0 = someR();
  Matrix3d R = R0;
  for (int k = 0; k < 10000; ++k) R = sinew::rotateByWorldVector(R, w * h);
  EXPECT_TRUE(isRotation(R, 1e-13));
  Matrix3d expected = Eigen::AngleAxisd(w.norm() * 10.0, w.normalized()).toRotationMatrix() * R0;
  EXPECT_TRUE((R - expected).norm() < 1e-10);
}

// ---------------------------------------------------------------------------
// SpatialInertia

TEST(MathSpatial, AddTwoPointMassesMatchesParallelAxisByHand) {
  // m1 = 2 at (1, 0, 0) and m2 = 3 at (0, 2, 0), both point-like (J = 0).
  SpatialInertia a(2.0, Matrix3d::Zero(), Vector3d(1, 0, 0));
  SpatialInertia b(3.0, Matrix3d::Zero(), Vector3d(0, 2, 0));
  a.add(b);
  EXPECT_DOUBLE_EQ(a.getMass(), 5.0);
  // COM = (2·(1,0,0) + 3·(0,2,0)) / 5 = (0.4, 1.2, 0).
  EXPECT_TRUE((a.getCenterOfMass() - Vector3d(0.4, 1.2, 0)).norm() < kTol);
  // About the COM: d1 = (0.6, −1.2, 0), d2 = (−0.4, 0.8, 0).
  //   Jxx = Σ m (dy² + dz²) = 2·1.44 + 3·0.64 = 4.8
  //   Jyy = Σ m (dx² + dz²) = 2·0.36 + 3·0.16 = 1.2
  //   Jzz = Σ m (dx² + dy²) = 4.8 + 1.2 = 6.0
  //   Jxy = −Σ m dx dy     = −(2·(−0.72) + 3·(−0.32)) = 2.4
  Matrix3d J;
  J << 4.8, 2.4, 0,  //
      2.4, 1.2, 0,   //
      0, 0, 6.0;
  EXPECT_TRUE((a.getRotationalInertia() - J).norm() < kTol) << a.getRotationalInertia();
  // The combined inertia about the COM is that of a two-point dumbbell:
  // μ·L² perpendicular to the bar, with μ = m1 m2 /(m1+m2) = 1.2, L² = 5.
  Vector3d u = Vector3d(-1, 2, 0).normalized();  // along the bar
  Vector3d n(0, 0, 1);                           // perpendicular
  EXPECT_NEAR(u.dot(a.getRotationalInertia() * u), 0.0, kTol);
  EXPECT_NEAR(n.dot(a.getRotationalInertia() * n), 1.2 * 5, kTol);
}

TEST(MathSpatial, AddBodiesWithOwnInertiaUsesParallelAxis) {
  // Two unit spheres side by side: total inertia about the joint COM is
  // 2·(J_sphere) + parallel-axis terms.
  SpatialInertia s1 = SpatialInertia::createSphereInertia(1.0, 0.5);
  s1.setCenterOfMass(Vector3d(-1, 0, 0));
  SpatialInertia s2 = SpatialInertia::createSphereInertia(1.0, 0.5);
  s2.setCenterOfMass(Vector3d(1, 0, 0));
  s1.add(s2);
  const double js = 0.4 * 1.0 * 0.25;
  EXPECT_TRUE(s1.getCenterOfMass().norm() < kTol);
  Matrix3d expected = Vector3d(2 * js, 2 * js + 2.0, 2 * js + 2.0).asDiagonal();
  EXPECT_TRUE((s1.getRotationalInertia() - expected).norm() < kTol);
  // Adding a zero-mass inertia changes nothing.
  SpatialInertia before = s1;
  s1.add(SpatialInertia());
  EXPECT_EQ(s1.getMass(), before.getMass());
  EXPECT_TRUE((s1.getRotationalInertia() - before.getRotationalInertia()).norm() < kTol);
}

TEST(MathSpatial, ShapeInertiasMatchFormulas) {
  SpatialInertia box = SpatialInertia::createBoxInertia(12.0, 1, 2, 3);
  EXPECT_TRUE((box.getRotationalInertia().diagonal() - Vector3d(13, 10, 5)).norm() < kTol);
  SpatialInertia cyl = SpatialInertia::createCylinderInertia(12.0, 1, 2);
  EXPECT_TRUE((cyl.getRotationalInertia().diagonal() - Vector3d(7, 7, 6)).norm() < kTol);
  SpatialInertia sph = SpatialInertia::createSphereInertia(5.0, 2);
  EXPECT_TRUE((sph.getRotationalInertia().diagonal() - Vector3d(8, 8, 8)).norm() < kTol);
  sph.scale(0.5);
  EXPECT_EQ(sph.getMass(), 2.5);
  EXPECT_TRUE((sph.getRotationalInertia().diagonal() - Vector3d(4, 4, 4)).norm() < kTol);
}

TEST(MathSpatial, WorldMatrixIsSymmetricPositiveDefiniteAndHasTheBlockForm) {
  const double m = 3.0;
  const Vector3d c(0.2, -0.4, 0.7);
  SpatialInertia S(m, someJ(), c);
  const Matrix3d R = someR();
  Matrix6d M = S.worldMatrix(R);

  EXPECT_TRUE((M - M.transpose()).norm() < kTol);
  Eigen::SelfAdjointEigenSolver<Matrix6d> eig(M);
  EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0);

  const Vector3d r = R * c;
  const Matrix3d rx = sinew::skew(r);
  const Matrix3d Iw = R * someJ() * R.transpose();
  Matrix6d expected;
  expected << m * Matrix3d::Identity(), -m * rx,  //
      m * rx, Iw - m * rx * rx;
  EXPECT_TRUE((M - expected).norm() < kTol);
  // −[r][r] = |r|²I − r rᵀ: the parallel-axis term.
  EXPECT_TRUE((M.block<3, 3>(3, 3) - (Iw + m * (r.squaredNorm() * Matrix3d::Identity() - r * r.transpose())))
                  .norm() < kTol);
}

TEST(MathSpatial, KineticEnergyOfTranslationAndOfSpinAboutCom) {
  const double m = 2.5;
  const Vector3d c(0.3, 0.1, -0.2);
  SpatialInertia S(m, someJ(), c);
  const Matrix3d R = someR();

  // Pure translation: ½ m v², whatever the COM offset.
  const Vector3d v(1.0, -2.0, 0.5);
  EXPECT_NEAR(S.kineticEnergy(R, twist(v, Vector3d::Zero())), 0.5 * m * v.squaredNorm(), kTol);

  // Spinning about the COM: the COM is still, so the frame origin (at −r
  // from the COM) moves with v = ω × (−r); the energy is ½ ωᵀ I_w ω.
  const Vector3d w(0.4, -0.9, 1.3);
  const Vector3d r = R * c;
  const Matrix3d Iw = R * someJ() * R.transpose();
  EXPECT_NEAR(S.kineticEnergy(R, twist(w.cross(-r), w)), 0.5 * w.dot(Iw * w), 1e-12);

  // General motion: ½ m |v_com|² + ½ ωᵀ I_w ω (König's theorem).
  const Vector3d vcom = v + w.cross(r);
  EXPECT_NEAR(S.kineticEnergy(R, twist(v, w)), 0.5 * m * vcom.squaredNorm() + 0.5 * w.dot(Iw * w), 1e-12);
}

TEST(MathSpatial, CoriolisForceWithComAtOrigin) {
  const Matrix3d R = someR();
  const Matrix3d J = Vector3d(1.0, 2.0, 3.0).asDiagonal();
  SpatialInertia S(4.0, J);  // com = 0
  // Spinning about a principal axis: no gyroscopic moment.
  for (int k = 0; k < 3; ++k) {
    Vector3d w = 1.7 * R.col(k);  // body principal axis k in world coordinates
    Wrench f = S.coriolisForce(R, twist(Vector3d(0.3, -0.2, 1.0), w));
    EXPECT_TRUE(f.norm() < 1e-12) << "axis " << k << ": " << f.transpose();
  }
  // In general: (0, −ω × (I_w ω)), independent of v.
  const Vector3d w(0.5, -1.0, 2.0);
  const Matrix3d Iw = R * J * R.transpose();
  Wrench f = S.coriolisForce(R, twist(Vector3d(2, 3, 4), w));
  EXPECT_TRUE(f.head<3>().norm() < kTol);
  EXPECT_TRUE((f.tail<3>() + w.cross(Iw * w)).norm() < 1e-12);
  EXPECT_GT(f.tail<3>().norm(), 0.1);  // non-trivial case
  // Gyroscopic forces do no work: ωᵀ(ω × Iω) = 0.
  EXPECT_NEAR(twist(Vector3d(2, 3, 4), w).dot(f), 0.0, 1e-12);
}

TEST(MathSpatial, CoriolisForceWithComOffsetIsMinusRateOfMomentum) {
  // With the COM off the origin, the fictitious wrench at the origin is
  // −(Ṁ u + (0, v × p)) for constant u, where p = (M u).head is the linear
  // momentum and Ṁ comes from the rotation R(t) = exp([ω] t) R. Ṁ is taken
  // by central differences here.
  const double m = 1.7;
  SpatialInertia S(m, someJ(), Vector3d(0.4, -0.3, 0.2));
  const Matrix3d R = someR();
  const Vector3d v(0.6, -0.1, 0.3), w(-0.8, 1.1, 0.5);
  const Twist u = twist(v, w);
  const double h = 1e-5;
  Matrix6d Mp = S.worldMatrix(Eigen::AngleAxisd(w.norm() * h, w.normalized()).toRotationMatrix() * R);
  Matrix6d Mm = S.worldMatrix(Eigen::AngleAxisd(-w.norm() * h, w.normalized()).toRotationMatrix() * R);
  Vector6d Mdot_u = (Mp - Mm) / (2 * h) * u;
  Vector3d p = (S.worldMatrix(R) * u).head<3>();
  Wrench expected = -Mdot_u;
  expected.tail<3>() -= v.cross(p);
  Wrench f = S.coriolisForce(R, u);
  EXPECT_TRUE((f - expected).norm() < 1e-8) << f.transpose() << "\n" << expected.transpose();
  // The linear part is the centripetal force on the COM: −m ω×(ω×r).
  Vector3d r = R * S.getCenterOfMass();
  EXPECT_TRUE((f.head<3>() + m * w.cross(w.cross(r))).norm() < 1e-12);
}

TEST(MathSpatial, PointVelocityJacobianGivesVPlusOmegaCrossR) {
  const Vector3d r(0.3, -1.2, 2.0), v(1, 2, 3), w(-0.5, 0.4, 0.9);
  const Twist tw = twist(v, w);
  EXPECT_TRUE((sinew::pointVelocityJacobian(r) * tw - (v + w.cross(r))).norm() < kTol);
  // Its transpose maps a point force f at r to the wrench (f, r × f).
  const Vector3d f(0.2, -0.7, 1.5);
  Vector6d wr = sinew::pointVelocityJacobian(r).transpose() * f;
  EXPECT_TRUE((wr.head<3>() - f).norm() < kTol);
  EXPECT_TRUE((wr.tail<3>() - r.cross(f)).norm() < kTol);
  // The frame Jacobian carries ω unchanged.
  Vector6d t2 = sinew::frameVelocityJacobian(r) * tw;
  EXPECT_TRUE((t2.head<3>() - (v + w.cross(r))).norm() < kTol);
  EXPECT_TRUE((t2.tail<3>() - w).norm() < kTol);
}

TEST(MathSpatial, TwistAccessorsReferToTheParts) {
  Vector6d x;
  x << 1, 2, 3, 4, 5, 6;
  EXPECT_EQ(Vector3d(sinew::linear(x)), Vector3d(1, 2, 3));
  EXPECT_EQ(Vector3d(sinew::angular(x)), Vector3d(4, 5, 6));
  sinew::angular(x) = Vector3d(-1, -2, -3);
  EXPECT_EQ(x.tail<3>(), Vector3d(-1, -2, -3));
}

TEST(MathSpatial, CoriolisJacobianMatchesCentralDifferences) {
  // An off-centre inertia at a general rotation: ∂f/∂u of coriolisForce
  // against central differences (f is quadratic in ω, so they are exact up
  // to rounding), and zero in v.
  Matrix3d Jc;
  Jc << 2.0, 0.3, -0.1, 0.3, 1.5, 0.2, -0.1, 0.2, 1.1;
  const SpatialInertia S(3.0, Jc, Vector3d(0.2, -0.4, 0.7));
  const Matrix3d R = AxisAngle(Vector3d(1, 2, -1).normalized(), 0.8).toMatrix();
  const Twist u = twist(Vector3d(0.5, -1, 2), Vector3d(3, -2, 5));
  const Matrix6d D = coriolisJacobian(S, R, u);
  const double e = 1e-4;
  for (int k = 0; k < 6; ++k) {
    Twist up = u, um = u;
    up[k] += e;
    um[k] -= e;
    const Vector6d col = (S.coriolisForce(R, up) - S.coriolisForce(R, um)) / (2 * e);
    EXPECT_LT((D.col(k) - col).norm(), 1e-8 * (1 + col.norm())) << "column " << k;
  }
}
