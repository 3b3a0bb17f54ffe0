// A coupling defined by its coordinates alone (guide §4.9.4, made
// convenient): a subclass gives T_CD(q) in coordinatesToTCD and everything
// else is derived numerically. The projection onto the allowed set is a
// Gauss–Newton fit of q starting from the current coordinates; the
// bilateral wrenches span the wrenches that do no work on any allowed
// motion (the null space of the coordinate twist Jacobianᵀ); the limit
// wrenches are the rows of its pseudo-inverse, so q̇ = N v̂ (eq. 4.34).
// Used by EllipsoidJoint, and the quickest way to write a custom joint
// whose kinematics is easier to state than to invert.
#pragma once

#include <vector>

#include "sinew/joints/RigidBodyCoupling.h"

namespace sinew {

class ParameterizedCoupling : public RigidBodyCoupling {
 public:
  void TCDToCoordinates(Eigen::VectorXd& coords, const RigidTransform3d& TCD) const override;
  void projectToConstraints(RigidTransform3d& TGD, const RigidTransform3d& TCD,
                            Eigen::VectorXd* coords) const override;
  void updateConstraints(const RigidTransform3d& TGD, const RigidTransform3d& TCD, const Twist& errC,
                         const Twist& velGD, bool updateEngaged) override;
  /// Columns: the twist of C (in C coordinates) per unit rate of each
  /// coordinate, by central differences.
  Eigen::Matrix<double, 6, Eigen::Dynamic> twistJacobian(const Eigen::VectorXd& q) const;

 protected:
  struct Coordinate {
    std::string name;
    bool rotary;
  };
  /// Adds one coordinate (with its limit constraint) per entry and 6 − n
  /// bilateral constraints; call from initializeConstraints().
  void addCoordinates(const std::vector<Coordinate>& coords);

 private:
  /// Fits q to T_CD, starting from q.
  void fit(Eigen::VectorXd& q, const RigidTransform3d& TCD) const;
  /// An orthonormal basis of the twists orthogonal to J's columns.
  static Eigen::Matrix<double, 6, Eigen::Dynamic> normalBasis(const Eigen::Matrix<double, 6, Eigen::Dynamic>& J);
  /// The normal-space basis at q = 0 that the wrenches are aligned with.
  Eigen::Matrix<double, 6, Eigen::Dynamic> myReferenceBasis;
};

}  // namespace sinew
