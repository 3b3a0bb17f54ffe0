// The Articulated integrator: rigid bodies joined in trees, advanced in
// their joints' coordinates by the articulated-body algorithm (Featherstone,
// "Rigid Body Dynamics Algorithms", 2008, §7.3). It is Sinew's
// reduced-coordinate counterpart of the guide's integrators (§4.1.2): the
// joints never drift apart, and a step costs O(N) with a small constant,
// as in the reduced-coordinate engines (MuJoCo, Bullet's btMultiBody,
// Simbody) whose chains the peer benchmarks compare.
//
// One step of size h from t0 (symplectic Euler in the coordinates):
//   1. forces at t0 (gravity, effectors, damping; not the fictitious
//      wrench, which the algorithm's bias forces carry);
//   2. each joint's velocity u from the bodies' twists; the algorithm's
//      three passes give the joint accelerations q̈; u⁺ = u + h q̈;
//   3. from the roots out, each joint moves along its allowed motion by
//      h u⁺ and is projected onto its coupling; the body poses and twists
//      follow from the parent's, so every joint holds exactly;
//   4. each joint's constraint force is the wrench its parent transmits
//      (Newton–Euler over its subtree), split over its bilateral rows
//      (§3.3.7): recorded by the step, handed to the joints once the step
//      has succeeded, and formed when first read (ArticulatedForces.cpp).
//
// What it takes: active components that are rigid bodies; joints that form
// trees, each rooted at ground, at a non-dynamic frame, or at a free body
// (six coordinates); couplings whose allowed motion is fixed in the joint
// frame (RigidBodyCoupling::getFixedMotionSubspace: hinge, slider,
// cylindrical, planar, planar translation, solid, spherical, gimbal); no
// locks or compliance; no other constrainer (contact); no attached
// component with mass. Anything else is an error naming the component,
// raised at the first step (or, for a setting made later, at the step that
// meets it) and reported by advance as a SolverError. Forces are explicit: a
// stiff spring needs a step that resolves it, as under SymplecticEuler.
//
// Loops and limits: a joint that closes a loop (its two bodies already in
// one tree) is cut, and its rows, with the unilateral rows of coordinate
// ranges, are held by impulses at the velocity level as in the MLCP (seed
// 000 eq. 1.6; rows G u⁺ = −(h/2)Ġu, limits speculative), the rows' Delassus
// matrix G M⁻¹ Gᵀ formed from one articulated response per row (m rows:
// O(m N)). Redundant rows (a planar loop's out-of-plane closure) are
// regularized. After the positions move, projection passes pull the cut
// joints and limits back within the stabilization tolerance, as
// GlobalMass stabilization does (§4.1.3), five passes at most.
#pragma once

#include <limits>
#include <memory>
#include <vector>

#include "sinew/solver/MechSystemSolver.h"

namespace sinew {

class DeferredJointForces;
class Frame;
class JointBase;
class RigidBody;

class ArticulatedSolver {
 public:
  /// Finds the trees; throws ModelError for what the integrator cannot take.
  explicit ArticulatedSolver(MechSystemSolver& s);
  ~ArticulatedSolver();
  void step(double t0, double t1);
  /// Hands the step's recorded joint forces to the joints (deferred: formed
  /// when first asked for). MechSystemSolver::advance calls it once the
  /// step has succeeded, its state checked.
  void publishJointForces();

 private:
  /// A frame's pose as last seen, compared exactly (its rotation follows
  /// from its quaternion): what is formed from the pose alone can be kept
  /// while it matches, and a restored state continues bit for bit.
  struct PoseKey {
    Vector3d pos = Vector3d::Constant(std::numeric_limits<double>::quiet_NaN());  ///< NaN: matches nothing
    Eigen::Vector4d quat = Eigen::Vector4d::Zero();
    bool matches(const Frame& f) const;
    void take(const Frame& f);
    void forget() { pos.setConstant(std::numeric_limits<double>::quiet_NaN()); }
  };
  /// A body and the joint to its parent. Spatial quantities are in world
  /// axes about the body's origin (its twist and wrench as it keeps them),
  /// linear part first; shifted by r between a link and its parent.
  struct Link {
    RigidBody* body = nullptr;
    JointBase* joint = nullptr;   ///< null: a free root with six coordinates
    int parent = -1;              ///< parent link; −1: ground or fixedParent
    Frame* fixedParent = nullptr; ///< a non-dynamic parent frame
    bool childIsA = true;         ///< the body is the joint's A (frame C)
    RigidTransform3d TFcB, TBFc;  ///< the child's joint frame in the body, and its inverse
    RigidTransform3d TFpP;        ///< the parent's joint frame in the parent (in the world for ground)
    unsigned framesVersion = ~0u; ///< the joint's frames version the three were taken at
    Matrix6d S = Matrix6d::Zero();  ///< allowed motion in the child's joint frame (first dof columns)
    int dof = 6;
    /// The joint has unilateral rows (a coordinate range, a tilt limit),
    /// which enter the step's constraint solve.
    bool limited = false;
    // This step's state.
    RigidTransform3d TFcW, TFpW, Trel;  ///< Trel: the child's joint frame in the parent's
    /// The parent link's pose TFpW was formed at: the next step would form
    /// the same TFpW from an unchanged pose, so it is kept.
    PoseKey TFpWAt;
    // Joint quantities in their first dof columns (rows): the link's steps
    // are instantiated for each dof, so every product has a fixed size.
    Matrix6d Sw, U, Dinv;
    Vector6d u = Vector6d::Zero(), up;  ///< the coordinates' velocity (zero past dof), and τ − Sᵀp^A
    Vector3d r = Vector3d::Zero();      ///< the body's origin from its parent link's
    Vector3d origin = Vector3d::Zero();  ///< the body's origin at the step's start
    Vector6d Vroot = Vector6d::Zero();  ///< a root's parent twist here (a non-dynamic parent's)
    Vector6d AcRoot = Vector6d::Zero(); ///< a root's acceleration here at its parent's fixed twist
    Vector6d V, c, pA, A;
    Vector6d cJ;                        ///< c less a non-dynamic parent's acceleration: Ṡu
    Matrix6d IA, I;                     ///< articulated and own inertia
    Vector6d p0;                        ///< own bias: V ×f I V − applied wrench
    // A response to impulses (ArticulatedRows.cpp): the impulse on the link
    // (then its articulated bias), τ − Sᵀp, the velocity change and the
    // coordinates' change.
    Vector6d pT, upT, AT, duT = Vector6d::Zero();
    Vector6d F;                         ///< constraint rows' wrench on the body
    Vector6d Ac;                        ///< acceleration at fixed u: Σ c along the path
    Vector6d Vread;                     ///< the body's twist as the step found it
    /// fixedParent's twist and pose where the last step left it (none
    /// before the first step).
    Vector6d fixedV = Vector6d::Zero();
    PoseKey fixedAt;
  };
  struct Rows;
  class RowSink;
  class ForceRecord;

