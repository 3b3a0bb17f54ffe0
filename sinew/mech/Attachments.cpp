#include "sinew/mech/Attachments.h"

namespace sinew {

AttachmentComponent::~AttachmentComponent() {
  // Removing the attachment frees its slave (no dangling link).
  disconnect();
}

void AttachmentComponent::connect() {
  DynamicComponent& s = getSlave();
  if (s.getAttachment() && s.getAttachment() != this)
    throw ModelError("component is already attached", s.componentPath());
  for (int i = 0; i < numMasters(); ++i)
    if (&getMaster(i) == &s) throw ModelError("component cannot be attached to itself", s.componentPath());
  setAttachment(s, this);
  myLinkedSlave = &s;
  updatePosStates();
  updateVelStates();
}

void AttachmentComponent::disconnect() {
  if (myLinkedSlave && myLinkedSlave->getAttachment() == this) setAttachment(*myLinkedSlave, nullptr);
  myLinkedSlave = nullptr;
}

// ---------------------------------------------------------------- point → point

PointParticleAttachment::PointParticleAttachment(Point& slave, Point& master)
    : mySlave(slave), myMaster(master) {}

// ---------------------------------------------------------------- point → frame

PointFrameAttachment::PointFrameAttachment(Point& slave, Frame& master)
    : PointFrameAttachment(slave, master, master.getPose().inverseTransformPoint(slave.getPosition())) {}

PointFrameAttachment::PointFrameAttachment(Point& slave, Frame& master, const Vector3d& loc)
    : mySlave(slave), myFrame(master), myLoc(loc) {}

void PointFrameAttachment::getMasterJacobian(int, Block& J) const {
  J = pointVelocityJacobian(myFrame.getRotation() * myLoc);
}

void PointFrameAttachment::getVelocityProduct(BlockVec& a) const {
  Vector3d w = myFrame.getVelocity().tail<3>();
  a = w.cross(w.cross(myFrame.getRotation() * myLoc));
}

void PointFrameAttachment::updatePosStates() {
  mySlave.setPosition(myFrame.getPose().transformPoint(myLoc));
}

void PointFrameAttachment::updateVelStates() {
  Block J;
  getMasterJacobian(0, J);
  mySlave.setVelocity(J * myFrame.getVelocity());
}

void PointFrameAttachment::getGeometricStiffness(int, const double* fs, Block& K) const {
  // The moment r × f turns with the frame: ∂(r×f)/∂θ = [f][r]; we keep its
  // symmetric part so the solve matrix stays symmetric.
  Vector3d r = myFrame.getRotation() * myLoc;
  Matrix3d G = skew(Eigen::Map<const Vector3d>(fs)) * skew(r);
  K.setZero(6, 6);
  K.bottomRightCorner<3, 3>() = 0.5 * (G + G.transpose());
}

// ---------------------------------------------------------------- frame → frame

FrameFrameAttachment::FrameFrameAttachment(Frame& slave, Frame& master)
    : mySlave(slave), myMaster(master), myTSM(master.getPose().inverse() * slave.getPose()) {}

void FrameFrameAttachment::getMasterJacobian(int, Block& J) const {
  J = frameVelocityJacobian(myMaster.getRotation() * myTSM.p);
}

void FrameFrameAttachment::getVelocityProduct(BlockVec& a) const {
  Vector3d w = myMaster.getVelocity().tail<3>();
  a.setZero(6);
  a.head<3>() = w.cross(w.cross(myMaster.getRotation() * myTSM.p));
}

void FrameFrameAttachment::updatePosStates() { mySlave.setPose(myMaster.getPose() * myTSM); }

void FrameFrameAttachment::updateVelStates() {
  Block J;
  getMasterJacobian(0, J);
  mySlave.setVelocity(J * myMaster.getVelocity());
}

void FrameFrameAttachment::getGeometricStiffness(int, const double* fs, Block& K) const {
  Vector3d r = myMaster.getRotation() * myTSM.p;
  Matrix3d G = skew(Eigen::Map<const Vector3d>(fs)) * skew(r);
  K.setZero(6, 6);
  K.bottomRightCorner<3, 3>() = 0.5 * (G + G.transpose());
}

std::unique_ptr<AttachmentComponent> Frame::createFrameAttachment(Frame& frame, const RigidTransform3d& TFW) {
  frame.setPose(TFW);
  return std::make_unique<FrameFrameAttachment>(frame, *this);
}

// ------------------------------------------------------------------ FrameMarker

SINEW_PROPERTIES(FrameMarker, Point) {
  list.add<FrameMarker>("location", "location in frame coordinates", &FrameMarker::getLocation,
                        &FrameMarker::setLocation);
}

FrameMarker::FrameMarker(std::string name) : Point(std::move(name)) {}

FrameMarker::FrameMarker(Frame& frame, const Vector3d& loc, std::string name) : Point(std::move(name)) {
  setFrame(frame, loc);
}

FrameMarker::~FrameMarker() {
  if (myAttachment) myAttachment->disconnect();
}

void FrameMarker::setFrame(Frame& frame, const Vector3d& loc) {
  if (myAttachment) myAttachment->disconnect();
  myAttachment = std::make_unique<PointFrameAttachment>(*this, frame, loc);
  myAttachment->connect();
  // Changing what a marker rides on changes the system's structure.
  if (auto* p = getParent()) p->componentStructureChanged();
}

void FrameMarker::setLocation(const Vector3d& loc) {
  if (!myAttachment) {
    setPosition(loc);
    return;
  }
  myAttachment->setLocation(loc);
  myAttachment->updatePosStates();
}

}  // namespace sinew
