// NetDemo nets of 10×10, 30×30 and 100×100 springs, ConstrainedBackwardEuler,
// h = 10 ms: time per step (the cost should grow about linearly with the
// number of particles).
#include <benchmark/benchmark.h>

#include "Scenes.h"

namespace {

void BM_NetDemoStep(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  auto root = sinew::bench::makeNet(n);
  root->setMaxStepSize(0.01);
  root->initialize(0);
  root->run(0.05);  // warm up: compile the system, first factorization
  double t = root->getTime();
  for (auto _ : state) {
    root->advance(t, t + 0.01);
    t += 0.01;
  }
  state.counters["particles"] = (n + 1) * (n + 1);
  state.counters["us_per_particle"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * (n + 1) * (n + 1),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::OneK::kIs1000);
}
BENCHMARK(BM_NetDemoStep)->Arg(10)->Arg(30)->Arg(100)->Unit(benchmark::kMicrosecond);

}  // namespace
