#include "sinew/joints/EllipsoidJoint.h"

#include <cmath>

namespace sinew {

namespace {
std::unique_ptr<RigidBodyCoupling> ellipsoidCoupling(double A, double B, double C, double alphaDeg, bool openSim,
                                                     const std::string& name) {
  if (!(A > 0 && B > 0 && C > 0) || !std::isfinite(A * B * C))
    throw ModelError("ellipsoid semi-axes must be positive and finite", name);
  return std::make_unique<EllipsoidCoupling>(Vector3d(A, B, C), alphaDeg / RTOD, openSim);
}
}  // namespace

EllipsoidCoupling::EllipsoidCoupling(const Vector3d& semiAxes, double alpha, bool openSimCompatible)
    : myAxes(semiAxes), myAlpha(alpha), myOpenSim(openSimCompatible) {
  initializeConstraints();
}

void EllipsoidCoupling::initializeConstraints() {
  addCoordinates({{"longitude", true}, {"latitude", true}, {"theta", true}, {"phi", true}});
}

void EllipsoidCoupling::coordinatesToTCD(RigidTransform3d& TCD, const Eigen::VectorXd& q) const {
  const double cpsi = std::cos(q[0]), spsi = std::sin(q[0]), cgam = std::cos(q[1]), sgam = std::sin(q[1]);
  const Vector3d p(myAxes.x() * sgam, -myAxes.y() * spsi * cgam, myAxes.z() * cpsi * cgam);
  // S: x along the latitude tangent, z along the surface normal (§3.4.11),
  // or OpenSim's approximations of them (eq. 3.29).
  Vector3d dx, dz;
  if (myOpenSim) {
    dx = Vector3d(cgam, spsi * sgam, -cpsi * sgam);
    dz = p.cwiseQuotient(myAxes);
  } else {
    dx = Vector3d(myAxes.x() * cgam, myAxes.y() * spsi * sgam, -myAxes.z() * cpsi * sgam);
    dz = p.cwiseQuotient(myAxes.cwiseAbs2());
  }
  dx.normalize();
  dz.normalize();
  Matrix3d RSD;
  RSD << dx, dz.cross(dx), dz;
  // R_CS = R_z(θ + α) R_x(φ) R_z(−α): θ about z, then φ about x turned by α.
  const Matrix3d RCS = axisRotation(2, q[2] + myAlpha) * axisRotation(0, q[3]) * axisRotation(2, -myAlpha);
  TCD = RigidTransform3d(p, RSD * RCS);
}

SINEW_PROPERTIES(EllipsoidJoint, JointBase) {
  addCoordinateProperties(list, "longitude", LONGITUDE_IDX, "longitude ψ of C's origin (degrees)");
  addCoordinateProperties(list, "latitude", LATITUDE_IDX, "latitude γ of C's origin (degrees)");
  addCoordinateProperties(list, "theta", THETA_IDX, "rotation of C about S's z (degrees)");
  addCoordinateProperties(list, "phi", PHI_IDX, "rotation of C about the rotated x (degrees)");
  list.add<EllipsoidJoint>("semiAxes", "ellipsoid semi-axis lengths A, B, C", &EllipsoidJoint::getSemiAxes);
  list.add<EllipsoidJoint>("alpha", "winging angle of the phi axis (degrees)", &EllipsoidJoint::getAlpha);
}

EllipsoidJoint::EllipsoidJoint(double A, double B, double C, double alphaDeg, bool openSimCompatible,
                               std::string name)
    : JointBase(name, ellipsoidCoupling(A, B, C, alphaDeg, openSimCompatible, name)) {}

EllipsoidJoint::EllipsoidJoint(Frame& bodyA, const RigidTransform3d& TCA, Frame* bodyB, const RigidTransform3d& TDB,
                               double A, double B, double C, double alphaDeg, bool openSimCompatible,
                               std::string name)
    : EllipsoidJoint(A, B, C, alphaDeg, openSimCompatible, std::move(name)) {
  setBodies(bodyA, TCA, bodyB, TDB);
}

EllipsoidJoint::EllipsoidJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TCW, const RigidTransform3d& TDW,
                               double A, double B, double C, std::string name)
    : EllipsoidJoint(A, B, C, 0, false, std::move(name)) {
  setBodies(bodyA, bodyB, TCW, TDW);
}

Vector3d EllipsoidJoint::getSemiAxes() const { return static_cast<EllipsoidCoupling&>(getCoupling()).getSemiAxes(); }
double EllipsoidJoint::getAlpha() const { return static_cast<EllipsoidCoupling&>(getCoupling()).getAlpha() * RTOD; }

}  // namespace sinew
