#include "sinew/joints/JointBase.h"

#include <algorithm>
#include <cmath>

namespace sinew {

namespace {
double checkedCompliance(double c, const std::string& where) {
  if (!(c >= 0) || !std::isfinite(c)) throw ModelError("compliance and damping must be finite and >= 0", where);
  return c;
}
}  // namespace

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
  list.add<JointBase>("unilateralForces", "unilateral constraint forces of the last step",
                      &JointBase::getUnilateralForces);
}

void JointBase::addCoordinateProperties(PropertyList& list, const std::string& name, int i, const std::string& doc) {
  list.add<JointBase>(
      name, doc, [i](const JointBase& j) { return j.getCoordinateDisplay(i); },
      [i](JointBase& j, double v) { j.setCoordinateDisplay(i, v); });
  list.add<JointBase>(
      name + "Range", "range of " + name, [i](const JointBase& j) { return j.getCoordinateRangeDisplay(i); },
      [i](JointBase& j, const Eigen::VectorXd& r) { j.setCoordinateRangeDisplay(i, r); });
  list.add<JointBase>(
      name + "Locked", "whether " + name + " is locked", [i](const JointBase& j) { return j.isLocked(i); },
      [i](JointBase& j, bool l) { j.setLocked(i, l); });
}

JointBase::JointBase(std::string name, std::unique_ptr<RigidBodyCoupling> coupling)
    : CompositeComponent(std::move(name)), myCoupling(std::move(coupling)) {
  // T_CD at zero coordinates is not always the identity (EllipsoidJoint).
  myCoupling->coordinatesToTCD(myInitialTCD, myCoupling->getCoordinateValues());
}

void JointBase::setBodies(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW) {
  setBodies(bodyA, bodyB, TDW * myInitialTCD, TDW);
}

void JointBase::setBodies(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TCW,
                          const RigidTransform3d& TDW) {
  if (&bodyA == bodyB) throw ModelError("a joint cannot connect a body to itself", describe());
  Frame& A = frameOn(bodyA, TCW, 0);
  Frame* B = bodyB ? &frameOn(*bodyB, TDW, 1) : nullptr;
  connect(A, A.getPose().inverseTimes(TCW), B, B ? B->getPose().inverseTimes(TDW) : TDW);
}

void JointBase::setBodies(FrameAttachable& bodyA, const RigidTransform3d& TCA, FrameAttachable* bodyB,
                          const RigidTransform3d& TDB) {
  // An FEM model has no fixed frame for T_CA or T_DB to be given in (§6.6.2).
  if (!bodyA.asFrame() || (bodyB && !bodyB->asFrame()))
    throw ModelError("T_CA and T_DB cannot be given for an FEM model; use setBodies(bodyA, bodyB, TDW)", describe());
  connect(*bodyA.asFrame(), TCA, bodyB ? bodyB->asFrame() : nullptr, TDB);
}

void JointBase::connect(Frame& bodyA, const RigidTransform3d& TCA, Frame* bodyB, const RigidTransform3d& TDB) {
  if (&bodyA == bodyB) throw ModelError("a joint cannot connect a body to itself", describe());
  myA = &bodyA;
  myB = bodyB;
  myTCA = TCA;
  myTDB = TDB;
  ++myFramesVersion;
  if (myA != myInternal[0].frame) releaseInternalFrame(0);
  if (myB != myInternal[1].frame) releaseInternalFrame(1);
  couplingStructureChanged();
  project(getCurrentTCD());
}

Frame& JointBase::frameOn(FrameAttachable& body, const RigidTransform3d& TW, int which) {
  if (Frame* f = body.asFrame()) return *f;
  releaseInternalFrame(which);
  auto& f = static_cast<Frame&>(addComponent(std::make_unique<Frame>(which == 0 ? "frameC" : "frameD")));
  f.setPose(TW);
  myInternal[which].frame = &f;
  myInternal[which].attachment = body.createFrameAttachment(f, TW);
  myInternal[which].attachment->connect();
  return f;
}

