// Joints between two frames (guide §3.3, §4.9.3): frame C fixed to body A,
// frame D fixed to body B or to ground, the joint transform T_CD
// restricted by a RigidBodyCoupling. The joint is a Constrainer: the
// coupling's bilateral constraints become bilateral rows, its unilateral
// ones (coordinate limits, tilt limits, one-sided connectors) unilateral
// rows that the solver activates only when a step would cross their bound
// (§4.9.2), and locked coordinates add bilateral rows (§3.3.5). Compliance
// and damping soften the rows (§3.3.8). Constraint forces are kept after
// each step (§3.3.7).
//
// A custom joint (§4.9.3) is a JointBase constructed with its coupling;
// coordinate properties come from addCoordinateProperties().
//
// Either body may be any FrameAttachable, an FEM model too (§6.6.2): the
// joint then keeps its frame C (or D) as a child Frame, "frameC" ("frameD"),
// attached to the FEM by the attachment the FEM creates, and uses that
// frame as the body (T_CA or T_DB = I).
#pragma once

#include <memory>
#include <vector>

#include "sinew/joints/RigidBodyCoupling.h"
#include "sinew/mech/DynamicComponent.h"
#include "sinew/mech/Attachments.h"
#include "sinew/mech/Frame.h"
#include "sinew/mech/TransformableGeometry.h"
#include "sinew/model/Component.h"

namespace sinew {

class JointBase;

/// A step's constraint forces that a solver forms only when a joint's are
/// first asked for: the Articulated integrator's joint forces cost a pass
/// over the tree that most runs never read. It holds its own copy of the
/// step's data, so it can form them until the next step replaces them.
class DeferredJointForces {
 public:
  virtual ~DeferredJointForces() = default;
  /// Sets `joint`'s forces (JointBase::setConstraintWrench) from its entry.
  virtual void formFor(JointBase& joint, int entry) const = 0;
};

class JointBase : public CompositeComponent, public Constrainer, public AuxStateComponent, public TransformableGeometry {
  SINEW_DECLARE_PROPERTIES
 public:
  JointBase(std::string name, std::unique_ptr<RigidBodyCoupling> coupling);

  /// Connects A to B (nullptr: ground) with D at world pose TDW and the
  /// joint at its current coordinates (zero unless set before). A and B may
  /// be frames, rigid bodies or FEM models (§6.6.2).
  void setBodies(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW);
  /// Connects with C and D given in world coordinates.
  void setBodies(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TCW,
                 const RigidTransform3d& TDW);
  /// Connects with explicit frames C (in A) and D (in B or world); A and B
  /// must be frames (ModelError for an FEM model, which has no fixed frame).
  void setBodies(FrameAttachable& bodyA, const RigidTransform3d& TCA, FrameAttachable* bodyB,
                 const RigidTransform3d& TDB);
  /// The frames the joint acts on: the bodies, or for an FEM model the
  /// joint's own frame attached to it.
  Frame* getBodyA() const { return myA; }
  Frame* getBodyB() const { return myB; }
  const RigidTransform3d& getTCA() const { return myTCA; }
  const RigidTransform3d& getTDB() const { return myTDB; }
  /// Changes each time T_CA or T_DB is set or moved (transformGeometry), so
  /// that a solver keeping quantities formed from them knows when to renew them.
  unsigned getFramesVersion() const { return myFramesVersion; }

  RigidTransform3d getCurrentTCW() const;
  RigidTransform3d getCurrentTDW() const;
  RigidTransform3d getCurrentTCD() const;
  /// The joint error T_CG as a small twist (zero when the joint holds).
  Twist getConstraintError() const;

  // Coordinates (§3.3.4); radians/metres here, degrees for rotary
  // coordinates in the *Display accessors and in properties.
  int numCoordinates() const { return myCoupling->numCoordinates(); }
  const std::string& getCoordinateName(int i) const { return info(i).name; }
  double getCoordinate(int i) const;
  Eigen::VectorXd getCoordinates() const;
  /// Sets a coordinate by moving the freer body (A unless it is not dynamic).
  void setCoordinate(int i, double value);
  void setCoordinates(const Eigen::VectorXd& values);
  double getCoordinateSpeed(int i) const;
  void setCoordinateRange(int i, double min, double max);
  double getMinCoordinate(int i) const { return info(i).min; }
  double getMaxCoordinate(int i) const { return info(i).max; }
  bool isLocked(int i) const { return info(i).locked; }
  void setLocked(int i, bool locked);
  double getCoordinateDisplay(int i) const;
  void setCoordinateDisplay(int i, double v);
  Eigen::VectorXd getCoordinateRangeDisplay(int i) const;
  void setCoordinateRangeDisplay(int i, const Eigen::VectorXd& range);

