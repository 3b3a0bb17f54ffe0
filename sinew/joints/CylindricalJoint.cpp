#include "sinew/joints/CylindricalJoint.h"

#include <cmath>

namespace sinew {

namespace {
constexpr double kDeg = 180.0 / M_PI;
std::unique_ptr<RigidBodyCoupling> axes(bool x, bool y, bool z, bool theta) {
  return std::make_unique<AxisCoupling>(std::array<bool, 3>{x, y, z},
                                        theta ? AxisCoupling::Rotation::AboutZ : AxisCoupling::Rotation::None);
}
}  // namespace

SINEW_PROPERTIES(CylindricalJoint, JointBase) {
  list.add<CylindricalJoint>("z", "translation along the axis", &CylindricalJoint::getZ, &CylindricalJoint::setZ);
  list.add<CylindricalJoint>("theta", "rotation about the axis (degrees)", &CylindricalJoint::getTheta,
                             &CylindricalJoint::setTheta);
}

CylindricalJoint::CylindricalJoint(std::string name) : JointBase(std::move(name), axes(false, false, true, true)) {}
CylindricalJoint::CylindricalJoint(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW, std::string name)
    : CylindricalJoint(std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}
double CylindricalJoint::getTheta() const { return getCoordinate(THETA_IDX) * kDeg; }
void CylindricalJoint::setTheta(double deg) { setCoordinate(THETA_IDX, deg / kDeg); }

SINEW_PROPERTIES(PlanarJoint, JointBase) {
  list.add<PlanarJoint>("x", "translation along D's x", &PlanarJoint::getX, &PlanarJoint::setX);
  list.add<PlanarJoint>("y", "translation along D's y", &PlanarJoint::getY, &PlanarJoint::setY);
  list.add<PlanarJoint>("theta", "rotation about D's z (degrees)", &PlanarJoint::getTheta, &PlanarJoint::setTheta);
}

PlanarJoint::PlanarJoint(std::string name) : JointBase(std::move(name), axes(true, true, false, true)) {}
PlanarJoint::PlanarJoint(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW, std::string name)
    : PlanarJoint(std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}
double PlanarJoint::getTheta() const { return getCoordinate(THETA_IDX) * kDeg; }
void PlanarJoint::setTheta(double deg) { setCoordinate(THETA_IDX, deg / kDeg); }

SINEW_PROPERTIES(PlanarTranslationJoint, JointBase) {
  list.add<PlanarTranslationJoint>("x", "translation along D's x", &PlanarTranslationJoint::getX,
                                   &PlanarTranslationJoint::setX);
  list.add<PlanarTranslationJoint>("y", "translation along D's y", &PlanarTranslationJoint::getY,
                                   &PlanarTranslationJoint::setY);
}

PlanarTranslationJoint::PlanarTranslationJoint(std::string name)
    : JointBase(std::move(name), axes(true, true, false, false)) {}
PlanarTranslationJoint::PlanarTranslationJoint(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW,
                                               std::string name)
    : PlanarTranslationJoint(std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}

}  // namespace sinew
