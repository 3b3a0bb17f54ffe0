// Helpers for tests that run a demo under a chosen integrator and track
// its joint errors and energy after every step.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "demos/Demos.h"
#include "sinew/Error.h"
#include "sinew/mech/MechModel.h"

namespace sinew::test {

/// The demo's MechModel "models/mech" (a ModelError if it has none).
inline MechModel& mechOf(RootModel& root) {
  auto* mech = root.findComponent<MechModel>("models/mech");
  if (!mech) throw ModelError("demo has no models/mech");
  return *mech;
}

/// The largest hard constraint error over the model's body connectors.
inline double maxJointError(MechModel& mech) {
  double e = 0;
  for (int i = 0; i < mech.bodyConnectors().size(); ++i)
    if (auto* c = dynamic_cast<Constrainer*>(&mech.bodyConnectors().get(i))) e = std::max(e, c->getMaxHardError());
  return e;
}

/// A demo that takes "-integrator NAME", built and initialized.
inline std::unique_ptr<RootModel> demoUnder(const std::string& name, const std::string& integrator) {
  auto root = demos::createDemo(name, {"-integrator", integrator});
  root->initialize(0);
  return root;
}

struct Tracked {
  double maxError = 0, energyDrift = 0, E0 = 0;
};

/// Runs root for `duration`, tracking the joint error after every step and
/// the largest change of total energy.
inline Tracked runTracked(RootModel& root, double duration) {
  MechModel& mech = mechOf(root);
  Tracked r;
  r.E0 = root.getEnergy();
  root.addMonitor("track", [&](double, double) {
    r.maxError = std::max(r.maxError, maxJointError(mech));
    r.energyDrift = std::max(r.energyDrift, std::abs(root.getEnergy() - r.E0));
  });
  root.run(duration);
  return r;
}

}  // namespace sinew::test