void JointBase::releaseInternalFrame(int which) {
  InternalFrame& in = myInternal[which];
  if (!in.frame) return;
  in.attachment.reset();  // unlinks the frame first
  removeComponent(*in.frame);
  in.frame = nullptr;
}

void JointBase::couplingStructureChanged() {
  // The model must recompile: its rows and their pattern change.
  for (Component* c = getParent(); c; c = c->getParent()) c->componentStructureChanged();
}

void JointBase::transformGeometry(const RigidTransform3d& X) {
  if (myA && !myB) {
    myTDB = X * myTDB;
    ++myFramesVersion;
  }
}

void JointBase::requireConnected() const {
  if (!myA) throw ModelError("joint is not connected to any body (call setBodies)", describe());
}

const CoordinateInfo& JointBase::info(int i) const {
  if (i < 0 || i >= numCoordinates()) throw ModelError("no coordinate " + std::to_string(i), describe());
  return myCoupling->getCoordinateInfo(i);
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
  // As getCurrentTDW().inverseTimes(getCurrentTCW()), the same arithmetic,
  // on the frames' own members: the Impulse integrator asks this at every
  // look-ahead, and the two calls' copies cost a third of it.
  const Matrix3d& RAW = myA->getRotation();
  const RigidTransform3d TCW{RAW * myTCA.p + myA->getPosition(), RAW * myTCA.R};
  if (!myB) return myTDB.inverseTimes(TCW);
  const Matrix3d& RBW = myB->getRotation();
  return RigidTransform3d{RBW * myTDB.p + myB->getPosition(), RBW * myTDB.R}.inverseTimes(TCW);
}

RigidTransform3d JointBase::project(const RigidTransform3d& TCD, bool coordinates) const {
  RigidTransform3d TGD;
  myCoupling->projectToConstraints(TGD, TCD, coordinates ? &myCoords : nullptr);
  // The stored values are what nearestAngle() unwraps against.
  if (coordinates)
    for (int i = 0; i < numCoordinates(); ++i) myCoupling->getCoordinateInfo(i).value = myCoords[i];
  return TGD;
}

bool JointBase::errorsNeedCoordinates() const {
  return myCoupling->usesStoredCoordinates() || coordinatesLimitedOrLocked();
}

bool JointBase::coordinatesLimitedOrLocked() const {
  for (int i = 0; i < numCoordinates(); ++i) {
    const CoordinateInfo& q = myCoupling->getCoordinateInfo(i);
    if (q.locked || std::isfinite(q.min) || std::isfinite(q.max)) return true;
  }
  return false;
}

Twist JointBase::getConstraintError() const {
  const RigidTransform3d TCD = getCurrentTCD();
  return errorTwist(project(TCD).inverseTimes(TCD));
}

double JointBase::getCoordinate(int i) const {
  info(i);
  return getCoordinates()[i];
}

Eigen::VectorXd JointBase::getCoordinates() const {
  if (myA) project(getCurrentTCD());
  return myCoupling->getCoordinateValues();
}

std::string JointBase::coordinatePath(int i) const { return describe() + ":" + info(i).name; }

void JointBase::setCoordinate(int i, double value) {
  Eigen::VectorXd c = getCoordinates();
  c[i] = value;
  setCoordinates(c);
}

