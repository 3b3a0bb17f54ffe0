// Joint couplings (guide §3.3.2, §4.9.3–4.9.4): what a joint allows, as a
// set of constraints and coordinates on the joint transform T_CD, testable
// without a model and open to users who write their own joints.
//
// A coupling projects T_CD onto the nearest allowed transform T_GD (frame
// G, §3.3.2) and computes its coordinates; the error T_CG = T_GD⁻¹ T_CD,
// taken as a small twist δ, gives each bilateral constraint its distance
// w_k·δ (eq. 4.27). Constraint wrenches are expressed in G. A coordinate
// may name a unilateral LIMIT constraint whose wrench N satisfies
// q̇ = N·v̂_GD (eq. 4.34); the joint uses it for ranges, locking and speeds.
//
// Writing a coupling (§4.9.4): subclass, implement the four virtuals, and
// call initializeConstraints() from the constructor (C++ cannot call it
// from the base constructor as the guide's Java does).
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "sinew/math/Spatial.h"

namespace sinew {

class CoordinateInfo;

/// One constraint of a coupling (guide §4.9.4, RigidBodyConstraint).
class RigidBodyConstraint {
 public:
  enum Flag : int { BILATERAL = 1, ROTARY = 2, LINEAR = 4, CONSTANT = 8, LIMIT = 16 };
  int getIndex() const { return myIndex; }
  int getFlags() const { return myFlags; }
  bool isBilateral() const { return myFlags & BILATERAL; }
  bool isRotary() const { return myFlags & ROTARY; }
  bool isLimit() const { return myFlags & LIMIT; }
  /// The coordinate whose range this LIMIT constraint enforces.
  CoordinateInfo* getCoordinate() const { return myCoordinate; }

  const Wrench& getWrenchG() const { return myWrench; }
  void setWrenchG(const Wrench& w) { myWrench = w; }
  void setWrenchG(double fx, double fy, double fz, double mx, double my, double mz) {
    myWrench << fx, fy, fz, mx, my, mz;
  }
  void setWrenchG(const Vector3d& f, const Vector3d& m) { myWrench << f, m; }
  void negateWrenchG() { myWrench = -myWrench; }
  void zeroWrenchG() { myWrench.setZero(); }

  /// Unilateral state (§4.9.1): distance to the inadmissible region
  /// (negative inside) and engagement sign E ∈ {−1, 0, 1}.
  double getDistance() const { return myDistance; }
  void setDistance(double d) { myDistance = d; }
  int getEngaged() const { return myEngaged; }
  void setEngaged(int e) { myEngaged = e; }

 private:
  friend class RigidBodyCoupling;
  int myIndex = 0;
  int myFlags = 0;
  Wrench myWrench = Wrench::Zero();
  double myDistance = 0;
  int myEngaged = 0;
  CoordinateInfo* myCoordinate = nullptr;
};

/// One joint coordinate (guide §4.9.4, CoordinateInfo): its current value,
/// range, lock and the constraint that enforces its limits.
class CoordinateInfo {
 public:
  std::string name;
  double value = 0;
  double min = -INFINITY, max = INFINITY;
  bool locked = false;
  double lockedValue = 0;
  RigidBodyConstraint* limitConstraint = nullptr;
  bool isRotary() const { return limitConstraint && limitConstraint->isRotary(); }
  /// The angle φ + 2πk nearest to the current value, so angles unwrap
  /// through ranges wider than 2π.
  double nearestAngle(double phi) const;
};

class RigidBodyCoupling {
 public:
  virtual ~RigidBodyCoupling() = default;
  RigidBodyCoupling() = default;
  RigidBodyCoupling(const RigidBodyCoupling&) = delete;
  RigidBodyCoupling& operator=(const RigidBodyCoupling&) = delete;

