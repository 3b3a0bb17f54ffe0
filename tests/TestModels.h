// Small models shared by the physics tests.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "sinew/mech/MechModel.h"
#include "sinew/model/RootModel.h"

namespace sinew::test {

/// The integrator's name, as the `integrator` property spells it.
inline std::string integratorName(Integrator i) { return EnumNames<Integrator>::get()[static_cast<int>(i)]; }

/// A root with one MechModel "mech" and no gravity unless asked.
struct TestRoot {
  std::unique_ptr<RootModel> root = std::make_unique<RootModel>("root");
  MechModel& mech;
  explicit TestRoot(const Vector3d& g = Vector3d::Zero())
      : mech(root->addModel(std::make_unique<MechModel>("mech"))) {
    mech.setGravity(g);
  }
  void setIntegrator(Integrator i) { mech.setIntegrator(i); }
  void run(double tEnd, double h) {
    root->setMaxStepSize(h);
    root->initialize(0);
    root->run(tEnd);
  }
};

/// Runs root for `duration` at step h and returns the mean period of
/// `signal` from its upward zero crossings (linearly interpolated), or 0 if
/// it crossed fewer than three times.
inline double measurePeriod(RootModel& root, double h, double duration, const std::function<double()>& signal) {
  root.setMaxStepSize(h);
  root.initialize(0);
  std::vector<double> crossings;
  double prev = signal(), tPrev = 0;
  root.addMonitor("zero", [&](double, double t1) {
    double x = signal();
    if (prev < 0 && x >= 0) crossings.push_back(tPrev + (t1 - tPrev) * (-prev) / (x - prev));
    prev = x;
    tPrev = t1;
  });
  root.run(duration);
  if (crossings.size() < 3) return 0;
  return (crossings.back() - crossings.front()) / (crossings.size() - 1);
}

}  // namespace sinew::test
