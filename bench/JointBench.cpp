// The joints issue's chain benchmark: N links (1 × 0.1 × 0.1 m, 1 kg)
// hinged about y, released horizontal, ConstrainedBackwardEuler, h = 1 ms.
// Energy change and joint error are printed by `sinew_scene hinge N`.
#include <benchmark/benchmark.h>

#include "Scenes.h"

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