  int numConstraints() const { return static_cast<int>(myConstraintAt.size()); }
  RigidBodyConstraint& getConstraint(int i) { return *myConstraintAt.at(i); }
  const RigidBodyConstraint& getConstraint(int i) const { return *myConstraintAt.at(i); }
  int numCoordinates() const { return static_cast<int>(myCoordinateAt.size()); }
  CoordinateInfo& getCoordinateInfo(int i) { return *myCoordinateAt.at(i); }
  const CoordinateInfo& getCoordinateInfo(int i) const { return *myCoordinateAt.at(i); }
  /// The current coordinate values.
  Eigen::VectorXd getCoordinateValues() const;

  /// T_CD for the given coordinates (couplings without coordinates: nothing).
  virtual void coordinatesToTCD(RigidTransform3d& TCD, const Eigen::VectorXd& coords) const {
    (void)TCD; (void)coords;
  }
  /// The coordinates of a T_CD that satisfies the constraints; angles are
  /// taken nearest to the current values, never clipped to their ranges.
  virtual void TCDToCoordinates(Eigen::VectorXd& coords, const RigidTransform3d& TCD) const {
    (void)coords; (void)TCD;
  }
  /// The allowed T_GD nearest to T_CD, and (when `coords` is given) its
  /// coordinates.
  virtual void projectToConstraints(RigidTransform3d& TGD, const RigidTransform3d& TCD,
                                    Eigen::VectorXd* coords) const = 0;
  /// Updates every non-constant wrench (limit wrenches included) and, when
  /// `updateEngaged`, the distance and engagement of each unilateral
  /// constraint that is not a coordinate limit. `errC` is T_CG as a twist,
  /// `velGD` the velocity of G relative to D, both in G coordinates; velGD
  /// is zero where only the rows' errors are asked (position
  /// stabilization's chord passes, the Impulse integrator's look-ahead).
  virtual void updateConstraints(const RigidTransform3d& TGD, const RigidTransform3d& TCD, const Twist& errC,
                                 const Twist& velGD, bool updateEngaged) = 0;

  /// The velocities of C relative to D (in C coordinates) that the
  /// coupling allows, when the allowed T_CD form a group and these
  /// velocities are the same at every allowed pose (then D's velocities
  /// relative to C, in D, span the same directions): their basis as the
  /// first k columns of S, unit vectors along C's axes, and k returned. −1
  /// otherwise (a universal joint's, a slotted hinge's). Such a coupling's
  /// bilateral wrenches must depend on T_GD alone (not on the coordinate
  /// values). The Articulated integrator takes its joints' motion
  /// subspaces from here.
  virtual int getFixedMotionSubspace(Matrix6d& S) const {
    (void)S;
    return -1;
  }

  /// The rates behind an analytic Ġu (JointBase), where the coupling knows
  /// them: with C moving relative to D at velCD (twist of C's origin, in D
  /// coordinates), G's angular velocity relative to D (in G coordinates)
  /// and the rate of each constraint's wrench in G, at the T_GD and T_CD of
  /// the last updateConstraints. Couplings without them (the default)
  /// return false, and Ġu is taken by a forward difference.
  virtual bool providesWrenchRates() const { return false; }
  virtual void getWrenchRates(const RigidTransform3d& TGD, const RigidTransform3d& TCD, const Twist& velCD,
                              Vector3d& omegaGD, std::vector<Wrench>& wrenchRates) const {
    (void)TGD, (void)TCD, (void)velCD, (void)omegaGD, (void)wrenchRates;
  }

  /// Whether projectToConstraints or updateConstraints read the stored
  /// coordinate values for more than unwrapping angles (a universal joint's
  /// wrenches turn with its roll). Where they do not, an evaluation that
  /// wants only the rows' errors, with no coordinate limited or locked,
  /// leaves the coordinates alone (JointBase::evaluate).
  virtual bool usesStoredCoordinates() const { return true; }

