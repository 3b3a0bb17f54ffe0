// The four roles through which the solver sees a mechanical model (seed 000
// §1.2; DESIGN §1): dynamic components (q, u, mass), force effectors (f and
// its Jacobians), constrainers (bilateral and unilateral rows) and
// attachments (slave = G·masters, factored out of the solve).
//
// The solver never walks the tree or knows concrete types: it asks each role
// for its numbers through these interfaces, and components write Jacobian
// blocks through handles declared once per structure change.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "sinew/math/Spatial.h"

namespace sinew {

class DynamicAttachment;

/// A small dense block of at most 6×6 (3 = point, 6 = frame dofs).
using Block = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
using BlockVec = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;

/// A component with position and velocity state and (possibly zero) mass.
class DynamicComponent {
 public:
  virtual ~DynamicComponent() = default;
  /// Velocity (solve) size: 3 for points, 6 for frames.
  virtual int getVelStateSize() const = 0;
  /// Position size: 3 for points, 7 for frames (position + unit quaternion).
  virtual int getPosStateSize() const = 0;
  virtual void getPosState(double* q) const = 0;
  virtual void setPosState(const double* q) = 0;
  virtual void getVelState(double* u) const = 0;
  virtual void setVelState(const double* u) = 0;
  /// q ← q + h·Q(q)·u for position state q (exponential map for rotations).
  virtual void addPosImpulse(double* q, double h, const double* u) const = 0;

  /// Position-state derivative q̇ = Q(q)·u at position state q (for RK4).
  virtual void getPosDerivative(const double* q, const double* u, double* qdot) const {
    (void)q;
    for (int i = 0; i < getPosStateSize(); ++i) qdot[i] = u[i];
  }
  /// Projects a position state back onto its manifold (unit quaternions).
  virtual void normalizePosState(double* q) const { (void)q; }
  /// For a parametric component: sets the velocity it must have over a step
  /// of size h (e.g. to reach a target position).
  virtual void updateParametricVelocity(double h) { (void)h; }
  /// Potential energy −m g·x_com in gravity g.
  virtual double getGravityPotential(const Vector3d& g) const { (void)g; return 0; }

  /// Mass block in world coordinates at the current pose.
  virtual void getMassBlock(Block& M) const = 0;
  virtual double getMass() const = 0;
  /// Fictitious forces −Ṁu (zero for points).
  virtual void getCoriolisForce(BlockVec& f) const { f.setZero(getVelStateSize()); }
  /// Force accumulator in world coordinates (3-vector or wrench).
  virtual void zeroForces() = 0;
  virtual void getForce(double* f) const = 0;
  virtual void addForce(const double* f) = 0;
  /// Adds the gravity force for acceleration g.
  virtual void applyGravity(const Vector3d& g) = 0;
  /// Damping forces from the inheritable damping properties (§3.1.5, §3.2.7)
  /// and, when D is given, their velocity Jacobian (a diagonal-ish block).
  virtual void applyDamping(Block* D) { (void)D; }

  /// Virtual so that a component can follow another's setting (a shell
  /// node's back node is dynamic when its node is).
  virtual bool isDynamic() const { return myDynamic; }
  void setDynamic(bool d) { myDynamic = d; }
  DynamicAttachment* getAttachment() const { return myAttachment; }
  bool isAttached() const { return myAttachment != nullptr; }
  /// Dynamic and not attached: solved for.
  bool isActive() const { return isDynamic() && !myAttachment; }
  /// Not dynamic and not attached: its motion is prescribed.
  bool isParametric() const { return !isDynamic() && !myAttachment; }

  /// Path for messages (the component's path name).
  virtual std::string componentPath() const = 0;

  /// Index of this component in the compiled system (-1 if none).
  int getSystemIndex() const { return mySystemIndex; }
  void setSystemIndex(int i) { mySystemIndex = i; }

 private:
  friend class DynamicAttachment;
  bool myDynamic = true;
  DynamicAttachment* myAttachment = nullptr;
  int mySystemIndex = -1;
};

/// Declares which component pairs a force effector couples, once per
/// structure change; returns a handle for JacobianMatrix::addBlock.
class JacobianPattern {
 public:
  virtual ~JacobianPattern() = default;
  virtual int declareBlock(const DynamicComponent& row, const DynamicComponent& col) = 0;
};

/// Receives Jacobian blocks ∂f_row/∂q_col (or ∂f/∂u) through handles.
class JacobianMatrix {
 public:
  virtual ~JacobianMatrix() = default;
  virtual void addBlock(int handle, const Eigen::Ref<const Eigen::MatrixXd>& B) = 0;
  /// Adds s times each 3×3 block (i, j) of the 3n × 3n matrix K through
  /// handle h[i·n + j]: an element's node blocks in one call (FEM
  /// assembly adds tens of thousands a step).
  virtual void addNodeBlocks(const int* h, int n, const Eigen::MatrixXd& K, double s) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const Eigen::Matrix3d B = s * K.block<3, 3>(3 * i, 3 * j);
        addBlock(h[i * n + j], B);
      }
  }
};

