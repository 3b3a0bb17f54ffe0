#include "sinew/joints/RigidBodyCoupling.h"

#include <cmath>

namespace sinew {

Twist errorTwist(const RigidTransform3d& TCG) {
  Twist d;
  d.head<3>() = TCG.p;
  const Matrix3d& R = TCG.R;
  // Joint errors are tiny rotations: their rotation vector is θ/sin θ times
  // the skew part v = sin θ · axis, with θ/sin θ = asin(s)/s by its series in
  // s = |v| (the next term, 5s⁶/112, is below round-off for s < 1e-4). The
  // quaternion's vector part comes from the same differences of R, so this
  // is as accurate as the general branch.
  const Vector3d v = 0.5 * Vector3d(R(2, 1) - R(1, 2), R(0, 2) - R(2, 0), R(1, 0) - R(0, 1));
  const double s2 = v.squaredNorm();
  if (s2 < 1e-8 && R.trace() > 1) {
    d.tail<3>() = (1 + s2 * (1.0 / 6 + s2 * (3.0 / 40))) * v;
    return d;
  }
  // Otherwise through the quaternion, as Eigen's AngleAxis takes it.
  const Quaternion q(R);
  const double n = q.vec().norm();
  if (n == 0) {
    d.tail<3>().setZero();
    return d;
  }
  const double k = 2 * std::atan2(n, std::abs(q.w())) / n;
  d.tail<3>() = (q.w() < 0 ? -k : k) * q.vec();
  return d;
}

double CoordinateInfo::nearestAngle(double phi) const {
  if (!std::isfinite(value)) return phi;
  return phi + 2 * M_PI * std::round((value - phi) / (2 * M_PI));
}

Eigen::VectorXd RigidBodyCoupling::getCoordinateValues() const {
  Eigen::VectorXd q(numCoordinates());
  for (int i = 0; i < numCoordinates(); ++i) q[i] = myCoordinateAt[i]->value;
  return q;
}

RigidBodyConstraint& RigidBodyCoupling::addConstraint(int flags) {
  RigidBodyConstraint& c = myConstraints.emplace_back();
  myConstraintAt.push_back(&c);
  c.myIndex = numConstraints() - 1;
  c.myFlags = flags;
  return c;
}

RigidBodyConstraint& RigidBodyCoupling::addConstraint(int flags, const Wrench& wrenchG) {
  RigidBodyConstraint& c = addConstraint(flags | RigidBodyConstraint::CONSTANT);
  c.myWrench = wrenchG;
  return c;
}

CoordinateInfo& RigidBodyCoupling::addCoordinate(std::string name, double min, double max,
                                                 RigidBodyConstraint* limitConstraint) {
  CoordinateInfo& q = myCoordinates.emplace_back();
  myCoordinateAt.push_back(&q);
  q.name = std::move(name);
  q.min = min;
  q.max = max;
  q.limitConstraint = limitConstraint;
  if (limitConstraint) {
    limitConstraint->myFlags |= RigidBodyConstraint::LIMIT;
    limitConstraint->myCoordinate = &q;
  }
  return q;
}

Twist RigidBodyCoupling::projectedError(const RigidTransform3d& TCD, RigidTransform3d& TGD) const {
  projectToConstraints(TGD, TCD, nullptr);
  return errorTwist(TGD.inverseTimes(TCD));
}

double RigidBodyCoupling::zAngleRate(const RigidTransform3d& TCD, const Twist& velCD) {
  const Vector3d x = TCD.R.col(0), xdot = velCD.tail<3>().cross(x);
  const double r2 = x[0] * x[0] + x[1] * x[1];
  return r2 > 0 ? (x[0] * xdot[1] - x[1] * xdot[0]) / r2 : 0.0;
}

void RigidBodyCoupling::updateEngaged(RigidBodyConstraint& c, double dist, double dmin, double dmax) {
  if (std::isfinite(dmin) && (!std::isfinite(dmax) || dist - dmin <= dmax - dist)) {
    c.setEngaged(1);
    c.setDistance(dist - dmin);
  } else if (std::isfinite(dmax)) {
    c.setEngaged(-1);
    c.setDistance(dmax - dist);
  } else {
    c.setEngaged(0);
  }
}

}  // namespace sinew
