// The joints issue's chain benchmark: N links (1 × 0.1 × 0.1 m, 1 kg)
// hinged about y, released horizontal, ConstrainedBackwardEuler, h = 1 ms.
// Energy change and joint error are printed by `sinew_scene hinge N`. Also
// the micro kernel of one joint: a hinge's constraint rows.
#include <benchmark/benchmark.h>

#include <algorithm>

#include "Scenes.h"
#include "sinew/joints/JointBase.h"
#include "sinew/mech/RigidBody.h"

namespace {

void BM_HingeChainStep(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  auto root = sinew::bench::makeHingeChain(n);
  root->run(0.005);  // compile, analyse and factor once outside the timing
  double t = root->getTime();
  for (auto _ : state) {
    root->advance(t, t + 1e-3);
    t += 1e-3;
  }
  state.counters["links"] = n;
}
BENCHMARK(BM_HingeChainStep)->Arg(1)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);

}  // namespace

namespace {

/// Takes the rows a constrainer gives, as the solver's builder does, and
/// only sums them (so that nothing is optimized away).
class SummingBuilder : public sinew::ConstraintBuilder {
 public:
  explicit SummingBuilder(bool products) : myProducts(products) {}
  void beginRow(double dist, double, double, double velocityProduct) override { sum += dist + velocityProduct; }
  void addEntry(const sinew::DynamicComponent&, const Eigen::Ref<const Eigen::RowVectorXd>& g) override {
    sum += g.sum();
  }
  bool wantsVelocityProducts() const override { return myProducts; }
  double stepSize() const override { return 1e-3; }
  double sum = 0;

 private:
  bool myProducts;
};

/// One hinge's five bilateral rows, as the velocity solve asks for them:
/// with its velocity products Ġu (arg 1, the look-ahead) or without (0).
void BM_HingeJointRows(benchmark::State& state) {
  auto root = sinew::bench::makeHingeChain(2);
  root->run(0.005);
  auto& mech = static_cast<sinew::MechModel&>(root->models().get(0));
  auto& joint = dynamic_cast<sinew::JointBase&>(mech.bodyConnectors().get(1));
  SummingBuilder rows(state.range(0) != 0);
  for (auto _ : state) {
    joint.getBilateralConstraints(rows);
    benchmark::DoNotOptimize(rows.sum);
  }
}
BENCHMARK(BM_HingeJointRows)->Arg(0)->Arg(1);

}  // namespace

namespace {

/// A rigid body's pose advanced by h u (Frame::addPosImpulse): the
/// Impulse integrator's look-ahead moves two a joint correction. A turn of
/// 2.3e-3 rad a step (h = 1 ms), within the half-angle series' range.
void BM_FrameAddPosImpulse(benchmark::State& state) {
  sinew::RigidBody body("b");
  double q0[7], q[7];
  body.getPosState(q0);
  double u[6] = {0.1, 0.2, 0.3, 1.0, 2.0, 0.5};
  for (auto _ : state) {
    std::copy(q0, q0 + 7, q);
    u[3] += 1e-12;  // a new input each time
    body.addPosImpulse(q, 1e-3, u);
    benchmark::DoNotOptimize(q[3]);
  }
}
BENCHMARK(BM_FrameAddPosImpulse);

}  // namespace
