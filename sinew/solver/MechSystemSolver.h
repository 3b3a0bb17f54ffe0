// One step of a mechanical system (DESIGN §2; guide §4.1.2, §4.1.3;
// research/artisynth-internals.md §1): forces and Jacobians → constraint
// rows → velocity solve → position update → position stabilization.
//
// The integrators differ only in the coefficients of the velocity solve
// S u1 = b and in the position update:
//   ForwardEuler             S = M,                     q1 = q0 + h u0
//   SymplecticEuler          S = M,                     q1 = q0 + h u1
//   RungeKutta4              four force evaluations, then velocity projection
//   ConstrainedBackwardEuler S = M − hD − h²K,          q1 = q0 + h u1
//   Trapezoidal              S = M − (h/2)D − (h²/4)K,  q1 = q0 + (h/2)(u0 + u1),
//                            rows at the midpoint on (u0 + u1)/2
//   AlphaBeta (seed 003)     S = M − αhD − αβh²K,       q1 = q0 + h(βu1 + (1−β)u0),
//                            compliant rows by seed 003 eq. (13)
//
// Impulse is not a velocity solve: the impulse-based solver of seed 004
// (ImpulseSolver.h) advances the bodies unconstrained and corrects each
// constraint in turn with impulses. Articulated is not one either: it
// advances trees of jointed rigid bodies in their joints' coordinates
// (ArticulatedSolver.h).
#pragma once

#include <memory>
#include <vector>

#include "sinew/mech/DynamicComponent.h"
#include "sinew/solver/MechSystem.h"

namespace sinew {

enum class Integrator {
  ForwardEuler,
  SymplecticEuler,
  RungeKutta4,
  ConstrainedBackwardEuler,
  Trapezoidal,
  AlphaBeta,
  Impulse,
  Articulated
};
enum class PosStabilization { GlobalMass, GlobalStiffness };

/// Where the implicit steps spend their time (seconds, summed over steps):
/// forces, Jacobians and the solve matrix and rows (assembly), the KKT
/// factorization and solve, and the position update with stabilization.
struct StepTimings {
  double assembly = 0, solve = 0, finish = 0;
  long steps = 0;
};

/// Budget and tolerances of the impulse-based solver (seed 004).
struct ImpulseSettings {
  int maxIterations = 200;    ///< sweeps over the constraints per correction loop
  double maxTime = 0;         ///< wall-clock seconds per step for both loops; 0: no limit
  double positionTol = 1e-9;  ///< look-ahead error (m, or rad for angular rows) counted as consistent
  double velocityTol = 1e-9;  ///< row velocity (m/s, rad/s) counted as consistent
  /// ω of successive over-relaxation: a joint whose rows are all bilateral
  /// takes ω times the impulse that would zero its error (1: the seed's
  /// method; between 1 and 2 the sweeps converge to the same state in fewer
  /// corrections).
  double relaxation = 1.0;
  bool velocityCorrection = true;
  /// When a loop runs out of sweeps, finish the step with the direct
  /// projections of the MLCP — position stabilization, and G u = 0 when no
  /// contact rows are present — instead of accepting the residual; off: the
  /// anytime behaviour, the budget bounds the cost and the residual is
  /// reported.
  bool projectWhenExhausted = true;
};

/// What the last impulse-based step did (seed 004 "Results").
struct ImpulseReport {
  int positionIterations = 0;  ///< sweeps of the joint correction loop
  int velocityIterations = 0;  ///< sweeps of the velocity correction loop
  long corrections = 0;        ///< correction impulses applied, both loops
  /// Wall-clock seconds in the two correction loops alone (not the
  /// prediction, the row builds or a projection that finishes the step):
  /// corrections / correctionSeconds is the loops' rate.
  double correctionSeconds = 0;
  double lookAheadError = 0;   ///< largest look-ahead error when joint correction ended
  double positionError = 0;    ///< largest hard constraint error at t1
  double velocityError = 0;    ///< largest row velocity when velocity correction ended
  bool interrupted = false;    ///< a budget ended a loop above its tolerance
  bool exhausted = false;      ///< that budget was the iteration count (then projected, if projectWhenExhausted)
  /// How the velocities were finished where the velocity sweeps ran out
  /// (projectWhenExhausted): not, by the projection over the Impulse
  /// loop's own rows, or by the MLCP's (rows not all hard and bilateral,
  /// or redundant). Either way its impulses count in the joints' forces.
  enum class Projection { None, Rows, MLCP };
  Projection velocityProjection = Projection::None;
};

class ImpulseSolver;
class ArticulatedSolver;

class MechSystemSolver {
 public:
  MechSystemSolver();
  ~MechSystemSolver();
  MechSystemSolver(const MechSystemSolver&) = delete;
  MechSystemSolver& operator=(const MechSystemSolver&) = delete;
  /// Compiles the system for these components (after a structure change).
  void setStructure(const std::vector<DynamicComponent*>& comps, const std::vector<ForceEffector*>& effectors,
                    const std::vector<Constrainer*>& constrainers);
  void setGravity(const Vector3d& g) { myGravity = g; }
  void setIntegrator(Integrator i) { myIntegrator = i; }
  Integrator getIntegrator() const { return myIntegrator; }
  /// α (implicit velocity factor) and β (implicit position factor) of the
  /// AlphaBeta integrator (seed 003 eqs. 4–5), each in [0, 1].
  void setAlpha(double a) { myAlpha = a; }
  void setBeta(double b) { myBeta = b; }
  double getAlpha() const { return myAlpha; }
  double getBeta() const { return myBeta; }
  ImpulseSettings& impulseSettings() { return myImpulseSettings; }
  const ImpulseSettings& impulseSettings() const { return myImpulseSettings; }
  const ImpulseReport& impulseReport() const { return myImpulseReport; }
  void setStabilization(PosStabilization s) { myStabilization = s; }
  void setStabilizationTol(double tol) { myStabilizationTol = tol; }
  void setLinearSolver(LinearSolverType t) { myKKT.setSolverType(t); myProjKKT.setSolverType(t); }
  const KKTSolver& kktSolver() const { return myKKT; }
  /// See KKTSolver::setFrictionIterations (the velocity solve's friction).
  void setFrictionIterations(int n) { myKKT.setFrictionIterations(n); }
  int getFrictionIterations() const { return myKKT.getFrictionIterations(); }
  /// See KKTSolver::setContactSweeps (a pile's contact solve).
  void setContactSweeps(int n) { myKKT.setContactSweeps(n); }
  int getContactSweeps() const { return myKKT.getContactSweeps(); }
  const StepTimings& timings() const { return myTimings; }
  void resetTimings() { myTimings = StepTimings(); }
  const MechSystem& system() const { return mySys; }
  MechSystem& system() { return mySys; }