void JointBase::setCoordinates(const Eigen::VectorXd& values) {
  if (values.size() != numCoordinates()) throw ModelError("wrong number of coordinates", describe());
  for (int i = 0; i < numCoordinates(); ++i)
    if (!(values[i] >= info(i).min && values[i] <= info(i).max))
      throw ModelError("value " + std::to_string(values[i]) + " outside the coordinate range [" +
                           std::to_string(info(i).min) + ", " + std::to_string(info(i).max) + "]",
                       coordinatePath(i));
  RigidTransform3d TCD;
  myCoupling->coordinatesToTCD(TCD, values);
  for (int i = 0; i < numCoordinates(); ++i) myCoupling->getCoordinateInfo(i).value = values[i];
  if (!myA) {
    myInitialTCD = TCD;
    return;
  }
  // Move the freer body (§3.3.4): A unless only B is dynamic. An FEM model
  // cannot be moved rigidly to a joint coordinate.
  const RigidTransform3d TDW = getCurrentTDW(), TCW = getCurrentTCW();
  const bool moveA = myA->isDynamic() || !myB || !myB->isDynamic();
  if (isInternalFrame(moveA ? myA : myB))
    throw ModelError("cannot set joint coordinates by moving an FEM model", describe());
  if (moveA) myA->setPose(TDW * TCD * myTCA.inverse());
  else myB->setPose(TCW * TCD.inverse() * myTDB.inverse());
}

namespace {
/// Velocity of frame C (origin pC) relative to the material point of B at
/// C's origin, in world axes: the derivative of T_CD seen from D. Body
/// origins are given so the same map serves a configuration ahead of the
/// current one.
Twist relativeVelocity(const Frame& A, const Vector3d& pA, const Frame* B, const Vector3d& pB,
                       const Vector3d& pC) {
  const Twist& vA = A.getVelocity();
  Twist rel;
  rel << vA.head<3>() + vA.tail<3>().cross(pC - pA), vA.tail<3>();
  if (B) {
    const Twist& vB = B->getVelocity();
    rel.head<3>() -= vB.head<3>() + vB.tail<3>().cross(pC - pB);
    rel.tail<3>() -= vB.tail<3>();
  }
  return rel;
}

/// The pose a frame reaches after `eps` seconds at its current twist.
RigidTransform3d poseAhead(const Frame& F, double eps) {
  const Twist& v = F.getVelocity();
  const RigidTransform3d T = F.getPose();
  return {T.p + eps * v.head<3>(), rotationExp(eps * v.tail<3>()) * T.R};
}

Twist toFrame(const Matrix3d& R, const Twist& w) {
  Twist t;
  t << R.transpose() * w.head<3>(), R.transpose() * w.tail<3>();
  return t;
}
}  // namespace

double JointBase::getCoordinateSpeed(int i) const {
  requireConnected();
  const RigidBodyConstraint* lc = info(i).limitConstraint;
  if (!lc) throw ModelError("coordinate has no limit constraint, so no speed", coordinatePath(i));
  const RigidTransform3d TCW = getCurrentTCW(), TDW = getCurrentTDW(), TCD = TDW.inverseTimes(TCW);
  const RigidTransform3d TGD = project(TCD);
  const Vector3d pB = myB ? myB->getPosition() : Vector3d::Zero();
  const Twist velGD = toFrame((TDW * TGD).R, relativeVelocity(*myA, myA->getPosition(), myB, pB, TCW.p));
  myCoupling->updateConstraints(TGD, TCD, errorTwist(TGD.inverse() * TCD), velGD, false);
  return lc->getWrenchG().dot(velGD);
}

void JointBase::setCoordinateRange(int i, double min, double max) {
  if (!(min <= max)) throw ModelError("inverted coordinate range", coordinatePath(i));
  if (!info(i).limitConstraint && (std::isfinite(min) || std::isfinite(max)))
    throw ModelError("coordinate has no limit constraint, so no range", coordinatePath(i));
  auto& q = myCoupling->getCoordinateInfo(i);
  q.min = min;
  q.max = max;
}

void JointBase::setLocked(int i, bool locked) {
  if (locked && !info(i).limitConstraint) throw ModelError("coordinate cannot be locked", coordinatePath(i));
  auto& q = myCoupling->getCoordinateInfo(i);
  if (locked && !q.locked) q.lockedValue = getCoordinate(i);
  q.locked = locked;
}

double JointBase::getCoordinateDisplay(int i) const {
  return getCoordinate(i) * (info(i).isRotary() ? RTOD : 1.0);
}

