#include "sinew/mech/MechSystemBase.h"

#include <cmath>

#include "sinew/Error.h"
#include "sinew/model/Checks.h"
#include "sinew/mech/HasSlaveObjects.h"
#include "sinew/mech/TransformableGeometry.h"

namespace sinew {

const std::vector<std::string>& EnumNames<Integrator>::get() {
  static const std::vector<std::string> n{"ForwardEuler", "SymplecticEuler", "RungeKutta4",
                                          "ConstrainedBackwardEuler", "Trapezoidal", "AlphaBeta", "Impulse",
                                          "Articulated"};
  return n;
}
const std::vector<std::string>& EnumNames<PosStabilization>::get() {
  static const std::vector<std::string> n{"GlobalMass", "GlobalStiffness"};
  return n;
}
const std::vector<std::string>& EnumNames<LinearSolverType>::get() {
  // The names parseLinearSolverType reads, in the enum's order.
  static const std::vector<std::string> n = [] {
    std::vector<std::string> names;
    for (auto t : {LinearSolverType::Auto, LinearSolverType::EigenLDLT, LinearSolverType::Umfpack,
                   LinearSolverType::Cholmod, LinearSolverType::PCG, LinearSolverType::Mumps})
      names.push_back(toString(t));
    return names;
  }();
  return n;
}

namespace {
int positiveCount(int n, const Component& c) {
  if (n < 1) throw ModelError("impulseMaxIterations must be at least 1", c.describe());
  return n;
}
/// A non-negative setting of the Impulse integrator as a property (0 … ∞).
void addImpulseSetting(PropertyList& list, const char* name, const char* doc, double ImpulseSettings::*field,
                       double dflt) {
  list.add<MechSystemBase>(
          name, doc, [field](const MechSystemBase& m) { return m.impulseSettings().*field; },
          [field, name](MechSystemBase& m, double x) { m.impulseSettings().*field = requireNonNegative(x, m, name); })
      .setDefault(dflt)
      .setRange(0, INFINITY);
}
}  // namespace

SINEW_PROPERTIES(MechSystemBase, Model) {
  list.add<MechSystemBase>("gravity", "gravitational acceleration", &MechSystemBase::getGravity,
                      [](MechSystemBase& m, const Vector3d& g) { m.setGravity(g); })
      .setDefault(Eigen::VectorXd(Vector3d(0, 0, -9.8)));
  list.add<MechSystemBase>("integrator", "integration method (§4.1.2)", &MechSystemBase::getIntegrator,
                      &MechSystemBase::setIntegrator)
      .setDefault(std::string("ConstrainedBackwardEuler"));
  list.add<MechSystemBase>("alpha", "implicit velocity factor of AlphaBeta (seed 003)", &MechSystemBase::getAlpha,
                           &MechSystemBase::setAlpha)
      .setDefault(1.0)
      .setRange(0, 1);
  list.add<MechSystemBase>("beta", "implicit position factor of AlphaBeta (seed 003)", &MechSystemBase::getBeta,
                           &MechSystemBase::setBeta)
      .setDefault(1.0)
      .setRange(0, 1);
  list.add<MechSystemBase>(
          "impulseMaxIterations", "sweeps per correction loop of the Impulse integrator (seed 004)",
          [](const MechSystemBase& m) { return m.impulseSettings().maxIterations; },
          [](MechSystemBase& m, int n) { m.impulseSettings().maxIterations = positiveCount(n, m); })
      .setDefault(200);
  addImpulseSetting(list, "impulseMaxTime", "wall-clock seconds per step of the Impulse integrator; 0: no limit",
                    &ImpulseSettings::maxTime, 0.0);
  addImpulseSetting(list, "impulsePositionTol",
                    "look-ahead error at which the Impulse integrator counts a constraint consistent",
                    &ImpulseSettings::positionTol, 1e-9);
  addImpulseSetting(list, "impulseVelocityTol", "row velocity at which the Impulse integrator's velocity correction stops",
                    &ImpulseSettings::velocityTol, 1e-9);
  list.add<MechSystemBase>(
          "impulseRelaxation",
          "over-relaxation factor of the Impulse integrator's corrections of bilateral joints, in (0, 2); 1: none",
          [](const MechSystemBase& m) { return m.impulseSettings().relaxation; },
          [](MechSystemBase& m, double w) {
            if (!(w > 0 && w < 2))
              throw ModelError("impulseRelaxation must lie in (0, 2), not " + std::to_string(w), m.describe());
            m.impulseSettings().relaxation = w;
          })
      .setDefault(1.0)
      .setRange(0, 2);
  list.add<MechSystemBase>(
          "impulseProjectWhenExhausted",
          "finish an Impulse step whose joint corrections ran out of sweeps with the MLCP's direct projection",
          [](const MechSystemBase& m) { return m.impulseSettings().projectWhenExhausted; },
          [](MechSystemBase& m, bool on) { m.impulseSettings().projectWhenExhausted = on; })
      .setDefault(true);
  list.add<MechSystemBase>("frictionIterations",
                           "friction passes in which sliding contacts' bounds follow their final pushes to a "
                           "relative 1e-6 (1: bounds from the frictionless pushes)",
                           &MechSystemBase::getFrictionIterations, &MechSystemBase::setFrictionIterations)
      .setDefault(1)
      .setRange(1, 100);
  list.add<MechSystemBase>("contactSweeps",
                           "the most Gauss-Seidel sweeps per step of a pile's contact solve (warm started)",
                           &MechSystemBase::getContactSweeps, &MechSystemBase::setContactSweeps)
      .setDefault(100)
      .setRange(1, 100000);
  list.add<MechSystemBase>("stabilization", "position stabilization method (§4.1.3)",
                      &MechSystemBase::getStabilization, &MechSystemBase::setStabilization)
      .setDefault(std::string("GlobalMass"));
  list.add<MechSystemBase>("stabilizationTol",
                           "largest hard constraint error (m, rad) that position stabilization leaves after a step",
                           &MechSystemBase::getStabilizationTol, &MechSystemBase::setStabilizationTol)
      .setRange(0, INFINITY)
      .setDefault(1e-10);
  list.add<MechSystemBase>("linearSolver", "sparse solver backend", &MechSystemBase::getLinearSolver,
                      &MechSystemBase::setLinearSolver)
      .setDefault(std::string("Auto"));
  list.addInheritable<MechSystemBase>("pointDamping", "default point damping", &MechSystemBase::myPointDamping, 0.0)
      .setRange(0, INFINITY);
  list.addInheritable<MechSystemBase>("frameDamping", "default frame damping", &MechSystemBase::myFrameDamping, 0.0)
      .setRange(0, INFINITY);
  list.addInheritable<MechSystemBase>("rotaryDamping", "default rotary damping", &MechSystemBase::myRotaryDamping, 0.0)
      .setRange(0, INFINITY);
  list.addInheritable<MechSystemBase>("inertialDamping", "default inertial damping",
                                 &MechSystemBase::myInertialDamping, 0.0)
      .setRange(0, INFINITY);
}

MechSystemBase::MechSystemBase(std::string name)
    : Model(std::move(name)), mySolver(std::make_unique<MechSystemSolver>()) {}

MechSystemBase::~MechSystemBase() = default;

namespace {
void transformBelow(Component& c, const RigidTransform3d& X) {
  if (auto* t = dynamic_cast<TransformableGeometry*>(&c)) t->transformGeometry(X);
  for (int i = 0; i < c.numComponents(); ++i) transformBelow(*c.getComponent(i), X);
}
void updateSlavesBelow(Component& c) {
  if (auto* s = dynamic_cast<HasSlaveObjects*>(&c)) s->updateSlavePos();
  for (int i = 0; i < c.numComponents(); ++i) updateSlavesBelow(*c.getComponent(i));
}
}  // namespace

void MechSystemBase::transformGeometry(const RigidTransform3d& X) {
  if (!X.p.allFinite() || !X.R.allFinite()) throw ModelError("transform is not finite", describe());
  if ((X.R * X.R.transpose() - Matrix3d::Identity()).norm() > 1e-9 || X.R.determinant() < 0)
    throw ModelError("transformGeometry takes a rigid transform (R must be a rotation)", describe());
  for (int i = 0; i < numComponents(); ++i) transformBelow(*getComponent(i), X);
  // Slaved geometry follows once every node has moved. A tree walk, not the
  // compiled list: the model may be half built and not compilable yet.
  updateSlavesBelow(*this);
}

void MechSystemBase::setGravity(const Vector3d& g) {
  if (!g.allFinite()) throw ModelError("gravity is not finite", describe());
  myGravity = g;
  mySolver->setGravity(g);
}

void MechSystemBase::collect(Component& c, std::vector<DynamicComponent*>& comps, std::vector<ForceEffector*>& effs,
                        std::vector<Constrainer*>& cons) {
  if (auto* d = dynamic_cast<DynamicComponent*>(&c)) comps.push_back(d);
  if (auto* e = dynamic_cast<ForceEffector*>(&c)) effs.push_back(e);
  if (auto* k = dynamic_cast<Constrainer*>(&c)) cons.push_back(k);
  if (auto* a = dynamic_cast<AuxStateComponent*>(&c)) myAuxComps.push_back(a);
  if (auto* m = dynamic_cast<MechSystemBase*>(&c)) {
    m->prepareForCompile();
    mySubsystems.push_back(m);
  }
  if (auto* s = dynamic_cast<HasSlaveObjects*>(&c)) mySlaveObjects.push_back(s);
  for (int i = 0; i < c.numComponents(); ++i) collect(*c.getComponent(i), comps, effs, cons);
}

bool MechSystemBase::classificationChanged() const {
  for (size_t i = 0; i < myComps.size(); ++i) {
    int k = myComps[i]->isActive() ? 0 : myComps[i]->isParametric() ? 1 : 2;
    if (k != myClassification[i]) return true;
  }
  return false;
}

void MechSystemBase::updateStructure() {
  if (!myStructureChanged && !classificationChanged()) return;
  std::vector<ForceEffector*> effs;
  std::vector<Constrainer*> cons;
  myComps.clear();
  myAuxComps.clear();
  mySubsystems.clear();
  mySlaveObjects.clear();
  // The model itself may be an effector (FemModel3d sums its elements).
  collect(*this, myComps, effs, cons);
  checkForceEffectors(effs);
  myClassification.clear();
  for (auto* c : myComps) myClassification.push_back(c->isActive() ? 0 : c->isParametric() ? 1 : 2);
  mySolver->setGravity(myGravity);
  mySolver->setIntegrator(myIntegrator);
  mySolver->setStabilization(myStabilization);
  mySolver->setStabilizationTol(myStabilizationTol);
  mySolver->setLinearSolver(myLinearSolver);
  mySolver->setStructure(myComps, effs, cons);
  myStructureChanged = false;
}

void MechSystemBase::setStabilizationTol(double tol) {
  if (!(tol > 0) || !std::isfinite(tol))
    throw ModelError("stabilizationTol must be finite and > 0, not " + std::to_string(tol), describe());
  myStabilizationTol = tol;
  mySolver->setStabilizationTol(tol);
}

void MechSystemBase::initialize(double t0) {
  updateStructure();
  prepareSubsystems(t0);  // its stabilization weighs by mass
  mySolver->initialize(t0);
  mySteps = 0;
  updateSlavePositions();
  finalizeSubsystems(t0);
}

void MechSystemBase::prepareSubsystems(double t) {
  for (MechSystemBase* m : mySubsystems) m->prepareAdvance(t);
}

void MechSystemBase::finalizeSubsystems(double t) {
  for (MechSystemBase* m : mySubsystems) m->finalizeAdvance(t);
}

void MechSystemBase::setFrictionIterations(int n) {
  if (n < 1 || n > 100) throw ModelError("frictionIterations must lie in [1, 100], not " + std::to_string(n), describe());
  mySolver->setFrictionIterations(n);
}

void MechSystemBase::setContactSweeps(int n) {
  if (n < 1 || n > 100000) throw ModelError("contactSweeps must lie in [1, 100000], not " + std::to_string(n), describe());
  mySolver->setContactSweeps(n);
}

void MechSystemBase::setAlpha(double a) {
  if (!(a >= 0 && a <= 1)) throw ModelError("alpha must lie in [0, 1]", describe());
  mySolver->setAlpha(a);
}

void MechSystemBase::setBeta(double b) {
  if (!(b >= 0 && b <= 1)) throw ModelError("beta must lie in [0, 1]", describe());
  mySolver->setBeta(b);
}

StepAdjustment MechSystemBase::advance(double t0, double t1) {
  updateStructure();
  prepareSubsystems(t0);
  mySolver->advance(t0, t1);
  ++mySteps;
  updateSlavePositions();
  finalizeSubsystems(t1);
  // Seed 004: a step the impulse corrections could not make consistent
  // within their iteration budget asks for a smaller one (the root redoes
  // it when adaptiveStepping is on).
  if (myIntegrator == Integrator::Impulse && mySolver->impulseReport().exhausted)
    return {0.5, "impulse corrections did not converge within impulseMaxIterations"};
  return {};
}

void MechSystemBase::getState(Eigen::VectorXd& state) const {
  const_cast<MechSystemBase*>(this)->updateStructure();
  const MechSystem& sys = mySolver->system();
  Eigen::VectorXd q, u;
  sys.getFullPos(q);
  sys.getFullVel(u);
  int na = 0;
  for (auto* a : myAuxComps) na += a->getAuxStateSize();
  state.resize(q.size() + u.size() + na);
  state << q, u, Eigen::VectorXd::Zero(na);
  double* x = state.data() + q.size() + u.size();
  for (auto* a : myAuxComps) {
    a->getAuxState(x);
    x += a->getAuxStateSize();
  }
}

void MechSystemBase::setState(const Eigen::VectorXd& state) {
  updateStructure();
  MechSystem& sys = mySolver->system();
  const int nq = sys.fullPosSize(), nu = sys.fullVelSize();
  // Each component's part, whose size may vary (the contacts of the last
  // step), is checked before anything is set.
  auto mismatch = [&] { return ModelError("state size does not match the model's structure", describe()); };
  if (state.size() < nq + nu) throw mismatch();
  std::vector<int> sizes;
  Eigen::Index at = nq + nu;
  for (auto* a : myAuxComps) {
    const int size = a->storedAuxStateSize(state.data() + at, static_cast<int>(state.size() - at));
    if (size < 0 || at + size > state.size()) throw mismatch();
    sizes.push_back(size);
    at += size;
  }
  if (at != state.size()) throw mismatch();
  sys.setFullPos(state.head(nq));
  sys.setFullVel(state.segment(nq, nu));
  const double* x = state.data() + nq + nu;
  for (size_t k = 0; k < myAuxComps.size(); ++k) {
    myAuxComps[k]->setAuxState(x);
    x += sizes[k];
  }
  updateSlavePositions();
}

std::vector<double> MechSystemBase::solveStatic(double t, double relTol, int maxIter) {
  updateStructure();
  prepareSubsystems(t);
  std::vector<double> residuals = mySolver->solveStatic(t, relTol, maxIter);
  updateSlavePositions();
  finalizeSubsystems(t);
  return residuals;
}

void MechSystemBase::updateSlavePositions() {
  updateStructure();
  for (auto* s : mySlaveObjects) s->updateSlavePos();
}

double MechSystemBase::getEnergy() const {
  const_cast<MechSystemBase*>(this)->updateStructure();
  return mySolver->computeEnergy();
}

}  // namespace sinew
