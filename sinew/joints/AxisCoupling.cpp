#include "sinew/joints/AxisCoupling.h"

#include <cmath>

namespace sinew {

using C = RigidBodyConstraint;

AxisCoupling::AxisCoupling(std::array<bool, 3> freeTranslation, bool rotateAboutZ, bool clockwise)
    : myFree(freeTranslation), myRotates(rotateAboutZ), myThetaSign(clockwise ? -1.0 : 1.0) {
  initializeConstraints();
}

void AxisCoupling::initializeConstraints() {
  // The guide's table order: bilateral translations, bilateral rotations,
  // then the limits of x, y, z and θ.
  for (int i = 0; i < 3; ++i)
    if (!myFree[i]) myAxisConstraint[i] = &addConstraint(C::BILATERAL | C::LINEAR);
  addConstraint(C::BILATERAL | C::ROTARY, Wrench::Unit(3));
  addConstraint(C::BILATERAL | C::ROTARY, Wrench::Unit(4));
  if (!myRotates) addConstraint(C::BILATERAL | C::ROTARY, Wrench::Unit(5));
  static const char* names[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i)
    if (myFree[i]) addCoordinate(names[i], -INFINITY, INFINITY, myAxisConstraint[i] = &addConstraint(C::LINEAR));
  if (myRotates) addCoordinate("theta", -INFINITY, INFINITY, &addConstraint(C::ROTARY, myThetaSign * Wrench::Unit(5)));
}

void AxisCoupling::coordinatesToTCD(RigidTransform3d& TCD, const Eigen::VectorXd& coords) const {
  TCD = RigidTransform3d();
  int k = 0;
  for (int i = 0; i < 3; ++i)
    if (myFree[i]) TCD.p[i] = coords[k++];
  if (myRotates) TCD.R = axisRotation(2, myThetaSign * coords[k]);
}

void AxisCoupling::TCDToCoordinates(Eigen::VectorXd& coords, const RigidTransform3d& TCD) const {
  coordinatesOf(coords, TCD.p, std::atan2(TCD.R(1, 0), TCD.R(0, 0)));
}

void AxisCoupling::coordinatesOf(Eigen::VectorXd& coords, const Vector3d& p, double theta) const {
  coords.resize(numCoordinates());
  int k = 0;
  for (int i = 0; i < 3; ++i)
    if (myFree[i]) coords[k++] = p[i];
  if (myRotates) coords[k] = getCoordinateInfo(k).nearestAngle(myThetaSign * theta);
}

void AxisCoupling::projectToConstraints(RigidTransform3d& TGD, const RigidTransform3d& TCD,
                                        Eigen::VectorXd* coords) const {
  TGD = RigidTransform3d();
  for (int i = 0; i < 3; ++i)
    if (myFree[i]) TGD.p[i] = TCD.p[i];
  double theta = 0;
  if (myRotates) {
    // The rotation about z nearest to TCD.R: its (cos θ, sin θ) is the
    // normalized first column's xy part, so no trigonometric call is needed
    // for TGD (only for the coordinate).
    const double c = TCD.R(0, 0), s = TCD.R(1, 0), r = std::sqrt(c * c + s * s);
    if (r > 0) {
      TGD.R(0, 0) = TGD.R(1, 1) = c / r;
      TGD.R(1, 0) = s / r;
      TGD.R(0, 1) = -s / r;
    }
    if (coords) theta = std::atan2(s, c);
  }
  if (coords) coordinatesOf(*coords, TGD.p, theta);
}

int AxisCoupling::bilateralErrors(const RigidTransform3d& TCD, double* phi, Twist& errC) const {
  if (myRotates && !myFree[0] && !myFree[1] && !myFree[2]) return hingeErrors(TCD, phi, errC);
  RigidTransform3d TGD;
  errC = projectedError(TCD, TGD);
  // The rows in the constraints' order (initializeConstraints): a fixed
  // axis's translation along D's axis i (its wrench, as updateConstraints
  // sets it, is row i of R_GD), then the fixed rotations. Dotted in
  // registers: a wrench assembled on the stack and read back at once as
  // packed pairs stalled on store forwarding, and cost more time than the
  // whole evaluation it replaces.
  int k = 0;
  for (int i = 0; i < 3; ++i)
    if (!myFree[i]) phi[k++] = TGD.R.row(i).dot(errC.head<3>());
  for (int i = 3; i < (myRotates ? 5 : 6); ++i) phi[k++] = errC[i];
  return k;
}

int AxisCoupling::hingeErrors(const RigidTransform3d& TCD, double* phi, Twist& errC) {
  // The general path's arithmetic where it is read: T_GD is the rotation
  // about z by (c, s), the normalized first column's xy part of R_CD, with
  // no translation, so T_GD⁻¹ T_CD is R_GDᵀ applied to T_CD's rows and to
  // p. The Impulse integrator evaluates a hinge's errors at every
  // look-ahead; the full product and T_GD's assembly were about a sixth of
  // the joint's error evaluation there.
  const Matrix3d& R = TCD.R;
  double c = 1, s = 0;
  const double r = std::sqrt(R(0, 0) * R(0, 0) + R(1, 0) * R(1, 0));
  if (r > 0) c = R(0, 0) / r, s = R(1, 0) / r;
  RigidTransform3d TCG;  // T_GD⁻¹ T_CD
  TCG.R.row(0) = c * R.row(0) + s * R.row(1);
  TCG.R.row(1) = c * R.row(1) - s * R.row(0);
  TCG.R.row(2) = R.row(2);
  TCG.p = Vector3d(c * TCD.p.x() + s * TCD.p.y(), c * TCD.p.y() - s * TCD.p.x(), TCD.p.z());
  errC = errorTwist(TCG);
  // The translation rows along D's axes: R_GD times the error's translation.
  phi[0] = c * errC[0] - s * errC[1];
  phi[1] = s * errC[0] + c * errC[1];
  phi[2] = errC[2];
  phi[3] = errC[3];
  phi[4] = errC[4];
  return 5;
}

void AxisCoupling::updateConstraints(const RigidTransform3d& TGD, const RigidTransform3d&, const Twist&,
                                     const Twist&, bool) {
  // D's axis i in G coordinates is row i of R_GD.
  for (int i = 0; i < 3; ++i) myAxisConstraint[i]->setWrenchG(TGD.R(i, 0), TGD.R(i, 1), TGD.R(i, 2), 0, 0, 0);
}

void AxisCoupling::getWrenchRates(const RigidTransform3d&, const RigidTransform3d& TCD, const Twist& velCD,
                                  Vector3d& omegaGD, std::vector<Wrench>& wrenchRates) const {
  // G turns about D's z by θ, the angle projectToConstraints takes.
  omegaGD = Vector3d(0, 0, myRotates ? zAngleRate(TCD, velCD) : 0.0);
  // A vector fixed in D, seen from G turning at ω_GD: ḟ = −ω_GD × f.
  wrenchRates.assign(numConstraints(), Wrench::Zero());
  for (const RigidBodyConstraint* c : myAxisConstraint)
    if (c) wrenchRates[c->getIndex()].head<3>() = -omegaGD.cross(c->getWrenchG().head<3>());
}

int AxisCoupling::getFixedMotionSubspace(Matrix6d& S) const {
  // A translation along D's x or y alone turns in C as C rotates about z.
  if (myRotates && myFree[0] != myFree[1]) return -1;
  int k = 0;
  for (int i = 0; i < 3; ++i)
    if (myFree[i]) S.col(k++) = Twist::Unit(i);
  if (myRotates) S.col(k++) = Twist::Unit(5);
  return k;
}

}  // namespace sinew
