#include "sinew/mech/MechModel.h"

namespace sinew {

SINEW_PROPERTIES(MechModel, MechSystemBase) {}

MechModel::MechModel(std::string name) : MechSystemBase(std::move(name)) {
  myModels = addList<Model>("models");
  myParticles = addList<Particle>("particles");
  myPoints = addList<Point>("points");
  myAxialSprings = addList<AxialSpring>("axialSprings");
  myFrameSprings = addList<FrameSpring>("frameSprings");
  myForceEffectors = addList<Component>("forceEffectors");
  myRigidBodies = addList<RigidBody>("rigidBodies");
  myFrames = addList<Frame>("frames");
  myFrameMarkers = addList<FrameMarker>("frameMarkers");
  myBodyConnectors = addList<Component>("bodyConnectors");
  myParticleConstraints = addList<Component>("particleConstraints");
  myAttachments = addList<AttachmentComponent>("attachments");
}

MechModel::~MechModel() {
  // Attachments unlink their slaves before the slaves' lists go away.
  myAttachments->clear();
}

Particle& MechModel::addParticle(const std::string& name, double mass, double x, double y, double z) {
  return addParticle(std::make_unique<Particle>(name, mass, x, y, z));
}

FrameMarker& MechModel::addFrameMarker(Frame& frame, const Vector3d& loc, const std::string& name) {
  return addFrameMarker(std::make_unique<FrameMarker>(frame, loc, name));
}

FrameMarker& MechModel::addFrameMarkerWorld(Frame& frame, const Vector3d& posW, const std::string& name) {
  return addFrameMarker(frame, frame.getPose().inverseTransformPoint(posW), name);
}

Component& MechModel::addForceEffector(std::unique_ptr<Component> c) {
  if (!dynamic_cast<ForceEffector*>(c.get())) throw ModelError("component is not a force effector", c->describe());
  return myForceEffectors->addComponent(std::move(c));
}


AttachmentComponent& MechModel::addAttachment(std::unique_ptr<AttachmentComponent> a) {
  a->connect();
  return myAttachments->add(std::move(a));
}

AttachmentComponent& MechModel::attachPoint(Point& p, Point& master) {
  return addAttachment(std::make_unique<PointParticleAttachment>(p, master));
}
AttachmentComponent& MechModel::attachPoint(Point& p, Frame& master) {
  // A shell node's director goes with it: its back node is attached too.
  if (Point* back = p.getDirectorPoint()) addAttachment(std::make_unique<PointFrameAttachment>(*back, master));
  return addAttachment(std::make_unique<PointFrameAttachment>(p, master));
}
AttachmentComponent& MechModel::attachPoint(Point& p, Frame& master, const Vector3d& loc) {
  if (Point* back = p.getDirectorPoint()) {
    // The node moves to loc; its back node keeps its place behind it.
    const Vector3d director = p.getPosition() - back->getPosition();
    back->setPosition(master.getPose().transformPoint(loc) - director);
    addAttachment(std::make_unique<PointFrameAttachment>(*back, master));
  }
  return addAttachment(std::make_unique<PointFrameAttachment>(p, master, loc));
}
AttachmentComponent& MechModel::attachPoint(Point& p, PointAttachable& master) {
  return addAttachment(master.createPointAttachment(p));
}
AttachmentComponent& MechModel::attachFrame(Frame& f, FrameAttachable& master) {
  return attachFrame(f, master, f.getPose());
}

AttachmentComponent& MechModel::attachFrame(Frame& f, FrameAttachable& master, const RigidTransform3d& TFW) {
  f.setPose(TFW);
  return addAttachment(master.createFrameAttachment(f, TFW));
}

bool MechModel::detachSlave(DynamicComponent& slave) {
  // A shell node's back node was attached with it (attachPoint).
  if (auto* p = dynamic_cast<Point*>(&slave))
    if (Point* back = p->getDirectorPoint(); back && back->getAttachment()) detachSlave(*back);
  for (auto& a : *myAttachments)
    if (&a.getSlave() == &slave) {
      a.disconnect();
      myAttachments->remove(a);
      return true;
    }
  return false;
}

void MechModel::checkForceEffectors(const std::vector<ForceEffector*>& effs) const {
  // Springs need their points or frames; check here so the error names the spring.
  for (auto* e : effs) {
    if (auto* s = dynamic_cast<AxialSpring*>(e); s && (!s->getFirstPoint() || !s->getSecondPoint()))
      throw ModelError("spring has no points (call setPoints)", s->describe());
    if (auto* s = dynamic_cast<FrameSpring*>(e); s && !s->getFrameA())
      throw ModelError("frame spring has no frames (call setFrames)", s->describe());
  }
}

}  // namespace sinew
