// FrameBodyAttachment (guide §3.6.4): bodyA is attached to bodyB with a
// frame-to-frame attachment, and an auxiliary frame rides on bodyA.
//
// In the guide bodyB hangs from a HingeJoint to ground. Joints arrive with
// the joints subsystem; until then bodyB hangs from a fixed particle by a
// stiff spring at the hinge location, so the pair still falls and swings as
// one body (see docs/mech.md).
#include <cmath>

#include "demos/Demos.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class FrameBodyAttachment : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    const double lenx1 = 10, leny1 = 2, lenz1 = 3, lenx2 = 10, leny2 = 2;
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    mech.setGravity(0, 0, -98);
    mech.setFrameDamping(1.0);
    mech.setRotaryDamping(4.0);

    auto& bodyB = mech.addRigidBody(RigidBody::createFromMesh(
        "bodyB", std::make_shared<PolygonalMesh>(MeshFactory::createBox(lenx1, leny1, lenz1)), 0.2));
    bodyB.setPose(RigidTransform3d(0, 0, 1.5 * lenx1));
    // bodyA: a capsule along z, hanging vertically from bodyB's right end.
    auto& bodyA = mech.addRigidBody(RigidBody::createFromMesh(
        "bodyA", std::make_shared<PolygonalMesh>(MeshFactory::createCapsule(leny2 / 2, lenx2, 16)), 0.2));
    bodyA.setPose(RigidTransform3d(lenx1 / 2, 0, 1.5 * lenx1 - lenx2 / 2));

    // Stand-in for the hinge to ground at bodyB's left end.
    auto& hinge = mech.addParticle("hinge", 0, -lenx1 / 2, 0, 1.5 * lenx1);
    hinge.setDynamic(false);
    auto& mkr = mech.addFrameMarkerWorld(bodyB, hinge.getPosition(), "hingeMarker");
    mech.attachAxialSpring(hinge, mkr, std::make_unique<AxialSpring>("hingeSpring", 1e4, 10, 0));

    // Connect bodyA to bodyB, then attach an auxiliary frame to bodyA at
    // its lower end.
    mech.attachFrame(bodyA, bodyB);
    auto& frame = mech.addFrame(std::make_unique<Frame>("frame"));
    frame.setAxisLength(4.0);
    RigidTransform3d TFW = bodyA.getPose() * RigidTransform3d(0, 0, -lenx2 / 2);
    mech.attachFrame(frame, bodyA, TFW);
  }
};

void registerFrameBodyAttachment(ModelRegistry& reg) {
  reg.add("FrameBodyAttachment", [] { return std::make_unique<FrameBodyAttachment>(); },
          "bodies and a frame joined by frame attachments (§3.6.4)");
}

}  // namespace sinew::demos