  /// Adds the link of `body` under `parent` through `joint`.
  void addLink(RigidBody* body, JointBase* joint, int parent);
  /// Throws if a joint has acquired what the integrator cannot take.
  void checkJoint(Link& l, double t) const;
  /// Pass 1: poses, velocities, inertias and bias forces, roots first.
  void readState(Link& l, double h);
  /// Pass 1's joint part: S in world axes, u, the twist and the bias c.
  template <int K>
  void jointVelocity(Link& l, const Vector6d& Vp, const Vector6d& VpBefore, const Vector6d& Ap);
  /// Takes the joint's frames afresh if they changed (transformGeometry).
  void refreshJointFrames(Link& l);
  /// Forms TFpW, the parent's joint frame in the world, from the parent
  /// link's pose, unless that pose is exactly the one it was last formed at.
  void formParentFrame(Link& l);
  /// Pass 2 for one link: D⁻¹, τ − Sᵀp^A and what it passes to its parent.
  template <int K>
  void inward(Link& l, double t1);
  /// Pass 3 for one link: its acceleration; u advanced by h.
  template <int K>
  void outward(Link& l, double h);
  /// Passes 2 and 3 over all links.
  void solveAccelerations(double h, double t1);
  /// Moves the link's joint by dq in its coordinates (a free root: by its
  /// origin's displacement and rotation dq), from its parent's current pose.
  void moveLink(Link& l, const Vector6d& dq);
  /// The link's twist from its parent's and u, at the current poses.
  void setLinkVelocity(Link& l);
  /// Records what each tree joint's constraint forces follow from (the
  /// wrench its parent transmits: Newton–Euler over its subtree with the
  /// accelerations A); joints whose limit rows are engaged this step have
  /// theirs formed at once.
  void recordJointForces(double h);

  // Loops and limits (ArticulatedRows.cpp): rows over the links' twists,
  // solved by impulses whose responses the articulated inertias give.
  /// Builds the rows at the current poses: for the velocity solve (with
  /// entries) or their errors alone for a projection pass.
  void buildRows(double h, bool velocityLevel, bool entries);
  /// The velocity change (AT) and coordinates' change (duT) of every link
  /// for the impulses in pT, at the step's articulated inertias.
  void respond();
  /// The impulses λ on the rows that bring their values from y0 to their
  /// targets (bilateral) or bounds (unilateral, λ ≥ 0); false if neither
  /// the active set nor its Gauss–Seidel fallback converged.
  bool solveRows(const Eigen::VectorXd& y0, Eigen::VectorXd& lambda);
  /// Puts Σ λ_k w_k into the links' pT.
  void loadImpulses(const Eigen::VectorXd& lambda);
  /// The links' impulses of row k alone, times lambda.
  void loadImpulse(int k, double lambda);
  /// Adds row k's impulse times lambda to its links'.
  void addRowImpulse(int k, double lambda);
  /// The velocity solve's impulses: u and A change by their response.
  void solveVelocityRows(double h, double t1);
  /// Passes that pull loops and limits together at the new poses.
  void projectPositions(double t1);

  MechSystemSolver& myS;
  std::vector<Link> myLinks;
  /// Joints that close loops: all their rows enter the constraint solve.
  std::vector<JointBase*> myCutJoints;
  std::unique_ptr<Rows> myRows;
  /// Two records of joint forces: the one the joints are deferred to (the
  /// last good step's) and the one a step fills.
  struct ForceRecords {
    ForceRecords();
    std::shared_ptr<ForceRecord> record[2];
    std::shared_ptr<const DeferredJointForces> view[2];  ///< the same, as the joints take them
    int published = -1, filling = -1;
  };
  std::unique_ptr<ForceRecords> myForces;
  bool myHasParametric = false;
};

}  // namespace sinew
