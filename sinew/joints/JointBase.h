// Joints between two frames (guide §3.3): frame C fixed to body A, frame D
// fixed to body B or to ground, the joint transform T_CD restricted by a
// RigidBodyCoupling. The joint is a Constrainer: its bilateral rows forbid
// the coupling's constraint directions, its unilateral rows enforce
// coordinate ranges (engaged only when a step would cross them, §4.9.2),
// and locked coordinates add bilateral rows (§3.3.5). Compliance and
// damping soften the rows (§3.3.8). Constraint forces are kept after each
// step (§3.3.7).
#pragma once

#include <memory>
#include <vector>

#include "sinew/joints/RigidBodyCoupling.h"
#include "sinew/mech/DynamicComponent.h"
#include "sinew/mech/Frame.h"
#include "sinew/mech/TransformableGeometry.h"
#include "sinew/model/Component.h"

namespace sinew {

class JointBase : public Component, public Constrainer, public TransformableGeometry {
  SINEW_DECLARE_PROPERTIES
 public:
  JointBase(std::string name, std::unique_ptr<RigidBodyCoupling> coupling);

  /// Connects A to B (nullptr: ground) with D at world pose TDW and the
  /// joint at its current coordinates (zero unless set before).
  void setBodies(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW);
  /// Connects with explicit frames C (in A) and D (in B or world).
  void setBodies(Frame& bodyA, const RigidTransform3d& TCA, Frame* bodyB, const RigidTransform3d& TDB);
  Frame* getBodyA() const { return myA; }
  Frame* getBodyB() const { return myB; }

  RigidTransform3d getCurrentTCW() const;
  RigidTransform3d getCurrentTDW() const;
  RigidTransform3d getCurrentTCD() const;
  /// The joint error T_CG as a small twist (zero when the joint holds).
  Twist getConstraintError() const;

  // Coordinates (§3.3.4); angles in radians here, degrees in named accessors.
  int numCoordinates() const { return myCoupling->numCoordinates(); }
  double getCoordinate(int i) const;
  Eigen::VectorXd getCoordinates() const;
  /// Sets a coordinate by moving the freer body (A unless it is not dynamic).
  void setCoordinate(int i, double value);
  void setCoordinates(const Eigen::VectorXd& values);
  double getCoordinateSpeed(int i) const;
  void setCoordinateRange(int i, double min, double max);
  double getMinCoordinate(int i) const { return myRanges.at(i).first; }
  double getMaxCoordinate(int i) const { return myRanges.at(i).second; }
  bool isLocked(int i) const { return myLocked.at(i); }
  void setLocked(int i, bool locked);

  // Compliance and damping per row kind (§3.3.8; 0 = hard).
  double getLinearCompliance() const { return myLinCompliance; }
  void setLinearCompliance(double c);
  double getRotaryCompliance() const { return myRotCompliance; }
  void setRotaryCompliance(double c);
  double getCompliantDamping() const { return myDamping; }
  void setCompliantDamping(double d);

  // Constraint forces of the last step (§3.3.7).
  const Eigen::VectorXd& getBilateralForces() const { return myBilateralForces; }
  const Eigen::VectorXd& getUnilateralForces() const { return myUnilateralForces; }
  /// Total constraint wrench on body A, in C coordinates (at C's origin).
  const Wrench& getConstraintWrench() const { return myWrench; }

  // Constrainer
  void getBilateralConstraints(ConstraintBuilder& G) override;
  void getUnilateralConstraints(ConstraintBuilder& N) override;
  void setConstraintForces(const double* bilateral, const double* unilateral) override;

  // TransformableGeometry: a D fixed in the world moves with the model (§4.7).
  void transformGeometry(const RigidTransform3d& X) override;

 protected:
  RigidBodyCoupling& coupling() const { return *myCoupling; }
  std::string coordinatePath(int i) const;

 private:
  void requireConnected() const;
  void projection(RigidTransform3d& TGD, Eigen::VectorXd& coords) const;
  void addRow(ConstraintBuilder& b, const Wrench& wG, double dist, double compliance);
  Frame* myA = nullptr;
  Frame* myB = nullptr;
  RigidTransform3d myTCA, myTDB;
  RigidTransform3d myInitialTCD;  ///< TCD used by setBodies(…, TDW)
  std::unique_ptr<RigidBodyCoupling> myCoupling;
  std::vector<std::pair<double, double>> myRanges;
  std::vector<bool> myLocked;
  std::vector<double> myLockedValues;
  double myLinCompliance = 0, myRotCompliance = 0, myDamping = 0;
  // Rows of the last build, for the force bookkeeping.
  std::vector<Wrench> myBilateralDirs, myUnilateralDirs;
  Eigen::VectorXd myBilateralForces, myUnilateralForces;
  Wrench myWrench = Wrench::Zero();
  // Per-step workspace.
  RigidTransform3d myTCW, myTGW;
  std::vector<CouplingWrench> myWrenches;
};

}  // namespace sinew
