// MechSystemBase: a model that compiles and steps the mechanical system
// below it (guide §4.1, §4.8; DESIGN §1–2): the simulation properties
// (gravity, integrator, stabilization, linear solver, and the damping
// defaults its descendants inherit), the compiled MechSystemSolver, state
// save/restore and energy. MechModel and FemModel3d are its two kinds: each
// adds its own component lists. A MechSystemBase inside another one (an
// FEM model in a MechModel's `models`) is compiled into its ancestor's
// system, so there is one solve for everything.
#pragma once

#include <memory>
#include <vector>

#include "sinew/model/Model.h"
#include "sinew/solver/MechSystemSolver.h"

namespace sinew {

template <>
struct EnumNames<Integrator> {
  static const std::vector<std::string>& get();
};
template <>
struct EnumNames<PosStabilization> {
  static const std::vector<std::string>& get();
};
template <>
struct EnumNames<LinearSolverType> {
  static const std::vector<std::string>& get();
};

class MechSystemBase : public Model {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit MechSystemBase(std::string name = {});
  ~MechSystemBase() override;

  // Simulation properties (§4.1)
  const Vector3d& getGravity() const { return myGravity; }
  void setGravity(const Vector3d& g);
  void setGravity(double x, double y, double z) { setGravity(Vector3d(x, y, z)); }
  Integrator getIntegrator() const { return myIntegrator; }
  void setIntegrator(Integrator i) { myIntegrator = i; mySolver->setIntegrator(i); }
  PosStabilization getStabilization() const { return myStabilization; }
  void setStabilization(PosStabilization s) { myStabilization = s; mySolver->setStabilization(s); }
  /// The largest error of a hard constraint row (m, or rad for a rotary
  /// row) that position stabilization leaves after a step: further passes
  /// run only above it.
  double getStabilizationTol() const { return myStabilizationTol; }
  void setStabilizationTol(double tol);
  /// Passes in which the velocity solve's exact friction pass takes each
  /// sliding contact's friction bound afresh from its final push (default
  /// 1; see KKTSolver::setFrictionIterations and docs/contact.md). Only the
  /// top-level model's setting is used: its solver runs the nested ones.
  int getFrictionIterations() const { return mySolver->getFrictionIterations(); }
  void setFrictionIterations(int n);
  /// The most Gauss–Seidel sweeps per step of the contact solve that serves
  /// piles (200 friction rows or more between rigid bodies and no joint;
  /// default 100; see KKTSolver::setContactSweeps and docs/contact.md). Only
  /// the top-level model's setting is used.
  int getContactSweeps() const { return mySolver->getContactSweeps(); }
  void setContactSweeps(int n);
  /// α and β of the AlphaBeta integrator (seed 003), each in [0, 1].
  double getAlpha() const { return mySolver->getAlpha(); }
  void setAlpha(double a);
  double getBeta() const { return mySolver->getBeta(); }
  void setBeta(double b);
  /// Budget and tolerances of the Impulse integrator (seed 004), and what
  /// its last step did.
  ImpulseSettings& impulseSettings() { return mySolver->impulseSettings(); }
  const ImpulseSettings& impulseSettings() const { return mySolver->impulseSettings(); }
  const ImpulseReport& getImpulseReport() const { return mySolver->impulseReport(); }
  LinearSolverType getLinearSolver() const { return myLinearSolver; }
  void setLinearSolver(LinearSolverType t) { myLinearSolver = t; mySolver->setLinearSolver(t); }

  // Damping defaults inherited by descendants (§3.1.5, §3.2.7)
  double getPointDamping() const { return inherited("pointDamping", myPointDamping, 0.0); }
  void setPointDamping(double d) { setInheritable(myPointDamping, d); }
  double getFrameDamping() const { return inherited("frameDamping", myFrameDamping, 0.0); }
  void setFrameDamping(double d) { setInheritable(myFrameDamping, d); }
  double getRotaryDamping() const { return inherited("rotaryDamping", myRotaryDamping, 0.0); }
  void setRotaryDamping(double d) { setInheritable(myRotaryDamping, d); }
  double getInertialDamping() const { return inherited("inertialDamping", myInertialDamping, 0.0); }
  void setInertialDamping(double d) { setInheritable(myInertialDamping, d); }

