#include "sinew/joints/RigidBodyCoupling.h"

#include <cmath>

namespace sinew {

Twist errorTwist(const RigidTransform3d& TCG) {
  Twist d;
  d.head<3>() = TCG.p;
  // The rotation vector through the quaternion, as Eigen's AngleAxis takes
  // it, but without its slow stableNorm branch for angles below machine
  // epsilon, which is where joint errors live (no under- or overflow there).
  const Quaternion q(TCG.R);
  const double n = q.vec().norm();
  if (n == 0) {
    d.tail<3>().setZero();
    return d;
  }
  const double s = 2 * std::atan2(n, std::abs(q.w())) / n;
  d.tail<3>() = (q.w() < 0 ? -s : s) * q.vec();
  return d;
}

double CoordinateInfo::nearestAngle(double phi) const {
  if (!std::isfinite(value)) return phi;
  return phi + 2 * M_PI * std::round((value - phi) / (2 * M_PI));
}

Eigen::VectorXd RigidBodyCoupling::getCoordinateValues() const {
  Eigen::VectorXd q(numCoordinates());
  for (int i = 0; i < numCoordinates(); ++i) q[i] = myCoordinates[i].value;
  return q;
}

RigidBodyConstraint& RigidBodyCoupling::addConstraint(int flags) {
  RigidBodyConstraint& c = myConstraints.emplace_back();
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
