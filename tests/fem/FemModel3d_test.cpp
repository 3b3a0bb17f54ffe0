// FemModel3d (guide §6.1–6.2): lumped mass, a hanging bar against the
// analytic elongation, conservation in free vibration, and bad input.
#include <gtest/gtest.h>

#include "TestModels.h"
#include "sinew/Error.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/fem/NeoHookeanMaterial.h"

#include <tbb/global_control.h>

namespace sinew {
namespace {

TEST(FemModel3d, LumpedMassIsDensityTimesVolume) {
  for (bool tets : {false, true}) {
    FemModel3d fem("fem");
    if (tets) FemFactory::createTetGrid(fem, 1.0, 0.4, 0.2, 5, 2, 1);
    else FemFactory::createHexGrid(fem, 1.0, 0.4, 0.2, 5, 2, 1);
    fem.setDensity(1000);
    EXPECT_EQ(fem.numNodes(), 6 * 3 * 2);
    EXPECT_EQ(fem.numElements(), tets ? 60 : 10);
    EXPECT_NEAR(fem.getRestVolume(), 0.08, 1e-14);
    EXPECT_NEAR(fem.getMass(), 80.0, 1e-11) << tets;
    fem.setDensity(500);  // re-lumped
    EXPECT_NEAR(fem.getMass(), 40.0, 1e-11) << tets;
  }
}

TEST(FemModel3d, HangingBarStretchesByItsOwnWeight) {
  // A 1 m bar hanging from its fixed top, ν = 0 so its cross-sections stay
  // unstrained: u(s) = ρ g (L s − s²/2) / E at distance s below the top.
  // Hexahedra with lumped (here equal to consistent) loads give the exact
  // nodal values of this 1-D problem. (A tet grid lumps unequal masses on
  // the corners of a cross-section, which bends the bar a little: not a
  // 1-D problem, and its slow bending mode needs a static solve.)
  test::TestRoot r(Vector3d(0, 0, -9.8));
  auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
  const double L = 1, E = 1e5, rho = 1000, g = 9.8;
  FemFactory::createHexGrid(fem, 0.1, 0.1, L, 1, 1, 10);
  fem.setDensity(rho);
  fem.setMaterial(LinearMaterial(E, 0.0, false));
  fem.setParticleDamping(30);  // about critical for the first axial mode
  for (auto& n : fem.nodes())
    if (n.getRestPosition().z() > L / 2 - 1e-12) n.setDynamic(false);
  r.run(8.0, 0.01);
  const double tip = rho * g * L * L / (2 * E);
  double maxErr = 0;
  for (auto& n : fem.nodes()) {
    const double s = L / 2 - n.getRestPosition().z();
    const double u = rho * g * (L * s - s * s / 2) / E;
    maxErr = std::max(maxErr, (n.getPosition() - n.getRestPosition() - Vector3d(0, 0, -u)).norm());
  }
  EXPECT_LT(maxErr, 1e-6 * tip);
}

TEST(FemModel3d, FreeVibrationConservesMomentumAndEnergy) {
  // A neo-Hookean block released with a stretching, spinning velocity field
  // and no damping: its internal forces sum to zero force and moment, so
  // linear and angular momentum stay at their initial values; Trapezoidal
  // keeps the energy within 1e-3 over 1 s.
  test::TestRoot r;
  r.setIntegrator(Integrator::Trapezoidal);
  auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
  FemFactory::createHexGrid(fem, 0.2, 0.2, 0.2, 2, 2, 2);
  fem.setMaterial(NeoHookeanMaterial(1e5, 0.3));
  fem.setParticleDamping(0);
  for (auto& n : fem.nodes()) {
    const Vector3d x = n.getPosition();
    n.setVelocity(Vector3d(0.5 * x.x() - 2 * x.y(), 2 * x.x(), -0.5 * x.z()));
  }
  auto momenta = [&](Vector3d& P, Vector3d& Lm) {
    P.setZero();
    Lm.setZero();
    for (auto& n : fem.nodes()) {
      P += n.getMass() * n.getVelocity();
      Lm += n.getMass() * n.getPosition().cross(n.getVelocity());
    }
  };
  Vector3d P0, L0, P1, L1;
  momenta(P0, L0);
  r.root->setMaxStepSize(1e-3);
  r.root->initialize(0);
  const double E0 = r.mech.getEnergy();
  double maxDrift = 0;
  r.root->addMonitor("E", [&](double, double) { maxDrift = std::max(maxDrift, std::abs(r.mech.getEnergy() - E0)); });
  r.root->run(1.0);
  momenta(P1, L1);
  EXPECT_LT((P1 - P0).norm(), 1e-12);
  EXPECT_LT((L1 - L0).norm(), 1e-3 * L0.norm());
  EXPECT_LT(maxDrift, 1e-3 * E0);
}

TEST(FemModel3d, InvertedElementFailsTheStepAndKeepsTheState) {
  test::TestRoot r;
  auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
  FemFactory::createTetGrid(fem, 0.1, 0.1, 0.1, 1, 1, 1);
  fem.setMaterial(NeoHookeanMaterial(1e5, 0.3));
  // Throw the corner node through the opposite corner.
  FemNode3d& n = fem.getNode(0);
  n.setPosition(Vector3d(0.2, 0.2, 0.2));
  const Vector3d before = n.getPosition();
  r.root->setMaxStepSize(1e-3);
  r.root->initialize(0);
  try {
    r.root->run(1e-3);
    FAIL() << "expected a SolverError";
  } catch (const SolverError& e) {
    // The error names the first element (in element order) turned inside out.
    const FemElement3d* inverted = nullptr;
    for (auto& el : fem.elements())
      if (!inverted && el.computeVolume() < 0) inverted = &el;
    ASSERT_NE(inverted, nullptr);
    EXPECT_EQ(e.path(), inverted->describe()) << e.what();
    EXPECT_NE(e.path().find("/elements/"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("inverted"), std::string::npos) << e.what();
  }
  EXPECT_EQ(n.getPosition(), before);
}

TEST(FemModel3d, ElementDensityOverridesTheModelsInTheLumpedMass) {
  // Spatially varying density (§6.1.1): the mass is Σ ρ_e V_e, with each
  // element's own density where set, and the nodes of the denser element
  // heavier.
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 1.0, 0.4, 0.2, 5, 2, 1);
  fem.setDensity(1000);
  const double v = 0.08 / 10;  // each of the ten equal cells
  FemElement3d& heavy = fem.getElement(0);
  heavy.setDensity(4000);
  EXPECT_NEAR(fem.getMass(), 1000 * 9 * v + 4000 * v, 1e-11);
  EXPECT_NEAR(heavy.getNode(0).getMass(), 4000 * v / 8, 1e-12);  // a corner of the grid: one element
  fem.setDensity(500);  // the element keeps its own
  EXPECT_NEAR(fem.getMass(), 500 * 9 * v + 4000 * v, 1e-11);
  heavy.setDensity(std::nan(""));  // inherits again
  EXPECT_NEAR(fem.getMass(), 500 * 10 * v, 1e-11);
  EXPECT_THROW(heavy.setDensity(-1), ModelError);
}

TEST(FemModel3d, AStepAfterRestPositionsChangeUsesTheNewMasses) {
  // A block falling freely (every node at −g h after the first step) has
  // its rest shape stretched by half along x: its mass grows by half, and
  // the very next step's gravity already acts on the new masses. With the
  // internal forces of the new rest shape summing to zero, the momentum
  // after that step is (new mass) · (−2 g h); gravity on the old masses
  // would leave it short by (old mass) · g h / 2.
  const double g = 9.8, h = 0.01;
  test::TestRoot r(Vector3d(0, 0, -g));
  auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
  FemFactory::createHexGrid(fem, 0.2, 0.1, 0.1, 2, 1, 1);
  fem.setMaterial(LinearMaterial(1e5, 0.3));
  fem.setParticleDamping(0);
  r.run(h, h);
  const double m0 = fem.getMass();
  for (auto& n : fem.nodes()) {
    Vector3d X = n.getRestPosition();
    X.x() *= 1.5;
    n.setRestPosition(X);
  }
  r.root->run(2 * h);
  Vector3d p = Vector3d::Zero();
  double m = 0;
  for (auto& n : fem.nodes()) p += n.getMass() * n.getVelocity(), m += n.getMass();
  EXPECT_NEAR(m, 1.5 * m0, 1e-9 * m0);
  EXPECT_NEAR(p.z(), -2 * g * h * m, 1e-9 * g * h * m);
  EXPECT_LT(p.head<2>().norm(), 1e-9 * g * h * m);
}

TEST(FemModel3d, AStaticSolveAfterRestPositionsChangeLoadsTheNewMasses) {
  // The hanging bar of HangingBarStretchesByItsOwnWeight, built 1 m long
  // and then given a 1.5 m rest shape (and set there): the static solve
  // weighs the relumped masses, so the tip sags ρ g L'²/(2E) with L' = 1.5
  // (the old masses would give two thirds of it: measured with both the
  // relump before the solve and the one in the force evaluation removed).
  test::TestRoot r(Vector3d(0, 0, -9.8));
  auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
  const double E = 1e5, rho = 1000, g = 9.8, L = 1.5;
  FemFactory::createHexGrid(fem, 0.1, 0.1, 1.0, 1, 1, 10);
  fem.setDensity(rho);
  fem.setMaterial(LinearMaterial(E, 0.0, false));
  for (auto& n : fem.nodes())
    if (n.getRestPosition().z() > 0.5 - 1e-12) n.setDynamic(false);
  r.root->initialize(0);  // compiled with the 1 m bar's masses
  for (auto& n : fem.nodes()) {
    const Vector3d X(n.getRestPosition().x(), n.getRestPosition().y(), 1.5 * n.getRestPosition().z());
    n.setRestPosition(X);
    n.setPosition(X);
  }
  r.mech.solveStatic();
  double tip = 0;
  for (auto& n : fem.nodes())
    if (n.getRestPosition().z() < -L / 2 + 1e-12) tip = n.getRestPosition().z() - n.getPosition().z();
  EXPECT_NEAR(tip, rho * g * L * L / (2 * E), 1e-6 * rho * g * L * L / (2 * E));
}

TEST(FemModel3d, DrivenBoundaryNodesFollowTheirTargetsAndCarryTheBody) {
  // §6.1.4: non-dynamic nodes driven by target positions (what an input
  // probe on targetPosition sets) move exactly along their path, and a
  // stiff beam clamped to them translates with them.
  test::TestRoot r;
  auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
  FemFactory::createHexGrid(fem, 0.4, 0.1, 0.1, 4, 1, 1);
  fem.setMaterial(LinearMaterial(1e7, 0.3));
  fem.setDensity(100);
  fem.setParticleDamping(20);
  std::vector<FemNode3d*> clamped;
  for (auto& node : fem.nodes())
    if (node.getRestPosition().x() < -0.2 + 1e-12) {
      node.setDynamic(false);
      clamped.push_back(&node);
    }
  ASSERT_EQ(clamped.size(), 4u);
  auto path = [](double t) { return Vector3d(0.05 * t * t, 0, 0.02 * t); };
  double worst = 0;
  r.root->addController("drive", [&](double t0, double t1) {
    for (FemNode3d* node : clamped) {
      worst = std::max(worst, (node->getPosition() - node->getRestPosition() - path(t0)).norm());
      node->setTargetPosition(node->getRestPosition() + path(t1));
    }
  });
  r.run(1.0, 0.01);
  for (FemNode3d* node : clamped)
    EXPECT_LT((node->getPosition() - node->getRestPosition() - path(1.0)).norm(), 1e-12);
  EXPECT_LT(worst, 1e-12);
  // The free end follows the clamp: no gravity, a stiff beam, a slow path.
  for (auto& node : fem.nodes())
    if (node.getRestPosition().x() > 0.2 - 1e-12)
      EXPECT_LT((node.getPosition() - node.getRestPosition() - path(1.0)).norm(), 1e-4);
}

TEST(FemModel3d, BadElementsAreRejected) {
  FemModel3d a("a"), b("b");
  auto& n0 = a.addNode(Vector3d(0, 0, 0));
  auto& n1 = a.addNode(Vector3d(1, 0, 0));
  auto& n2 = a.addNode(Vector3d(0, 1, 0));
  auto& n3 = b.addNode(Vector3d(0, 0, 1));
  auto& n3a = a.addNode(Vector3d(0, 0, 1));
  EXPECT_THROW(a.addElement({&n0, &n1, &n2, &n3}), ModelError);       // node of another model
  EXPECT_THROW(a.addElement({&n0, &n1, &n2}), ModelError);            // no element has 3 nodes
  EXPECT_THROW(a.addElement({&n0, &n1, &n1, &n3a}), ModelError);      // repeated node
  EXPECT_THROW(a.addElement({&n0, &n2, &n1, &n3a}), ModelError);  // inside out at rest
  EXPECT_NO_THROW(a.addElement({&n0, &n1, &n2, &n3a}));
  EXPECT_THROW(a.setDensity(-1), ModelError);
}

TEST(FemModel3d, ParallelElementsGiveBitIdenticalResults) {
  // Elements are evaluated on TBB threads and summed in element order: one
  // thread or many, the trajectory is the same to the last bit (DESIGN §4).
  auto run = [](int threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    test::TestRoot r(Vector3d(0, 0, -9.8));
    auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
    FemFactory::createTetGrid(fem, 0.6, 0.15, 0.15, 8, 2, 2);
    fem.setMaterial(NeoHookeanMaterial(1e5, 0.3));
    for (auto& n : fem.nodes())
      if (n.getRestPosition().x() < -0.3 + 1e-12) n.setDynamic(false);
    r.run(0.2, 0.01);
    Eigen::VectorXd state;
    r.root->getState(state);
    return state;
  };
  const Eigen::VectorXd one = run(1), many = run(4);
  EXPECT_EQ((one - many).cwiseAbs().maxCoeff(), 0.0);
}

}  // namespace
}  // namespace sinew
