// One demo per joint type (guide §3.4 and the demos.mech list):
// HingeJointDemo, SliderJointDemo, CylindricalJointDemo,
// SlottedHingeJointDemo, UniversalJointDemo (-skew <deg> gives a
// SkewedUniversalJoint), GimbalJointDemo, SphericalJointDemo,
// PlanarJointDemo (-translation gives a PlanarTranslationJoint),
// EllipsoidJointDemo, and the connectors of Figs. 3.24 and 3.25
// (PlanarConnectorDemo, SegmentedPlanarConnectorDemo), and the tutorial's
// CustomJointDemo (§4.9.5), whose CustomJoint is a slotted hinge written
// with the custom joint API and set up as SlottedHingeJointDemo. In the guide these
// are interactive; here each joins a link to a fixed base so that gravity
// drives every allowed motion, and the joint's coordinates can be recorded
// with --probe models/mech/bodyConnectors/joint:<coordinate>.
#include <cmath>
#include <functional>

#include "demos/CustomJoint.h"
#include "demos/Demos.h"
#include "sinew/joints/CylindricalJoint.h"
#include "sinew/joints/EllipsoidJoint.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/joints/PlanarConnector.h"
#include "sinew/joints/SliderJoint.h"
#include "sinew/joints/SphericalJoint.h"
#include "sinew/joints/UniversalJoint.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

namespace {

using Args = std::vector<std::string>;
using MakeJoint = std::function<std::unique_ptr<JointBase>(RigidBody& link, RigidBody& base, const Args& args)>;

const Vector3d kPivot(0.2, 0, 0);
/// The slotted hinge's D: z along world y, x along the slot, tilted 30°
/// down from world x.
const RigidTransform3d kSlotTDW(kPivot, (Eigen::AngleAxisd(-M_PI / 6, Vector3d::UnitY()) *
                                         Eigen::AngleAxisd(-M_PI / 2, Vector3d::UnitX()))
                                            .toRotationMatrix());

/// A fixed base at the origin and a 1 × 0.2 × 0.2 link beside it (density
/// 1000), joined by the joint `make` creates; rotary damping keeps the
/// motion readable.
class JointTypeDemo : public RootModel {
 public:
  explicit JointTypeDemo(MakeJoint make) : myMake(std::move(make)) {}
  void build(const Args& args) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    mech.setRotaryDamping(0.1);
    auto& base = mech.addRigidBody(RigidBody::createBox("base", 0.4, 0.4, 0.4, 1000));
    base.setDynamic(false);
    auto& link = mech.addRigidBody(RigidBody::createBox("link", 1.0, 0.2, 0.2, 1000));
    link.setPose(RigidTransform3d(0.7, 0, 0));
    mech.addBodyConnector(myMake(link, base, args));
  }

 private:
  MakeJoint myMake;
};

void add(ModelRegistry& reg, const char* name, const char* description, MakeJoint make) {
  reg.add(name, [make] { return std::make_unique<JointTypeDemo>(make); }, description);
}

bool hasFlag(const Args& args, const std::string& flag) {
  return std::find(args.begin(), args.end(), flag) != args.end();
}

/// Starts the link turning about x so that it moves in 3-D.
void spin(RigidBody& link) { link.setVelocity((Twist() << 0, 0, 0, 1.0, 0, 0).finished()); }

void registerAxisJointDemos(ModelRegistry& reg) {
  add(reg, "HingeJointDemo", "a link swinging on a hinge about y (§3.4.1)", [](RigidBody& l, RigidBody& b, const Args&) {
    return std::make_unique<HingeJoint>(l, &b, kPivot, Vector3d::UnitY(), "joint");
  });
  add(reg, "SliderJointDemo", "a link sliding down a 45° axis (§3.4.2)", [](RigidBody& l, RigidBody& b, const Args&) {
    return std::make_unique<SliderJoint>(l, &b, kPivot, Vector3d(1, 0, -1), "joint");
  });
  add(reg, "CylindricalJointDemo", "a link sliding and turning on a tilted axis (§3.4.3)",
      [](RigidBody& l, RigidBody& b, const Args&) {
        return std::make_unique<CylindricalJoint>(l, &b, kPivot, Vector3d(0.3, 1, -1), "joint");
      });
  add(reg, "SlottedHingeJointDemo", "a link swinging about y while sliding along a tilted slot (§3.4.4)",
      [](RigidBody& l, RigidBody& b, const Args&) {
        auto j = std::make_unique<SlottedHingeJoint>(l, &b, kSlotTDW, "joint");
        j->setCoordinateRange(SlottedHingeJoint::X_IDX, -0.1, 0.3);
        return j;
      });
  add(reg, "CustomJointDemo", "the slotted hinge written with the custom joint API (§4.9.5)",
      [](RigidBody& l, RigidBody& b, const Args&) {
        auto j = std::make_unique<CustomJoint>(l, &b, kSlotTDW, "joint");
        j->setCoordinateRange(CustomJoint::X_IDX, -0.1, 0.3);
        return j;
      });
  add(reg, "PlanarJointDemo", "a link sliding and turning in a tilted plane (§3.4.9; -translation: §3.4.10)",
      [](RigidBody& l, RigidBody& b, const Args& args) -> std::unique_ptr<JointBase> {
        const Vector3d z(0, -1, 1);
        if (hasFlag(args, "-translation")) return std::make_unique<PlanarTranslationJoint>(l, &b, kPivot, z, "joint");
        return std::make_unique<PlanarJoint>(l, &b, kPivot, z, "joint");
      });
}

