// One demo per joint type (guide §3.4: HingeJointDemo, SliderJointDemo,
// CylindricalJointDemo, PlanarJointDemo, SphericalJointDemo). In the guide
// these are interactive; here each joins a link to a fixed base so that
// gravity drives every allowed motion, and the joint's coordinates can be
// recorded with --probe models/mech/bodyConnectors/joint:<coordinate>.
#include <cmath>
#include <functional>

#include "demos/Demos.h"
#include "sinew/joints/CylindricalJoint.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/joints/SliderJoint.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

namespace {

using MakeJoint = std::function<std::unique_ptr<JointBase>(RigidBody& link, RigidBody& base)>;

/// A fixed base at the origin and a 1 × 0.2 × 0.2 link beside it (density
/// 1000), joined by the joint `make` creates; rotary damping keeps the
/// motion readable.
class JointTypeDemo : public RootModel {
 public:
  explicit JointTypeDemo(MakeJoint make) : myMake(std::move(make)) {}
  void build(const std::vector<std::string>&) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    mech.setRotaryDamping(0.1);
    auto& base = mech.addRigidBody(RigidBody::createBox("base", 0.4, 0.4, 0.4, 1000));
    base.setDynamic(false);
    auto& link = mech.addRigidBody(RigidBody::createBox("link", 1.0, 0.2, 0.2, 1000));
    link.setPose(RigidTransform3d(0.7, 0, 0));
    mech.addBodyConnector(myMake(link, base));
  }

 private:
  MakeJoint myMake;
};

void add(ModelRegistry& reg, const char* name, const char* description, MakeJoint make) {
  reg.add(name, [make] { return std::make_unique<JointTypeDemo>(make); }, description);
}

}  // namespace

void registerJointTypeDemos(ModelRegistry& reg) {
  const Vector3d pivot(0.2, 0, 0);
  add(reg, "HingeJointDemo", "a link swinging on a hinge about y (§3.4.1)", [pivot](RigidBody& l, RigidBody& b) {
    return std::make_unique<HingeJoint>(l, &b, pivot, Vector3d::UnitY(), "joint");
  });
  add(reg, "SliderJointDemo", "a link sliding down a 45° axis (§3.4.2)", [pivot](RigidBody& l, RigidBody& b) {
    return std::make_unique<SliderJoint>(l, &b, frameFromZAxis(pivot, Vector3d(1, 0, -1), "joint"), "joint");
  });
  add(reg, "CylindricalJointDemo", "a link sliding and turning on a tilted axis (§3.4.3)",
      [pivot](RigidBody& l, RigidBody& b) {
        return std::make_unique<CylindricalJoint>(l, &b, frameFromZAxis(pivot, Vector3d(0.3, 1, -1), "joint"),
                                                  "joint");
      });
  add(reg, "PlanarJointDemo", "a link sliding and turning in a tilted plane (§3.4.9)",
      [pivot](RigidBody& l, RigidBody& b) {
        return std::make_unique<PlanarJoint>(l, &b, frameFromZAxis(pivot, Vector3d(0, -1, 1), "joint"), "joint");
      });
  add(reg, "SphericalJointDemo", "a link swinging on a ball joint (§3.4.7)", [pivot](RigidBody& l, RigidBody& b) {
    l.setVelocity((Twist() << 0, 0, 0, 1.0, 0, 0).finished());  // a twist so it swings in 3-D
    return std::make_unique<SphericalJoint>(l, &b, pivot, "joint");
  });
}

}  // namespace sinew::demos
