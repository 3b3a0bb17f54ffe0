// Sinew in the peer benchmarks (bench/peers/README.md): the scenes of
// PeerScene.h built by bench/Scenes.h — the same functions the scene
// runner and the determinism tests use — under ConstrainedBackwardEuler
// (or the integrator named by a sixth argument, e.g. Impulse).
#include "PeerScene.h"
#include "bench/Scenes.h"

namespace {

using namespace sinew;

MechModel& mechOf(RootModel& root) { return static_cast<MechModel&>(root.models().get(0)); }

/// The largest hinge error, as the distance between the joint's frames C and D.
double maxHingeGap(RootModel& root) {
  double e = 0;
  MechModel& mech = mechOf(root);
  for (int i = 0; i < mech.bodyConnectors().size(); ++i)
    if (auto* j = dynamic_cast<JointBase*>(&mech.bodyConnectors().get(i)))
      e = std::max(e, j->getConstraintError().head<3>().norm());
  return e;
}

std::unique_ptr<RootModel> build(const peers::Args& a, RigidBody*& cube) {
  if (a.scene == "chain") return bench::makeHingeChain(a.n, a.h);
  if (a.scene == "loop") return bench::makeHingeLoop(a.n, a.h);
  if (a.scene == "pile") return bench::makeBoxes(a.n, true, a.h);
  if (a.scene == "incline") return bench::makeBoxOnIncline(a.mu, cube, a.h);
  std::fprintf(stderr, "unknown scene '%s'\n", a.scene.c_str());
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  const peers::Args a = peers::parseArgs(argc, argv);
  RigidBody* cube = nullptr;
  auto root = build(a, cube);
  if (argc > 6) mechOf(*root).getProperty("integrator").set(std::string(argv[6]));
  const bool joints = a.scene == "chain" || a.scene == "loop";
  const double E0 = root->getEnergy();
  const Vector3d x0 = cube ? cube->getPosition() : Vector3d::Zero();
  double t = root->getTime();
  peers::Result r;
  r.usPerStep = peers::timeSteps(a.steps, [&] {
    t += a.h;
    root->advance(t - a.h, t);
  });
  MechModel& mech = mechOf(*root);
  if (joints) {
    r.energyDrift = std::abs(root->getEnergy() - E0) / (a.n * peers::kGravity);
    r.constraintError = maxHingeGap(*root);
    r.result = mech.rigidBodies().get(mech.rigidBodies().size() - 1).getPosition().z();
  } else if (cube) {
    const Vector3d downhill(std::cos(peers::kInclineAngle), 0, -std::sin(peers::kInclineAngle));
    r.result = (cube->getPosition() - x0).dot(downhill);
  } else {
    double vmax = 0;
    for (int i = 0; i < mech.rigidBodies().size(); ++i)
      vmax = std::max(vmax, mech.rigidBodies().get(i).getVelocity().head<3>().norm());
    r.result = vmax;
  }
  peers::print(argc > 6 ? ("sinew-" + std::string(argv[6])).c_str() : "sinew", a, r);
}
