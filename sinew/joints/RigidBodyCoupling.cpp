#include "sinew/joints/RigidBodyCoupling.h"

#include <cmath>

namespace sinew {

Twist errorTwist(const RigidTransform3d& TCG) {
  Twist d;
  d.head<3>() = TCG.p;
  Eigen::AngleAxisd aa(TCG.R);
  d.tail<3>() = aa.angle() * aa.axis();
  return d;
}

AxisCoupling::AxisCoupling(std::array<bool, 3> freeTranslation, Rotation rotation)
    : myFree(freeTranslation), myRot(rotation) {
  for (int i = 0; i < 3; ++i)
    if (myFree[i]) myCoords.push_back(i);
  if (myRot == Rotation::AboutZ) myCoords.push_back(3);
}

std::string AxisCoupling::coordinateName(int i) const {
  static const char* names[] = {"x", "y", "z", "theta"};
  return names[myCoords.at(i)];
}

void AxisCoupling::projectToConstraints(RigidTransform3d& TGD, Eigen::VectorXd& coords,
                                        const RigidTransform3d& TCD) const {
  TGD = RigidTransform3d();
  for (int i = 0; i < 3; ++i)
    if (myFree[i]) TGD.p[i] = TCD.p[i];
  double theta = 0;
  if (myRot == Rotation::AboutZ) {
    theta = std::atan2(TCD.R(1, 0), TCD.R(0, 0));
    TGD.R = Eigen::AngleAxisd(theta, Vector3d::UnitZ()).toRotationMatrix();
  } else if (myRot == Rotation::Free) {
    TGD.R = TCD.R;
  }
  coords.resize(numCoordinates());
  for (int k = 0; k < numCoordinates(); ++k) coords[k] = myCoords[k] == 3 ? theta : TCD.p[myCoords[k]];
}

RigidTransform3d AxisCoupling::coordinatesToTCD(const Eigen::VectorXd& coords) const {
  RigidTransform3d T;
  for (int k = 0; k < numCoordinates(); ++k) {
    if (myCoords[k] == 3) T.R = Eigen::AngleAxisd(coords[k], Vector3d::UnitZ()).toRotationMatrix();
    else T.p[myCoords[k]] = coords[k];
  }
  return T;
}

void AxisCoupling::getConstraintWrenches(std::vector<CouplingWrench>& out, const RigidTransform3d&) const {
  out.clear();
  for (int i = 0; i < 3; ++i)
    if (!myFree[i]) out.push_back({Wrench::Unit(i), false});
  if (myRot == Rotation::Free) return;
  out.push_back({Wrench::Unit(3), true});
  out.push_back({Wrench::Unit(4), true});
  if (myRot == Rotation::None) out.push_back({Wrench::Unit(5), true});
}

Wrench AxisCoupling::coordinateWrench(int i, const RigidTransform3d&) const {
  return myCoords.at(i) == 3 ? Wrench::Unit(5) : Wrench::Unit(myCoords.at(i));
}

}  // namespace sinew
