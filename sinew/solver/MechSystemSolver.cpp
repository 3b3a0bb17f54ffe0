#include "sinew/solver/MechSystemSolver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "sinew/Error.h"
#include "sinew/math/CoriolisJacobian.h"
#include "sinew/mech/RigidBody.h"
#include "sinew/solver/ArticulatedSolver.h"
#include "sinew/solver/ImpulseSolver.h"

namespace sinew {

namespace {
std::string formatG(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

/// Replaces, in the active forces f, each free rigid body's fictitious
/// wrench at u0 by its value at the midpoint of the body's torque-free
/// implicit-midpoint step. For a step that moves positions by h u⁺
/// (backward Euler) this keeps a free body's kinetic energy exactly:
/// rotating by h ω⁺ leaves ω⁺ and so ½ω⁺ᵀJω⁺ unchanged. Taken at u0 instead,
/// it pumps energy into a fast, wobbling spin: a spun egg whose friction
/// makes it precess gained 60 % of its energy in a second at h = 1 ms.
/// (The trapezoidal rule, which moves positions by the mean velocity, keeps
/// the explicit wrench: there the midpoint one loses energy.)
void takeFictitiousWrenchAtMidpoint(const MechSystem& sys, const Eigen::VectorXd& u0, double h, Eigen::VectorXd& f) {
  Block M;
  for (int i = 0; i < sys.numComponents(); ++i) {
    const auto& ci = sys.info(i);
    const RigidBody* body = ci.rigid;
    if (ci.solveOffset < 0 || !body || ci.velSize != 6 || body->getMass() <= 0) continue;
    const SpatialInertia& I = body->getInertia();
    const Matrix3d& R = body->getRotation();
    const Twist w0 = u0.segment<6>(ci.solveOffset);
    body->getMassBlock(M);
    const Matrix6d M6 = M;
    const Twist w1 = implicitMidpointVelocity(I, R, M6, w0, Vector6d::Zero(), h);
    f.segment<6>(ci.solveOffset) += M6 * (w1 - w0) / h - I.coriolisForce(R, w0);
  }
}
}  // namespace

MechSystemSolver::MechSystemSolver() = default;
MechSystemSolver::~MechSystemSolver() = default;

void MechSystemSolver::setStructure(const std::vector<DynamicComponent*>& comps,
                                    const std::vector<ForceEffector*>& effectors,
                                    const std::vector<Constrainer*>& constrainers) {
  myComps = comps;
  myEffectors = effectors;
  myConstrainers = constrainers;
  mySys.build(comps, effectors);
  myKKT.setFriction(&myD);
  myMassPatternChanged = myProjPatternChanged = true;
  myImpulse.reset();  // its rows and warm start name the old components
  myArticulated.reset();  // its trees too
}

// ------------------------------------------------------------------ forces

void MechSystemSolver::computeForces(double t, bool jacobians, bool fictitious) {
  if (jacobians) mySys.zeroJacobians();
  Block D;
  BlockVec fc;
  for (auto* c : myComps) c->zeroForces();
  for (int i = 0; i < mySys.numComponents(); ++i) {
    DynamicComponent* c = myComps[i];
    if (c->isParametric()) continue;
    if (c->getMass() > 0) {
      c->applyGravity(myGravity);
      if (fictitious) {
        c->getCoriolisForce(fc);
        c->addForce(fc.data());
      }
    }
    if (jacobians) {
      D.setZero(c->getVelStateSize(), c->getVelStateSize());
      c->applyDamping(&D);
      if (!D.isZero(0)) mySys.addDampingBlock(i, D);
    } else {
      c->applyDamping(nullptr);
    }
  }
  for (auto* e : myEffectors) e->applyForces(t);
  mySys.transferSlaveForces();
  if (jacobians) {
    for (auto* e : myEffectors) {
      e->addPosJacobian(mySys.posJacobian(), 1.0);
      e->addVelJacobian(mySys.velJacobian(), 1.0);
    }
    mySys.addGeometricStiffness();
  }
}

// ------------------------------------------------------------- constraints

void MechSystemSolver::buildConstraintRows(double h, bool velocityLevel, const Eigen::VectorXd& up,
                                           double gdotScale, bool entries) {
  myG.clear();
  myN.clear();
  myD.clear();
  myRowCountsG.clear();
  myRowCountsN.clear();
  myRowCountsD.clear();
  MechSystem::RowBuilder gb(mySys, myG, up, myExtrasG), nb(mySys, myN, up, myExtrasN), db(mySys, myD.rows, up, myExtrasD);
  gb.wantVelocityProducts = nb.wantVelocityProducts = velocityLevel && gdotScale != 0;
  gb.wantEntries = nb.wantEntries = db.wantEntries = entries;
  gb.h = nb.h = db.h = velocityLevel ? h : 0;
  std::vector<FrictionLimit> limits;
  for (auto* c : myConstrainers) {
    int g0 = myG.numRows(), n0 = myN.numRows(), d0 = myD.numRows();
    c->getBilateralConstraints(gb);
    c->getUnilateralConstraints(nb);
    // Friction acts in the velocity solve only (box friction, §8.9.4).
    if (velocityLevel) {
      limits.clear();
      c->getFrictionConstraints(db, limits);
      for (const auto& l : limits) {
        myD.normalRow.push_back(n0 + l.normalRow);
        myD.mu.push_back(l.mu);
      }
    }
    myRowCountsG.push_back(myG.numRows() - g0);
    myRowCountsN.push_back(myN.numRows() - n0);
    myRowCountsD.push_back(myD.numRows() - d0);
  }
  if (velocityLevel && entries) {
    // Where the constrainers know them (contacts found again), the last
    // step's impulses start the contact solve.
    myWarmTheta.setZero(myN.numRows());
    myWarmPhi.setZero(myD.numRows());
    int n = 0, d = 0;
    for (size_t k = 0; k < myConstrainers.size(); ++k) {
      myConstrainers[k]->getWarmStart(h, myWarmTheta.data() + n, myWarmPhi.data() + d);
      n += myRowCountsN[k];
      d += myRowCountsD[k];
    }
    myKKT.setWarmStart(&myWarmTheta, &myWarmPhi);
  }
  // Seed 003 eq. (13) needs each row's velocity φ̇ = G u0 + G_p u_p at
  // the start of the step (the builder has put −G_p u_p in rhs), and so do
  // compliant rows built at the midpoint (below).
  const Eigen::VectorXd* u0 = myStepU0;
  const bool alphaBeta = velocityLevel && u0 && myIntegrator == Integrator::AlphaBeta;
  const bool midpoint = velocityLevel && u0 && !alphaBeta;
  Eigen::VectorXd phiDot;
  auto rowVelocities = [&](const ConstraintRows& rows) {
    phiDot = -Eigen::Map<const Eigen::VectorXd>(rows.rhs.data(), rows.numRows());
    for (const auto& e : rows.entries) phiDot[e.row()] += e.value() * (*u0)[e.col()];
  };
  auto finish = [&](ConstraintRows& rows, const MechSystem::RowBuilder& b, bool unilateral) {
    if (alphaBeta || midpoint) rowVelocities(rows);
    for (int i = 0; i < rows.numRows(); ++i) {
      const double c = rows.compliance[i], phi = b.dist[i];
      if (velocityLevel) rows.rhs[i] -= gdotScale * b.velocityProduct[i];
      if (velocityLevel) {
        if (unilateral && c == 0 && phi > 0) {
          // A separated unilateral row may close its gap within the step
          // but not cross it: N u ≥ −φ/h.
          rows.rhs[i] -= phi / h;
        } else if (c > 0 && alphaBeta) {
          // Seed 003 eq. (13) on u1 with impulse θ = h λ̄ and
          // l = α(hβ + d): G u1 + c/(l h) θ = φ̇ (1 − (d + αh)/l) − φ/l.
          const double d = b.damping[i], l = myAlpha * (h * myBeta + d);
          rows.compliance[i] = c / (l * h);
          rows.rhs[i] += phiDot[i] * (1 - (d + myAlpha * h) / l) - phi / l;
        } else if (c > 0) {
          // Compliance as in guide §3.3.8 (SPOOK form): a midpoint estimate
          // of φ gives R = s·c/h and b −= s·φ with s = 1/(h/2 + d·c), φ the
          // error at the step's start. Rows built at the step's midpoint
          // (Trapezoidal) take it back there from their φ, φ0 = φ − (h/2) φ̇:
          // with the midpoint's φ a stiff joint spring gained energy every
          // step and diverged (a hinge of rotary compliance 1e-5 in 0.06 s).
          const double s = 1.0 / (0.5 * h + b.damping[i] * c);
          rows.compliance[i] = s * c / h;
          rows.rhs[i] -= s * (midpoint ? phi - 0.5 * h * phiDot[i] : phi);
        }
      } else if (c > 0) {
        rows.rhs[i] = 0;  // compliant rows are corrected by the velocity solve
      } else {
        rows.rhs[i] = -phi;
      }
    }
  };
  finish(myG, gb, false);
  finish(myN, nb, true);
}

void MechSystemSolver::buildMidpointRows(double h, const Eigen::VectorXd& u0) {
  // Rows G_m at the predicted midpoint q0 + (h/2) u0, holding the average
  // velocity ū = (u0 + u⁺)/2 that moves the positions: G_m ū + R λ = b.
  // The impulse G_mᵀλ then does no work over the step (λᵀ G_m ū = 0 for
  // hard rows), so joints conserve energy as the trapezoidal rule does.
  // In u⁺: G_m u⁺ + 2R λ = 2b − G_m u0. Unilateral rows (limits, contact)
  // stay on u⁺, so that they stop motion rather than bounce.
  // AlphaBeta with 0 < β < 1 moves the positions by ū = βu⁺ + (1 − β)u0
  // and holds that: G_m u⁺ + (R/β) λ = b/β − ((1 − β)/β) G_m u0; its
  // compliant rows are already seed 003's rows on u⁺ and stay as built.
  const bool alphaBeta = myIntegrator == Integrator::AlphaBeta;
  const double beta = alphaBeta ? myBeta : 0.5;
  Eigen::VectorXd q0, qm;
  mySys.getFullPos(q0);
  qm = q0;
  addActivePosImpulse(qm, h / 2, u0);
  moveParametric(qm, h / 2);
  mySys.setFullPos(qm);
  mySys.updateExpansions();
  mySys.updateAttachmentStates();
  {
    const StepVelocity at(*this, &u0);
    buildConstraintRows(h, true, myUp, 0.0);
  }
  mySys.setFullPos(q0);
  mySys.updateExpansions();
  mySys.updateAttachmentStates();
  std::vector<char> onAverage(myG.numRows());
  for (int i = 0; i < myG.numRows(); ++i) {
    onAverage[i] = !(alphaBeta && myG.compliance[i] > 0);
    if (!onAverage[i]) continue;
    myG.rhs[i] /= beta;
    myG.compliance[i] /= beta;
  }
  for (const auto& e : myG.entries)
    if (onAverage[e.row()]) myG.rhs[e.row()] -= (1 - beta) / beta * e.value() * u0[e.col()];
}

void MechSystemSolver::distributeConstraintForces(const Eigen::VectorXd& lambda, const Eigen::VectorXd& theta,
                                                  double h) {
  Eigen::VectorXd fl = lambda / h, ft = theta / h, fd = Eigen::VectorXd::Zero(myD.numRows());
  if (myKKT.frictionImpulses().size() == myD.numRows()) fd = myKKT.frictionImpulses() / h;
  int g = 0, n = 0, d = 0;
  for (size_t k = 0; k < myConstrainers.size(); ++k) {
    myConstrainers[k]->setConstraintForces(fl.data() + g, ft.data() + n);
    if (myRowCountsD[k] > 0) myConstrainers[k]->setFrictionForces(fd.data() + d);
    g += myRowCountsG[k];
    n += myRowCountsN[k];
    d += myRowCountsD[k];
  }
}

void MechSystemSolver::solveOrThrow(KKTSolver& kkt, const SparseMatrixd& S, bool changed,
                                    const Eigen::VectorXd& b, Eigen::VectorXd& u, double t) {
  if (kkt.solve(S, changed, b, myG, myN, u, myLambda, myTheta)) return;
  // Name the first component whose diagonal is not positive: usually a
  // dynamic body without mass.
  Eigen::VectorXd d = S.diagonal();
  for (int i = 0; i < mySys.numComponents(); ++i) {
    const auto& ci = mySys.info(i);
    if (ci.solveOffset >= 0 && d.segment(ci.solveOffset, ci.velSize).minCoeff() <= 0)
      throw SolverError(t, ci.comp->componentPath(),
                        "singular system: the component has no mass or inertia");
  }
  throw SolverError(t, "", "singular system: the constraints are redundant or the model is unstable");
}

// --------------------------------------------------------------- stepping

void MechSystemSolver::forgetStep() {
  for (auto* c : myConstrainers) c->forgetStep();
}

void MechSystemSolver::initialize(double t0) {
  forgetStep();
  mySys.updateExpansions();
  mySys.updateAttachmentStates();
  if (!myConstrainers.empty()) stabilizePositions(t0);
}

void MechSystemSolver::advance(double t0, double t1) {
  Eigen::VectorXd q0, u0;
  mySys.getFullPos(q0);
  mySys.getFullVel(u0);
  // The integrator of this step (a force effector may change the setting
  // during it): only its own step's joint forces are handed over below.
  const bool articulated = myIntegrator == Integrator::Articulated;
  // What the step's builds keep for its later ones ends with it, also
  // when it fails.
  struct StepEnd {
    MechSystemSolver& s;
    ~StepEnd() { s.forgetStep(); }
  } stepEnd{*this};
  try {
    switch (myIntegrator) {
      case Integrator::ForwardEuler:
      case Integrator::SymplecticEuler: stepExplicit(t0, t1); break;
      case Integrator::RungeKutta4: stepRungeKutta4(t0, t1); break;
      case Integrator::ConstrainedBackwardEuler:
      case Integrator::Trapezoidal:
      case Integrator::AlphaBeta: stepImplicit(t0, t1); break;
      case Integrator::Impulse: stepImpulse(t0, t1); break;
      case Integrator::Articulated: stepArticulated(t0, t1); break;
    }
  } catch (const ModelError& e) {
    // A force law that fails mid-step (e.g. a collapsed spring) is reported
    // as a failed step, with the model left at t0.
    mySys.setFullPos(q0);
    mySys.setFullVel(u0);
    throw SolverError(t1, e.path(), e.message());
  } catch (const SolverError&) {
    // A solve that fails after the bodies have moved (the Articulated
    // integrator's projection passes) leaves the model at t0 too.
    mySys.setFullPos(q0);
    mySys.setFullVel(u0);
    throw;
  }
  checkState(t1, q0, u0);
  // Only a step that succeeded hands its joint forces over.
  if (articulated && myArticulated) myArticulated->publishJointForces();
}

void MechSystemSolver::updateParametric(double h) {
  for (auto* c : myComps)
    if (c->isParametric()) c->updateParametricVelocity(h);
}

void MechSystemSolver::moveParametric(Eigen::VectorXd& q, double h) const {
  BlockVec u;
  for (int i = 0; i < mySys.numComponents(); ++i) {
    const auto& ci = mySys.info(i);
    if (ci.paramOffset < 0) continue;
    u.resize(ci.velSize);
    ci.comp->getVelState(u.data());
    ci.comp->addPosImpulse(q.data() + ci.posOffset, h, u.data());
  }
}

void MechSystemSolver::addActivePosImpulse(Eigen::VectorXd& q, double h, const Eigen::VectorXd& u) const {
  for (int i = 0; i < mySys.numComponents(); ++i) {
    const auto& ci = mySys.info(i);
    if (ci.solveOffset >= 0) ci.comp->addPosImpulse(q.data() + ci.posOffset, h, u.data() + ci.solveOffset);
  }
}

void MechSystemSolver::beginStep(double h, double t, bool jacobians, Eigen::VectorXd& u0) {
  updateParametric(h);
  mySys.updateExpansions();
  mySys.updateAttachmentStates();
  computeForces(t, jacobians);
  mySys.assembleMass();
  mySys.getActiveVel(u0);
  mySys.getParamVel(myUp);
  mySys.getActiveForce(myF);
}

void MechSystemSolver::finishStep(double h, double t1, double posStep, const Eigen::VectorXd& uPos) {
  Eigen::VectorXd q;
  mySys.getFullPos(q);
  addActivePosImpulse(q, posStep, uPos);
  moveParametric(q, h);
  mySys.setFullPos(q);
  mySys.setActiveVel(myU);
  mySys.updateExpansions();
  mySys.updateAttachmentStates();
  // Also without rows: a constrainer whose rows went away (contacts that
  // separated) reports no force rather than the last step's.
  distributeConstraintForces(myLambda, myTheta, h);
  stabilizePositions(t1);
}

void MechSystemSolver::stepImplicit(double t0, double t1) {
  const double h = t1 - t0;
  const bool trap = myIntegrator == Integrator::Trapezoidal;
  const bool alphaBeta = myIntegrator == Integrator::AlphaBeta;
  // Backward Euler is α = β = 1, the trapezoidal rule α = β = 1/2.
  const double alpha = alphaBeta ? myAlpha : trap ? 0.5 : 1.0;
  const double beta = alphaBeta ? myBeta : trap ? 0.5 : 1.0;
  Eigen::VectorXd u0;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  beginStep(h, t1, true, u0);
  if (beta == 1) takeFictitiousWrenchAtMidpoint(mySys, u0, h, myF);
  // Seed 003 eqs. (4)–(7) with f1 ≈ f0 + K Δx + D Δv and Δx = h(u0 + βΔv):
  // S = M − αh·D − αβh²·K;  b = M u0 + h f − αh·D u0 + α(1 − β)h²·K u0.
  const double aD = alpha * h, aK = alpha * beta * h * h;
  mySys.formMatrix(1.0, -aD, -aK, myS);
  mySys.mulMass(u0, myB);
  myB += h * myF;
  mySys.mulDamping(u0, myTmp);
  myB -= aD * myTmp;
  if (beta < 1) {
    mySys.mulStiffness(u0, myTmp);
    myB += alpha * (1 - beta) * h * h * myTmp;
  }
  // Parametric columns: their motion h·u_p over the step stretches the effectors.
  mySys.addParametricTerm(0.0, alpha * h * h, myUp, myB);
  // Backward Euler moves positions by h u⁺: holding u⁺ to the constraint
  // linearized at the step's midpoint, G u⁺ = −(h/2) Ġu, moves them along
  // the chord of a curved constraint, which makes a swinging pendulum's
  // period second-order accurate. Trapezoidal moves them by the average
  // velocity, which it holds to rows taken at the midpoint itself.
  // AlphaBeta's hard rows hold the velocity that moves the positions: for
  // β = 1 Backward Euler's rows (so that α = β = 1 is ConstrainedBackward-
  // Euler), for 0 < β < 1 the midpoint rows on βu⁺ + (1 − β)u0 (so that
  // α = β = 1/2 is Trapezoidal); its compliant rows take seed 003's form.
  if (trap || (alphaBeta && beta > 0 && beta < 1)) {
    buildMidpointRows(h, u0);
  } else {
    const StepVelocity at(*this, alphaBeta ? &u0 : nullptr);
    buildConstraintRows(h, true, myUp, h / 2);
  }
  myU = u0;  // initial guess for iterative backends: part of the state, so restarts are exact
  const auto assembled = Clock::now();
  solveOrThrow(myKKT, myS, mySys.takePatternChanged(), myB, myU, t1);
  myChordReady = !mySys.hasDampingOrStiffness();  // S = M
  const auto solved = Clock::now();
  if (trap) finishStep(h, t1, h / 2, u0 + myU);
  else if (beta < 1) finishStep(h, t1, h, beta * myU + (1 - beta) * u0);
  else finishStep(h, t1, h, myU);
  const auto end = Clock::now();
  auto seconds = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  myTimings.assembly += seconds(start, assembled);
  myTimings.solve += seconds(assembled, solved);
  myTimings.finish += seconds(solved, end);
  ++myTimings.steps;
}

void MechSystemSolver::stepImpulse(double t0, double t1) {
  if (!myImpulse) myImpulse = std::make_unique<ImpulseSolver>(*this);
  myImpulse->step(t0, t1, myImpulseReport);
}

void MechSystemSolver::stepArticulated(double t0, double t1) {
  if (!myArticulated) myArticulated = std::make_unique<ArticulatedSolver>(*this);
  myArticulated->step(t0, t1);
}

void MechSystemSolver::stepExplicit(double t0, double t1) {
  const double h = t1 - t0;
  Eigen::VectorXd u0;
  beginStep(h, t0, false, u0);
  mySys.formMatrix(1.0, 0.0, 0.0, myMS);
  mySys.mulMass(u0, myB);
  myB += h * myF;
  // As backward Euler for symplectic Euler, which moves positions by h u⁺.
  buildConstraintRows(h, true, myUp, myIntegrator == Integrator::SymplecticEuler ? h / 2 : 0.0);
  bool changed = myMassPatternChanged || mySys.takePatternChanged();
  myMassPatternChanged = false;
  myU = u0;
  solveOrThrow(myKKT, myMS, changed, myB, myU, t1);
  finishStep(h, t1, h, myIntegrator == Integrator::ForwardEuler ? u0 : myU);
}

void MechSystemSolver::computeAccel(double t, Eigen::VectorXd& a) {
  mySys.updateExpansions();
  mySys.updateAttachmentStates();
  computeForces(t, false);
  mySys.assembleMass();
  mySys.getActiveForce(myF);
  mySys.formMatrix(1.0, 0.0, 0.0, myMS);
  myG.clear();
  myN.clear();
  myD.clear();
  bool changed = myMassPatternChanged || mySys.takePatternChanged();
  myMassPatternChanged = false;
  solveOrThrow(myKKT, myMS, changed, myF, a, t);
}

void MechSystemSolver::stepRungeKutta4(double t0, double t1) {
  const double h = t1 - t0;
  updateParametric(h);
  Eigen::VectorXd q0, u0;
  mySys.getFullPos(q0);
  mySys.getActiveVel(u0);
  const int nq = mySys.fullPosSize();
  Eigen::VectorXd qd[4], a[4], q(nq), u;
  // Stage k evaluates at (q, u) and time t0 + c_k h.
  auto stage = [&](int k, double c, const Eigen::VectorXd& qs, const Eigen::VectorXd& us) {
    Eigen::VectorXd qn = qs;
    for (int i = 0; i < mySys.numComponents(); ++i) {
      const auto& ci = mySys.info(i);
      if (ci.solveOffset >= 0) ci.comp->normalizePosState(qn.data() + ci.posOffset);
    }
    moveParametric(qn, c * h);
    mySys.setFullPos(qn);
    mySys.setActiveVel(us);
    qd[k].setZero(nq);
    for (int i = 0; i < mySys.numComponents(); ++i) {
      const auto& ci = mySys.info(i);
      if (ci.solveOffset >= 0)
        ci.comp->getPosDerivative(qn.data() + ci.posOffset, us.data() + ci.solveOffset, qd[k].data() + ci.posOffset);
    }
    computeAccel(t0 + c * h, a[k]);
  };
  stage(0, 0.0, q0, u0);
  stage(1, 0.5, q0 + 0.5 * h * qd[0], u0 + 0.5 * h * a[0]);
  stage(2, 0.5, q0 + 0.5 * h * qd[1], u0 + 0.5 * h * a[1]);
  stage(3, 1.0, q0 + h * qd[2], u0 + h * a[2]);
  q = q0 + (h / 6) * (qd[0] + 2 * qd[1] + 2 * qd[2] + qd[3]);
  u = u0 + (h / 6) * (a[0] + 2 * a[1] + 2 * a[2] + a[3]);
  for (int i = 0; i < mySys.numComponents(); ++i) {
    const auto& ci = mySys.info(i);
    if (ci.solveOffset >= 0) ci.comp->normalizePosState(q.data() + ci.posOffset);
  }
  moveParametric(q, h);  // q holds q0's parametric entries (their qd is zero)
  mySys.setFullPos(q);
  mySys.setActiveVel(u);
  mySys.updateExpansions();
  mySys.updateAttachmentStates();
  if (!myConstrainers.empty()) {
    projectVelocities(t1, h);
    stabilizePositions(t1);
  }
}

void MechSystemSolver::projectVelocities(double t1, double h) {
  mySys.getParamVel(myUp);
  buildConstraintRows(1.0, true, myUp);
  // A hard unilateral row that is separated (φ > 0: a limit its joint has
  // not reached) may close its gap within the next step but not cross it,
  // N u ≥ −φ/h, as in a velocity solve. Built with h = 1 it let the gap
  // close at no more than φ per second, and so braked a joint swinging
  // towards a limit still far off (a pendulum 40° from its limit, to a stop
  // under RungeKutta4).
  for (int i = 0; i < myN.numRows(); ++i)
    if (myN.compliance[i] == 0 && myExtrasN.dist[i] > 0) myN.rhs[i] += myExtrasN.dist[i] * (1 - 1 / h);
  // The rows were built with h = 1, so the warm start they set is the last
  // step's forces times 1 s, not impulses of this projection: none.
  myKKT.setWarmStart(nullptr, nullptr);
  if (myG.numRows() + myN.numRows() == 0) return;
  mySys.assembleMass();
  mySys.formMatrix(1.0, 0.0, 0.0, myMS);
  mySys.getActiveVel(myTmp);
  mySys.mulMass(myTmp, myB);
  bool changed = myMassPatternChanged || mySys.takePatternChanged();
  myMassPatternChanged = false;
  myU = myTmp;
  solveOrThrow(myKKT, myMS, changed, myB, myU, t1);
  mySys.setActiveVel(myU);
  mySys.updateAttachmentStates();
}

void MechSystemSolver::stabilizePositions(double t1) {
  // Each pass is one Newton step on the constraint errors; another one is
  // needed only while an error is above stabilizationTol (a chord pass
  // removes all but a fraction h·ω; curved constraints, an ellipsoid joint
  // at speed, may leave more).
  // Whether another pass is needed is asked of the constrainers, which can
  // answer without forming their rows.
  //
  // Right after a velocity solve whose matrix was M (no damping or
  // stiffness terms) with hard bilateral rows only, the first passes reuse
  // its factors (a chord Newton step): the rows have turned by only h·ω
  // since, so each such pass still removes all but a fraction h·ω of the
  // error, at the cost of one back-substitution instead of a factorization.
  // The last pass always factors afresh. Five passes at most: contacts on
  // a deforming FEM surface can need more than three (FemCollisions left
  // 6e-9 m beyond the penetration tolerance after three in one step).
  const int maxPasses = 5;
  const double tol = myStabilizationTol;
  if (myConstrainers.empty()) return;
  const bool chord = myChordReady && myStabilization == PosStabilization::GlobalMass && myKKT.canSolveAgain();
  myChordReady = false;
  for (int pass = 0; pass < maxPasses; ++pass) {
    // A chord pass evaluates only the errors, so it checks them itself; a
    // full pass builds every row, so the errors are asked for first.
    const bool usesChord = chord && pass < maxPasses - 1;
    if (pass > 0 && !usesChord && !(maxHardConstraintError() > tol)) break;
    if (!stabilizationPass(t1, usesChord, pass > 0 ? tol : 0.0)) break;
  }
}

double MechSystemSolver::maxHardConstraintError() const {
  double e = 0;
  for (auto* c : myConstrainers) e = std::max(e, c->getMaxHardError());
  return e;
}

bool MechSystemSolver::chordRowErrors() {
  // Bilateral rows only (no unilateral, so no friction rows), all hard.
  if (myN.numRows() > 0) return false;
  for (double c : myG.compliance)
    if (c != 0) return false;
  int g = 0;
  for (size_t k = 0; k < myConstrainers.size(); ++k) {
    // Also a constrainer that had no rows: one may have gained some since
    // (a contact found at the new configuration), which its answer (the
    // default: false) sends to a build.
    if (!myConstrainers[k]->getRowErrors(myG.rhs.data() + g, myRowCountsG[k])) return false;
    g += myRowCountsG[k];
  }
  for (double& r : myG.rhs) r = -r;
  return true;
}

bool MechSystemSolver::stabilizationPass(double t1, bool chord, double tol) {
  Eigen::VectorXd zeroUp = Eigen::VectorXd::Zero(mySys.paramVelSize());
  // A chord pass needs only the rows' errors: where every constrainer can
  // give them without building its rows (joints), they are asked for alone.
  if (!(chord && chordRowErrors())) buildConstraintRows(1.0, false, zeroUp, 0.0, !chord);
  double maxErr = 0;
  for (int i = 0; i < myG.numRows(); ++i)
    if (myG.compliance[i] == 0) maxErr = std::max(maxErr, std::abs(myG.rhs[i]));
  for (int i = 0; i < myN.numRows(); ++i)
    if (myN.compliance[i] == 0) maxErr = std::max(maxErr, myN.rhs[i]);  // penetration only
  if (!(maxErr > tol)) return false;
  // [A −Gᵀ; −G −R] [Δ; λ] = [0; d]: the mass-weighted (or stiffness-
  // weighted) smallest correction that removes the constraint error.
  Eigen::VectorXd b = Eigen::VectorXd::Zero(mySys.activeVelSize()), dq;
  if (!(chord && myKKT.solveAgain(b, myG, myN, dq, myLambda, myTheta))) {
    if (chord) buildConstraintRows(1.0, false, zeroUp);  // rows changed in kind: all entries needed
    solveProjection(t1, b, dq);
  }
  Eigen::VectorXd q;
  mySys.getFullPos(q);
  addActivePosImpulse(q, 1.0, dq);
  mySys.setFullPos(q);
  mySys.updateExpansions();
  mySys.updateAttachmentStates();
  return true;
}

void MechSystemSolver::solveProjection(double t1, const Eigen::VectorXd& b, Eigen::VectorXd& dq) {
  if (myStabilization == PosStabilization::GlobalStiffness) {
    computeForces(t1, true);
    mySys.assembleMass();
    mySys.formMatrix(1.0, 0.0, -1.0, myMS);
  } else {
    mySys.assembleMass();
    mySys.formMatrix(1.0, 0.0, 0.0, myMS);
  }
  bool changed = myProjPatternChanged || mySys.takePatternChanged();
  myProjPatternChanged = false;
  solveOrThrow(myProjKKT, myMS, changed, b, dq, t1);
}

std::vector<double> MechSystemSolver::solveStatic(double t, double relTol, int maxIter) {
  forgetStep();
  mySys.updateExpansions();
  mySys.updateAttachmentStates();
  mySys.setActiveVel(Eigen::VectorXd::Zero(mySys.activeVelSize()));
  const Eigen::VectorXd zeroUp = Eigen::VectorXd::Zero(mySys.paramVelSize());
  std::vector<double> residuals;
  double scale = 0;
  myLambda.resize(0);
  Eigen::VectorXd dq, q;
  for (int k = 0;; ++k) {
    computeForces(t, true);
    mySys.assembleMass();
    mySys.getActiveForce(myF);
    buildConstraintRows(1.0, false, zeroUp);
    double phi = 0;
    for (int i = 0; i < myG.numRows(); ++i) phi = std::max(phi, std::abs(myG.rhs[i]));
    // The residual is the net force f + Gᵀλ, with the constraint forces of
    // the last iterate (zero at the start).
    Eigen::VectorXd net = myF;
    if (k > 0 && myLambda.size() == myG.numRows())
      for (const auto& e : myG.entries) net[e.col()] += e.value() * myLambda[e.row()];
    const double r = net.lpNorm<Eigen::Infinity>();
    if (k == 0) scale = std::max(r, 1e-300);
    residuals.push_back(r);
    // Converged, or stalled at round-off after a large reduction (the floor
    // is set by the internal forces, which can dwarf the applied ones).
    const bool stalled = k > 0 && r < 1e-6 * scale && r > 0.5 * residuals[k - 1];
    if ((r <= relTol * scale || stalled) && phi <= 1e-10) break;
    if (k == maxIter)
      throw SolverError(t, "", "static solve did not converge in " + std::to_string(maxIter) +
                                   " iterations (residual force " + formatG(r) + ", first " + formatG(scale) +
                                   ", relTol " + formatG(relTol) + ")");
    mySys.formMatrix(0.0, 0.0, -1.0, myMS);
    const bool changed = myProjPatternChanged || mySys.takePatternChanged();
    myProjPatternChanged = false;
    solveOrThrow(myProjKKT, myMS, changed, myF, dq, t);
    mySys.getFullPos(q);
    addActivePosImpulse(q, 1.0, dq);
    mySys.setFullPos(q);
    mySys.updateExpansions();
    mySys.updateAttachmentStates();
  }
  distributeConstraintForces(myLambda, myTheta, 1.0);
  return residuals;
}

void MechSystemSolver::checkState(double t1, const Eigen::VectorXd& q0, const Eigen::VectorXd& u0) {
  // The whole state in one vectorized test; the component is looked for
  // only when something is not finite.
  mySys.getFullPos(myCheckQ);
  mySys.getFullVel(myCheckU);
  if (myCheckQ.allFinite() && myCheckU.allFinite()) return;
  std::string path;
  BlockVec v;
  double q[7];
  for (auto* c : myComps) {
    c->getPosState(q);
    v.resize(c->getVelStateSize());
    c->getVelState(v.data());
    bool ok = v.allFinite();
    for (int k = 0; k < c->getPosStateSize(); ++k) ok &= std::isfinite(q[k]);
    if (ok) continue;
    path = c->componentPath();
    break;
  }
  mySys.setFullPos(q0);
  mySys.setFullVel(u0);
  throw SolverError(t1, path,
                    "position or velocity became non-finite: the step diverged (use a smaller step "
                    "size or an implicit integrator)");
}

double MechSystemSolver::computeEnergy() const {
  double e = 0;
  Block M;
  BlockVec u;
  for (auto* c : myComps) {
    if (c->isParametric() || c->getMass() == 0) continue;
    c->getMassBlock(M);
    u.resize(c->getVelStateSize());
    c->getVelState(u.data());
    e += 0.5 * u.dot(M * u) + c->getGravityPotential(myGravity);
  }
  for (auto* f : myEffectors) e += f->getPotentialEnergy();
  return e;
}

}  // namespace sinew
