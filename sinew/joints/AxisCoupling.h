// The coupling of the joints whose allowed motion is a set of translations
// along D's axes plus, optionally, rotation about D's z axis (guide §3.4):
// hinge, slider, cylindrical, slotted hinge, planar, planar translation and
// solid joints. Coordinates come in the guide's order: translations x, y,
// z (those allowed), then θ.
#pragma once

#include <array>

#include "sinew/joints/RigidBodyCoupling.h"

namespace sinew {

class AxisCoupling final : public RigidBodyCoupling {
 public:
  /// `freeTranslation[i]`: translation along D's axis i is allowed;
  /// `rotateAboutZ`: rotation about D's z axis is allowed.
  /// `clockwise`: θ measured clockwise about z (the legacy RevoluteJoint,
  /// §3.4.15).
  AxisCoupling(std::array<bool, 3> freeTranslation, bool rotateAboutZ, bool clockwise = false);
  void coordinatesToTCD(RigidTransform3d& TCD, const Eigen::VectorXd& coords) const override;
  void TCDToCoordinates(Eigen::VectorXd& coords, const RigidTransform3d& TCD) const override;
  void projectToConstraints(RigidTransform3d& TGD, const RigidTransform3d& TCD,
                            Eigen::VectorXd* coords) const override;
  void updateConstraints(const RigidTransform3d& TGD, const RigidTransform3d& TCD, const Twist& errC,
                         const Twist& velGD, bool updateEngaged) override;
  /// Fixed unless the rotation about z turns an allowed translation (a
  /// slotted hinge's x): translations along z, along both x and y, or none.
  int getFixedMotionSubspace(Matrix6d& S) const override;
  bool usesStoredCoordinates() const override { return false; }
  int bilateralErrors(const RigidTransform3d& TCD, double* phi, Twist& errC) const override;
  /// G turns relative to D about z at θ̇; the wrenches along D's axes turn
  /// in G the other way, the others are constant in G.
  bool providesWrenchRates() const override { return true; }
  void getWrenchRates(const RigidTransform3d& TGD, const RigidTransform3d& TCD, const Twist& velCD,
                      Vector3d& omegaGD, std::vector<Wrench>& wrenchRates) const override;

 protected:
  void initializeConstraints() override;

 private:
  /// bilateralErrors of a hinge (every translation fixed, rotation about
  /// z): the same errors, with T_GD⁻¹ T_CD formed only where it is read.
  static int hingeErrors(const RigidTransform3d& TCD, double* phi, Twist& errC);
  /// Coordinates from the translation of T_GD and the angle about z.
  void coordinatesOf(Eigen::VectorXd& coords, const Vector3d& p, double theta) const;
  std::array<bool, 3> myFree;
  bool myRotates;
  double myThetaSign;  ///< −1 for θ clockwise about z
  /// Constraint along (or coordinate limit of) each D axis: its wrench is
  /// constant in D, so it turns in G as G rotates about z.
  std::array<RigidBodyConstraint*, 3> myAxisConstraint{};
};

}  // namespace sinew
