#include "sinew/math/Spatial.h"

namespace sinew {

Matrix3d rotationExp(const Vector3d& theta) {
  // About a coordinate axis (a hinge's or a gimbal's turn in its joint
  // frame): the elementary rotation, with no products of [θ].
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    if (theta(i) != 0 || theta(j) != 0) continue;
    const double c = std::cos(theta(k)), s = std::sin(theta(k));
    Matrix3d R = Matrix3d::Identity();
    R(i, i) = c;
    R(j, j) = c;
    R(i, j) = -s;
    R(j, i) = s;
    return R;
  }
  // Rodrigues: I + a[θ] + b[θ]² with a = sin t / t and b = (1 − cos t) / t²
  // for t = |θ|; below t = 1e-3 their series (next terms t⁶/5040 and
  // t⁶/40320, under round-off) avoid the cancellation in 1 − cos t.
  const double t2 = theta.squaredNorm();
  double a, b;
  if (t2 < 1e-6) {
    a = 1 - t2 / 6 * (1 - t2 / 20);
    b = 0.5 - t2 / 24 * (1 - t2 / 30);
  } else {
    const double t = std::sqrt(t2);
    a = std::sin(t) / t;
    b = (1 - std::cos(t)) / t2;
  }
  const Matrix3d K = skew(theta);
  return Matrix3d::Identity() + a * K + b * (K * K);
}

Matrix3d rotateByWorldVector(const Matrix3d& R, const Vector3d& theta) {
  double ang = theta.norm();
  if (ang == 0) return R;
  Matrix3d Rn = Eigen::AngleAxisd(ang, theta / ang).toRotationMatrix() * R;
  // Re-orthonormalize through the quaternion to stop round-off drift.
  return Quaternion(Rn).normalized().toRotationMatrix();
}

SpatialInertia SpatialInertia::createBoxInertia(double m, double wx, double wy, double wz) {
  return {m, m / 12 * (wy * wy + wz * wz), m / 12 * (wx * wx + wz * wz),
          m / 12 * (wx * wx + wy * wy)};
}

SpatialInertia SpatialInertia::createSphereInertia(double m, double r) {
  double j = 0.4 * m * r * r;
  return {m, j, j, j};
}

SpatialInertia SpatialInertia::createCylinderInertia(double m, double r, double h) {
  double jxy = m * (3 * r * r + h * h) / 12;
  return {m, jxy, jxy, 0.5 * m * r * r};
}

void SpatialInertia::add(const SpatialInertia& o) {
  double m = myMass + o.myMass;
  if (m == 0) return;
  Vector3d c = (myMass * myCom + o.myMass * o.myCom) / m;
  // Parallel-axis theorem moves each rotational inertia to the new COM.
  auto shifted = [&](const SpatialInertia& s) {
    Vector3d d = s.myCom - c;
    return Matrix3d(s.myJ + s.myMass * (d.squaredNorm() * Matrix3d::Identity() - d * d.transpose()));
  };
  myJ = shifted(*this) + shifted(o);
  myMass = m;
  myCom = c;
}

Matrix6d SpatialInertia::worldMatrix(const Matrix3d& R) const {
  Matrix6d M;
  if (myCom.isZero(0)) {  // about the centre of mass: no coupling terms
    M.setZero();
    M.diagonal().head<3>().setConstant(myMass);
    M.block<3, 3>(3, 3) = R * myJ * R.transpose();
    return M;
  }
  Vector3d r = R * myCom;
  Matrix3d rx = skew(r);
  M.block<3, 3>(0, 0) = myMass * Matrix3d::Identity();
  M.block<3, 3>(0, 3) = -myMass * rx;
  M.block<3, 3>(3, 0) = myMass * rx;
  M.block<3, 3>(3, 3) = R * myJ * R.transpose() - myMass * rx * rx;
  return M;
}

Wrench SpatialInertia::coriolisForce(const Matrix3d& R, const Twist& tw) const {
  Vector3d r = R * myCom;
  Vector3d w = tw.tail<3>();
  Vector3d wwr = w.cross(w.cross(r));
  Wrench f;
  f.head<3>() = -myMass * wwr;
  // J_world ω as three products with a vector, not J_world formed.
  f.tail<3>() = -w.cross(R * (myJ * (R.transpose() * w))) - myMass * r.cross(wwr);
  return f;
}

double SpatialInertia::kineticEnergy(const Matrix3d& R, const Twist& tw) const {
  return 0.5 * tw.dot(worldMatrix(R) * tw);
}

}  // namespace sinew