void JointBase::setCoordinateDisplay(int i, double v) { setCoordinate(i, v / (info(i).isRotary() ? RTOD : 1.0)); }

Eigen::VectorXd JointBase::getCoordinateRangeDisplay(int i) const {
  const double s = info(i).isRotary() ? RTOD : 1.0;
  return Eigen::Vector2d(info(i).min * s, info(i).max * s);
}

void JointBase::setCoordinateRangeDisplay(int i, const Eigen::VectorXd& range) {
  if (range.size() != 2) throw ModelError("a range needs two values", coordinatePath(i));
  const double s = info(i).isRotary() ? RTOD : 1.0;
  setCoordinateRange(i, range[0] / s, range[1] / s);
}

void JointBase::setLinearCompliance(double c) { myLinCompliance = checkedCompliance(c, describe()); }
void JointBase::setRotaryCompliance(double c) { myRotCompliance = checkedCompliance(c, describe()); }
void JointBase::setCompliantDamping(double d) { myDamping = checkedCompliance(d, describe()); }

void JointBase::evaluate(const RigidTransform3d& TAW, const RigidTransform3d& TBW, bool engage, Evaluation& e,
                         bool errorsOnly) {
  e.TCW = TAW * myTCA;
  const RigidTransform3d TDW = myB ? TBW * myTDB : myTDB;
  // The coordinates only where something reads them: the errors alone
  // (a chord pass, a look-ahead) of a joint with no limit or lock do not,
  // nor does a pose that engages nothing (the rates' forward difference)
  // unless the coupling's wrenches turn with them. An engaging evaluation
  // that is not errors-only refreshes them, and every integrator makes one
  // a step (the rows' build, or the Articulated integrator's projection),
  // well within half a turn.
  const bool coordinates =
      engage ? !errorsOnly || errorsNeedCoordinates() : myCoupling->usesStoredCoordinates();
  e.TCD = TDW.inverseTimes(e.TCW);
  e.TGD = project(e.TCD, coordinates);
  const RigidTransform3d &TCD = e.TCD, &TGD = e.TGD;
  e.errC = errorTwist(TGD.inverseTimes(TCD));
  if (errorsOnly) {
    e.velG.setZero();
  } else {
    e.TGW = TDW * TGD;
    e.velG = toFrame(e.TGW.R, relativeVelocity(*myA, TAW.p, myB, TBW.p, e.TCW.p));
  }
  if (engage) {
    for (int i = 0; i < numCoordinates(); ++i) {
      auto& q = myCoupling->getCoordinateInfo(i);
      if (!q.limitConstraint) continue;
      if (q.locked) q.limitConstraint->setEngaged(0);
      else RigidBodyCoupling::updateEngaged(*q.limitConstraint, q.value, q.min, q.max);
    }
  }
  myCoupling->updateConstraints(TGD, TCD, e.errC, e.velG, engage);
}

void JointBase::updateStepState(bool withRates, bool frames) {
  // Ġu: from the coupling's wrench rates where it gives them, else by a
  // forward difference along the current motion, which covers every
  // coupling, including wrenches that turn in G, without their
  // derivatives. A row's value G u is w·v with w and v (the relative
  // velocity) in G.
  const double eps = 1e-6;
  const int n = myCoupling->numConstraints();
  myRates.assign(n, 0.0);
  Evaluation e;
  const bool difference = withRates && !myCoupling->providesWrenchRates();
  if (difference) {
    evaluate(poseAhead(*myA, eps), myB ? poseAhead(*myB, eps) : RigidTransform3d(), false, e);
    for (int k = 0; k < n; ++k) myRates[k] = myCoupling->getConstraint(k).getWrenchG().dot(e.velG);
  }
  frames = frames || withRates;
  evaluate(myA->getPose(), myB ? myB->getPose() : RigidTransform3d(), true, e, !frames);
  myStepStateFrames = frames;
  myTCW = e.TCW;
  if (frames) myTGW = e.TGW;
  myErrC = e.errC;
  myArmA = myTCW.p - myA->getPosition();
  if (myB) myArmB = myTCW.p - myB->getPosition();
  if (!withRates) return;
  if (!difference) return analyticRates(e);
  for (int k = 0; k < n; ++k) myRates[k] = (myRates[k] - myCoupling->getConstraint(k).getWrenchG().dot(e.velG)) / eps;
}

