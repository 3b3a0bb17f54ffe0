// Shell elements (guide §6.1.2.3): directors, mass, the patch test,
// objectivity, force/energy/tangent consistency, a membrane strip in
// tension and a bending cantilever against beam theory, free fall, and the
// errors of bad shells.
#include <gtest/gtest.h>

#include "FemTestUtil.h"
#include "TestModels.h"
#include "Verification.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/MaterialBundle.h"
#include "sinew/fem/PointShellAttachment.h"

namespace sinew {
namespace {

using femtest::Noise;

/// Every point a shell model's forces act on: nodes, then back nodes.
std::vector<Particle*> dofPoints(FemModel3d& fem) {
  std::vector<Particle*> p;
  for (auto& n : fem.nodes()) p.push_back(&n);
  for (auto& b : fem.backNodes()) p.push_back(&b);
  return p;
}

/// Elastic forces at the current positions (no velocity, so no damping).
void computeForces(FemModel3d& fem) {
  for (Particle* p : dofPoints(fem)) {
    p->setVelocity(Vector3d::Zero());
    p->zeroForces();
  }
  fem.applyForces(0);
}

/// Moves every node and back node from its rest position by x ↦ A x + b.
void deformAffinely(FemModel3d& fem, const Matrix3d& A, const Vector3d& b) {
  for (auto& n : fem.nodes()) n.setPosition(A * n.getRestPosition() + b);
  for (auto& bn : fem.backNodes()) bn.setPosition(A * bn.getRestPosition() + b);
}

TEST(FemShell, RegularShellNodesGetDefaultDirectorsMembranesNone) {
  FemModel3d quads, membranes;
  FemFactory::createShellQuadGrid(quads, 1.0, 0.5, 4, 2, 0.02);
  FemFactory::createShellTriGrid(membranes, 1.0, 0.5, 4, 2, 0.02, true);
  ASSERT_EQ(quads.numShellElements(), 8);
  ASSERT_EQ(membranes.numShellElements(), 16);
  EXPECT_EQ(quads.backNodes().size(), quads.numNodes());
  for (auto& n : quads.nodes()) {
    ASSERT_TRUE(n.hasDirector());
    // d = normalised Σ A_i n_i times the mean thickness: +z, length 0.02.
    EXPECT_LT((n.getRestDirector() - Vector3d(0, 0, 0.02)).norm(), 1e-15);
    EXPECT_LT((n.getDirector() - n.getRestDirector()).norm(), 1e-15);
  }
  EXPECT_EQ(membranes.backNodes().size(), 0);
  for (auto& n : membranes.nodes()) {
    EXPECT_FALSE(n.hasDirector());
    EXPECT_EQ(n.getDirector(), Vector3d::Zero());
    EXPECT_EQ(n.getDirectorVel(), Vector3d::Zero());
    EXPECT_THROW(n.setDirector(Vector3d(0, 0, 1)), ModelError);
  }
  // Table 6.2.
  EXPECT_EQ(quads.getShellElement(0).numIntegrationPoints(), 8);
  EXPECT_EQ(membranes.getShellElement(0).numIntegrationPoints(), 3);
  EXPECT_STREQ(membranes.getShellElement(0).getTypeName(), "ShellTriElement");
  // A rest director set by hand stays, and the shell volume follows it.
  FemNode3d& n0 = quads.getNode(0);
  n0.setRestDirector(Vector3d(0, 0, 0.04));
  EXPECT_TRUE(n0.isRestDirectorExplicit());
  EXPECT_EQ(n0.getRestDirector(), Vector3d(0, 0, 0.04));
  EXPECT_EQ(quads.getAllElements().size(), 8u);
}

TEST(FemShell, MassIsDensityTimesAreaTimesThickness) {
  for (bool membrane : {false, true}) {
    FemModel3d tri, quad;
    tri.setDensity(1200);
    quad.setDensity(1200);
    FemFactory::createShellTriGrid(tri, 1.0, 0.5, 5, 3, 0.01, membrane);
    FemFactory::createShellQuadGrid(quad, 1.0, 0.5, 5, 3, 0.01, membrane);
    EXPECT_NEAR(tri.getMass(), 1200 * 0.5 * 0.01, 1e-12) << membrane;
    EXPECT_NEAR(quad.getMass(), 1200 * 0.5 * 0.01, 1e-12) << membrane;
    EXPECT_NEAR(quad.getRestVolume(), 0.5 * 0.01, 1e-15);
    if (!membrane) {
      // Half of a regular shell's mass rides on the back nodes.
      double back = 0;
      for (auto& b : quad.backNodes()) back += b.getMass();
      EXPECT_NEAR(back, 0.5 * quad.getMass(), 1e-12);
    }
  }
}

/// A uniform in-plane stretch e along x (ν = 0, so σ_xx = E e and nothing
/// else): every interior point is in equilibrium, and the edge x = +L/2
/// carries −E e w h in total.
void expectPatchTest(FemModel3d& fem, double w, double h, double L) {
  const double E = 2e5, e = 1e-3;
  fem.setMaterial(LinearMaterial(E, 0.0));
  Matrix3d A = Matrix3d::Identity();
  A(0, 0) += e;
  deformAffinely(fem, A, Vector3d::Zero());
  computeForces(fem);
  double edge = 0;
  for (Particle* p : dofPoints(fem)) {
    const double x = p->getPosition().x() / (1 + e);
    if (std::abs(x - L / 2) < 1e-9)
      edge += p->getForce().x();
    else if (std::abs(x + L / 2) > 1e-9)
      EXPECT_LT(p->getForce().norm(), 1e-9 * E * w * h) << p->getPathName();
  }
  EXPECT_NEAR(edge, -E * e * w * h, 1e-9 * E * e * w * h);
}

TEST(FemShell, UniformStretchPassesThePatchTest) {
  for (bool membrane : {false, true}) {
    FemModel3d tri, quad;
    FemFactory::createShellTriGrid(tri, 1.0, 0.5, 4, 3, 0.02, membrane);
    FemFactory::createShellQuadGrid(quad, 1.0, 0.5, 4, 3, 0.02, membrane);
    SCOPED_TRACE(membrane ? "membrane" : "regular");
    expectPatchTest(tri, 0.5, 0.02, 1.0);
    expectPatchTest(quad, 0.5, 0.02, 1.0);
  }
}

TEST(FemShell, RigidMotionsGiveNoForce) {
  // Objectivity: a rotated and translated shell is unstrained, for a
  // hyperelastic material and for the corotated linear one.
  const Matrix3d R = Eigen::AngleAxisd(0.9, Vector3d(1, 2, -0.5).normalized()).toRotationMatrix();
  for (bool membrane : {false, true})
    for (int m = 0; m < 2; ++m) {
      FemModel3d fem;
      FemFactory::createShellTriGrid(fem, 1.0, 0.6, 3, 2, 0.05, membrane);
      if (m == 0)
        fem.setMaterial(NeoHookeanMaterial(1e5, 0.3));
      else
        fem.setMaterial(LinearMaterial(1e5, 0.3));
      deformAffinely(fem, R, Vector3d(0.3, -1, 2));
      computeForces(fem);
      for (Particle* p : dofPoints(fem)) EXPECT_LT(p->getForce().norm(), 1e-9) << membrane << m;
      EXPECT_NEAR(fem.getPotentialEnergy(), 0, 1e-12);
    }
}

/// Randomly deforms fem's shell 0 (nodes and back nodes) a little.
void jiggle(FemModel3d& fem, unsigned seed, double amount) {
  Noise noise(seed);
  Matrix3d A = Matrix3d::Identity() + 0.1 * noise.mat();
  deformAffinely(fem, A, Vector3d::Zero());
  for (Particle* p : dofPoints(fem)) p->setPosition(p->getPosition() + amount * noise.vec());
}

TEST(FemShell, ForcesAreMinusEnergyGradientAndRegularTangentIsExact) {
  // f = −∂E/∂x by central differences of the energy, for both forms, with
  // and without assumed shear strains (MITC), and a neo-Hookean material;
  // K = −∂f/∂x likewise for regular shells (the membrane tangent leaves out
  // the turning of the normal, ShellKernels.h).
  for (ShellType type : {ShellType::Tri, ShellType::Quad})
    for (int form = 0; form < 3; ++form) {
      const bool membrane = form == 2, assumed = form == 0;
      FemModel3d fem;
      std::vector<FemNode3d*> nodes;
      const Vector3d corners[4] = {{0, 0, 0}, {1, 0.1, 0}, {0.9, 1.1, 0.2}, {-0.1, 0.8, 0.1}};
      for (int i = 0; i < numShellNodes(type); ++i) nodes.push_back(&fem.addNode(corners[i]));
      ShellElement3d& e = fem.addShellElement(ShellElement3d::createElement(nodes, 0.1, membrane));
      e.setAssumedShearStrain(assumed);
      const NeoHookeanMaterial mat(1e3, 0.3);
      jiggle(fem, 7, 0.01);
      ElementVector f, fp, fm;
      ElementMatrix K, Kp;
      e.computeForcesAndStiffness(mat, f, &K);
      if (!membrane) EXPECT_LT((K - K.transpose()).norm(), 1e-12 * K.norm()) << form;
      const double eps = 1e-6;
      for (int i = 0; i < e.numDofNodes(); ++i)
        for (int a = 0; a < 3; ++a) {
          Particle& p = e.getDofNode(i);
          const Vector3d x = p.getPosition();
          Vector3d dx = Vector3d::Zero();
          dx[a] = eps;
          p.setPosition(x + dx);
          const double Ep = e.computeStrainEnergy(mat);
          e.computeForcesAndStiffness(mat, fp, &Kp);
          p.setPosition(x - dx);
          const double Em = e.computeStrainEnergy(mat);
          e.computeForcesAndStiffness(mat, fm, &Kp);
          p.setPosition(x);
          EXPECT_NEAR(f[3 * i + a], -(Ep - Em) / (2 * eps), 1e-6 * f.norm()) << form;
          if (!membrane) {
            const Eigen::VectorXd col = -(fp - fm) / (2 * eps);
            EXPECT_LT((col - K.col(3 * i + a)).norm(), 1e-6 * K.norm()) << form;
          }
        }
    }
}

TEST(FemShell, AssumedShearStrainsAreThoseOfTheSolidForUniformStrain) {
  // MITC interpolation reproduces any uniform strain, transverse shear
  // included (the covariant r–t strain of a quad is linear in s, the s–t
  // strain linear in r, and a triangle's are constant), so under an affine
  // deformation both forms give the same strain and stress at every point,
  // for both types and a linear and a nonlinear material.
  Noise noise(21);
  const Matrix3d A = Matrix3d::Identity() + 0.05 * noise.mat();
  for (ShellType type : {ShellType::Tri, ShellType::Quad})
    for (int m = 0; m < 2; ++m) {
      FemModel3d fem;
      std::vector<FemNode3d*> nodes;
      const Vector3d corners[4] = {{0, 0, 0}, {1, 0.2, 0}, {0.8, 1.1, 0}, {-0.1, 0.9, 0}};
      for (int i = 0; i < numShellNodes(type); ++i) nodes.push_back(&fem.addNode(corners[i]));
      ShellElement3d& e = fem.addShellElement(ShellElement3d::createElement(nodes, 0.05));
      std::unique_ptr<FemMaterial> mat;
      if (m == 0) mat = std::make_unique<LinearMaterial>(1e5, 0.3);
      else mat = std::make_unique<NeoHookeanMaterial>(1e5, 0.3);
      e.setMaterial(*mat);
      deformAffinely(fem, A, Vector3d(0.1, 0, 0));
      std::vector<IntegrationPointState> states[2];
      for (int form = 0; form < 2; ++form) {
        e.setAssumedShearStrain(form == 0);
        states[form] = e.computeIntegrationPointStates();
      }
      for (size_t k = 0; k < states[0].size(); ++k) {
        EXPECT_LT((states[0][k].strain - states[1][k].strain).norm(), 1e-12) << m;
        EXPECT_LT((states[0][k].stress - states[1][k].stress).norm(), 1e-9 * states[1][k].stress.norm()) << m;
      }
    }
}

/// A strip L × w along x of thickness h, clamped at x = 0, pulled by P
/// along x (membranes) or loaded by P along −z (regular shells, bending) at
/// x = L, the load split evenly over the tip's points (front and back).
struct ShellStrip {
  test::TestRoot r;
  FemModel3d& fem;
  double L = 1, w = 0.1, h;
  ShellStrip(ShellType type, bool membrane, int nx, double thick, const FemMaterial& mat, const Vector3d& P,
             bool assumedShear = true)
      : fem(r.mech.addModel(std::make_unique<FemModel3d>("fem"))), h(thick) {
    r.mech.setGravity(0, 0, 0);
    if (type == ShellType::Tri)
      FemFactory::createShellTriGrid(fem, L, w, nx, 1, h, membrane);
    else
      FemFactory::createShellQuadGrid(fem, L, w, nx, 1, h, membrane);
    fem.setMaterial(mat);
    for (auto& e : fem.getShellElements()) e.setAssumedShearStrain(assumedShear);
    std::vector<Particle*> tip;
    for (Particle* p : dofPoints(fem))
      if (p->getPosition().x() > L / 2 - 1e-9) tip.push_back(p);
    for (Particle* p : tip) p->setExternalForce(P / tip.size());
    for (auto& n : fem.nodes())
      if (n.getPosition().x() < -L / 2 + 1e-9) n.setDynamic(false);  // and so their back nodes
  }
  /// Mean displacement of the tip's points.
  Vector3d tipDisplacement() {
    Vector3d sum = Vector3d::Zero();
    int count = 0;
    for (auto& n : fem.nodes())
      if (n.getRestPosition().x() > L / 2 - 1e-9) sum += n.getPosition() - n.getRestPosition(), ++count;
    for (auto& b : fem.backNodes())
      if (b.getRestPosition().x() > L / 2 - 1e-9) sum += b.getPosition() - b.getRestPosition(), ++count;
    return sum / count;
  }
};

TEST(FemShell, MembraneStripStretchesByPLOverEA) {
  // ν = 0: the strip is in uniaxial stress σ = P/(w h) everywhere, so its
  // stretch is P L/(E w h) exactly (small strain, corotated linear).
  const double E = 1e6, P = 0.5;
  for (ShellType type : {ShellType::Tri, ShellType::Quad}) {
    ShellStrip s(type, true, 8, 0.01, LinearMaterial(E, 0.0), Vector3d(P, 0, 0));
    s.r.mech.solveStatic();
    const Vector3d u = s.tipDisplacement();
    EXPECT_NEAR(u.x(), P * s.L / (E * s.w * s.h), 1e-9);
    EXPECT_NEAR(u.z(), 0, 1e-12);
  }
}

/// Tip deflection of a clamped strip of regular shells (ν = 0) under a tip
/// load, as a fraction of the Timoshenko beam's P L³/(3 E I) + P L/(κ G A)
/// with I = w h³/12, G = E/2 and the given shear factor κ.
double cantileverDeflectionRatio(ShellType type, int nx, double h, bool assumedShear, double kappa) {
  const double E = 1e6, P = 3e-3 * std::pow(h / 0.05, 3);
  ShellStrip s(type, false, nx, h, LinearMaterial(E, 0.0), Vector3d(0, 0, -P), assumedShear);
  // The load falls with h³ but the round-off of the forces does not: at
  // h = L/100 the residual settles near 1e-11 N, 2e-6 of the tip load, so
  // thin strips are solved to 1e-5 (far below the accuracy asserted).
  s.r.mech.solveStatic(0, h < 0.05 ? 1e-5 : 1e-10);
  const double I = s.w * h * h * h / 12, A = s.w * h;
  const double expected = P * std::pow(s.L, 3) / (3 * E * I) + P * s.L / (kappa * E / 2 * A);
  return -s.tipDisplacement().z() / expected;
}

TEST(FemShell, StressOutputOfAStripInTension) {
  // A strip (ν = 0) pulled by P along x is in uniform uniaxial stress
  // σ_xx = P/(w h): every shell's element stress and every node's nodal
  // stress say so (§6.10's output), for both types, both forms.
  const double E = 1e6, P = 0.5;
  for (ShellType type : {ShellType::Tri, ShellType::Quad})
    for (bool membrane : {true, false}) {
      ShellStrip s(type, membrane, 8, 0.01, LinearMaterial(E, 0.0), Vector3d(P, 0, 0));
      s.fem.setComputeElementStress(true);
      s.fem.setComputeNodalStress(true);
      s.fem.setComputeElementStrain(true);
      s.r.mech.solveStatic();
      const double sigma = P / (s.w * s.h);
      for (auto& e : s.fem.getShellElements()) {
        EXPECT_NEAR(e.getStress()(0, 0), sigma, 1e-6 * sigma) << membrane;
        EXPECT_NEAR(e.getVonMisesStress(), sigma, 1e-6 * sigma);
        EXPECT_NEAR(e.getStrain()(0, 0), sigma / E, 1e-6 * sigma / E);
      }
      for (auto& n : s.fem.nodes()) EXPECT_NEAR(n.getStress()(0, 0), sigma, 1e-6 * sigma) << membrane;
    }
}

TEST(FemShell, BundlesOnAllElementsStiffenShellsToo) {
  // A material bundle acting on every element (§6.8) augments the shells:
  // a strip of E1 with a bundle of E2 stretches P L/((E1 + E2) w h) and
  // reports the summed stress P/(w h); its energy counts both materials.
  const double E1 = 6e5, E2 = 4e5, P = 0.5;
  for (bool membrane : {true, false}) {
    ShellStrip s(ShellType::Quad, membrane, 8, 0.01, LinearMaterial(E1, 0.0), Vector3d(P, 0, 0));
    s.fem.materials().add(std::make_unique<MaterialBundle>("bundle", LinearMaterial(E2, 0.0), true));
    s.fem.setComputeElementStress(true);
    s.r.mech.solveStatic();
    const double stretch = P * s.L / ((E1 + E2) * s.w * s.h);
    EXPECT_NEAR(s.tipDisplacement().x(), stretch, 1e-6 * stretch) << membrane;
    for (auto& e : s.fem.getShellElements()) EXPECT_NEAR(e.getStress()(0, 0), P / (s.w * s.h), 1e-6 * P / (s.w * s.h));
    // Strain energy ½ P δ at equilibrium (linear, small strain).
    EXPECT_NEAR(s.fem.getPotentialEnergy(), 0.5 * P * stretch, 1e-5 * P * stretch);
  }
}

TEST(FemShell, BundlesListingShellsStiffenThoseShellsOnly) {
  // A bundle listing shells (§6.8, `bun.addElement(shell)`): the strip's
  // listed half is E1 + E2, the rest E1, in series along the pull, so it
  // stretches P (L/2)/((E1 + E2) w h) + P (L/2)/(E1 w h); every shell
  // reports the stress P/(w h) it carries (summed over both materials in
  // the listed ones).
  const double E1 = 6e5, E2 = 4e5, P = 0.5;
  for (ShellType type : {ShellType::Quad, ShellType::Tri})
    for (bool membrane : {true, false}) {
      ShellStrip s(type, membrane, 8, 0.01, LinearMaterial(E1, 0.0), Vector3d(P, 0, 0));
      auto bun = std::make_unique<MaterialBundle>("bundle", LinearMaterial(E2, 0.0));
      int listed = 0;
      for (FemElement3dBase* e : s.fem.getAllElements()) {
        auto* shell = dynamic_cast<ShellElement3d*>(e);
        Vector3d c = Vector3d::Zero();
        for (int i = 0; i < shell->numNodes(); ++i) c += shell->getNodes()[i]->getRestPosition() / shell->numNodes();
        if (c.x() < 0) bun->addElement(*e), ++listed;
      }
      ASSERT_EQ(listed, s.fem.numShellElements() / 2);
      s.fem.addMaterialBundle(std::move(bun));
      s.fem.setComputeElementStress(true);
      s.r.mech.solveStatic();
      const double stretch = P * (s.L / 2) / ((E1 + E2) * s.w * s.h) + P * (s.L / 2) / (E1 * s.w * s.h);
      EXPECT_NEAR(s.tipDisplacement().x(), stretch, 1e-6 * stretch) << "membrane " << membrane;
      for (auto& e : s.fem.getShellElements())
        EXPECT_NEAR(e.getStress()(0, 0), P / (s.w * s.h), 1e-6 * P / (s.w * s.h));
    }
  // A shell of another model is refused, naming the bundle.
  ShellStrip other(ShellType::Quad, true, 2, 0.01, LinearMaterial(E1, 0.0), Vector3d(P, 0, 0));
  ShellStrip s(ShellType::Quad, true, 2, 0.01, LinearMaterial(E1, 0.0), Vector3d(P, 0, 0));
  MaterialBundle& bun = s.fem.addMaterialBundle(std::make_unique<MaterialBundle>("b", LinearMaterial(E2, 0.0)));
  EXPECT_THROW(bun.addElement(other.fem.getShellElement(0)), ModelError);
  bun.addElement(s.fem.getShellElement(1));
  EXPECT_EQ(&bun.getElement(0), &s.fem.getShellElement(1));
  EXPECT_TRUE(bun.removeElement(s.fem.getShellElement(1)));
}

TEST(FemShell, CantileverShellBendsAsTimoshenkoBeam) {
  // With assumed shear strains (the default) the shells converge at second
  // order to the Timoshenko deflection with κ = 1: the director keeps the
  // shell's sections straight, so its transverse shear is uniform through
  // the thickness (no shear correction factor, as in ArtiSynth's and
  // FEBio's shells; the κ = 5/6 beam differs by 2.5e-4 here).
  const double h = 0.05;
  for (ShellType type : {ShellType::Quad, ShellType::Tri}) {
    double error[3];
    for (int k = 0; k < 3; ++k) {
      error[k] = std::abs(1 - cantileverDeflectionRatio(type, 10 << k, h, true, 1.0));
      std::printf("%s cells L/%d: tip deflection off Timoshenko's by %.2e\n",
                  type == ShellType::Quad ? "quad" : "tri", 10 << k, error[k]);
    }
    for (int k = 0; k < 2; ++k) EXPECT_GT(error[k] / error[k + 1], 3.0);
    EXPECT_LT(error[2], 1e-3);
  }
}

TEST(FemShell, AssumedShearStrainsPreventLockingOfThinShells) {
  // A strip 100 thicknesses wide and 8 cells long (each 12.5 thicknesses):
  // the solid form locks in transverse shear and bends a few percent of
  // what it should; with assumed shear strains it bends within 0.5 %.
  for (ShellType type : {ShellType::Quad, ShellType::Tri}) {
    const double solid = cantileverDeflectionRatio(type, 8, 0.01, false, 1.0);
    const double mitc = cantileverDeflectionRatio(type, 8, 0.01, true, 1.0);
    std::printf("%s, 8 cells, h = L/100: solid %.4f, assumed shear %.4f of Timoshenko\n",
                type == ShellType::Quad ? "quad" : "tri", solid, mitc);
    EXPECT_LT(solid, 0.05);
    VERIFY_NEAR(std::string("shell: thin strip (h = L/100, 8 ") + (type == ShellType::Quad ? "quads" : "triangles") +
                    ", MITC) tip deflection / beam",
                "Timoshenko beam, κ = 1", mitc, 1.0, 5e-3);
  }
}

TEST(FemShell, SolidFormLocksLessAsCellsShorten) {
  // Without assumed strains the fully integrated shells lock in bending, and
  // the locking error falls with the square of the element length: cells
  // h/2, h/4 and h/8 long give about 0.89, 0.97 and 0.99 of δ (κ = 5/6).
  double error[3];
  for (int k = 0; k < 3; ++k) {
    error[k] = 1 - cantileverDeflectionRatio(ShellType::Quad, 40 << k, 0.05, false, 5.0 / 6);
    std::printf("solid form, cells L/%d: tip deflection %.5f of Timoshenko's\n", 40 << k, 1 - error[k]);
  }
  for (int k = 0; k < 2; ++k) {  // second-order convergence, from below
    EXPECT_GT(error[k + 1], 0);
    EXPECT_GT(error[k] / error[k + 1], 3.0);
    EXPECT_LT(error[k] / error[k + 1], 4.5);
  }
  EXPECT_LT(error[2], 0.012);
}

TEST(FemShell, NodesAttachedToABodyCarryTheirDirectors) {
  // Attaching a regular shell's edge nodes to a fixed body clamps the edge
  // as fixing them does: the frame carries their back nodes too (ArtiSynth's
  // ShellNodeFrameAttachment), so the strip bends to the same tip
  // deflection. Turning the body turns the attached directors with it.
  const double E = 1e6, h = 0.05, P = 3e-3;
  ShellStrip fixed(ShellType::Quad, false, 10, h, LinearMaterial(E, 0.0), Vector3d(0, 0, -P));
  fixed.r.mech.solveStatic();
  ShellStrip held(ShellType::Quad, false, 10, h, LinearMaterial(E, 0.0), Vector3d(0, 0, -P));
  RigidBody& body = held.r.mech.addRigidBody(RigidBody::createBox("body", 0.1, 0.2, 0.2, 1000));
  body.setPose(RigidTransform3d(-held.L / 2 - 0.05, 0, 0));
  body.setDynamic(false);
  std::vector<FemNode3d*> edge;
  for (auto& n : held.fem.nodes())
    if (!n.isDynamic()) {
      n.setDynamic(true);
      held.r.mech.attachPoint(n, body);
      edge.push_back(&n);
    }
  ASSERT_EQ(edge.size(), 2u);
  for (FemNode3d* n : edge) EXPECT_NE(n->getBackNode()->getAttachment(), nullptr);
  held.r.mech.solveStatic();
  EXPECT_NEAR(held.tipDisplacement().z(), fixed.tipDisplacement().z(), 1e-9 * std::abs(fixed.tipDisplacement().z()));
  const Vector3d d0 = edge[0]->getDirector();
  const Matrix3d R = axisRotation(1, 0.3);
  body.setPose(RigidTransform3d(body.getPosition(), R));
  edge[0]->getAttachment()->updatePosStates();
  edge[0]->getBackNode()->getAttachment()->updatePosStates();
  EXPECT_LT((edge[0]->getDirector() - R * d0).norm(), 1e-12);
  // Detaching the node frees its director too.
  held.r.mech.detachPoint(*edge[0]);
  EXPECT_EQ(edge[0]->getBackNode()->getAttachment(), nullptr);
}

TEST(FemShell, PointsAttachedToShellsFollowThem) {
  // A point attached inside a regular shell (halfway through its
  // thickness) or above a membrane (projected onto it) gets weights that
  // sum to 1, and follows any affine motion of the shell exactly, for both
  // types; through MechModel::attachPoint it moves with the shell in a step.
  Noise noise(5);
  const Matrix3d A = Matrix3d::Identity() + 0.1 * noise.mat();
  const Vector3d b(0.3, -0.2, 0.5);
  for (ShellType type : {ShellType::Tri, ShellType::Quad})
    for (bool membrane : {false, true}) {
      test::TestRoot r(Vector3d(0, 0, -9.8));
      auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
      std::vector<FemNode3d*> nodes;
      const Vector3d corners[4] = {{0, 0, 0}, {1, 0.1, 0}, {0.9, 1.1, 0.2}, {-0.1, 0.8, 0.1}};
      for (int i = 0; i < numShellNodes(type); ++i) nodes.push_back(&fem.addNode(corners[i]));
      ShellElement3d& e = fem.addShellElement(ShellElement3d::createElement(nodes, 0.05, membrane));
      Vector3d c = Vector3d::Zero();
      for (FemNode3d* n : nodes) c += n->getPosition() / nodes.size();
      if (!membrane) c -= 0.5 * nodes[0]->getDirector();  // inside the thickness
      const Vector3d q = membrane ? Vector3d(c + Vector3d(0, 0, 0.05)) : c;
      Particle& p = r.mech.addParticle("p", 0.01, q.x(), q.y(), q.z());
      PointShellAttachment att(p, e);
      double sum = 0;
      for (double w : att.getWeights()) sum += w;
      EXPECT_NEAR(sum, 1, 1e-12);
      if (!membrane) EXPECT_LT((p.getPosition() - c).norm(), 1e-12);  // inside: not moved
      const Vector3d p0 = p.getPosition();
      deformAffinely(fem, A, b);
      att.updatePosStates();
      EXPECT_LT((p.getPosition() - (A * p0 + b)).norm(), 1e-12) << membrane;
      deformAffinely(fem, Matrix3d::Identity(), Vector3d::Zero());
      // In a model: the point's weight goes to the shell, which falls with it.
      p.setPosition(p0);
      r.mech.attachPoint(p, e);
      r.run(0.05, 0.01);
      att.updatePosStates();  // the same weights give the attached point's place
      Vector3d expected = Vector3d::Zero();
      for (int i = 0; i < e.numDofNodes(); ++i) expected += att.getWeights()[i] * e.getDofNode(i).getPosition();
      EXPECT_LT((p.getPosition() - expected).norm(), 1e-12);
      EXPECT_LT(p.getPosition().z() - p0.z(), -1e-3) << "falls";
    }
}

TEST(FemShell, MarkersOnShellModelsFollowTheShells) {
  // A marker added to a model of shells alone goes into the nearest shell
  // (§6.5 with ShellElement3d): it follows an affine motion of the sheet
  // exactly, and one added to a given shell too.
  for (bool membrane : {false, true}) {
    FemModel3d fem("sheet");
    FemFactory::createShellQuadGrid(fem, 1, 1, 4, 4, 0.02, membrane);
    const Vector3d at(0.13, -0.21, 0);
    FemMarker& m = fem.addMarker(at, "m");
    ASSERT_NE(m.getShellAttachment(), nullptr);
    EXPECT_EQ(m.getAttachment(), nullptr);
    FemMarker& m2 = fem.addMarker(std::make_unique<FemMarker>("m2", Vector3d(-0.3, 0.3, 0)),
                                  fem.getShellElements().get(0));
    ASSERT_NE(m2.getShellAttachment(), nullptr);
    const Vector3d p0 = m.getPosition(), q0 = m2.getPosition();
    EXPECT_LT((p0 - at).norm(), 0.02) << "on the sheet, within its thickness";
    Noise noise(9);
    const Matrix3d A = Matrix3d::Identity() + 0.1 * noise.mat();
    const Vector3d b(0.1, 0.2, -0.3);
    deformAffinely(fem, A, b);
    const_cast<PointShellAttachment*>(m.getShellAttachment())->updatePosStates();
    const_cast<PointShellAttachment*>(m2.getShellAttachment())->updatePosStates();
    EXPECT_LT((m.getPosition() - (A * p0 + b)).norm(), 1e-12) << membrane;
    EXPECT_LT((m2.getPosition() - (A * q0 + b)).norm(), 1e-12) << membrane;
  }
}

TEST(FemShell, FreeShellFallsAtGWithoutDeforming) {
  // Backward Euler from rest: after n steps z = −g h² n(n + 1)/2 exactly,
  // so front and back nodes fall together and the directors keep still.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  FemModel3d& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
  FemFactory::createShellQuadGrid(fem, 0.4, 0.3, 4, 3, 0.01);
  fem.setParticleDamping(0);
  fem.setMaterial(NeoHookeanMaterial(1e5, 0.3));
  r.run(0.1, 0.01);
  const double h = 0.01, n = 10, expected = -9.8 * h * h * n * (n + 1) / 2;
  for (auto& n : fem.nodes()) {
    EXPECT_NEAR(n.getPosition().z() - n.getRestPosition().z(), expected, 1e-9);
    EXPECT_LT((n.getDirector() - n.getRestDirector()).norm(), 1e-9);
  }
}

TEST(FemShell, BadShellsAreModelErrors) {
  FemModel3d fem, other;
  FemNode3d& a = fem.addNode(Vector3d(0, 0, 0));
  FemNode3d& b = fem.addNode(Vector3d(1, 0, 0));
  FemNode3d& c = fem.addNode(Vector3d(2, 0, 0));
  FemNode3d& d = fem.addNode(Vector3d(0, 1, 0));
  FemNode3d& x = other.addNode(Vector3d(0, 1, 0));
  EXPECT_THROW(ShellElement3d::createElement({&a, &b}), ModelError);
  EXPECT_THROW(ShellTriElement(&a, &b, &d, 0.0), ModelError);
  EXPECT_THROW(ShellTriElement(&a, &b, &a), ModelError);
  EXPECT_THROW(fem.addShellElement(std::make_unique<ShellTriElement>(&a, &b, &c)), ModelError);  // collinear
  EXPECT_THROW(fem.addShellElement(std::make_unique<ShellTriElement>(&a, &b, &x)), ModelError);  // foreign node
  EXPECT_EQ(fem.numShellElements(), 0);
  fem.addShellElement(std::make_unique<ShellTriElement>(&a, &b, &d, 0.01));
  EXPECT_THROW(a.setRestDirector(Vector3d::Zero()), ModelError);
}

TEST(FemShell, InvertedShellsAreModelErrorsNamingTheElement) {
  // A regular shell whose node is pushed through its back node (the
  // thickness turned inside out) is inverted, with or without assumed
  // shear strains, for a material that cannot invert: a ModelError naming
  // the element, never a NaN force.
  for (ShellType type : {ShellType::Tri, ShellType::Quad})
    for (bool assumed : {true, false}) {
      FemModel3d fem("fem");
      std::vector<FemNode3d*> nodes;
      const Vector3d corners[4] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
      for (int i = 0; i < numShellNodes(type); ++i) nodes.push_back(&fem.addNode(corners[i]));
      ShellElement3d& e = fem.addShellElement(ShellElement3d::createElement(nodes, 0.1));
      e.setAssumedShearStrain(assumed);
      const NeoHookeanMaterial mat(1e5, 0.3);
      nodes[0]->setPosition(nodes[0]->getBackNode()->getPosition() - Vector3d(0, 0, 0.2));
      ElementVector f;
      try {
        e.computeForcesAndStiffness(mat, f, nullptr);
        ADD_FAILURE() << "no error for an inverted shell";
      } catch (const ModelError& err) {
        EXPECT_EQ(err.path(), e.describe());
        EXPECT_NE(std::string(err.what()).find("inverted"), std::string::npos) << err.what();
      }
    }
}

}  // namespace
}  // namespace sinew