  /// Brings slaves in line with their masters and projects the constraints
  /// (called at t0, as ArtiSynth's preadvance does).
  void initialize(double t0);
  /// Advances from t0 to t1. Throws SolverError (time, component) if the
  /// state becomes non-finite; the state is then left as it was at t0.
  void advance(double t0, double t1);

  /// Newton's method on static equilibrium at time t: f(q) = 0 subject to
  /// the hard constraints φ(q) = 0, each iteration solving
  /// [−K −Gᵀ; −G 0][Δq; λ] = [f; φ] with the current tangent (velocities
  /// are set to zero, so damping plays no part). Stops when the largest
  /// force falls below relTol × the first residual (or stops falling at
  /// round-off once below 1e-6 of it) and the largest constraint error
  /// below 1e-10; throws SolverError if that takes more
  /// than maxIter iterations or the tangent is singular (e.g. a body with
  /// no spring or constraint holding it). Returns the residual force of
  /// each iterate, the last one converged.
  std::vector<double> solveStatic(double t, double relTol = 1e-10, int maxIter = 30);

  /// Kinetic + gravitational + elastic energy (NaN if some effector has no
  /// potential).
  double computeEnergy() const;

 private:
  friend class ImpulseSolver;
  friend class ArticulatedSolver;
  /// Every force at time t, the rigid bodies' fictitious wrench too unless
  /// `fictitious` is false; Jacobians when asked.
  void computeForces(double t, bool jacobians, bool fictitious = true);
  /// Rows at the current configuration; at velocity level over a step h,
  /// a non-zero `gdotScale` s adds −s·Ġu to each right-hand side. Without
  /// `entries` only the right-hand sides and compliances are built.
  void buildConstraintRows(double h, bool velocityLevel, const Eigen::VectorXd& up, double gdotScale = 0,
                           bool entries = true);
  /// Trapezoidal's rows: taken at the step's predicted midpoint and holding
  /// the average velocity (u0 + u⁺)/2, written as rows on u⁺.
  void buildMidpointRows(double h, const Eigen::VectorXd& u0);
  /// Forces, Jacobians (if asked), mass and the gathered u0, u_p, f.
  void beginStep(double h, double t, bool jacobians, Eigen::VectorXd& u0);
  /// Position update with velocity uPos over posStep, then slaves,
  /// constraint forces and stabilization.
  void finishStep(double h, double t1, double posStep, const Eigen::VectorXd& uPos);
  void stepImplicit(double t0, double t1);
  void stepExplicit(double t0, double t1);
  void stepRungeKutta4(double t0, double t1);
  void stepImpulse(double t0, double t1);
  void stepArticulated(double t0, double t1);
  void computeAccel(double t, Eigen::VectorXd& a);
  /// Velocities onto the constraints at t1 in the mass norm (an explicit
  /// step's end, an exhausted Impulse step's): the rows in contact hold,
  /// a separated limit or contact may close its gap within a step h.
  void projectVelocities(double t1, double h);
  void stabilizePositions(double t1);
  /// One projection pass if some hard constraint error exceeds `tol`;
  /// false if none was needed. With `chord`, the velocity solve's factors
  /// are reused (see stabilizePositions).
  bool stabilizationPass(double t1, bool chord, double tol);
  /// A chord pass's right-hand side, −φ of the last build's rows (all
  /// bilateral and hard) at the current configuration, from every
  /// constrainer's row errors without building the rows; false where one
  /// cannot give them (Constrainer::getRowErrors), so that the rows are built.
  bool chordRowErrors();
  /// The projection solve of a pass with M (or M − K) at the current configuration.
  void solveProjection(double t1, const Eigen::VectorXd& b, Eigen::VectorXd& dq);
  /// The largest hard-row error over all constrainers, without building rows.
  double maxHardConstraintError() const;
  void updateParametric(double h);
  void moveParametric(Eigen::VectorXd& q, double h) const;
  void addActivePosImpulse(Eigen::VectorXd& q, double h, const Eigen::VectorXd& u) const;
  void distributeConstraintForces(const Eigen::VectorXd& lambda, const Eigen::VectorXd& theta, double h);
  void checkState(double t1, const Eigen::VectorXd& q0, const Eigen::VectorXd& u0);
  /// Tells every constrainer that a step ended (Constrainer::forgetStep).
  void forgetStep();
  void solveOrThrow(KKTSolver& kkt, const SparseMatrixd& S, bool changed, const Eigen::VectorXd& b,
                    Eigen::VectorXd& u, double t);

