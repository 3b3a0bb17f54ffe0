// Sparse direct solver backends on a 1,000-body system (docs/solvers.md):
// a spring chain of rigid bodies (SPD solve), and the same chain with a
// plane constraint on every body (KKT solve). One full step per iteration.
#include <benchmark/benchmark.h>

#include "Scenes.h"

namespace {

using sinew::LinearSolverType;

void runSteps(benchmark::State& state, bool constrained, LinearSolverType type) {
  const int n = static_cast<int>(state.range(0));
  if (type != LinearSolverType::EigenLDLT && !sinew::LinearSolver::hasSuiteSparse()) {
    state.SkipWithError("built without SuiteSparse");
    return;
  }
  auto root = sinew::bench::makeChain(n, constrained, type);
  root->run(0.03);
  double t = root->getTime();
  for (auto _ : state) {
    root->advance(t, t + 0.01);
    t += 0.01;
  }
  state.counters["bodies"] = n;
}

#define SINEW_SOLVER_BENCH(name, constrained, type)                                  \
  void name(benchmark::State& s) { runSteps(s, constrained, LinearSolverType::type); } \
  BENCHMARK(name)->Arg(1000)->Unit(benchmark::kMicrosecond)

SINEW_SOLVER_BENCH(BM_ChainSPD_EigenLDLT, false, EigenLDLT);
SINEW_SOLVER_BENCH(BM_ChainSPD_Cholmod, false, Cholmod);
SINEW_SOLVER_BENCH(BM_ChainSPD_Umfpack, false, Umfpack);
SINEW_SOLVER_BENCH(BM_ChainKKT_EigenLDLT, true, EigenLDLT);
SINEW_SOLVER_BENCH(BM_ChainKKT_Umfpack, true, Umfpack);

void BM_NetSPD(benchmark::State& state, LinearSolverType type) {
  auto root = sinew::bench::makeNet(static_cast<int>(state.range(0)));
  for (auto& m : root->models())
    if (auto* mech = dynamic_cast<sinew::MechModel*>(&m)) mech->setLinearSolver(type);
  root->setMaxStepSize(0.01);
  root->initialize(0);
  root->run(0.03);
  double t = root->getTime();
  for (auto _ : state) {
    root->advance(t, t + 0.01);
    t += 0.01;
  }
}
BENCHMARK_CAPTURE(BM_NetSPD, EigenLDLT, LinearSolverType::EigenLDLT)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_NetSPD, Cholmod, LinearSolverType::Cholmod)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_NetSPD, PCG, LinearSolverType::PCG)->Arg(100)->Unit(benchmark::kMicrosecond);

}  // namespace
