// Frames: 6-dof coordinate frames with a pose T_FW, a world twist and a
// wrench (guide §3.2, §3.2.4, §3.2.7). A plain Frame is massless and
// non-dynamic unless attached (§3.6.3); RigidBody adds inertia.
//
// The pose is stored as position + unit quaternion, which is exactly the
// position state, so saving and restoring state is bit-exact.
#pragma once

#include "sinew/mech/DynamicComponent.h"
#include "sinew/mech/FrameAttachable.h"
#include "sinew/mech/TransformableGeometry.h"
#include "sinew/model/Component.h"

namespace sinew {

class Frame : public CompositeComponent,
              public DynamicComponent,
              public TransformableGeometry,
              public FrameAttachable {
  SINEW_DECLARE_PROPERTIES
 public:
  Frame();
  explicit Frame(std::string name);

  /// Pose T_FW (frame to world).
  RigidTransform3d getPose() const { return {myPos, myRot}; }
  void setPose(const RigidTransform3d& T);
  const Vector3d& getPosition() const { return myPos; }
  void setPosition(const Vector3d& p);
  AxisAngle getOrientation() const { return AxisAngle(myRot); }
  void setOrientation(const AxisAngle& a);
  const Matrix3d& getRotation() const { return myRot; }
  const Quaternion& getQuaternion() const { return myQuat; }
  /// World twist (v, ω) of the frame origin.
  const Twist& getVelocity() const { return myVel; }
  void setVelocity(const Twist& tw);
  /// Total wrench on the frame (world coordinates, about the origin).
  const Wrench& getForce() const { return myForce; }
  const Wrench& getExternalForce() const { return myExtForce; }
  void setExternalForce(const Wrench& w) { myExtForce = w; }
  /// Adds force f applied at world point x.
  void addPointForce(const Vector3d& x, const Vector3d& f);
  void addWrench(const Wrench& w) { myForce += w; }

  double getFrameDamping() const { return inherited("frameDamping", myFrameDamping, 0.0); }
  void setFrameDamping(double d) { setInheritable(myFrameDamping, d); }
  double getRotaryDamping() const { return inherited("rotaryDamping", myRotaryDamping, 0.0); }
  void setRotaryDamping(double d) { setInheritable(myRotaryDamping, d); }

  /// Display hint from the guide (§3.6.4); not used by the physics.
  double getAxisLength() const { return myAxisLength; }
  void setAxisLength(double l) { myAxisLength = l; }

  // DynamicComponent
  int getVelStateSize() const override { return 6; }
  int getPosStateSize() const override { return 7; }
  void getPosState(double* q) const override;
  void setPosState(const double* q) override;
  void getVelState(double* u) const override;
  void setVelState(const double* u) override;
  void addPosImpulse(double* q, double h, const double* u) const override;
  void getPosDerivative(const double* q, const double* u, double* qdot) const override;
  void normalizePosState(double* q) const override;
  void getMassBlock(Block& M) const override;
  double getMass() const override { return 0; }
  void zeroForces() override { myForce = myExtForce; }
  void getForce(double* f) const override;
  void addForce(const double* f) override;
  void applyGravity(const Vector3d& g) override { (void)g; }
  void applyDamping(Block* D) override;
  std::string componentPath() const override { return getPathName(); }

  /// Pose T_FW ← X·T_FW, the twist turned with it (§4.7); meshes and
  /// other body-frame data are unchanged.
  void transformGeometry(const RigidTransform3d& X) override;

  // FrameAttachable (§3.6.3): a FrameFrameAttachment.
  std::unique_ptr<AttachmentComponent> createFrameAttachment(Frame& frame, const RigidTransform3d& TFW) override;
  Frame* asFrame() override { return this; }

 protected:
  void setQuaternion(const Quaternion& q);

  Vector3d myPos = Vector3d::Zero();
  Quaternion myQuat = Quaternion::Identity();
  Matrix3d myRot = Matrix3d::Identity();  ///< cached from myQuat
  Twist myVel = Twist::Zero();
  Wrench myForce = Wrench::Zero();
  Wrench myExtForce = Wrench::Zero();
  Inheritable<double> myFrameDamping;
  Inheritable<double> myRotaryDamping;
  double myAxisLength = 0;
};

}  // namespace sinew