/// A component that exerts forces (seed 000 §1.2).
class ForceEffector {
 public:
  virtual ~ForceEffector() = default;
  /// Adds this effector's forces to its components' accumulators at time t.
  virtual void applyForces(double t) = 0;
  /// Declares the Jacobian blocks this effector writes.
  virtual void declareJacobianBlocks(JacobianPattern& pat) { (void)pat; }
  /// Adds s·∂f/∂q and s·∂f/∂u blocks.
  virtual void addPosJacobian(JacobianMatrix& K, double s) { (void)K; (void)s; }
  virtual void addVelJacobian(JacobianMatrix& D, double s) { (void)D; (void)s; }
  /// Potential energy stored by the effector, for energy reports.
  virtual double getPotentialEnergy() const { return 0; }
};

/// Collects constraint rows: one call to beginRow per row, then one entry
/// per component it touches (a row vector of the component's velocity size).
class ConstraintBuilder {
 public:
  virtual ~ConstraintBuilder() = default;
  /// Starts a row. `dist` is the constraint error φ (negative = violated
  /// for unilateral rows); compliance and damping soften it (§3.3.8).
  /// `velocityProduct` is Ġu, the rate at which the row's value G u changes
  /// at fixed velocities as the configuration moves (the g of eq. 1.7): it
  /// keeps the step's velocity on curved constraints such as a swinging
  /// hinge instead of on their tangent.
  virtual void beginRow(double dist, double compliance = 0, double damping = 0, double velocityProduct = 0) = 0;
  virtual void addEntry(const DynamicComponent& c, const Eigen::Ref<const Eigen::RowVectorXd>& g) = 0;
  /// Whether the caller uses velocityProduct (so constrainers may skip
  /// computing it).
  virtual bool wantsVelocityProducts() const { return false; }
  /// The step the rows are built for (the velocity solve's h), or 0 when
  /// they are not for a step (position stabilization). Contact uses it to
  /// watch what may come into contact within the step.
  virtual double stepSize() const { return 0; }
  /// False when only the rows' errors (dist) are asked, as by a chord pass
  /// of position stabilization that reuses earlier factors: addEntry then
  /// ignores its entries, and constrainers may skip computing them.
  virtual bool wantsEntries() const { return true; }
};

/// The bound of a box-friction row (guide §8.9.4): |φ| ≤ mu · θ, where θ
/// is the impulse of unilateral row `normalRow`, counted among the same
/// constrainer's unilateral rows of the same build.
struct FrictionLimit {
  int normalRow;
  double mu;
};

