// Scenes shared by the benchmarks: the guide's NetDemo at any size, a
// chain of rigid bodies for the sparse-solver comparison, hinge chains and
// loops, FEM beams, and boxes in contact.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>

#include "demos/Demos.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/NeoHookeanMaterial.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/joints/SphericalJoint.h"
#include "sinew/mech/MechModel.h"

namespace sinew::bench {

/// NetDemo with (n+1)×(n+1) balls.
inline std::unique_ptr<RootModel> makeNet(int n) {
  return demos::createDemo("NetDemo", {"-numx", std::to_string(n), "-numy", std::to_string(n)});
}

/// `nbodies` boxes in a row joined by springs between markers; with
/// `constrained`, a marker on every box is held on a plane (one bilateral
/// row per body), which makes the solve a KKT system.
inline std::unique_ptr<RootModel> makeChain(int nbodies, bool constrained, LinearSolverType solver) {
  auto root = std::make_unique<RootModel>("chain");
  auto& mech = root->addModel(std::make_unique<MechModel>("mech"));
  mech.setLinearSolver(solver);
  mech.setFrameDamping(0.1);
  mech.setRotaryDamping(0.1);
  auto& anchor = mech.addParticle("anchor", 1, 0, 0, 0);
  anchor.setDynamic(false);
  Point* prev = &anchor;
  ParticlePlaneConstraint* plane = nullptr;
  if (constrained)
    plane = &mech.addParticleConstraint(
        std::make_unique<ParticlePlaneConstraint>("plane", Vector3d::UnitY(), Vector3d::Zero()));
  for (int i = 0; i < nbodies; ++i) {
    auto& b = mech.addRigidBody(RigidBody::createBox("b" + std::to_string(i), 0.1, 0.02, 0.02, 1000));
    b.setPose(RigidTransform3d(0.1 * i + 0.05, 0, 0));
    auto& left = mech.addFrameMarker(b, Vector3d(-0.05, 0, 0));
    auto& right = mech.addFrameMarker(b, Vector3d(0.05, 0, 0));
    mech.attachAxialSpring(*prev, left, std::make_unique<AxialSpring>(std::string(), 1e4, 10, 0));
    if (plane) plane->addParticle(right);
    prev = &right;
  }
  root->setMaxStepSize(0.01);
  root->initialize(0);
  return root;
}

/// A link of the hinge scenes: a 1 × 0.1 × 0.1 m box of 1 kg.
inline RigidBody& addHingeLink(MechModel& mech, int i, const RigidTransform3d& pose) {
  auto& b = mech.addRigidBody(RigidBody::createBox("link" + std::to_string(i), 1, 0.1, 0.1, 100));
  b.setPose(pose);
  return b;
}

/// A hinge about world y at (x, 0, z) joining a to b (nullptr: ground).
inline void addYHinge(MechModel& mech, int i, RigidBody& a, Frame* b, double x, double z) {
  RigidTransform3d TDW(x, 0, z, 1, 0, 0, -M_PI / 2);  // D's z along world y
  mech.addBodyConnector(std::make_unique<HingeJoint>(a, b, TDW, "hinge" + std::to_string(i)));
}

/// A root with one MechModel "mech" under gravity −9.8 z (the peer
/// benchmarks' value, bench/peers/PeerScene.h).
inline std::unique_ptr<RootModel> makeGravityRoot(const std::string& name, MechModel*& mech) {
  auto root = std::make_unique<RootModel>(name);
  mech = &root->addModel(std::make_unique<MechModel>("mech"));
  mech->setGravity(0, 0, -9.8);
  return root;
}

/// N links along x, the first jointed to ground at the origin and each
/// next to the one before at their shared end, released horizontal;
/// `join(mech, i, link, previous or nullptr, x)` adds joint i at (x, 0, 0).
template <class Join>
std::unique_ptr<RootModel> makeLinkChain(const std::string& name, int n, double h, Join&& join) {
  MechModel* mech;
  auto root = makeGravityRoot(name, mech);
  RigidBody* prev = nullptr;
  for (int i = 0; i < n; ++i) {
    RigidBody& b = addHingeLink(*mech, i, RigidTransform3d(i + 0.5, 0, 0));
    join(*mech, i, b, prev, double(i));
    prev = &b;
  }
  root->setMaxStepSize(h);
  root->initialize(0);
  return root;
}

/// The joints issue's chain: N links hinged about y.
inline std::unique_ptr<RootModel> makeHingeChain(int n, double h = 1e-3) {
  return makeLinkChain("hingeChain", n, h, [](MechModel& m, int i, RigidBody& b, RigidBody* prev, double x) {
    addYHinge(m, i, b, prev, x, 0);
  });
}

/// The same chain with ball joints (SphericalJoint) at the link ends: the
/// impulse solver's benchmark for joints of three rows (issue 6).
inline std::unique_ptr<RootModel> makeBallChain(int n, double h = 1e-3) {
  return makeLinkChain("ballChain", n, h, [](MechModel& m, int i, RigidBody& b, RigidBody* prev, double x) {
    m.addBodyConnector(std::make_unique<SphericalJoint>(b, prev, Vector3d(x, 0, 0), "ball" + std::to_string(i)));
  });
}

/// The hinge chain closed into a loop with the ground (issue benchmark):
/// n links (n ≥ 3) in a U — the first and last hang vertically from
/// ground hinges n − 2 m apart, the others run level between them — so
/// both ends are fixed and every hinge constraint of the loop beyond the
/// planar ones is redundant.
inline std::unique_ptr<RootModel> makeHingeLoop(int n, double h = 1e-3) {
  MechModel* mech;
  auto root = makeGravityRoot("hingeLoop", mech);
  const double span = n - 2;
  // Vertical links are boxes turned 90° about y.
  RigidBody* prev = &addHingeLink(*mech, 0, RigidTransform3d(0, 0, -0.5, 0, 1, 0, M_PI / 2));
  addYHinge(*mech, 0, *prev, nullptr, 0, 0);
  for (int i = 1; i < n - 1; ++i) {
    RigidBody& b = addHingeLink(*mech, i, RigidTransform3d(i - 0.5, 0, -1));
    addYHinge(*mech, i, b, prev, i - 1, -1);
    prev = &b;
  }
  RigidBody& last = addHingeLink(*mech, n - 1, RigidTransform3d(span, 0, -0.5, 0, 1, 0, M_PI / 2));
  addYHinge(*mech, n - 1, last, prev, span, -1);
  addYHinge(*mech, n, last, nullptr, span, 0);
  root->setMaxStepSize(h);
  root->initialize(0);
  return root;
}

/// Largest joint error (norm of T_CG) over the joints of a model.
inline double maxJointError(RootModel& root) {
  double e = 0;
  auto& mech = static_cast<MechModel&>(root.models().get(0));
  for (int i = 0; i < mech.bodyConnectors().size(); ++i)
    if (auto* j = dynamic_cast<JointBase*>(&mech.bodyConnectors().get(i))) e = std::max(e, j->getConstraintError().norm());
  return e;
}

/// The FEM benchmark beam: a neo-Hookean (E = 1e5, ν = 0.3, density 1000)
/// beam of square section, 4 times as long as it is wide, clamped at one
/// end and sagging under gravity, of hex cells or of tets (six per cell),
/// with about `elements` elements, and hard incompressibility `incomp`
/// (§6.7; OFF by default). `fem` is set to the model.
inline std::unique_ptr<RootModel> makeFemBeam(bool tets, int elements, FemModel3d*& fem,
                                              IncompMethod incomp = IncompMethod::OFF) {
  // nx = 4n cells along, n × n across: 4n³ cells.
  const int cells = tets ? elements / 6 : elements;
  const int n = std::max(1, static_cast<int>(std::lround(std::cbrt(cells / 4.0))));
  MechModel* mech;
  auto root = makeGravityRoot(tets ? "femTetBeam" : "femHexBeam", mech);
  fem = &mech->addModel(std::make_unique<FemModel3d>("fem"));
  FemFactory::createGrid(*fem, tets ? FemElementType::Tet : FemElementType::Hex, 1.0, 0.25, 0.25, 4 * n, n, n);
  fem->setMaterial(NeoHookeanMaterial(1e5, 0.3));
  fem->setParticleDamping(1.0);
  if (const char* s = std::getenv("SINEW_SOLVER")) mech->getProperty("linearSolver").set(std::string(s));
  fem->setIncompressible(incomp);
  for (auto& node : fem->nodes())
    if (node.getRestPosition().x() < -0.5 + 1e-12) node.setDynamic(false);
  return root;
}

/// An FEM ball bouncing on a rigid plate (the contact issue's benchmark):
/// a TetGen-meshed sphere of radius 0.1 m (createIcosahedralSphere with
/// `divisions` and quality 1.1: 4017 tets at 3), neo-Hookean E = 1e5,
/// ν = 0.3, density 1000, dropped from 5 cm above a fixed plate, h = 10 ms.
/// Needs the tetgen program.
inline std::unique_ptr<RootModel> makeFemBall(int divisions, FemModel3d*& fem) {
  MechModel* mech;
  auto root = makeGravityRoot("femBall", mech);
  auto& plate = mech->addRigidBody(RigidBody::createBox("plate", 1, 1, 0.1, 1000));
  plate.setDynamic(false);
  plate.setPose(RigidTransform3d(0, 0, -0.05));
  fem = &mech->addModel(std::make_unique<FemModel3d>("ball"));
  FemFactory::createIcosahedralSphere(*fem, 0.1, divisions, 1.1);
  fem->setMaterial(NeoHookeanMaterial(1e5, 0.3));
  fem->setDensity(1000);
  fem->transformGeometry(RigidTransform3d(0, 0, 0.15));
  mech->setCollisionBehavior(*fem, plate, true);
  return root;
}

/// Contact scenes (issue benchmarks): `n` boxes of 1 kg on a collision
/// plane z = 0 (the peers' ground), μ = 0.5, h = 1 ms. `pile`: unit boxes (density 1) dropped from a
/// loose grid, 3 × 3 per layer 1.5 m apart, with a small turn each so that
/// they land edge first and tumble into a pile; otherwise a stack of 0.2 m
/// cubes resting face on face.
inline std::unique_ptr<RootModel> makeBoxes(int n, bool pile, double h = 1e-3) {
  MechModel* mech;
  auto root = makeGravityRoot(pile ? "boxPile" : "boxStack", mech);
  mech->getCollisionManager().addPlane("ground", Vector3d::Zero(), Vector3d::UnitZ());
  for (int k = 0; k < n; ++k) {
    const double a = pile ? 1.0 : 0.2;
    auto& b = mech->addRigidBody(RigidBody::createBox("box" + std::to_string(k), a, a, a, 1 / (a * a * a)));
    if (pile) {
      const int layer = k / 9, i = k % 9;
      b.setPose(RigidTransform3d(1.5 * (i % 3 - 1), 1.5 * (i / 3 - 1), 1.0 + 1.5 * layer, 1, 1, 0, 0.05 * (k % 5 + 1)));
    } else {
      b.setPose(RigidTransform3d(0, 0, 0.1 + 0.2 * k));
    }
  }
  mech->setDefaultCollisionBehavior(true, 0.5);
  root->setMaxStepSize(h);
  root->initialize(0);
  return root;
}

/// The incline scene of the peer benchmarks: a 0.2 m cube of 1 kg resting
/// on a fixed plate whose top face passes through the origin, tilted by
/// 30° about y (downhill (cos 30°, 0, −sin 30°)), friction μ, h = 1 ms.
/// `cube` is set to the cube.
inline std::unique_ptr<RootModel> makeBoxOnIncline(double mu, RigidBody*& cube, double h = 1e-3) {
  MechModel* mech;
  auto root = makeGravityRoot("boxOnIncline", mech);
  const Matrix3d R = AxisAngle(Vector3d(0, 1, 0), M_PI / 6).toMatrix();
  auto& plate = mech->addRigidBody(RigidBody::createBox("plate", 4, 2, 0.2, 1000));
  plate.setPose(RigidTransform3d(R * Vector3d(0, 0, -0.1), R));
  plate.setDynamic(false);
  cube = &mech->addRigidBody(RigidBody::createBox("cube", 0.2, 0.2, 0.2, 125));
  cube->setPose(RigidTransform3d(R * Vector3d(0, 0, 0.1), R));
  mech->setCollisionBehavior(*cube, plate, true, mu);
  root->setMaxStepSize(h);
  root->initialize(0);
  return root;
}

}  // namespace sinew::bench