void JointBase::analyticRates(const Evaluation& e) {
  // Row k's value is w_kᵀ V with V = e.velG = (v, Ω), the velocity of C
  // relative to B's material point at C, in G coordinates; at fixed body
  // twists its rate is ẇ_kᵀ V + w_kᵀ V̇. In world axes v = v_A + ω_A × r_A
  // − v_B − ω_B × r_B with the arms r = p_C − p_body, whose rates are
  // ṙ_A = ω_A × r_A and ṙ_B = v_A + ω_A × r_A − v_B (C moves with A), and Ω
  // = ω_A − ω_B is constant; G turns at ω_G = ω_B + ω_GD, so in G
  // coordinates V̇ = (R_GWᵀ v̇_W − ω_G × v, −ω_G × Ω).
  const Twist& tA = myA->getVelocity();
  const Vector3d wA = tA.tail<3>(), &rA = myArmA, vC = tA.head<3>() + wA.cross(rA);
  Vector3d vdot = wA.cross(wA.cross(rA)), wB = Vector3d::Zero();
  if (myB) {
    const Twist& tB = myB->getVelocity();
    wB = tB.tail<3>();
    vdot -= wB.cross(vC - tB.head<3>());
  }
  // C's velocity relative to D, in D coordinates: V turned by R_GD.
  Twist velCD;
  velCD << e.TGD.R * e.velG.head<3>(), e.TGD.R * e.velG.tail<3>();
  Vector3d omegaGD;
  myCoupling->getWrenchRates(e.TGD, e.TCD, velCD, omegaGD, myWrenchRates);
  const Matrix3d& RGW = e.TGW.R;
  const Vector3d wG = RGW.transpose() * wB + omegaGD;
  Twist Vdot;
  Vdot << RGW.transpose() * vdot - wG.cross(e.velG.head<3>()), -wG.cross(e.velG.tail<3>());
  for (int k = 0; k < myCoupling->numConstraints(); ++k)
    myRates[k] = myWrenchRates[k].dot(e.velG) + myCoupling->getConstraint(k).getWrenchG().dot(Vdot);
}

void JointBase::addRow(ConstraintBuilder& b, const Wrench& wG, double dist, double compliance, double rate) {
  // The row is wᵀ (twist of C − twist of the B point at C), in world axes:
  // with w = (f, m) there, body A's entry is (f, m + r_A × f) for its arm
  // r_A to C, and body B's the negative of its own. Fixed-size rows: a
  // dynamic temporary would allocate for every entry of every step.
  b.beginRow(dist, compliance, myDamping, rate);
  if (!b.wantsEntries()) return;
  const Vector3d f = myTGW.R * wG.head<3>(), m = myTGW.R * wG.tail<3>();
  Eigen::Matrix<double, 1, 6> g;
  g << f.transpose(), (m + myArmA.cross(f)).transpose();
  b.addEntry(*myA, g);
  if (myB) {
    g << -f.transpose(), -(m + myArmB.cross(f)).transpose();
    b.addEntry(*myB, g);
  }
}

template <class F>
void JointBase::forEachBilateralRow(F&& f) const {
  for (int k = 0; k < myCoupling->numConstraints(); ++k) {
    const RigidBodyConstraint& c = myCoupling->getConstraint(k);
    if (c.isBilateral()) f(c.getWrenchG(), c.getWrenchG().dot(myErrC), compliance(c), myRates[k]);
  }
  for (int i = 0; i < numCoordinates(); ++i) {
    const CoordinateInfo& q = info(i);
    if (q.locked)
      f(q.limitConstraint->getWrenchG(), q.value - q.lockedValue, compliance(*q.limitConstraint),
        myRates[q.limitConstraint->getIndex()]);
  }
}

