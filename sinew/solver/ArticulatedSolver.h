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
//   4. each joint's constraint force is the wrench its parent transmits,
//      f = I^A a + p^A, split over its bilateral rows (§3.3.7).
//
// What it takes: active components that are rigid bodies; joints that form
// trees, each rooted at ground, at a non-dynamic frame, or at a free body
// (six coordinates); couplings whose allowed motion is fixed in the joint
// frame (RigidBodyCoupling::getFixedMotionSubspace: hinge, slider,
// cylindrical, planar, planar translation, solid, spherical, gimbal); no
// coordinate limits, locks, tilt limits or compliance; no other
// constrainer (contact, a closed loop). Anything else is a ModelError naming
// the component, raised when the integrator is set up (or, for a range set
// later, at the step). Forces are explicit: a stiff spring needs a step
// that resolves it, as under SymplecticEuler.
#pragma once

#include <vector>

#include "sinew/solver/MechSystemSolver.h"

namespace sinew {

class Frame;
class JointBase;
class RigidBody;

class ArticulatedSolver {
 public:
  /// Finds the trees; throws ModelError for what the integrator cannot take.
  explicit ArticulatedSolver(MechSystemSolver& s);
  void step(double t0, double t1);

 private:
  /// A body and the joint to its parent. Spatial quantities are in world
  /// axes about the world origin, linear part first.
  struct Link {
    RigidBody* body = nullptr;
    JointBase* joint = nullptr;   ///< null: a free root with six coordinates
    int parent = -1;              ///< parent link; −1: ground or fixedParent
    Frame* fixedParent = nullptr; ///< a non-dynamic parent frame
    bool childIsA = true;         ///< the body is the joint's A (frame C)
    RigidTransform3d TFcB, TBFc;  ///< the child's joint frame in the body, and its inverse
    RigidTransform3d TFpP;        ///< the parent's joint frame in the parent (in the world for ground)
    Matrix6d S = Matrix6d::Zero();  ///< allowed motion in the child's joint frame (first dof columns)
    int dof = 6;
    /// The coupling has unilateral constraints that are not coordinate
    /// limits (a spherical joint's tilt limit): checked at every step.
    bool otherUnilateral = false;
    // This step's state.
    RigidTransform3d TFcW, TFpW, Trel;  ///< Trel: the child's joint frame in the parent's
    // Joint quantities in their first dof columns (rows): the link's steps
    // are instantiated for each dof, so every product has a fixed size.
    Matrix6d Sw, U, Dinv;
    Vector6d u = Vector6d::Zero(), up;  ///< the coordinates' velocity (zero past dof), and τ − Sᵀp^A
    Vector6d V, c, pA, A;
    Matrix6d IA;
    Vector6d fixedV = Vector6d::Zero();  ///< fixedParent's velocity at the last step
    bool fixedVKnown = false;
  };
  /// Adds the link of `body` under `parent` through `joint`.
  void addLink(RigidBody* body, JointBase* joint, int parent);
  /// Throws if a joint has acquired what the integrator cannot take.
  void checkJoint(const Link& l, double t) const;
  /// Pass 1: poses, velocities, inertias and bias forces, roots first.
  void readState(Link& l, double h);
  /// Pass 1's joint part: S in world axes, u, the twist and the bias c.
  template <int K>
  void jointVelocity(Link& l, const Vector6d& Vp, const Vector6d& Ap);
  /// Pass 2 for one link: D⁻¹, τ − Sᵀp^A and what it passes to its parent.
  template <int K>
  void inward(Link& l, double t1);
  /// Pass 3 for one link: its acceleration; u advanced by h.
  template <int K>
  void outward(Link& l, double h);
  /// Passes 2 and 3 over all links.
  void solveAccelerations(double h, double t1);
  /// Moves the link by its new velocity and sets its joint's forces.
  void moveLink(Link& l, double h);

  MechSystemSolver& myS;
  std::vector<Link> myLinks;
  bool myHasParametric = false;
};

}  // namespace sinew
