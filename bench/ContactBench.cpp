// Contact benchmarks: a step of the box stack and pile scenes (h = 1 ms,
// μ = 0.5), and the signed-distance query that vertex-penetration contact
// makes for every watched vertex.
#include <benchmark/benchmark.h>

#include <random>

#include "Scenes.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/geometry/DistanceGrid.h"
#include "sinew/geometry/TriangleBVTree.h"

namespace {

void boxesStep(benchmark::State& state, bool pile) {
  const int n = static_cast<int>(state.range(0));
  auto root = sinew::bench::makeBoxes(n, pile);
  root->run(pile ? 0.5 : 0.005);  // a pile: let the boxes land first
  double t = root->getTime();
  for (auto _ : state) {
    root->advance(t, t + 1e-3);
    t += 1e-3;
  }
  state.counters["boxes"] = n;
}
void BM_BoxStackStep(benchmark::State& state) { boxesStep(state, false); }
void BM_BoxPileStep(benchmark::State& state) { boxesStep(state, true); }
BENCHMARK(BM_BoxStackStep)->Arg(10)->Unit(benchmark::kMicrosecond);
// 100 boxes are not listed: the pivoting LCP needs seconds per step there
// (see docs/contact.md); `sinew_scene pile 100` shows it.
BENCHMARK(BM_BoxPileStep)->Arg(10)->Unit(benchmark::kMicrosecond);

/// Signed distance from points near the surface of a sphere of 1280
/// triangles (icosahedral, 3 subdivisions).
void BM_TriangleBVTreeNearest(benchmark::State& state) {
  const sinew::PolygonalMesh ball = sinew::MeshFactory::createIcosahedralSphere(1, 3);
  const sinew::TriangleBVTree tree(ball);
  std::mt19937 rng(1);
  std::normal_distribution<double> N;
  std::vector<Eigen::Vector3d> pts(1024);
  for (auto& p : pts) p = Eigen::Vector3d(N(rng), N(rng), N(rng)).normalized() * (1 + 0.01 * N(rng));
  size_t k = 0;
  for (auto _ : state) benchmark::DoNotOptimize(tree.nearest(pts[k++ & 1023]).distance);
  state.counters["triangles"] = tree.numTriangles();
}
BENCHMARK(BM_TriangleBVTreeNearest);

/// The same queries from a distance grid of that sphere (the
/// SIGNED_DISTANCE collider's, §4.6): trilinear distance and normal.
void BM_DistanceGridQuery(benchmark::State& state) {
  const sinew::PolygonalMesh ball = sinew::MeshFactory::createIcosahedralSphere(1, 3);
  const sinew::DistanceGrid grid(ball, 20);
  std::mt19937 rng(1);
  std::normal_distribution<double> N;
  std::vector<Eigen::Vector3d> pts(1024);
  for (auto& p : pts) p = Eigen::Vector3d(N(rng), N(rng), N(rng)).normalized() * (1 + 0.01 * N(rng));
  size_t k = 0;
  Eigen::Vector3d n;
  for (auto _ : state) benchmark::DoNotOptimize(grid.distance(pts[k++ & 1023], &n));
}
BENCHMARK(BM_DistanceGridQuery);

/// A deforming mesh's tree each detection (an FEM surface of 5120
/// triangles): built anew (Arg 0) or refitted (Arg 1).
void BM_TriangleBVTreeUpdate(benchmark::State& state) {
  sinew::PolygonalMesh ball = sinew::MeshFactory::createIcosahedralSphere(1, 4);
  sinew::TriangleBVTree tree(ball);
  int k = 0;
  for (auto _ : state) {
    const double s = 1 + 1e-3 * (++k & 7);
    for (int i = 0; i < ball.numVertices(); ++i) ball.setVertex(i, ball.getVertex(i) * s / (1 + 1e-3 * ((k - 1) & 7)));
    if (state.range(0)) tree.refit(ball);
    else benchmark::DoNotOptimize(sinew::TriangleBVTree(ball).numTriangles());
  }
  state.counters["triangles"] = tree.numTriangles();
}
BENCHMARK(BM_TriangleBVTreeUpdate)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