/// A component that imposes constraints (seed 000 §1.2, eq. 1.5).
class Constrainer {
 public:
  virtual ~Constrainer() = default;
  /// Bilateral rows G u = 0 at the current configuration.
  virtual void getBilateralConstraints(ConstraintBuilder& G) { (void)G; }
  /// Unilateral rows N u ≥ 0 that are currently engaged.
  virtual void getUnilateralConstraints(ConstraintBuilder& N) { (void)N; }
  /// Receives the constraint impulses (in row order) after a solve, divided
  /// by h so they are forces.
  virtual void setConstraintForces(const double* bilateral, const double* unilateral) {
    (void)bilateral; (void)unilateral;
  }
  /// Friction rows D u = 0 with their bounds (contact), asked right after
  /// getUnilateralConstraints when the solver builds velocity rows.
  virtual void getFrictionConstraints(ConstraintBuilder& D, std::vector<FrictionLimit>& limits) {
    (void)D; (void)limits;
  }
  /// Receives the friction impulses of those rows, divided by h.
  virtual void setFrictionForces(const double* friction) { (void)friction; }
  /// Starting impulses for the velocity solve over step h, one per
  /// unilateral row and one per friction row of the last build (in their
  /// order), such as the impulses a contact found again carried in the last
  /// step; left as they are (zero) where there is none. A Gauss–Seidel
  /// contact solve started there needs few sweeps on resting contact.
  virtual void getWarmStart(double h, double* unilateral, double* friction) const {
    (void)h, (void)unilateral, (void)friction;
  }
  /// The largest error of the hard (compliance 0) rows at the current
  /// configuration: |φ| of a bilateral row, the penetration −φ of a
  /// unilateral one; 0 if there is none. Position stabilization asks it
  /// after a correction to decide whether another pass is needed. The
  /// default builds the rows and reads their φ; a constrainer that can
  /// answer without forming the rows should.
  virtual double getMaxHardError();
  /// The errors φ of the rows of the last build (bilateral rows, then the
  /// unilateral ones, in the same order), evaluated afresh at the current
  /// configuration without forming the rows. False where the rows
  /// themselves change there (a limit engaged on its other bound, a row
  /// more or less), so that the caller builds them again; the default,
  /// false, always asks for a build. The Impulse integrator's joint
  /// correction re-evaluates every look-ahead this way.
  virtual bool getRowErrors(double* phi, int numRows) {
    (void)phi, (void)numRows;
    return false;
  }
  /// True when the rows come from collision detection, which runs again on
  /// every build and may change the rows' number and order: a solver that
  /// iterates over the rows within a step (the Impulse integrator) builds
  /// them once per phase and follows their values linearly instead.
  virtual bool rowsFromDetection() const { return false; }
  /// The step has ended (or an entry point that is no step, initialization
  /// or a static solve, begins): what the constrainer kept from one build
  /// for the step's later ones (the velocity solve's contacts, which
  /// position stabilization carries) no longer holds.
  virtual void forgetStep() {}
  /// For rows from detection: remembers the rows of the last build as
  /// "marked", so that impulses found on them can later be carried onto the
  /// rows of a newer build (carryImpulses).
  virtual void markRows() {}
  /// Impulses on the marked rows (in their order), carried onto the rows of
  /// the last build: each row that continues a marked one (the same contact
  /// found again, or the constrainer's stand-in for it) gets its impulse,
  /// the others zero. False, leaving `onLast` alone, where the constrainer
  /// cannot tell which rows continue which.
  virtual bool carryImpulses(const std::vector<double>& onMarked, std::vector<double>& onLast) const {
    (void)onMarked, (void)onLast;
    return false;
  }
};

/// A component with state beyond q and u (DESIGN §1): values that the next
/// step depends on and that saving and restoring the state must carry, such
/// as the joint coordinates against which angles are unwrapped.
class AuxStateComponent {
 public:
  virtual ~AuxStateComponent() = default;
  virtual int getAuxStateSize() const = 0;
  virtual void getAuxState(double* x) const = 0;
  virtual void setAuxState(const double* x) = 0;
  /// The size of the values getAuxState wrote at x, of which `available`
  /// can be read: getAuxStateSize() for a fixed size; a component whose
  /// size varies (the contacts of the last step) reads it from x, or
  /// returns −1 if x cannot hold its values.
  virtual int storedAuxStateSize(const double* x, int available) const {
    (void)x, (void)available;
    return getAuxStateSize();
  }
};

/// A slave component whose motion follows master components (seed 000 eqs.
/// 1.9–1.13): u_s = Σ J_i u_mi.
class DynamicAttachment {
 public:
  virtual ~DynamicAttachment() = default;
  virtual DynamicComponent& getSlave() const = 0;
  virtual int numMasters() const = 0;
  virtual DynamicComponent& getMaster(int i) const = 0;
  /// J_i for master i at the current configuration.
  virtual void getMasterJacobian(int i, Block& J) const = 0;
  /// Velocity-product term: slave acceleration = Σ J_i a_mi + this.
  virtual void getVelocityProduct(BlockVec& a) const { a.setZero(getSlave().getVelStateSize()); }
  /// Sets the slave's position (and velocity) from its masters.
  virtual void updatePosStates() = 0;
  virtual void updateVelStates() = 0;
  /// Stiffness from the configuration dependence of J (e.g. a force on a
  /// marker turning the frame): adds ∂(Jᵀ f_s)/∂q_m for master i into K.
  virtual void getGeometricStiffness(int i, const double* fs, Block& K) const {
    (void)i; (void)fs; K.setZero(0, 0);
  }

 protected:
  /// Marks the slave as attached to this attachment (or detaches it).
  static void setAttachment(DynamicComponent& slave, DynamicAttachment* a) { slave.myAttachment = a; }
};

}  // namespace sinew