  /// Moves the whole model by the rigid transform X (world to world, guide
  /// §4.7): every point, frame and body, and the world-fixed frames of
  /// springs, joints and constraints, as if the world frame had moved.
  /// Gravity is a world property and stays as it is.
  void transformGeometry(const RigidTransform3d& X);

  // Model
  void initialize(double t0) override;
  StepAdjustment advance(double t0, double t1) override;
  void getState(Eigen::VectorXd& state) const override;
  void setState(const Eigen::VectorXd& state) override;
  double getEnergy() const override;
  void componentStructureChanged() override { myStructureChanged = true; }

  /// Moves the model to static equilibrium under its loads at time t
  /// (gravity, external forces, springs, FEM elements, constraints) by
  /// Newton's method; see MechSystemSolver::solveStatic. Returns the
  /// residual force of each iterate.
  std::vector<double> solveStatic(double t = 0, double relTol = 1e-10, int maxIter = 30);

  /// Called on this model and on every MechSystemBase below it after each
  /// step, static solve and initialize (t: the time reached), to update
  /// quantities derived from the new state (FEM stress for output, §6.10).
  virtual void finalizeAdvance(double t) { (void)t; }
  /// Called on this model and on every MechSystemBase below it before each
  /// step, static solve and initialization (t: the time it starts from),
  /// before any force is gathered: a chance to bring derived data up to
  /// date (FEM masses after rest positions changed, §6.1.2.1).
  virtual void prepareAdvance(double t) { (void)t; }

  /// Called on this model and every MechSystemBase below it when the system
  /// is compiled, before its components are collected: a chance to bring
  /// derived structure (masses, directors) up to date.
  virtual void prepareForCompile() {}

  /// Compiles the system now if the structure changed (done automatically
  /// before a step).
  void updateStructure();
  const MechSystemSolver& solver() const { return *mySolver; }
  /// Number of steps taken since initialize().
  long numSteps() const { return mySteps; }

 protected:
  /// Adds a named child list (the model's predefined containers, §1.1.5).
  template <class T>
  ComponentList<T>* addList(const char* name) {
    return &static_cast<ComponentList<T>&>(addComponent(std::make_unique<ComponentList<T>>(name)));
  }
  /// Checks the compiled effectors (e.g. springs without points) so that
  /// errors name the component; called on every structure change.
  virtual void checkForceEffectors(const std::vector<ForceEffector*>& effs) const { (void)effs; }

 private:
  void collect(Component& c, std::vector<DynamicComponent*>& comps, std::vector<ForceEffector*>& effs,
               std::vector<Constrainer*>& cons);
  /// Moves slaved geometry (HasSlaveObjects) to the current positions.
  void updateSlavePositions();
  bool classificationChanged() const;
  void finalizeSubsystems(double t);
  void prepareSubsystems(double t);

  std::unique_ptr<MechSystemSolver> mySolver;
  std::vector<DynamicComponent*> myComps;
  std::vector<AuxStateComponent*> myAuxComps;
  std::vector<MechSystemBase*> mySubsystems;  ///< this and those below, for finalizeAdvance
  std::vector<class HasSlaveObjects*> mySlaveObjects;
  std::vector<int> myClassification;  ///< active/parametric/attached at compile
  Vector3d myGravity{0, 0, -9.8};
  Integrator myIntegrator = Integrator::ConstrainedBackwardEuler;
  PosStabilization myStabilization = PosStabilization::GlobalMass;
  double myStabilizationTol = 1e-10;
  LinearSolverType myLinearSolver = LinearSolverType::Auto;
  Inheritable<double> myPointDamping, myFrameDamping, myRotaryDamping, myInertialDamping;
  bool myStructureChanged = true;
  long mySteps = 0;
};

}  // namespace sinew
