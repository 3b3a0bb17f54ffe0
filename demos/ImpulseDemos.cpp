// The linked-body scenes of seed 004 (impulse-based simulation), run by
// default under the Impulse integrator; any other integrator runs them too
// (`sinew run TriplePendulum -i ConstrainedBackwardEuler`), so the solvers
// can be compared on the same model.
//   TriplePendulum  three 1 m links (1 kg) joined by ball joints, the first
//                   to ground, released from a bent horizontal pose
//   EightLinkLoop   eight 1 m links in a closed loop: a chain whose two ends
//                   are ball-jointed to ground 4 m apart, released lying
//                   horizontal on an arc, so that it swings down and hangs
// Options: -integrator NAME (default Impulse), -step h (default 0.001).
#include <cmath>

#include "demos/Demos.h"
#include "sinew/joints/SphericalJoint.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

namespace {
/// A 1 × 0.1 × 0.1 m box of 1 kg from p to q (|q − p| = 1), in the plane z = p.z.
RigidBody& addLink(MechModel& mech, int i, const Vector3d& p, const Vector3d& q) {
  auto& b = mech.addRigidBody(RigidBody::createBox("link" + std::to_string(i), 1, 0.1, 0.1, 100));
  const Vector3d d = q - p;
  b.setPose(RigidTransform3d(0.5 * (p + q), AxisAngle(Vector3d::UnitZ(), std::atan2(d.y(), d.x())).toMatrix()));
  return b;
}

/// A chain of unit links through the points p[0..n]; the first joint is to
/// ground, and the last too when `closed`.
void addChain(MechModel& mech, const std::vector<Vector3d>& p, bool closed) {
  RigidBody* prev = nullptr;
  const int n = static_cast<int>(p.size()) - 1;
  for (int i = 0; i < n; ++i) {
    RigidBody& b = addLink(mech, i, p[i], p[i + 1]);
    mech.addBodyConnector(std::make_unique<SphericalJoint>(b, prev, p[i], "joint" + std::to_string(i)));
    prev = &b;
  }
  if (closed) mech.addBodyConnector(std::make_unique<SphericalJoint>(*prev, nullptr, p[n], "joint" + std::to_string(n)));
}
}  // namespace

void setIntegratorAndStep(RootModel& root, MechModel& mech, const std::vector<std::string>& args,
                          const std::string& dflt) {
  std::string integrator = dflt;
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "-integrator") integrator = args[i + 1];
  mech.getProperty("integrator").set(integrator);
  root.setMaxStepSize(argValue(args, "-step", 1e-3));
}

class TriplePendulum : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    addChain(mech, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {2, 1, 0}}, false);
    setIntegratorAndStep(*this, mech, args, "Impulse");
  }
};

class EightLinkLoop : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    // Eight unit chords of one circle through the two ground points A =
    // (0,0,0) and B = (4,0,0): each chord subtends θ, the eight together
    // 8θ, with 2R sin(θ/2) = 1 and 2R sin(4θ) = |AB| = 4.
    double lo = 1e-6, hi = M_PI / 4;
    for (int k = 0; k < 100; ++k) {
      const double th = 0.5 * (lo + hi);
      (std::sin(4 * th) / std::sin(th / 2) > 4 ? lo : hi) = th;
    }
    const double th = 0.5 * (lo + hi), R = 0.5 / std::sin(th / 2);
    const Vector3d centre(2, -R * std::cos(4 * th), 0);
    const double a0 = std::atan2(-centre.y(), -2.0);  // the angle of A seen from the centre
    std::vector<Vector3d> p;
    for (int k = 0; k <= 8; ++k) p.push_back(centre + R * Vector3d(std::cos(a0 - k * th), std::sin(a0 - k * th), 0));
    p[0] = Vector3d(0, 0, 0);
    p[8] = Vector3d(4, 0, 0);
    addChain(mech, p, true);
    setIntegratorAndStep(*this, mech, args, "Impulse");
  }
};

void registerImpulseDemos(ModelRegistry& reg) {
  reg.add("TriplePendulum", [] { return std::make_unique<TriplePendulum>(); },
          "three links on ball joints under the impulse-based solver (seed 004)");
  reg.add("EightLinkLoop", [] { return std::make_unique<EightLinkLoop>(); },
          "closed chain of eight links, both ends on ground, under the impulse-based solver (seed 004)");
}

}  // namespace sinew::demos