template <class F>
void JointBase::forEachUnilateralRow(F&& f) const {
  for (int k = 0; k < myCoupling->numConstraints(); ++k) {
    const RigidBodyConstraint& c = myCoupling->getConstraint(k);
    if (c.isBilateral() || c.getEngaged() == 0) continue;
    f(c.getEngaged() * c.getWrenchG(), c.getDistance(), 0.0, c.getEngaged() * myRates[k]);
  }
}

void JointBase::getBilateralConstraints(ConstraintBuilder& G) {
  requireConnected();
  // An Articulated step's forces and their split first: the split updates
  // the coupling at that step's pose, which the evaluation below replaces.
  if (myDeferred) formDeferredForces();
  if (myBilateralToSplit) splitBilateralWrench();
  updateStepState(G.wantsVelocityProducts(), G.wantsEntries());
  myStepStateFresh = true;
  myBilateralDirs.clear();
  forEachBilateralRow([&](const Wrench& w, double dist, double compliance, double rate) {
    addRow(G, w, dist, compliance, rate);
    myBilateralDirs.push_back(w);
  });
}

void JointBase::getUnilateralConstraints(ConstraintBuilder& N) {
  myUnilateralDirs.clear();
  if (!myA) return;
  if (!myStepStateFresh || (N.wantsEntries() && !myStepStateFrames))
    updateStepState(N.wantsVelocityProducts(), N.wantsEntries());
  myStepStateFresh = false;
  forEachUnilateralRow([&](const Wrench& w, double dist, double compliance, double rate) {
    addRow(N, w, dist, compliance, rate);
    myUnilateralDirs.push_back(w);
  });
  myEngagedRows.resize(myCoupling->numConstraints());
  for (int k = 0; k < myCoupling->numConstraints(); ++k) myEngagedRows[k] = myCoupling->getConstraint(k).getEngaged();
}

bool JointBase::getRowErrors(double* phi, int numRows) {
  // The rows stay those of the last build while every unilateral
  // constraint is engaged as it was then (on the same bound, or not at all).
  const int n = myCoupling->numConstraints();
  if (!myA || static_cast<int>(myEngagedRows.size()) != n ||
      numRows != static_cast<int>(myBilateralDirs.size() + myUnilateralDirs.size()))
    return false;
  // The coupling's shortcut, where no limit can engage and only the
  // bilateral rows stand (the Impulse integrator asks this at every
  // look-ahead): the same errors as the evaluation below, to round-off,
  // without the engagement and constraint-wrench updates it also makes.
  // Rows of another number (a lock released since the build) are not the
  // build's: refused, as below.
  if (numRows == static_cast<int>(myBilateralDirs.size()) && myUnilateralDirs.empty() && !myCoupling->hasOtherLimits() &&
      !coordinatesLimitedOrLocked()) {
    double rows[RigidBodyCoupling::kMaxBilateralErrors];
    const int m = myCoupling->bilateralErrors(getCurrentTCD(), rows, myErrC);
    if (m >= 0) {
      if (m != numRows) return false;
      std::copy(rows, rows + m, phi);
      return true;
    }
  }
  Evaluation e;
  evaluate(myA->getPose(), myB ? myB->getPose() : RigidTransform3d(), true, e, true);
  myErrC = e.errC;
  // The rows in forEachBilateralRow's and forEachUnilateralRow's order,
  // the latter skipped where no constraint is engaged (the Impulse
  // integrator asks this at every look-ahead).
  bool engaged = false;
  for (int k = 0; k < n; ++k) {
    const int g = myCoupling->getConstraint(k).getEngaged();
    if (g != myEngagedRows[k]) return false;
    engaged = engaged || g != 0;
  }
  int i = 0;
  auto put = [&](const Wrench&, double dist, double, double) {
    if (i < numRows) phi[i] = dist;
    ++i;
  };
  forEachBilateralRow(put);
  if (engaged) forEachUnilateralRow(put);  // none engaged: no unilateral rows
  return i == numRows;
}

