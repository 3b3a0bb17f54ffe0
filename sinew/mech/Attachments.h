// Attachments (guide §3.6; seed 000 eqs. 1.9–1.13): a slave component whose
// position and velocity follow its masters, factored out of the solve.
//
//  - PointParticleAttachment: point → point, u_s = u_m.
//  - PointFrameAttachment: point → frame at body location l, u_s = v + ω×(R l).
//  - FrameFrameAttachment: frame → frame with fixed T_SM, the slave twist is
//    the master twist moved to the slave origin.
#pragma once

#include <vector>

#include "sinew/mech/Frame.h"
#include "sinew/mech/Point.h"

namespace sinew {

/// Base: a component in the `attachments` list that owns the slave link.
class AttachmentComponent : public Component, public DynamicAttachment {
 public:
  using Component::Component;
  ~AttachmentComponent() override;
  /// Links the slave to this attachment; throws ModelError if it already has one.
  void connect();
  void disconnect();

 private:
  /// The linked slave, kept so the destructor can unlink it without a
  /// virtual call.
  DynamicComponent* myLinkedSlave = nullptr;
};

/// Σ w_k get(p_k) over points p_k (FEM nodes, shell dof points) with
/// weights w_k: the position or velocity of a point attached to them.
template <class P>
Vector3d weightedSum(const std::vector<P*>& points, const std::vector<double>& weights,
                     const Vector3d& (Point::*get)() const) {
  Vector3d sum = Vector3d::Zero();
  for (size_t k = 0; k < points.size(); ++k) sum += weights[k] * (points[k]->*get)();
  return sum;
}

class PointParticleAttachment : public AttachmentComponent {
 public:
  PointParticleAttachment(Point& slave, Point& master);
  DynamicComponent& getSlave() const override { return mySlave; }
  int numMasters() const override { return 1; }
  DynamicComponent& getMaster(int) const override { return myMaster; }
  void getMasterJacobian(int, Block& J) const override { J = Matrix3d::Identity(); }
  void updatePosStates() override { mySlave.setPosition(myMaster.getPosition()); }
  void updateVelStates() override { mySlave.setVelocity(myMaster.getVelocity()); }

 private:
  Point& mySlave;
  Point& myMaster;
};

class PointFrameAttachment : public AttachmentComponent {
 public:
  /// Attaches at the slave's current world position.
  PointFrameAttachment(Point& slave, Frame& master);
  PointFrameAttachment(Point& slave, Frame& master, const Vector3d& locationInFrame);
  DynamicComponent& getSlave() const override { return mySlave; }
  int numMasters() const override { return 1; }
  DynamicComponent& getMaster(int) const override { return myFrame; }
  void getMasterJacobian(int, Block& J) const override;
  void getVelocityProduct(BlockVec& a) const override;
  void updatePosStates() override;
  void updateVelStates() override;
  void getGeometricStiffness(int i, const double* fs, Block& K) const override;
  Frame& getFrame() const { return myFrame; }
  const Vector3d& getLocation() const { return myLoc; }
  void setLocation(const Vector3d& l) { myLoc = l; }

 private:
  Point& mySlave;
  Frame& myFrame;
  Vector3d myLoc;
};

class FrameFrameAttachment : public AttachmentComponent {
 public:
  /// Attaches at the slave's current pose.
  FrameFrameAttachment(Frame& slave, Frame& master);
  DynamicComponent& getSlave() const override { return mySlave; }
  int numMasters() const override { return 1; }
  DynamicComponent& getMaster(int) const override { return myMaster; }
  void getMasterJacobian(int, Block& J) const override;
  void getVelocityProduct(BlockVec& a) const override;
  void updatePosStates() override;
  void updateVelStates() override;
  void getGeometricStiffness(int i, const double* fs, Block& K) const override;

 private:
  Frame& mySlave;
  Frame& myMaster;
  RigidTransform3d myTSM;  ///< slave pose in master coordinates
};

/// A massless point fixed in a frame at a body location (guide §3.2.1).
class FrameMarker : public Point {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit FrameMarker(std::string name = {});
  FrameMarker(Frame& frame, const Vector3d& loc, std::string name = {});
  ~FrameMarker() override;
  Frame* getFrame() const { return myAttachment ? &myAttachment->getFrame() : nullptr; }
  /// Fixes the marker to `frame` at body location `loc`.
  void setFrame(Frame& frame, const Vector3d& loc);
  Vector3d getLocation() const { return myAttachment ? myAttachment->getLocation() : myPos; }
  void setLocation(const Vector3d& loc);

 private:
  std::unique_ptr<PointFrameAttachment> myAttachment;
};

}  // namespace sinew