  // Compliance and damping per row kind (§3.3.8; 0 = hard).
  double getLinearCompliance() const { return myLinCompliance; }
  void setLinearCompliance(double c);
  double getRotaryCompliance() const { return myRotCompliance; }
  void setRotaryCompliance(double c);
  double getCompliantDamping() const { return myDamping; }
  void setCompliantDamping(double d);

  // Constraint forces of the last step (§3.3.7), one per row in the
  // coupling's constraint order (locked coordinates last).
  const Eigen::VectorXd& getBilateralForces() const {
    if (myDeferred) formDeferredForces();
    if (myBilateralToSplit) splitBilateralWrench();
    return myBilateralForces;
  }
  const Eigen::VectorXd& getUnilateralForces() const {
    if (myDeferred) formDeferredForces();
    return myUnilateralForces;
  }
  /// Total constraint wrench on body A, in C coordinates (at C's origin).
  const Wrench& getConstraintWrench() const {
    if (myDeferred) formDeferredForces();
    return myWrench;
  }

  RigidBodyCoupling& getCoupling() const { return *myCoupling; }

  // Constrainer
  void getBilateralConstraints(ConstraintBuilder& G) override;
  void getUnilateralConstraints(ConstraintBuilder& N) override;
  void setConstraintForces(const double* bilateral, const double* unilateral) override;
  // The coordinate values are state: angles unwrap against them, so a
  // restored state must bring them back (a hinge turned three times reads
  // 1080°, and reads 540° again after restoring the state of 1.5 turns).
  int getAuxStateSize() const override { return numCoordinates(); }
  void getAuxState(double* x) const override;
  void setAuxState(const double* x) override;
  /// From the coupling's errors, without forming the rows.
  double getMaxHardError() override;
  bool getRowErrors(double* phi, int numRows) override;

  // For the Articulated integrator (ArticulatedSolver.h), which moves a
  // joint by its allowed motion instead of building its rows.
  /// The allowed T_GD nearest to TCD; refreshes the coordinate values.
  RigidTransform3d projectTCD(const RigidTransform3d& TCD) const { return project(TCD); }
  /// Sets the constraint forces of a joint at the allowed pose TGD
  /// (T_CD = T_GD): bilateralG, the wrench its bilateral rows apply to A in
  /// G coordinates about C's origin, and the forces of the unilateral rows
  /// of its last getUnilateralConstraints (none: pass nu = 0). The
  /// bilateral forces are bilateralG's components along the bilateral
  /// rows' wrenches at TGD, found when first asked for (the coupling's
  /// constraints are updated at TGD then: its bilateral wrenches must
  /// depend on T_GD alone, as those of a coupling with a fixed motion
  /// subspace do).
  void setConstraintWrench(const RigidTransform3d& TGD, const Wrench& bilateralG, const double* unilateral = nullptr,
                           int nu = 0);
  /// The last step's forces are `source`'s entry `entry`, formed (by
  /// setConstraintWrench) when first asked for; any forces set later replace them.
  void deferConstraintForces(const std::shared_ptr<const DeferredJointForces>& source, int entry) {
    if (mySource.get() != source.get()) mySource = source;
    mySourceEntry = entry;
    myDeferred = true;
  }

  /// Adds the properties `name` (value), `nameRange` and `nameLocked` of
  /// coordinate i to a joint class's property list.
  static void addCoordinateProperties(PropertyList& list, const std::string& name, int i, const std::string& doc);

  // TransformableGeometry: a D fixed in the world moves with the model (§4.7).
  void transformGeometry(const RigidTransform3d& X) override;

 protected:
  std::string coordinatePath(int i) const;
  const CoordinateInfo& info(int i) const;
  /// For subclasses that change their coupling's constraints after
  /// construction (e.g. a connector made unilateral).
  void couplingStructureChanged();