  /// The errors φ of the bilateral rows at T_CD, in the order of the
  /// bilateral constraints, as the full evaluation gives them to round-off
  /// (projectToConstraints without coordinates, errorTwist, each row's
  /// wrench at T_GD dotted with the error twist), and that error twist:
  /// a shortcut for the Impulse integrator's look-ahead and position
  /// stabilization's chord passes, asked only while no coordinate is
  /// limited or locked and no other limit can engage. Returns how many
  /// rows it wrote into phi (room for kMaxBilateralErrors), or −1 (the
  /// default) where the coupling gives none; JointBase then evaluates in
  /// full.
  static constexpr int kMaxBilateralErrors = 6;
  virtual int bilateralErrors(const RigidTransform3d& TCD, double* phi, Twist& errC) const {
    (void)TCD, (void)phi, (void)errC;
    return -1;
  }

  /// Whether a unilateral constraint that is not a coordinate limit can
  /// engage (a spherical joint's tilt limit, once set): the Articulated
  /// integrator asks such a joint for its rows at every step.
  virtual bool hasOtherLimits() const {
    for (const RigidBodyConstraint* c : myConstraintAt)
      if (!c->isBilateral() && !c->isLimit()) return true;
    return false;
  }

  /// Engages a unilateral constraint on the nearer finite bound of the
  /// admissible interval dmin ≤ dist ≤ dmax and sets its distance to that
  /// bound. Sinew keeps the nearer bound engaged at all times: the solver's
  /// unilateral rows are speculative (§4.9.2), active only when a step
  /// would cross the bound, so no deadband or engagement hysteresis is
  /// needed.
  static void updateEngaged(RigidBodyConstraint& c, double dist, double dmin, double dmax);
  /// The rate of θ = atan2 of C's x axis seen in D's x–y plane, for C
  /// moving relative to D at velCD (D coordinates): θ̇ = (c ṡ − s ċ)/(c² +
  /// s²) with (c, s) that axis's x and y. A coupling whose G turns about
  /// D's z by θ gives it as the z of ω_GD (getWrenchRates).
  static double zAngleRate(const RigidTransform3d& TCD, const Twist& velCD);

 protected:
  /// T_GD, the projection of T_CD without coordinates, and the error twist
  /// of T_CD from it, errorTwist(T_GD⁻¹ T_CD): what a bilateralErrors()
  /// computes its rows from, as JointBase's evaluation does.
  Twist projectedError(const RigidTransform3d& TCD, RigidTransform3d& TGD) const;
  /// Adds the constraints and coordinates; call it from the constructor.
  virtual void initializeConstraints() = 0;
  /// Clears the constraints and coordinates and calls initializeConstraints()
  /// again, after a setting that defines them has changed.
  void reinitializeConstraints() {
    myConstraints.clear();
    myCoordinates.clear();
    myConstraintAt.clear();
    myCoordinateAt.clear();
    initializeConstraints();
  }
  RigidBodyConstraint& addConstraint(int flags);
  /// A constraint whose wrench is constant in G.
  RigidBodyConstraint& addConstraint(int flags, const Wrench& wrenchG);
  CoordinateInfo& addCoordinate(std::string name, double min = -INFINITY, double max = INFINITY,
                                RigidBodyConstraint* limitConstraint = nullptr);

 private:
  std::deque<RigidBodyConstraint> myConstraints;  // deque: references stay valid
  std::deque<CoordinateInfo> myCoordinates;
  // Each by its index: a deque's indexing costs a division, and joints
  // index their constraints several times a row at every step.
  std::vector<RigidBodyConstraint*> myConstraintAt;
  std::vector<CoordinateInfo*> myCoordinateAt;
};

/// The error twist of T_CG: translation and rotation vector, in G coordinates.
Twist errorTwist(const RigidTransform3d& TCG);

/// A wrench in G coordinates for a direction given in D coordinates.
inline Vector3d toG(const RigidTransform3d& TGD, const Vector3d& dirD) { return TGD.R.transpose() * dirD; }

}  // namespace sinew
