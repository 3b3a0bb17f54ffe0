#include "sinew/joints/JointBase.h"

#include <cmath>

namespace sinew {

SINEW_PROPERTIES(JointBase, Component) {
  list.add<JointBase>("linearCompliance", "compliance of translational constraints (0 = hard)",
                      &JointBase::getLinearCompliance, &JointBase::setLinearCompliance)
      .setRange(0, INFINITY)
      .setDefault(0.0);
  list.add<JointBase>("rotaryCompliance", "compliance of rotational constraints (0 = hard)",
                      &JointBase::getRotaryCompliance, &JointBase::setRotaryCompliance)
      .setRange(0, INFINITY)
      .setDefault(0.0);
  list.add<JointBase>("compliantDamping", "damping of compliant constraints", &JointBase::getCompliantDamping,
                      &JointBase::setCompliantDamping)
      .setRange(0, INFINITY)
      .setDefault(0.0);
  list.add<JointBase>("constraintWrench", "constraint wrench on body A in C coordinates",
                      &JointBase::getConstraintWrench);
  list.add<JointBase>("bilateralForces", "bilateral constraint forces of the last step",
                      &JointBase::getBilateralForces);
}

JointBase::JointBase(std::string name, std::unique_ptr<RigidBodyCoupling> coupling)
    : Component(std::move(name)), myCoupling(std::move(coupling)) {
  const int n = myCoupling->numCoordinates();
  myRanges.assign(n, {-INFINITY, INFINITY});
  myLocked.assign(n, false);
  myLockedValues.assign(n, 0.0);
}

void JointBase::setBodies(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW) {
  setBodies(bodyA, bodyA.getPose().inverse() * TDW * myInitialTCD, bodyB,
            bodyB ? bodyB->getPose().inverse() * TDW : TDW);
}

void JointBase::setBodies(Frame& bodyA, const RigidTransform3d& TCA, Frame* bodyB, const RigidTransform3d& TDB) {
  if (&bodyA == bodyB) throw ModelError("a joint cannot connect a body to itself", describe());
  myA = &bodyA;
  myB = bodyB;
  myTCA = TCA;
  myTDB = TDB;
  if (auto* p = getParent()) p->componentStructureChanged();
}

void JointBase::transformGeometry(const RigidTransform3d& X) {
  if (myA && !myB) myTDB = X * myTDB;
}

void JointBase::requireConnected() const {
  if (!myA) throw ModelError("joint is not connected to any body (call setBodies)", describe());
}

RigidTransform3d JointBase::getCurrentTCW() const {
  requireConnected();
  return myA->getPose() * myTCA;
}

RigidTransform3d JointBase::getCurrentTDW() const {
  requireConnected();
  return myB ? myB->getPose() * myTDB : myTDB;
}

RigidTransform3d JointBase::getCurrentTCD() const {
  if (!myA) return myInitialTCD;
  return getCurrentTDW().inverse() * getCurrentTCW();
}

Twist JointBase::getConstraintError() const {
  RigidTransform3d TGD;
  Eigen::VectorXd c;
  const RigidTransform3d TCD = getCurrentTCD();
  myCoupling->projectToConstraints(TGD, c, TCD);
  return errorTwist(TGD.inverse() * TCD);
}

void JointBase::projection(RigidTransform3d& TGD, Eigen::VectorXd& coords) const {
  myCoupling->projectToConstraints(TGD, coords, getCurrentTCD());
}

double JointBase::getCoordinate(int i) const { return getCoordinates()[i]; }

Eigen::VectorXd JointBase::getCoordinates() const {
  RigidTransform3d TGD;
  Eigen::VectorXd c;
  projection(TGD, c);
  return c;
}

std::string JointBase::coordinatePath(int i) const {
  return describe() + ":" + myCoupling->coordinateName(i);
}

void JointBase::setCoordinate(int i, double value) {
  Eigen::VectorXd c = getCoordinates();
  c[i] = value;
  setCoordinates(c);
}

void JointBase::setCoordinates(const Eigen::VectorXd& values) {
  if (values.size() != numCoordinates()) throw ModelError("wrong number of coordinates", describe());
  for (int i = 0; i < numCoordinates(); ++i)
    if (!(values[i] >= myRanges[i].first && values[i] <= myRanges[i].second))
      throw ModelError("value " + std::to_string(values[i]) + " outside the coordinate range [" +
                           std::to_string(myRanges[i].first) + ", " + std::to_string(myRanges[i].second) + "]",
                       coordinatePath(i));
  RigidTransform3d TCD = myCoupling->coordinatesToTCD(values);
  if (!myA) {
    myInitialTCD = TCD;
    return;
  }
  // Move the freer body (§3.3.4): A unless only B is dynamic.
  const RigidTransform3d TDW = getCurrentTDW(), TCW = getCurrentTCW();
  if (myA->isDynamic() || !myB || !myB->isDynamic()) myA->setPose(TDW * TCD * myTCA.inverse());
  else myB->setPose(TCW * TCD.inverse() * myTDB.inverse());
}

double JointBase::getCoordinateSpeed(int i) const {
  requireConnected();
  RigidTransform3d TGD;
  Eigen::VectorXd c;
  projection(TGD, c);
  const RigidTransform3d TGW = getCurrentTDW() * TGD;
  const Vector3d pC = getCurrentTCW().p;
  Twist rel = frameVelocityJacobian(pC - myA->getPosition()) * myA->getVelocity();
  if (myB) rel -= frameVelocityJacobian(pC - myB->getPosition()) * myB->getVelocity();
  Wrench w = myCoupling->coordinateWrench(i, TGD);
  return (TGW.R * w.head<3>()).dot(rel.head<3>()) + (TGW.R * w.tail<3>()).dot(rel.tail<3>());
}

void JointBase::setCoordinateRange(int i, double min, double max) {
  if (!(min <= max)) throw ModelError("inverted coordinate range", coordinatePath(i));
  myRanges.at(i) = {min, max};
}

void JointBase::setLocked(int i, bool locked) {
  if (locked && !myLocked.at(i)) myLockedValues[i] = getCoordinate(i);
  myLocked.at(i) = locked;
}

namespace {
double checkedCompliance(double c, const std::string& where) {
  if (!(c >= 0) || !std::isfinite(c)) throw ModelError("compliance and damping must be finite and >= 0", where);
  return c;
}
}  // namespace

void JointBase::setLinearCompliance(double c) { myLinCompliance = checkedCompliance(c, describe()); }
void JointBase::setRotaryCompliance(double c) { myRotCompliance = checkedCompliance(c, describe()); }
void JointBase::setCompliantDamping(double d) { myDamping = checkedCompliance(d, describe()); }

void JointBase::addRow(ConstraintBuilder& b, const Wrench& wG, double dist, double compliance) {
  // The row is wᵀ (twist of C − twist of the B point at C), in world axes.
  Eigen::Matrix<double, 1, 6> wW;
  wW << (myTGW.R * wG.head<3>()).transpose(), (myTGW.R * wG.tail<3>()).transpose();
  b.beginRow(dist, compliance, myDamping);
  b.addEntry(*myA, wW * frameVelocityJacobian(myTCW.p - myA->getPosition()));
  if (myB) b.addEntry(*myB, -wW * frameVelocityJacobian(myTCW.p - myB->getPosition()));
}

void JointBase::getBilateralConstraints(ConstraintBuilder& G) {
  requireConnected();
  myTCW = getCurrentTCW();
  const RigidTransform3d TDW = getCurrentTDW(), TCD = TDW.inverse() * myTCW;
  RigidTransform3d TGD;
  Eigen::VectorXd coords;
  myCoupling->projectToConstraints(TGD, coords, TCD);
  myTGW = TDW * TGD;
  const Twist delta = errorTwist(TGD.inverse() * TCD);
  myCoupling->getConstraintWrenches(myWrenches, TGD);
  myBilateralDirs.clear();
  for (auto& cw : myWrenches) {
    addRow(G, cw.w, cw.w.dot(delta), cw.rotary ? myRotCompliance : myLinCompliance);
    myBilateralDirs.push_back(cw.w);
  }
  for (int i = 0; i < numCoordinates(); ++i) {
    if (!myLocked[i]) continue;
    Wrench w = myCoupling->coordinateWrench(i, TGD);
    addRow(G, w, coords[i] - myLockedValues[i],
           myCoupling->isRotaryCoordinate(i) ? myRotCompliance : myLinCompliance);
    myBilateralDirs.push_back(w);
  }
}

void JointBase::getUnilateralConstraints(ConstraintBuilder& N) {
  myUnilateralDirs.clear();
  if (!myA) return;
  RigidTransform3d TGD;
  Eigen::VectorXd coords;
  projection(TGD, coords);
  myTCW = getCurrentTCW();
  myTGW = getCurrentTDW() * TGD;
  // Finite limits are always offered: a row is inactive unless the step
  // would carry the coordinate past its bound (§4.9.2).
  for (int i = 0; i < numCoordinates(); ++i) {
    if (myLocked[i]) continue;
    Wrench w = myCoupling->coordinateWrench(i, TGD);
    if (std::isfinite(myRanges[i].first)) {
      addRow(N, w, coords[i] - myRanges[i].first, 0);
      myUnilateralDirs.push_back(w);
    }
    if (std::isfinite(myRanges[i].second)) {
      addRow(N, -w, myRanges[i].second - coords[i], 0);
      myUnilateralDirs.push_back(-w);
    }
  }
}

void JointBase::setConstraintForces(const double* bilateral, const double* unilateral) {
  const int nb = static_cast<int>(myBilateralDirs.size()), nu = static_cast<int>(myUnilateralDirs.size());
  myBilateralForces = Eigen::Map<const Eigen::VectorXd>(bilateral, nb);
  myUnilateralForces = Eigen::Map<const Eigen::VectorXd>(unilateral, nu);
  myWrench.setZero();
  for (int k = 0; k < nb; ++k) myWrench += bilateral[k] * myBilateralDirs[k];
  for (int k = 0; k < nu; ++k) myWrench += unilateral[k] * myUnilateralDirs[k];
}

}  // namespace sinew
