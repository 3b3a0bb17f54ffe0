// Joint kernels (guide §3.3.2, §4.9): what a joint allows, as pure
// functions on transforms, testable without a model.
//
// A coupling maps the joint transform T_CD to the nearest allowed transform
// T_GD (frame G, §3.3.2 eq. 3.13) and to its coordinates, and names the
// constraint wrenches (in G coordinates) whose directions the joint
// forbids. The error T_CG = T_GD⁻¹ T_CD, taken as a small twist δ, gives the
// constraint distances w_k·δ. Coordinates have a wrench too: the direction
// in which the coordinate moves, used for limits and locking.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "sinew/math/Spatial.h"

namespace sinew {

/// One constraint direction: a unit wrench in G coordinates.
struct CouplingWrench {
  Wrench w;
  bool rotary;  ///< rotational (true) or translational constraint
};

class RigidBodyCoupling {
 public:
  virtual ~RigidBodyCoupling() = default;
  virtual int numCoordinates() const = 0;
  virtual std::string coordinateName(int i) const = 0;
  virtual bool isRotaryCoordinate(int i) const = 0;
  /// T_GD nearest to T_CD on the allowed set, and its coordinates.
  virtual void projectToConstraints(RigidTransform3d& TGD, Eigen::VectorXd& coords,
                                    const RigidTransform3d& TCD) const = 0;
  /// The T_CD for given coordinates.
  virtual RigidTransform3d coordinatesToTCD(const Eigen::VectorXd& coords) const = 0;
  /// The bilateral constraint wrenches, in G coordinates.
  virtual void getConstraintWrenches(std::vector<CouplingWrench>& out, const RigidTransform3d& TGD) const = 0;
  /// Direction in which coordinate i increases, as a wrench in G coordinates
  /// (its dot product with the relative twist is the coordinate speed).
  virtual Wrench coordinateWrench(int i, const RigidTransform3d& TGD) const = 0;
};

/// The error twist of T_CG: translation and rotation vector, in G coordinates.
Twist errorTwist(const RigidTransform3d& TCG);

/// Couplings whose allowed motions are translations along some axes of D
/// and either no rotation, rotation about D's z axis, or any rotation. This
/// covers the hinge, slider, cylindrical, planar, planar-translation,
/// spherical and solid joints and the planar connector (guide §3.4).
class AxisCoupling : public RigidBodyCoupling {
 public:
  enum class Rotation { None, AboutZ, Free };
  /// `freeTranslation[i]`: translation along D's axis i is allowed.
  AxisCoupling(std::array<bool, 3> freeTranslation, Rotation rotation);
  int numCoordinates() const override { return static_cast<int>(myCoords.size()); }
  std::string coordinateName(int i) const override;
  bool isRotaryCoordinate(int i) const override { return myCoords.at(i) == 3; }
  void projectToConstraints(RigidTransform3d& TGD, Eigen::VectorXd& coords,
                            const RigidTransform3d& TCD) const override;
  RigidTransform3d coordinatesToTCD(const Eigen::VectorXd& coords) const override;
  void getConstraintWrenches(std::vector<CouplingWrench>& out, const RigidTransform3d& TGD) const override;
  Wrench coordinateWrench(int i, const RigidTransform3d& TGD) const override;

 private:
  std::array<bool, 3> myFree;
  Rotation myRot;
  std::vector<int> myCoords;  ///< 0,1,2 = translation x,y,z; 3 = rotation about z (θ)
};

}  // namespace sinew
