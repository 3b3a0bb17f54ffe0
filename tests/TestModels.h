// Small models shared by the physics tests.
#pragma once

#include <memory>

#include "sinew/mech/MechModel.h"
#include "sinew/model/RootModel.h"

namespace sinew::test {

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

}  // namespace sinew::test
