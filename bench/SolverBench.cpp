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

/// Steps root with every MechModel on backend `type`, h = 10 ms, after
/// `warmup` seconds.
void advanceWith(benchmark::State& state, sinew::RootModel& root, LinearSolverType type, double warmup) {
  for (auto& m : root.models())
    if (auto* mech = dynamic_cast<sinew::MechModel*>(&m)) mech->setLinearSolver(type);
  root.setMaxStepSize(0.01);
  root.initialize(0);
  root.run(warmup);
  double t = root.getTime();
  for (auto _ : state) {
    root.advance(t, t + 0.01);
    t += 0.01;
  }
}

void BM_NetSPD(benchmark::State& state, LinearSolverType type) {
  auto root = sinew::bench::makeNet(static_cast<int>(state.range(0)));
  advanceWith(state, *root, type, 0.03);
}
BENCHMARK_CAPTURE(BM_NetSPD, EigenLDLT, LinearSolverType::EigenLDLT)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_NetSPD, Cholmod, LinearSolverType::Cholmod)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_NetSPD, PCG, LinearSolverType::PCG)->Arg(100)->Unit(benchmark::kMicrosecond);

}  // namespace

// Where the supernodal factorization overtakes the simplicial one on FEM
// systems (Auto's kSupernodalFlops, docs/solvers.md): one step of a
// neo-Hookean beam of about N elements, h = 10 ms.
void BM_FemBeam(benchmark::State& state, bool tets, LinearSolverType type) {
  if (type == LinearSolverType::Cholmod && !sinew::LinearSolver::hasSuiteSparse()) {
    state.SkipWithError("built without SuiteSparse");
    return;
  }
  sinew::FemModel3d* fem = nullptr;
  auto root = sinew::bench::makeFemBeam(tets, static_cast<int>(state.range(0)), fem);
  advanceWith(state, *root, type, 0.02);
  state.counters["elements"] = fem->numElements();
}
#define SINEW_FEM_BENCH(label, tets, type)                                     \
  BENCHMARK_CAPTURE(BM_FemBeam, label, tets, LinearSolverType::type)           \
      ->Arg(500)->Arg(1000)->Arg(2000)->Arg(4000)->Unit(benchmark::kMillisecond)
SINEW_FEM_BENCH(tet_EigenLDLT, true, EigenLDLT);
SINEW_FEM_BENCH(tet_Cholmod, true, Cholmod);
SINEW_FEM_BENCH(hex_EigenLDLT, false, EigenLDLT);
SINEW_FEM_BENCH(hex_Cholmod, false, Cholmod);
