// Micro benchmark of the FEM material kernels (guide §6.1.3, Table 6.3):
// one Cauchy stress and consistent tangent at a general deformation, the
// work every integration point does every step.
#include <benchmark/benchmark.h>

#include <memory>

#include "sinew/fem/IncompNeoHookeanMaterial.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/fem/MooneyRivlinMaterial.h"
#include "sinew/fem/NeoHookeanMaterial.h"
#include "sinew/fem/OgdenMaterial.h"
#include "sinew/fem/StVenantKirchoffMaterial.h"

namespace {

using namespace sinew;

/// A stretched, sheared and turned deformation gradient (J ≈ 1.05).
DeformedPoint generalDeformation() {
  Matrix3d F;
  F << 1.10, 0.08, -0.03, 0.02, 0.97, 0.05, -0.04, 0.06, 0.99;
  return DeformedPoint(F);
}

void stressAndTangent(benchmark::State& state, const FemMaterial& mat) {
  const DeformedPoint def = generalDeformation();
  Matrix3d sigma;
  Matrix6d D;
  for (auto _ : state) {
    mat.computeStressAndTangent(sigma, &D, def);
    benchmark::DoNotOptimize(sigma.data());
    benchmark::DoNotOptimize(D.data());
  }
}

void BM_Linear(benchmark::State& s) { stressAndTangent(s, LinearMaterial(1e5, 0.3)); }
void BM_StVenantKirchoff(benchmark::State& s) { stressAndTangent(s, StVenantKirchoffMaterial(1e5, 0.3)); }
void BM_NeoHookean(benchmark::State& s) { stressAndTangent(s, NeoHookeanMaterial(1e5, 0.3)); }
void BM_IncompNeoHookean(benchmark::State& s) { stressAndTangent(s, IncompNeoHookeanMaterial(1e4, 1e6)); }
void BM_MooneyRivlin(benchmark::State& s) { stressAndTangent(s, MooneyRivlinMaterial(300, 120, 40, 60, 25, 9000)); }
void BM_Ogden(benchmark::State& s) { stressAndTangent(s, OgdenMaterial({1e4, -2e3}, {2.5, -2}, 1e6)); }

}  // namespace

BENCHMARK(BM_Linear);
BENCHMARK(BM_StVenantKirchoff);
BENCHMARK(BM_NeoHookean);
BENCHMARK(BM_IncompNeoHookean);
BENCHMARK(BM_MooneyRivlin);
BENCHMARK(BM_Ogden);