void registerBallJointDemos(ModelRegistry& reg) {
  add(reg, "UniversalJointDemo", "a link on a universal joint (§3.4.5; -skew <deg>: §3.4.6)",
      [](RigidBody& l, RigidBody& b, const Args& args) -> std::unique_ptr<JointBase> {
        spin(l);
        // D's z (the roll axis) along world x, toward the link.
        const RigidTransform3d TDW = frameFromZAxis(kPivot, Vector3d::UnitX(), "joint");
        const double skew = argValue(args, "-skew", 0);
        if (skew != 0) return std::make_unique<SkewedUniversalJoint>(l, &b, TDW, skew, "joint");
        return std::make_unique<UniversalJoint>(l, &b, TDW, "joint");
      });
  add(reg, "GimbalJointDemo", "a link swinging on a gimbal, pitch limited to ±60° (§3.4.7)",
      [](RigidBody& l, RigidBody& b, const Args&) {
        spin(l);
        auto j = std::make_unique<GimbalJoint>(l, &b, kPivot, "joint");
        j->setCoordinateRangeDisplay(GimbalJoint::PITCH_IDX, Eigen::Vector2d(-60, 60));
        return j;
      });
  add(reg, "SphericalJointDemo", "a link swinging on a ball joint, tilt limited to 60° (§3.4.8)",
      [](RigidBody& l, RigidBody& b, const Args&) {
        spin(l);
        // D's z along world x, so the tilt is the link's angle from horizontal.
        auto j = std::make_unique<SphericalJoint>(l, &b, frameFromZAxis(kPivot, Vector3d::UnitX(), "joint"), "joint");
        j->setMaxTilt(60);
        return j;
      });
  add(reg, "EllipsoidJointDemo", "a link whose end slides on an ellipsoid (§3.4.11)",
      [](RigidBody& l, RigidBody& b, const Args&) {
        // Semi-axes 0.2, 0.15, 0.1 about the base centre; C at the link's
        // inner end, set to the guide figure's ψ, γ, θ, φ = 45°, 30°, −40°, 20°.
        auto j = std::make_unique<EllipsoidJoint>(0.2, 0.15, 0.1, 0, false, "joint");
        j->setBodies(l, RigidTransform3d(-0.5, 0, 0), &b, RigidTransform3d());
        j->setCoordinates(Eigen::Vector4d(45, 30, -40, 20) * M_PI / 180);
        return j;
      });
}

void registerConnectorDemos(ModelRegistry& reg) {
  add(reg, "PlanarConnectorDemo", "the link's far corner held to a tilted plane (§3.4.13, Fig. 3.24)",
      [](RigidBody& l, RigidBody& b, const Args& args) {
        auto j = std::make_unique<PlanarConnector>(l, Vector3d(0.5, 0.1, 0.1), &b,
                                                   frameFromZAxis(Vector3d(1.2, 0.1, 0.1), Vector3d(-0.3, 0, 1), "joint"),
                                                   "joint");
        j->setUnilateral(hasFlag(args, "-unilateral"));
        return j;
      });
  add(reg, "SegmentedPlanarConnectorDemo", "the link's far corner held to a folded surface (§3.4.14, Fig. 3.25)",
      [](RigidBody& l, RigidBody& b, const Args& args) {
        // D at the corner's start, world aligned: a curve in its x–z plane
        // that climbs, runs level, then drops.
        const std::vector<double> segs{-1.0, -0.5, -0.2, 0.0, 0.2, 0.0, 1.0, -0.5};
        auto j = std::make_unique<SegmentedPlanarConnector>(l, Vector3d(0.5, 0.1, 0.1), &b,
                                                            RigidTransform3d(Vector3d(1.2, 0.1, 0.1)), segs, "joint");
        j->setUnilateral(hasFlag(args, "-unilateral"));
        return j;
      });
}

}  // namespace

void registerJointTypeDemos(ModelRegistry& reg) {
  registerAxisJointDemos(reg);
  registerBallJointDemos(reg);
  registerConnectorDemos(reg);
}

}  // namespace sinew::demos
