#include "sinew/joints/CylindricalJoint.h"

#include "sinew/joints/AxisJointConstructors.h"

namespace sinew {

SINEW_AXIS_JOINT_CONSTRUCTORS(CylindricalJoint, false, false, true, true)
SINEW_AXIS_JOINT_CONSTRUCTORS(PlanarJoint, true, true, false, true)
SINEW_AXIS_JOINT_CONSTRUCTORS(PlanarTranslationJoint, true, true, false, false)

SINEW_PROPERTIES(CylindricalJoint, JointBase) {
  addCoordinateProperties(list, "z", Z_IDX, "translation along the axis");
  addCoordinateProperties(list, "theta", THETA_IDX, "rotation about the axis (degrees)");
}

SINEW_PROPERTIES(PlanarJoint, JointBase) {
  addCoordinateProperties(list, "x", X_IDX, "translation along D's x");
  addCoordinateProperties(list, "y", Y_IDX, "translation along D's y");
  addCoordinateProperties(list, "theta", THETA_IDX, "rotation about D's z (degrees)");
}

SINEW_PROPERTIES(PlanarTranslationJoint, JointBase) {
  addCoordinateProperties(list, "x", X_IDX, "translation along D's x");
  addCoordinateProperties(list, "y", Y_IDX, "translation along D's y");
}

}  // namespace sinew