double JointBase::getMaxHardError() {
  requireConnected();
  updateStepState(false, false);
  myStepStateFresh = false;
  double e = 0;
  forEachBilateralRow([&](const Wrench&, double dist, double compliance, double) {
    if (compliance == 0) e = std::max(e, std::abs(dist));
  });
  forEachUnilateralRow([&](const Wrench&, double dist, double, double) { e = std::max(e, -dist); });
  return e;
}

void JointBase::getAuxState(double* x) const {
  for (int i = 0; i < numCoordinates(); ++i) x[i] = info(i).value;
}

void JointBase::setAuxState(const double* x) {
  for (int i = 0; i < numCoordinates(); ++i) myCoupling->getCoordinateInfo(i).value = x[i];
}

void JointBase::setConstraintForces(const double* bilateral, const double* unilateral) {
  myDeferred = false;
  mySource.reset();  // (not in setConstraintWrench, which the source itself calls)
  myBilateralToSplit = false;
  const int nb = static_cast<int>(myBilateralDirs.size()), nu = static_cast<int>(myUnilateralDirs.size());
  myBilateralForces = Eigen::Map<const Eigen::VectorXd>(bilateral, nb);
  myUnilateralForces = Eigen::Map<const Eigen::VectorXd>(unilateral, nu);
  myWrench.setZero();
  for (int k = 0; k < nb; ++k) myWrench += bilateral[k] * myBilateralDirs[k];
  for (int k = 0; k < nu; ++k) myWrench += unilateral[k] * myUnilateralDirs[k];
}

void JointBase::setConstraintWrench(const RigidTransform3d& TGD, const Wrench& bilateralG, const double* unilateral,
                                    int nu) {
  myDeferred = false;
  if (nu == 0) myUnilateralDirs.clear();
  if (nu != static_cast<int>(myUnilateralDirs.size()))
    throw ModelError("unilateral forces do not match the joint's unilateral rows", getPathName());
  myUnilateralForces = Eigen::Map<const Eigen::VectorXd>(unilateral, nu);
  myWrench = bilateralG;
  for (int k = 0; k < nu; ++k) myWrench += unilateral[k] * myUnilateralDirs[k];
  myBilateralWrench = bilateralG;
  myBilateralTGD = TGD;
  myBilateralToSplit = true;
}

void JointBase::formDeferredForces() const {
  // Lazy, as the split: the getters are const, the forces a cache of the
  // source's step (a joint is never a const object).
  myDeferred = false;
  mySource->formFor(const_cast<JointBase&>(*this), mySourceEntry);
}

void JointBase::splitBilateralWrench() const {
  // The bilateral rows' wrenches at TGD: those of a coupling with a fixed
  // motion subspace depend on T_GD alone (RigidBodyCoupling::
  // getFixedMotionSubspace), so they can be taken now, after the step.
  myBilateralToSplit = false;
  myCoupling->updateConstraints(myBilateralTGD, myBilateralTGD, Twist::Zero(), Twist::Zero(), false);
  myBilateralDirs.clear();
  for (int k = 0; k < myCoupling->numConstraints(); ++k) {
    const RigidBodyConstraint& c = myCoupling->getConstraint(k);
    if (c.isBilateral()) myBilateralDirs.push_back(c.getWrenchG());
  }
  const int nb = static_cast<int>(myBilateralDirs.size());
  Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6> W(6, nb);
  for (int k = 0; k < nb; ++k) W.col(k) = myBilateralDirs[k];
  // Least squares through the normal equations: W has at most six
  // independent columns, and the wrench lies in their span.
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6> WtW = W.transpose() * W;
  myBilateralForces = WtW.ldlt().solve(W.transpose() * myBilateralWrench);
}

}  // namespace sinew
