// FrameBodyAttachment (guide §3.6.4): bodyA is attached to bodyB with a
// frame-to-frame attachment, and an auxiliary frame rides on bodyA.
//
// As in the guide, bodyB is hinged to ground at its left end, bodyA hangs
// vertically from bodyB's right end, and the pair swings as one body.
#include <cmath>

#include "demos/Demos.h"
#include "demos/JointDemoCommon.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class FrameBodyAttachment : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    const double lenx1 = JointDemoDims::lenx1, lenx2 = JointDemoDims::lenx2, leny2 = JointDemoDims::leny2;
    auto [mech, bodyB] = addJointDemoMech(*this);
    // bodyA: a capsule along z, hanging vertically from bodyB's right end.
    auto& bodyA = mech.addRigidBody(RigidBody::createFromMesh(
        "bodyA", std::make_shared<PolygonalMesh>(MeshFactory::createCapsule(leny2 / 2, lenx2, 16)), JointDemoDims::density));
    bodyA.setPose(RigidTransform3d(lenx1 / 2, 0, 1.5 * lenx1 - lenx2 / 2));

    // The hinge connects bodyB to ground at its left end, axis along −y.
    RigidTransform3d TDW(-lenx1 / 2, 0, 1.5 * lenx1, 1, 0, 0, M_PI / 2);
    mech.addBodyConnector(std::make_unique<HingeJoint>(bodyB, nullptr, TDW, "joint"));

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
