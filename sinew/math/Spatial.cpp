#include "sinew/math/Spatial.h"

namespace sinew {

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
  Vector3d r = R * myCom;
  Matrix3d rx = skew(r);
  Matrix6d M;
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
  f.tail<3>() = -w.cross(R * myJ * R.transpose() * w) - myMass * r.cross(wwr);
  return f;
}

double SpatialInertia::kineticEnergy(const Matrix3d& R, const Twist& tw) const {
  return 0.5 * tw.dot(worldMatrix(R) * tw);
}

}  // namespace sinew
