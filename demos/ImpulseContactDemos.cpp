// The contact scenes of seed 004 (impulse-based simulation): collision and
// friction as impulses. Run by default under the Impulse integrator; any
// other integrator runs them too (`sinew run SlidingCubes -i
// ConstrainedBackwardEuler`).
//   SlidingCubes    six 0.2 m cubes of 1 kg released on a fixed 30° incline,
//                   each with its own friction coefficient μ = 0.1 … 0.7:
//                   those with μ < tan 30° slide g(sin θ − μ cos θ) t²/2,
//                   the last one stays
//   SledgePendulum  a sledge with a pendulum hinged above it on a 20°
//                   incline, the pendulum released 70° from hanging;
//                   -mu 0.45 (default, above tan 20°): the swing makes the
//                   sledge stop and go; -mu 0.1: it slides all the way
//   RotatingEgg     a prolate ellipsoid (semi-axes 0.1, 0.06, 0.06 m)
//                   lying on a plane, spun about the vertical at -spin
//                   rad/s (default 120): friction raises it onto its end
// Options: -integrator NAME (default Impulse), -step h (default 0.001).
#include <cmath>

#include "demos/Demos.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

namespace {
/// A fixed plate whose top face passes through `origin`, tilted by `angle`
/// about y (its downhill direction is R·x).
RigidBody& addIncline(MechModel& mech, double angle, double wx, double wy, const Vector3d& origin = Vector3d::Zero()) {
  auto& plate = mech.addRigidBody(RigidBody::createBox("plate", wx, wy, 0.2, 1000));
  const Matrix3d R = AxisAngle(Vector3d(0, 1, 0), angle).toMatrix();
  plate.setPose(RigidTransform3d(origin + R * Vector3d(0, 0, -0.1), R));
  plate.setDynamic(false);
  return plate;
}
}  // namespace

class SlidingCubes : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    const double theta = M_PI / 6;
    RigidBody& plate = addIncline(mech, theta, 6, 4);
    const Matrix3d R = plate.getPose().R;
    const double mu[] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.7};
    for (int i = 0; i < 6; ++i) {
      auto& cube = mech.addRigidBody(RigidBody::createBox("cube" + std::to_string(i), 0.2, 0.2, 0.2, 125));
      cube.setPose(RigidTransform3d(R * Vector3d(-2.5, -1.5 + 0.6 * i, 0.1), R));
      mech.setCollisionBehavior(cube, plate, true, mu[i]);
    }
    setIntegratorAndStep(*this, mech, args, "Impulse");
  }
};

class SledgePendulum : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    const double theta = 20 * M_PI / 180;
    RigidBody& plate = addIncline(mech, theta, 8, 2);
    const Matrix3d R = plate.getPose().R;
    // A 0.6 × 0.3 × 0.1 m sledge of 3 kg, and a 0.5 m pendulum rod of 2 kg
    // hinged about the incline's y axis 0.5 m above the sledge's centre.
    auto& sledge = mech.addRigidBody(RigidBody::createBox("sledge", 0.6, 0.3, 0.1, 3 / 0.018));
    sledge.setPose(RigidTransform3d(R * Vector3d(-3, 0, 0.05), R));
    const Vector3d pivot = sledge.getPosition() + Vector3d(0, 0, 0.5);
    const double swing = 70 * M_PI / 180;  // from hanging, swung uphill
    const Matrix3d Rp = AxisAngle(Vector3d(0, 1, 0), swing).toMatrix();
    auto& rod = mech.addRigidBody(RigidBody::createBox("pendulum", 0.04, 0.04, 0.5, 2 / 0.0008));
    rod.setPose(RigidTransform3d(pivot + Rp * Vector3d(0, 0, -0.25), Rp));
    mech.addBodyConnector(std::make_unique<HingeJoint>(rod, &sledge, pivot, Vector3d(0, 1, 0), "hinge"));
    mech.setCollisionBehavior(sledge, plate, true, argValue(args, "-mu", 0.45));
    setIntegratorAndStep(*this, mech, args, "Impulse");
  }
};

class RotatingEgg : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    RigidBody& plate = addIncline(mech, 0, 2, 2);
    // An egg of 1000 kg/m³ lying along x, touching the plane, spinning about
    // the vertical (with a slight tilt so that the lying state is not exact).
    auto& egg = mech.addRigidBody(RigidBody::createEllipsoid("egg", 0.1, 0.06, 0.06, 1000, 48));
    const double tilt = 0.05;
    const Matrix3d R = AxisAngle(Vector3d(0, 1, 0), tilt).toMatrix();
    // The lowest point of the tilted ellipsoid x²/a² + (y² + z²)/b² = 1.
    const double a = 0.1, b = 0.06;
    const double zmin = std::sqrt(std::pow(a * std::sin(tilt), 2) + std::pow(b * std::cos(tilt), 2));
    egg.setPose(RigidTransform3d(Vector3d(0, 0, zmin), R));
    Twist tw = Twist::Zero();
    tw[5] = argValue(args, "-spin", 120);
    egg.setVelocity(tw);
    mech.setCollisionBehavior(egg, plate, true, argValue(args, "-mu", 0.3));
    setIntegratorAndStep(*this, mech, args, "Impulse");
  }
};

void registerImpulseContactDemos(ModelRegistry& reg) {
  reg.add("SlidingCubes", [] { return std::make_unique<SlidingCubes>(); },
          "cubes with different friction coefficients slide down an incline (seed 004)");
  reg.add("SledgePendulum", [] { return std::make_unique<SledgePendulum>(); },
          "a pendulum on a sledge on an incline: stop and go with high friction (seed 004)");
  reg.add("RotatingEgg", [] { return std::make_unique<RotatingEgg>(); },
          "a spinning prolate ellipsoid rises from lying to upright (seed 004)");
}

}  // namespace sinew::demos
