// Seed 004's six-legged walking machine: a chassis on six legs, each leg a
// hip link hinged to the chassis about the lateral axis and a shank that
// slides along the leg (SliderJoint), driven by controllers on those joints
// in a tripod gait: three legs stand and swing back, pushing the chassis
// forward, while the other three are drawn up and swing forward.
//   WalkingMachine  -mu μ (default 0.8; the seed's "ice": -mu 0.05)
//                   -period T (s, default 0.8)
//                   -slope deg (default 0): the ground rises by that angle
//                   ahead (gravity turned instead of the ground)
// Options: -integrator NAME (default Impulse), -step h (default 0.001).
// The controllers are proportional–derivative laws on the joints' relative
// motion, applied as equal and opposite wrenches on the two bodies of each
// joint, so they move no momentum: the chassis advances only by the friction
// of its feet.
#include <array>
#include <cmath>

#include "demos/Demos.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/joints/SliderJoint.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

namespace {

constexpr double kHipHeight = 0.2;   ///< of the hinges above the ground (m)
constexpr double kShank = 0.2;       ///< shank length (m): its foot touches the ground when extended
constexpr double kSwing = 0.35;      ///< hip swing amplitude (rad)
constexpr double kLift = 0.04;       ///< how far a swinging leg is drawn up (m)

struct Leg {
  RigidBody* hip;
  RigidBody* shank;
  bool tripodA;
};

/// The hip angle of a leg about the chassis's y axis, and its rate.
void hipAngle(const RigidBody& chassis, const RigidBody& hip, double& angle, double& rate) {
  const Matrix3d R = chassis.getRotation().transpose() * hip.getRotation();
  angle = std::atan2(R(0, 2), R(0, 0));
  const Vector3d y = chassis.getRotation().col(1);
  rate = (hip.getVelocity().tail<3>() - chassis.getVelocity().tail<3>()).dot(y);
}

/// The gait: the target hip angle and how far the shank is drawn up, at
/// phase s in [0, 1) of a tripod's cycle (stance first, then swing).
void gait(double s, double& angle, double& lift) {
  if (s < 0.5) {  // stance: the foot moves from front (−) to back (+)
    angle = kSwing * (4 * s - 1);
    lift = 0;
  } else {  // swing: drawn up, back to the front
    angle = kSwing * (3 - 4 * s);
    lift = kLift * std::sin(M_PI * (2 * s - 1));
  }
}

}  // namespace

class WalkingMachine : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    auto& plate = mech.addRigidBody(RigidBody::createBox("ground", 20, 4, 0.2, 1000));
    plate.setPose(RigidTransform3d(0, 0, -0.1));
    plate.setDynamic(false);
    // Chassis 0.6 × 0.3 × 0.08 m, 3 kg; legs at x = −0.22, 0, 0.22 on both sides.
    auto& chassis = mech.addRigidBody(RigidBody::createBox("chassis", 0.6, 0.3, 0.08, 3 / (0.6 * 0.3 * 0.08)));
    chassis.setPose(RigidTransform3d(0, 0, kHipHeight));
    const double mu = argValue(args, "-mu", 0.8);
    for (int i = 0; i < 6; ++i) {
      const double x = -0.22 + 0.22 * (i / 2), y = (i % 2 ? -1 : 1) * 0.19;
      const Vector3d hipPoint(x, y, kHipHeight);
      const std::string n = std::to_string(i);
      auto& hip = mech.addRigidBody(RigidBody::createBox("hip" + n, 0.04, 0.04, 0.04, 0.2 / 6.4e-5));
      hip.setPose(RigidTransform3d(hipPoint));
      auto& shank = mech.addRigidBody(RigidBody::createBox("shank" + n, 0.03, 0.03, kShank, 0.2 / (9e-4 * kShank)));
      shank.setPose(RigidTransform3d(hipPoint - Vector3d(0, 0, kShank / 2)));
      mech.addBodyConnector(std::make_unique<HingeJoint>(hip, &chassis, hipPoint, Vector3d(0, 1, 0), "hipJoint" + n));
      mech.addBodyConnector(
          std::make_unique<SliderJoint>(shank, &hip, hipPoint, Vector3d(0, 0, 1), "kneeSlider" + n));
      mech.setCollisionBehavior(shank, plate, true, mu);
      // Tripods: front and rear of one side with the middle of the other.
      const bool a = (i == 0 || i == 3 || i == 4);
      myLegs[i] = {&hip, &shank, a};
    }
    myChassis = &chassis;
    myPeriod = argValue(args, "-period", 0.8);
    const double slope = argValue(args, "-slope", 0.0) * M_PI / 180;
    mech.setGravity(-9.8 * std::sin(slope), 0, -9.8 * std::cos(slope));
    addController("gait", [this](double t0, double) { drive(t0); });
    setIntegratorAndStep(*this, mech, args, "Impulse");
  }

 private:
  /// Sets each joint's controller wrench for the step starting at t.
  void drive(double t) {
    constexpr double kpHip = 60, kdHip = 2, kpLift = 600, kdLift = 20;
    Wrench onChassis = Wrench::Zero();
    const Vector3d y = myChassis->getRotation().col(1);
    for (const Leg& leg : myLegs) {
      double s = std::fmod(t / myPeriod + (leg.tripodA ? 0.0 : 0.5), 1.0);
      // Start from standing: the first quarter cycle eases in.
      const double ease = std::min(1.0, t / (0.25 * myPeriod));
      double target, lift;
      gait(s, target, lift);
      double angle, rate;
      hipAngle(*myChassis, *leg.hip, angle, rate);
      const double torque = kpHip * (ease * target - angle) - kdHip * rate;
      // The shank's extension below the hip along the leg, and its rate.
      const Vector3d axis = leg.hip->getRotation().col(2);
      const double rest = kShank / 2;
      const double drawn = rest - (leg.hip->getPosition() - leg.shank->getPosition()).dot(axis);
      const double drawnRate = (leg.shank->getVelocity().head<3>() - leg.hip->getVelocity().head<3>()).dot(axis);
      const double force = kpLift * (ease * lift - drawn) - kdLift * drawnRate;
      Wrench onHip = Wrench::Zero(), onShank = Wrench::Zero();
      onHip.tail<3>() = torque * y;
      onChassis.tail<3>() -= torque * y;
      onShank.head<3>() = force * axis;
      onHip.head<3>() -= force * axis;
      leg.hip->setExternalForce(onHip);
      leg.shank->setExternalForce(onShank);
    }
    myChassis->setExternalForce(onChassis);
  }

  std::array<Leg, 6> myLegs{};
  RigidBody* myChassis = nullptr;
  double myPeriod = 0.8;
};

void registerWalkingMachine(ModelRegistry& reg) {
  reg.add("WalkingMachine", [] { return std::make_unique<WalkingMachine>(); },
          "a six-legged walking machine in a tripod gait: walks on -mu 0.8, slips on ice -mu 0.05 (seed 004)");
}

}  // namespace sinew::demos
