// Contact benchmarks: a step of the box stack and pile scenes (h = 1 ms,
// μ = 0.5), the signed-distance query that vertex-penetration contact makes
// for every watched vertex, and the triangle–triangle crossings of contour
// regions.
#include <benchmark/benchmark.h>

#include <random>

#include "Scenes.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/mech/MechModel.h"
#include "sinew/model/RootModel.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/geometry/DistanceGrid.h"
#include "sinew/geometry/TriangleBVTree.h"
#include "sinew/geometry/TriangleIntersection.h"

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

/// The triangle–triangle test of the TRI_INTERSECTION collider on random
/// pairs of unit triangles near each other (about half of them cross).
void BM_TriangleIntersection(benchmark::State& state) {
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Eigen::Vector3d> v(6 * 1024);
  for (auto& x : v) x = Eigen::Vector3d(u(rng), u(rng), u(rng));
  size_t k = 0, crossings = 0, tests = 0;
  Eigen::Vector3d p, q;
  for (auto _ : state) {
    const Eigen::Vector3d* t = &v[6 * (k++ & 1023)];
    crossings += sinew::intersectTriangles(t[0], t[1], t[2], t[3], t[4], t[5], p, q);
    ++tests;
    benchmark::DoNotOptimize(p);
  }
  state.counters["crossing"] = tests ? static_cast<double>(crossings) / tests : 0;
}
BENCHMARK(BM_TriangleIntersection);

/// All crossings of two icosahedral spheres of 1280 triangles each, one
/// sunk into the other by a fifth of its radius: the collider's work for
/// one pair, tree descent included.
void BM_TriangleBVTreeCrossings(benchmark::State& state) {
  const sinew::PolygonalMesh ball = sinew::MeshFactory::createIcosahedralSphere(1, 3);
  const sinew::TriangleBVTree tree(ball);
  std::vector<sinew::TriangleBVTree::Crossing> xs;
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  for (auto _ : state) {
    xs.clear();
    tree.crossings(tree, R, Eigen::Vector3d(1.8, 0, 0), xs);
    benchmark::DoNotOptimize(xs.data());
  }
  state.counters["crossings"] = static_cast<double>(xs.size());
}
BENCHMARK(BM_TriangleBVTreeCrossings)->Unit(benchmark::kMicrosecond);

/// Collision detection alone between two rigid icosahedral spheres of 20480
/// triangles each (radius 1, one sunk 0.1 into the other, turned so that
/// no vertices coincide), through the collision manager's updateContacts:
/// Arg 0 TRI_INTERSECTION vertex penetration (both ways), 1 TRI_INTERSECTION
/// contour regions (the rigid DEFAULT), 2 SIGNED_DISTANCE vertex
/// penetration both ways (grids of 20 cells a side, built before timing),
/// 3 AJL_CONTOUR vertex penetration (both ways), 4 AJL_CONTOUR contour
/// regions.
void BM_DetectTwoSpheres20k(benchmark::State& state) {
  using namespace sinew;
  auto root = std::make_unique<RootModel>("root");
  MechModel& mech = root->addModel(std::make_unique<MechModel>("mech"));
  auto mesh = std::make_shared<PolygonalMesh>(MeshFactory::createIcosahedralSphere(1, 5));
  RigidBody& a = mech.addRigidBody(RigidBody::createFromMesh("a", mesh, 1000));
  RigidBody& b = mech.addRigidBody(RigidBody::createFromMesh("b", mesh, 1000));
  b.setPose(RigidTransform3d(Eigen::Vector3d(1.9, 0, 0),
                             Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix()));
  auto behav = std::make_unique<CollisionBehavior>(true, 0.0);
  if (state.range(0) == 1 || state.range(0) == 4) {
    behav->setMethod(CollisionBehavior::Method::ContourRegion);
  } else {
    behav->setMethod(CollisionBehavior::Method::VertexPenetration);
    behav->setVertexPenetrations(CollisionBehavior::VertexPenetrations::BothCollidables);
  }
  if (state.range(0) == 2) behav->setColliderType(ColliderType::SignedDistance);
  if (state.range(0) >= 3) behav->setColliderType(ColliderType::AjlContour);
  mech.setCollisionBehavior(a, b, std::move(behav));
  CollisionManager& cm = mech.getCollisionManager();
  cm.updateContacts();  // builds the trees (and grids) once
  for (auto _ : state) cm.updateContacts();
  state.counters["triangles"] = 2 * mesh->numFaces();
}
BENCHMARK(BM_DetectTwoSpheres20k)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);

}  // namespace
