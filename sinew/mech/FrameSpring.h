// Frame springs (guide §3.5): a six-dimensional spring between frame C,
// fixed to body A by T_CA, and frame D, fixed to body B by T_DB (or to the
// world when B is null). Its FrameMaterial gives the wrench (f_C, τ_C) on C
// from T_DC and the relative twist of D with respect to C (§3.5.2); D gets
// the equal and opposite wrench.
//
// The force acts along a line through D's origin: C receives (f_C, τ_C)
// plus the moment x_DC × f_C about its own origin. For an isotropic
// stiffness that moment is zero, so this is exactly the guide's f_C, τ_C;
// in general it makes the spring conservative (the forces are the gradient
// of the material's energy) and the action and reaction share one line, so
// momentum is conserved.
#pragma once

#include <memory>
#include <type_traits>

#include "sinew/mech/DynamicComponent.h"
#include "sinew/mech/Frame.h"
#include "sinew/mech/FrameMaterial.h"
#include "sinew/mech/TransformableGeometry.h"

namespace sinew {

class FrameSpring : public Component, public ForceEffector, public TransformableGeometry {
  SINEW_DECLARE_PROPERTIES
 public:
  /// A spring with LinearFrameMaterial(1, 1, 0, 0).
  explicit FrameSpring(std::string name = {});
  /// A spring with LinearFrameMaterial(kt, kr, dt, dr).
  FrameSpring(std::string name, double kt, double kr, double dt, double dr);

  FrameMaterial* getMaterial() const { return myMaterial.get(); }
  void setMaterial(std::unique_ptr<FrameMaterial> mat);
  template <class M>
    requires std::is_base_of_v<FrameMaterial, M>
  M& setMaterial(const M& mat) {
    setMaterial(std::make_unique<M>(mat));
    return static_cast<M&>(*myMaterial);
  }

  /// Connects A to B (nullptr: the world) with D at world pose TDW and C
  /// coincident with D, i.e. no initial displacement (T_DC = I).
  void setFrames(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW);
  /// Connects with explicit frames C (in A) and D (in B, or in the world).
  void setFrames(Frame& bodyA, const RigidTransform3d& TCA, Frame* bodyB, const RigidTransform3d& TDB);
  Frame* getFrameA() const { return myA; }
  Frame* getFrameB() const { return myB; }
  const RigidTransform3d& getTCA() const { return myTCA; }
  const RigidTransform3d& getTDB() const { return myTDB; }

  RigidTransform3d getCurrentTCW() const;
  RigidTransform3d getCurrentTDW() const;
  /// Pose of D relative to C.
  RigidTransform3d getCurrentTDC() const;
  /// Twist of D relative to C, (ẋ_DC, ω_DC), in C coordinates.
  Twist getRelativeVelocity() const;
  /// Wrench on frame C, in C coordinates about C's origin (property
  /// `springForce`). The wrench on D is its negative, moved to D.
  Wrench getSpringForce() const;

  /// Whether the stiffness blocks are symmetrized for the solver (default
  /// true: the solve matrix must be symmetric). The exact Jacobian is not
  /// symmetric away from rest, where the force turns with the frames.
  bool isSymmetricJacobian() const { return mySymmetric; }
  void setSymmetricJacobian(bool s) { mySymmetric = s; }
  /// Display hint (§3.5.4): length of the drawn C and D axes.
  double getAxisLength() const { return myAxisLength; }
  void setAxisLength(double l);

  // ForceEffector
  void applyForces(double t) override;
  void declareJacobianBlocks(JacobianPattern& pat) override;
  void addPosJacobian(JacobianMatrix& K, double s) override;
  void addVelJacobian(JacobianMatrix& D, double s) override;
  double getPotentialEnergy() const override;

  // TransformableGeometry: a D fixed in the world moves with the model.
  void transformGeometry(const RigidTransform3d& X) override;

 private:
  /// Relative pose, velocity and the maps from body twists to it.
  struct Kinematics;
  Kinematics computeKinematics() const;
  void requireConnected() const;
  /// Adds the four 6×6 blocks (AA, AB, BA, BB) through the handles.
  void addBlocks(JacobianMatrix& J, Matrix6d blk[4]) const;

  Frame* myA = nullptr;
  Frame* myB = nullptr;
  RigidTransform3d myTCA, myTDB;
  std::unique_ptr<FrameMaterial> myMaterial;
  bool mySymmetric = true;
  double myAxisLength = 0;
  int myBlk[4] = {-1, -1, -1, -1};  ///< Jacobian handles AA, AB, BA, BB
};

}  // namespace sinew