  MechSystem mySys;
  Eigen::VectorXd myCheckQ, myCheckU;  ///< checkState's workspace
  std::vector<DynamicComponent*> myComps;
  std::vector<ForceEffector*> myEffectors;
  std::vector<Constrainer*> myConstrainers;
  std::vector<int> myRowCountsG, myRowCountsN, myRowCountsD;  ///< rows per constrainer
  Vector3d myGravity{0, 0, -9.8};
  Integrator myIntegrator = Integrator::ConstrainedBackwardEuler;
  double myAlpha = 1, myBeta = 1;
  /// The velocity at the step's start, for the rows whose form reads it:
  /// an AlphaBeta step's compliant rows, and a Trapezoidal step's, built at
  /// its midpoint (buildConstraintRows tells them apart by the
  /// integrator). Set for one build by a StepVelocity, which clears it
  /// however the build ends.
  const Eigen::VectorXd* myStepU0 = nullptr;
  struct StepVelocity {
    MechSystemSolver& s;
    StepVelocity(MechSystemSolver& solver, const Eigen::VectorXd* u0) : s(solver) { s.myStepU0 = u0; }
    ~StepVelocity() { s.myStepU0 = nullptr; }
    StepVelocity(const StepVelocity&) = delete;
    StepVelocity& operator=(const StepVelocity&) = delete;
  };
  ImpulseSettings myImpulseSettings;
  ImpulseReport myImpulseReport;
  std::unique_ptr<ImpulseSolver> myImpulse;
  std::unique_ptr<ArticulatedSolver> myArticulated;
  PosStabilization myStabilization = PosStabilization::GlobalMass;
  double myStabilizationTol = 1e-10;
  KKTSolver myKKT, myProjKKT;
  StepTimings myTimings;
  bool myMassPatternChanged = true, myProjPatternChanged = true;
  /// The velocity solve of this step factored M with hard bilateral rows
  /// only, so its factors can serve as the stabilization's chord.
  bool myChordReady = false;
  // Workspace reused across steps.
  SparseMatrixd myS, myMS;
  ConstraintRows myG, myN;
  MechSystem::RowBuilder::Extras myExtrasG, myExtrasN, myExtrasD;  ///< the builders' per-row values, kept
  FrictionRows myD;  ///< friction rows of the velocity solve
  Eigen::VectorXd myU, myUp, myF, myB, myTmp, myLambda, myTheta;
  Eigen::VectorXd myWarmTheta, myWarmPhi;  ///< the velocity solve's starting contact impulses
};

}  // namespace sinew