 private:
  void requireConnected() const;
  /// The frames A and B with C and D in them; releases internal frames no
  /// longer used.
  void connect(Frame& bodyA, const RigidTransform3d& TCA, Frame* bodyB, const RigidTransform3d& TDB);
  /// `body` itself if it is a frame, else the joint's internal frame `which`
  /// (0: C, 1: D) at pose TW, attached to body.
  Frame& frameOn(FrameAttachable& body, const RigidTransform3d& TW, int which);
  void releaseInternalFrame(int which);
  bool isInternalFrame(const Frame* f) const { return f && (f == myInternal[0].frame || f == myInternal[1].frame); }
  /// Projects the current T_CD, refreshing the coordinate values unless
  /// `coordinates` is false.
  RigidTransform3d project(const RigidTransform3d& TCD, bool coordinates = true) const;
  /// Whether the rows' errors need the coordinates: the coupling reads them
  /// (RigidBodyCoupling::usesStoredCoordinates), or a coordinate is limited
  /// or locked (its engagement and lock row read its value).
  bool errorsNeedCoordinates() const;
  /// Whether a coordinate has a finite range or is locked (its limit or
  /// lock rows may then engage).
  bool coordinatesLimitedOrLocked() const;
  /// The joint's frames, error and relative velocity for bodies at given poses.
  struct Evaluation {
    RigidTransform3d TCW, TGW, TCD, TGD;
    Twist errC, velG;  ///< T_CG as a twist; velocity of C relative to D's body, in G axes
  };
  /// Projects T_CD for A at TAW and B at TBW (ignored without B), refreshing
  /// the coordinates, and updates the coupling's constraints there; the
  /// unilateral engagement too when `engage`. With `errorsOnly`, e.TGW and
  /// e.velG are left out (zero velocity for the coupling): the rows'
  /// errors need neither.
  void evaluate(const RigidTransform3d& TAW, const RigidTransform3d& TBW, bool engage, Evaluation& e,
                bool errorsOnly = false);
  /// The rows' frames at the current poses, and Ġu (zero unless withRates).
  /// Without `frames`, only what the rows' errors need (a build that wants
  /// no entries, or the error alone); myTGW is then left stale.
  void updateStepState(bool withRates, bool frames = true);
  /// myRates from the coupling's wrench rates (RigidBodyCoupling::
  /// getWrenchRates) at the evaluation e of the current poses.
  void analyticRates(const Evaluation& e);
  void addRow(ConstraintBuilder& b, const Wrench& wG, double dist, double compliance, double rate);
  /// Calls f(wrench in G, φ, compliance, Ġu) for each bilateral (then each
  /// engaged unilateral) row of the current step state, in row order.
  template <class F>
  void forEachBilateralRow(F&& f) const;
  template <class F>
  void forEachUnilateralRow(F&& f) const;
  double compliance(const RigidBodyConstraint& c) const { return c.isRotary() ? myRotCompliance : myLinCompliance; }

  Frame* myA = nullptr;
  Frame* myB = nullptr;
  /// Frames C and D when body A or B is not a frame (an FEM model): child
  /// frames of the joint, with the attachments that carry them.
  struct InternalFrame {
    Frame* frame = nullptr;
    std::unique_ptr<AttachmentComponent> attachment;
  };
  InternalFrame myInternal[2];
  RigidTransform3d myTCA, myTDB;
  RigidTransform3d myInitialTCD;  ///< TCD used by setBodies(…, TDW)
  std::unique_ptr<RigidBodyCoupling> myCoupling;
  double myLinCompliance = 0, myRotCompliance = 0, myDamping = 0;
  /// The bilateral forces of setConstraintWrench's bilateral wrench.
  void splitBilateralWrench() const;
  /// Has the deferred forces set (deferConstraintForces).
  void formDeferredForces() const;
  std::shared_ptr<const DeferredJointForces> mySource;
  int mySourceEntry = 0;
  mutable bool myDeferred = false;
  // Rows of the last build, for the force bookkeeping.
  mutable std::vector<Wrench> myBilateralDirs;  ///< mutable: taken when the split is asked for
  std::vector<Wrench> myUnilateralDirs;
  mutable Eigen::VectorXd myBilateralForces;  ///< mutable: split when asked (splitBilateralWrench)
  Eigen::VectorXd myUnilateralForces;
  Wrench myWrench = Wrench::Zero();
  unsigned myFramesVersion = 0;
  Wrench myBilateralWrench = Wrench::Zero();
  RigidTransform3d myBilateralTGD;
  mutable bool myBilateralToSplit = false;
  // Per-step state shared by the bilateral and unilateral rows.
  RigidTransform3d myTCW, myTGW;
  Twist myErrC = Twist::Zero();
  bool myStepStateFresh = false;
  bool myStepStateFrames = false;  ///< whether the fresh step state has the rows' frames
  Vector3d myArmA = Vector3d::Zero(), myArmB = Vector3d::Zero();  ///< C's origin from A's and B's
  std::vector<double> myRates;  ///< Ġu of each coupling constraint (zeros unless requested)
  std::vector<Wrench> myWrenchRates;  ///< analyticRates()' workspace
  std::vector<int> myEngagedRows;  ///< engagement of each coupling constraint at the last row build
  mutable Eigen::VectorXd myCoords;  ///< project()'s workspace, so a step does not allocate
};

}  // namespace sinew
