#include "sinew/solver/ImpulseSolver.h"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "sinew/Error.h"
#include "sinew/math/CoriolisJacobian.h"
#include "sinew/mech/RigidBody.h"

namespace sinew {

bool ImpulseSolver::outOfTime(const Clock::time_point& deadline) const {
  return myTimed && Clock::now() > deadline;
}

void ImpulseSolver::computeInverseMasses() {
  // The mass blocks as the velocity solve sees them (slave masses folded
  // onto their masters); anything off the diagonal blocks couples bodies.
  MechSystem& sys = myS.mySys;
  sys.formMatrix(1.0, 0.0, 0.0, myS.myMS);
  myCompOfCol.assign(sys.activeVelSize(), -1);
  myMinv.resize(sys.numComponents());
  myMass.resize(sys.numComponents());
  for (int i = 0; i < sys.numComponents(); ++i) {
    const auto& ci = sys.info(i);
    if (ci.solveOffset < 0) continue;
    for (int k = 0; k < ci.velSize; ++k) myCompOfCol[ci.solveOffset + k] = i;
    myMinv[i].setZero(ci.velSize, ci.velSize);
  }
  for (int col = 0; col < myS.myMS.outerSize(); ++col)
    for (SparseMatrixd::InnerIterator it(myS.myMS, col); it; ++it) {
      const int i = myCompOfCol[it.row()], j = myCompOfCol[it.col()];
      if (i != j && it.value() != 0)
        throw ModelError("the Impulse integrator needs a block-diagonal mass matrix; this component's mass is "
                         "coupled to another's (consistent FEM mass or an attachment to several masters)",
                         sys.info(i).comp->componentPath());
      if (i == j) myMinv[i](it.row() - sys.info(i).solveOffset, it.col() - sys.info(i).solveOffset) = it.value();
    }
  for (int i = 0; i < sys.numComponents(); ++i) {
    const auto& ci = sys.info(i);
    if (ci.solveOffset < 0) continue;
    const Block& M = myMass[i] = myMinv[i];  // the pattern is full (both triangles), as mulMass reads it
    // A rigid body's block about its centre of mass, diag(m I, J), inverts
    // as diag(I/m, J⁻¹): a tenth of the general inversion below, which a
    // long chain's step otherwise spends a good part of its time on.
    if (M.rows() == 6 && M.topRightCorner<3, 3>().isZero(0) && M.bottomLeftCorner<3, 3>().isZero(0) &&
        M.topLeftCorner<3, 3>().isDiagonal(0) && M(0, 0) > 0 && M(0, 0) == M(1, 1) && M(0, 0) == M(2, 2)) {
      const Matrix3d J = M.bottomRightCorner<3, 3>();
      // Positive definite (as the Cholesky factorization tells), J inverts
      // by its cofactors: a triangular solve of the identity cost ten times
      // as much.
      if (Eigen::LLT<Matrix3d>(J).info() == Eigen::Success) {
        myMinv[i].setZero(6, 6);
        myMinv[i].topLeftCorner<3, 3>().diagonal().setConstant(1 / M(0, 0));
        myMinv[i].bottomRightCorner<3, 3>() = J.inverse();
        continue;
      }
    }
    // At the blocks' own capacity (6 × 6): no allocation per component.
    const Eigen::LLT<Block> llt(M);
    if (llt.info() != Eigen::Success || !(M.diagonal().minCoeff() > 0))
      throw ModelError("a dynamic component needs a positive mass under the Impulse integrator",
                       ci.comp->componentPath());
    myMinv[i].setIdentity(M.rows(), M.cols());
    llt.solveInPlace(myMinv[i]);
  }
}

void ImpulseSolver::buildRows(Constrainer& c, double h, bool velocityLevel, Rows& r) {
  MechSystem& sys = myS.mySys;
  MechSystem::PartRowBuilder &gb = myPartsG, &nb = myPartsN;
  gb.clear();
  nb.clear();
  gb.h = nb.h = velocityLevel ? h : 0;
  c.getBilateralConstraints(gb);
  c.getUnilateralConstraints(nb);
  r.numBilateral = gb.numRows();
  r.k.clear();
  r.direct = -1;
  const int n = r.numBilateral + nb.numRows();
  r.phi = gb.dist;
  r.phi.insert(r.phi.end(), nb.dist.begin(), nb.dist.end());
  r.compliance = gb.compliance;
  r.compliance.insert(r.compliance.end(), nb.compliance.begin(), nb.compliance.end());
  r.hardBilateral =
      r.numBilateral == n && std::all_of(r.compliance.begin(), r.compliance.end(), [](double c) { return c == 0; });
  // The builder moved the parametric part G_p u_p to the right-hand side.
  r.known.resize(n);
  for (int i = 0; i < n; ++i) r.known[i] = -(i < r.numBilateral ? gb.rhs[i] : nb.rhs[i - r.numBilateral]);
  // The active components touched, in order of appearance.
  myLocal.resize(sys.numComponents(), -1);
  r.comps.clear();
  r.colStart.clear();
  r.uOffset.clear();
  int cols = 0;
  r.rigidOnly = true;
  for (const MechSystem::PartRowBuilder* b : {&gb, &nb})
    for (const auto& part : b->parts) {
      if (myLocal[part.comp] >= 0) continue;
      myLocal[part.comp] = static_cast<int>(r.comps.size());
      r.comps.push_back(part.comp);
      r.colStart.push_back(cols);
      r.uOffset.push_back(sys.info(part.comp).solveOffset);
      cols += sys.info(part.comp).velSize;
      r.rigidOnly = r.rigidOnly && sys.info(part.comp).velSize == 6;
    }
  r.G.setZero(n, cols);
  for (int pass = 0; pass < 2; ++pass) {
    const MechSystem::PartRowBuilder& b = pass == 0 ? gb : nb;
    const int off = pass == 0 ? 0 : r.numBilateral;
    for (const auto& part : b.parts) {
      const int w = sys.info(part.comp).velSize, c0 = r.colStart[myLocal[part.comp]];
      for (int k = 0; k < w; ++k) r.G(off + part.row, c0 + k) += b.values[part.first + k];
    }
  }
  for (int ci : r.comps) myLocal[ci] = -1;
}

void ImpulseSolver::solveBlock(const Rows& r, const std::vector<int>& sel, const Eigen::VectorXd& b,
                               const std::vector<double>& accum, const std::vector<double>& extraDiag,
                               Eigen::VectorXd& p) {
  // At most kMaxBlockRows rows (larger constrainers go row by row) on
  // blocks of at most 6 columns: fixed-capacity matrices, no allocation.
  using RowsOfBlock = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxBlockRows, 6>;
  const int m = static_cast<int>(sel.size());
  if (m > kMaxBlockRows) throw std::logic_error("ImpulseSolver::solveBlock: more rows than a block holds");
  // K = G M⁻¹ Gᵀ over the selected rows, plus the compliant terms; over
  // all rows it is kept with the rows (Rows::K).
  bool all = m == r.numRows();
  for (int a = 0; a < m && all; ++a) all = sel[a] == a;
  BlockMatrix K = BlockMatrix::Zero(m, m);
  if (all && r.k.valid && r.k.extra == extraDiag) {
    K = r.k.K;
  } else {
    RowsOfBlock Gj;
    for (size_t j = 0; j < r.comps.size(); ++j) {
      const Block& Minv = myMinv[r.comps[j]];
      Gj.resize(m, Minv.rows());
      for (int a = 0; a < m; ++a) Gj.row(a) = r.G.row(sel[a]).segment(r.colStart[j], Minv.rows());
      K.noalias() += Gj * Minv * Gj.transpose();
    }
    for (int a = 0; a < m; ++a) K(a, a) += extraDiag[sel[a]];
    if (all) {
      r.k.K = K;
      r.k.extra = extraDiag;
      r.k.valid = true;
      r.k.factor.reset();
    }
  }
  // Rows that no impulse can move (they touch only fixed components) stay out.
  std::array<char, kMaxBlockRows> free{};
  const double scale = K.diagonal().cwiseAbs().maxCoeff();
  for (int a = 0; a < m; ++a) free[a] = K(a, a) > 1e-14 * scale && scale > 0;
  // A unilateral row that would have to pull, with nothing accumulated to
  // give back, starts fixed at zero.
  for (int a = 0; a < m; ++a)
    if (r.unilateral(sel[a]) && accum[sel[a]] <= 0 && b[a] <= 0) free[a] = 0;
  p.setZero(m);
  std::array<int, kMaxBlockRows> act;
  BlockMatrix Ka;
  BlockVector ba;
  for (int pass = 0; pass <= m; ++pass) {
    int na = 0;
    for (int a = 0; a < m; ++a)
      if (free[a]) act[na++] = a;
    if (na == 0) break;
    Ka.resize(na, na);
    ba.resize(na);
    for (int x = 0; x < na; ++x) {
      ba[x] = b[act[x]];
      for (int a = 0; a < m; ++a)
        if (!free[a]) ba[x] -= K(act[x], a) * p[a];
      for (int y = 0; y < na; ++y) Ka(x, y) = K(act[x], act[y]);
    }
    BlockVector pa;
    if (all && na == m) {  // every row free: the kept factorization
      if (!r.k.factor) r.k.factor.emplace(r.k.K);
      pa = r.k.factor->solve(ba);
    } else {
      pa = Eigen::LDLT<BlockMatrix>(Ka).solve(ba);
    }
    if (!pa.allFinite()) break;
    for (int x = 0; x < na; ++x) p[act[x]] = pa[x];
    // Accumulated unilateral impulses stay non-negative: a row that would
    // go below zero gives back what it has and leaves the block.
    bool clamped = false;
    for (int a = 0; a < m; ++a)
      if (free[a] && r.unilateral(sel[a]) && accum[sel[a]] + p[a] < 0) {
        p[a] = -accum[sel[a]];
        free[a] = 0;
        clamped = true;
      }
    if (!clamped) break;
  }
}

void ImpulseSolver::applyImpulse(const Rows& r, const std::vector<int>& sel, const Eigen::VectorXd& p, double h,
                                 bool lookAhead) {
  MechSystem& sys = myS.mySys;
  Eigen::VectorXd& gp = myGp;
  gp.setZero(r.G.cols());
  for (size_t a = 0; a < sel.size(); ++a) gp.noalias() += p[a] * r.G.row(sel[a]).transpose();
  for (int comp : r.comps) ++myVelVersion[comp];
  for (size_t j = 0; j < r.comps.size(); ++j) {
    const auto& ci = sys.info(r.comps[j]);
    myU.segment(ci.solveOffset, ci.velSize).noalias() += myMinv[r.comps[j]] * gp.segment(r.colStart[j], ci.velSize);
  }
  if (lookAhead) moveLookAhead(r.comps, h);
}

void ImpulseSolver::moveLookAhead(const std::vector<int>& comps, double h) {
  MechSystem& sys = myS.mySys;
  for (int comp : comps) {
    ++myPosVersion[comp];
    const auto& ci = sys.info(comp);
    // A rigid body's 7 values in a fixed-size copy (no memcpy call).
    Eigen::Matrix<double, 7, 1> q7;
    double* q = q7.data();
    if (ci.posSize == 7) {
      q7 = myQ0.segment<7>(ci.posOffset);
    } else {
      myQtmp = myQ0.segment(ci.posOffset, ci.posSize);
      q = myQtmp.data();
    }
    ci.comp->addPosImpulse(q, h, myU.data() + ci.solveOffset);
    ci.comp->setPosState(q);
  }
  if (myHasAttachments) {
    sys.updateExpansions();
    sys.updateAttachmentStates();
  }
}

double ImpulseSolver::correctPosition(Constrainer& c, Accum& a, Seen& seen, double h, double tol, long& corrections) {
  // After the step's first build the rows stay, and only their errors are
  // evaluated again at each look-ahead, where the constrainer can.
  Rows& r = a.rows;
  if (!a.built || !c.getRowErrors(r.phi.data(), r.numRows())) {
    foldPending(r, a);  // summed against the rows about to be replaced
    buildRows(c, h, false, r);
    a.built = true;
  }
  const int n = r.numRows();
  if (n == 0) return 0;
  // Rows came or went (a coordinate locked or its range set since the last
  // step: a limited coordinate's row is there on its nearer bound all along).
  if (static_cast<int>(a.impulse.size()) != n) a.impulse.assign(n, 0.0);
  if (r.hardBilateral && r.direct != 0) {
    // The common joint's rows, hard and bilateral: φ itself is the error,
    // and no row reads its impulse, so the direct correction sums its
    // right-hand sides b = −ωφ/h (foldPending), as the velocity
    // correction's does.
    double err = 0;
    for (int i = 0; i < n; ++i) err = std::max(err, std::abs(r.phi[i]));
    if (!(err > tol)) return remember(seen, r.comps, myPosVersion, err);
    seen.n = 0;
    if (prepareDirect(r, nullptr)) {
      correctDirectPosition(r, a, -myS.myImpulseSettings.relaxation / h);
      moveLookAhead(r.comps, h);
      ++corrections;
      return err;
    }
  }
  // The error of each row: what the look-ahead misses of φ = 0 (bilateral),
  // φ ≥ 0 with complementary impulse (unilateral), or φ = −c·P/h (compliant).
  double err = 0;
  std::vector<double>& extra = myExtra;
  Eigen::VectorXd& b = myBPos;
  extra.resize(n);
  b.resize(n);
  if (r.hardBilateral) {
    // The common joint's rows, hard and bilateral: φ itself.
    for (int i = 0; i < n; ++i) {
      extra[i] = 0;
      b[i] = -r.phi[i] / h;
      err = std::max(err, std::abs(r.phi[i]));
    }
  } else {
    for (int i = 0; i < n; ++i) {
      const double c2 = r.compliance[i] / (h * h);
      const double res = r.phi[i] + c2 * h * a.impulse[i];
      extra[i] = c2;
      b[i] = -res / h;
      double e = std::abs(res);
      if (r.unilateral(i)) e = res < 0 ? -res : (a.impulse[i] > 0 ? res : 0);
      err = std::max(err, e);
    }
  }
  if (!(err > tol)) return remember(seen, r.comps, myPosVersion, err);
  seen.n = 0;
  if (r.numBilateral == n && prepareDirect(r, &extra)) {
    // Every row bilateral: p = ω K⁻¹ b, no active set.
    b *= myS.myImpulseSettings.relaxation;
    applyDirect(r, b, a.impulse);
    moveLookAhead(r.comps, h);
    ++corrections;
    return err;
  }
  std::vector<int>& sel = mySelPos;
  Eigen::VectorXd &p = myPPos, &bs = myBSel;
  sel.clear();
  auto correct = [&]() {
    bs.resize(sel.size());
    for (size_t k = 0; k < sel.size(); ++k) bs[k] = b[sel[k]];
    solveBlock(r, sel, bs, a.impulse, extra, p);
    for (size_t k = 0; k < sel.size(); ++k) a.impulse[sel[k]] += p[k];
    applyImpulse(r, sel, p, h, true);
    ++corrections;
  };
  if (n <= kMaxBlockRows) {
    for (int i = 0; i < n; ++i) sel.push_back(i);
    correct();
  } else {
    // Row by row: each row's right-hand side must see the earlier rows'
    // impulses, which moved the velocities; the row's value changes by
    // h·G_i Δu for the look-ahead.
    Eigen::VectorXd uBefore = myU;
    for (int i = 0; i < n; ++i) {
      double moved = 0;
      for (size_t j = 0; j < r.comps.size(); ++j) {
        const auto& ci = myS.mySys.info(r.comps[j]);
        moved += r.G.row(i).segment(r.colStart[j], ci.velSize).dot(
            myU.segment(ci.solveOffset, ci.velSize) - uBefore.segment(ci.solveOffset, ci.velSize));
      }
      b[i] -= moved;
      sel.assign(1, i);
      correct();
    }
  }
  return err;
}

double ImpulseSolver::velocityOf(const Rows& r, int i) const {
  double v = r.known[i];
  for (size_t j = 0; j < r.comps.size(); ++j) {
    const int w = myS.mySys.info(r.comps[j]).velSize;
    v += r.G.row(i).segment(r.colStart[j], w).dot(myU.segment(r.uOffset[j], w));
  }
  return v;
}

double ImpulseSolver::correctVelocity(const Rows& r, Accum& a, Seen& seen, double tol, long& corrections) {
  const int n = r.numRows();
  if (n == 0) return 0;
  if (static_cast<int>(a.impulse.size()) != n) a.impulse.assign(n, 0.0);
  // Rows prepared for the direct correction stay so while they stay (the
  // velocity rows are hard and bilateral then, and buildRows resets it).
  if (r.direct == 1) return correctDirectVelocity(r, a, seen, tol, corrections);
  std::vector<double>& extra = myZeros;
  extra.assign(n, 0.0);
  // Every row hard and bilateral: all of them at once, p = −K⁻¹ G u.
  if (r.hardBilateral && prepareDirect(r, &extra))
    return correctDirectVelocity(r, a, seen, tol, corrections);
  // Velocity of each hard row that holds: bilateral ones, and unilateral
  // ones in contact (a separated one, φ > 0, may close its gap).
  auto holds = [&](int i) { return r.compliance[i] == 0 && !(r.unilateral(i) && r.phi[i] > 0); };
  double err = 0;
  std::vector<int>& sel = mySel;
  sel.clear();
  for (int i = 0; i < n; ++i) {
    if (!holds(i)) continue;
    const double v = velocityOf(r, i);
    const double e = r.unilateral(i) ? (v < 0 ? -v : (a.impulse[i] > 0 ? v : 0)) : std::abs(v);
    err = std::max(err, e);
    sel.push_back(i);
  }
  if (!(err > tol)) return remember(seen, r.comps, myVelVersion, err);
  seen.n = 0;
  Eigen::VectorXd &p = myP, &b = myB;
  auto correct = [&](const std::vector<int>& s) {
    b.resize(s.size());
    for (size_t k = 0; k < s.size(); ++k) b[k] = -velocityOf(r, s[k]);
    solveBlock(r, s, b, a.impulse, extra, p);
    for (size_t k = 0; k < s.size(); ++k) a.impulse[s[k]] += p[k];
    applyImpulse(r, s, p, 0, false);
    ++corrections;
  };
  if (n <= kMaxBlockRows) {
    correct(sel);
  } else {
    for (int i : sel) correct({i});
  }
  return err;
}

void ImpulseSolver::warmStart(std::vector<Accum>& acc, const std::vector<std::vector<double>>& warm, bool velocityLoop) {
  // With the rows in myVelRows: for the joint correction those of the last
  // step's end, which is this step's start; for the velocity correction
  // this step's.
  // A unilateral row separated there (φ > 0: a limit its joint has left)
  // starts without impulse: its push belonged to the contact it no longer
  // has, and the velocity correction, which leaves separated rows alone,
  // would never take it back (a chain rebounding from its limits gained
  // energy step after step). Nor does the velocity correction revisit a
  // compliant row (its spring acts in the joint correction), so there
  // those start without impulse too (a projection's impulse on them,
  // carried over, had pumped energy into a chain of compliant joints).
  const auto& cons = myS.myConstrainers;
  if (myVelRows.size() != cons.size() || warm.size() != cons.size()) return;
  std::vector<int> sel;
  for (size_t k = 0; k < cons.size(); ++k) {
    const Rows& r = myVelRows[k];
    if (warm[k].empty() || static_cast<int>(warm[k].size()) != r.numRows()) continue;
    std::vector<double>& start = acc[k].impulse;
    start = warm[k];
    for (int i = 0; i < r.numRows(); ++i)
      if ((r.unilateral(i) && r.phi[i] > 0) || (velocityLoop && r.compliance[i] != 0)) start[i] = 0;
    sel.resize(r.numRows());
    for (int i = 0; i < r.numRows(); ++i) sel[i] = i;
    applyImpulse(r, sel, Eigen::Map<const Eigen::VectorXd>(start.data(), r.numRows()), 0, false);
  }
}

void ImpulseSolver::reportForces(const std::vector<Accum>& pos, const std::vector<Accum>& vel,
                                 const std::vector<std::vector<double>>& base, double h) {
  // Rows at t1 (the velocity correction's) name the rows the constrainers
  // built last; the joint correction's impulses count where the row count
  // is the same (for contact: `base`, carried onto the contacts found at
  // t1 by the constrainer, CollisionManager::carryImpulses).
  std::vector<double> f;
  for (size_t k = 0; k < myS.myConstrainers.size(); ++k) {
    if (myIsSet[k]) {
      const RowSet& s = myVelSets[k];
      f.assign(s.numRows(), 0.0);
      const bool corrected = static_cast<int>(vel[k].impulse.size()) == s.numRows();  // not with velocityCorrection off
      for (int i = 0; i < s.numRows(); ++i)
        f[i] = ((corrected ? vel[k].impulse[i] : 0.0) + (base[k].empty() ? 0.0 : base[k][i])) / h;
      myS.myConstrainers[k]->setConstraintForces(f.data(), f.data() + s.numBilateral);
      if (s.numRows() > s.firstFriction()) myS.myConstrainers[k]->setFrictionForces(f.data() + s.firstFriction());
      continue;
    }
    const Rows& r = myVelRows[k];
    f.assign(r.numRows(), 0.0);
    for (int i = 0; i < r.numRows(); ++i) {
      if (pos[k].impulse.size() == f.size()) f[i] += pos[k].impulse[i];
      if (vel[k].impulse.size() == f.size()) f[i] += vel[k].impulse[i];
      f[i] /= h;
    }
    myS.myConstrainers[k]->setConstraintForces(f.data(), f.data() + r.numBilateral);
  }
}

void ImpulseSolver::step(double t0, double t1, ImpulseReport& rep) {
  rep = ImpulseReport();
  const double h = t1 - t0;
  const ImpulseSettings& set = myS.myImpulseSettings;
  MechSystem& sys = myS.mySys;
  auto& cons = myS.myConstrainers;
  myTimed = set.maxTime > 0;
  const auto deadline =
      myTimed ? Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(set.maxTime))
              : Clock::time_point::max();
  Eigen::VectorXd u0;
  myS.beginStep(h, t0, false, u0);  // forces at t0
  myHasAttachments = !sys.attachments().empty();
  computeInverseMasses();

  // 1. Unconstrained motion over the step. A rigid body's fictitious
  // wrench is taken implicitly (midpoint): explicit, it gains energy when
  // the body spins fast; backward Euler would damp the spin.
  myU = u0;
  for (int i = 0; i < sys.numComponents(); ++i) {
    const auto& ci = sys.info(i);
    if (ci.solveOffset < 0) continue;
    const auto f = myS.myF.segment(ci.solveOffset, ci.velSize);
    const RigidBody* body = ci.rigid;
    if (body && ci.velSize == 6) {
      const SpatialInertia& I = body->getInertia();
      const Matrix3d& R = body->getRotation();
      const Twist w0 = u0.segment<6>(ci.solveOffset);
      const Twist w1 = implicitMidpointVelocity(I, R, myMass[i], w0, f - I.coriolisForce(R, w0), h);
      myU.segment<6>(ci.solveOffset) += w1 - w0;
    } else {
      myU.segment(ci.solveOffset, ci.velSize) += h * myMinv[i] * f;
    }
  }
  sys.getFullPos(myQ0);
  auto moveTo = [&](const Eigen::VectorXd& u) {
    Eigen::VectorXd q = myQ0;
    myS.addActivePosImpulse(q, h, u);
    myS.moveParametric(q, h);
    sys.setFullPos(q);
    sys.updateExpansions();
    sys.updateAttachmentStates();
  };
  // 2. Joint correction: sweeps until no constrainer's look-ahead is off,
  // starting from the last step's impulses.
  std::vector<Accum>&posAcc = myPosAcc, &velAcc = myVelAcc;
  posAcc.resize(cons.size());
  velAcc.resize(cons.size());
  for (Accum& a : posAcc) a.reset();
  for (Accum& a : velAcc) a.reset();
  myPosSeen.assign(cons.size(), Seen());
  myVelSeen.assign(cons.size(), Seen());
  myPosVersion.resize(sys.numComponents());
  myVelVersion.resize(sys.numComponents());
  myIsSet.resize(cons.size());
  myPosSets.resize(cons.size());
  myVelSets.resize(cons.size());
  for (size_t k = 0; k < cons.size(); ++k) myIsSet[k] = cons[k]->rowsFromDetection();
  // Contact rows are found at t0, watching what may touch within the
  // step, and predicted linearly at the look-ahead: φ + h·(G u + G_p u_p),
  // as the MLCP's velocity solve does (a contact within the penetration
  // allowance is held where it is at t0).
  // They are marked, to carry their impulses to the rows found at t1.
  for (size_t k = 0; k < cons.size(); ++k) {
    if (!myIsSet[k]) continue;
    buildRowSet(*cons[k], h, true, myPosSets[k]);
    cons[k]->markRows();
  }
  warmStart(posAcc, myWarm, false);
  moveTo(myU);  // the look-ahead
  auto loopStart = Clock::now();
  bool converged = cons.empty();
  for (int sweep = 0; sweep < set.maxIterations && !converged; ++sweep) {
    const long before = rep.corrections;
    double err = 0;
    for (size_t k = 0; k < cons.size(); ++k) {
      // A joint whose bodies have not moved since it was last within
      // tolerance needs nothing (asked here, before a call that would
      // cost more than the question; a long chain's sweeps find most so).
      const Seen& s = myPosSeen[k];
      if (unchangedSince(s, myPosVersion)) {
        err = std::max(err, s.err);
        continue;
      }
      err = std::max(err, myIsSet[k] ? correctRowSetPosition(myPosSets[k], posAcc[k], h, set.positionTol, rep.corrections)
                                     : correctPosition(*cons[k], posAcc[k], myPosSeen[k], h, set.positionTol,
                                                       rep.corrections));
    }
    rep.positionIterations = sweep + 1;
    rep.lookAheadError = err;
    converged = rep.corrections == before;
    if (!converged && outOfTime(deadline)) break;
  }
  rep.correctionSeconds += std::chrono::duration<double>(Clock::now() - loopStart).count();
  for (size_t k = 0; k < cons.size(); ++k)
    if (!myIsSet[k]) foldPending(posAcc[k].rows, posAcc[k]);
  if (!converged) {
    rep.interrupted = true;
    rep.exhausted = rep.positionIterations >= set.maxIterations;
  }

  // 3. Positions with the corrected velocities. Sweeps that ran out (a
  // chain whipping through a near-singular shape needs far more than the
  // budget) leave errors that grow step after step and feed energy in:
  // there the MLCP's direct projection removes them instead.
  moveTo(myU);
  // Position stabilization has no friction, so it serves with contact rows
  // too (a walking machine's twelve joints and feet exhaust the sweeps); the
  // velocity projection below does not (the MLCP's box friction would
  // replace the step's Coulomb impulses).
  const bool project =
      set.projectWhenExhausted && std::none_of(myIsSet.begin(), myIsSet.end(), [](char c) { return c != 0; });
  if (set.projectWhenExhausted && rep.exhausted) myS.stabilizePositions(t1);

  // 4. Velocity correction with the rows at t1.
  myVelRows.resize(cons.size());
  for (size_t k = 0; k < cons.size(); ++k) {
    if (myIsSet[k]) {
      myVelRows[k] = Rows();
      buildRowSet(*cons[k], h, true, myVelSets[k]);
    } else {
      buildRows(*cons[k], h, true, myVelRows[k]);
    }
  }
  // Contact rows found again at t1 start from the joint correction's
  // impulses: carried contact by contact where the constrainer can tell
  // which rows continue which (the same contacts, or its stand-ins for
  // them), else taken row by row where the rows keep their number.
  std::vector<std::vector<double>> base(cons.size());
  for (size_t k = 0; k < cons.size(); ++k) {
    if (!myIsSet[k]) continue;
    if (cons[k]->carryImpulses(posAcc[k].impulse, base[k]) &&
        static_cast<int>(base[k].size()) == myVelSets[k].numRows())
      continue;
    base[k].clear();
    if (myVelSets[k].sameShape(myPosSets[k]) && static_cast<int>(posAcc[k].impulse.size()) == myVelSets[k].numRows())
      base[k] = posAcc[k].impulse;
  }
  if (set.velocityCorrection) {
    warmStart(velAcc, myWarmVel, true);
    loopStart = Clock::now();
    bool done = cons.empty();
    for (int sweep = 0; sweep < set.maxIterations && !done; ++sweep) {
      const long before = rep.corrections;
      double err = 0;
      for (size_t k = 0; k < cons.size(); ++k) {
        // As in the joint correction: the 1000-link chain's 200 velocity
        // sweeps find most joints so.
        const Seen& s = myVelSeen[k];
        if (unchangedSince(s, myVelVersion)) {
          err = std::max(err, s.err);
          continue;
        }
        err = std::max(err, myIsSet[k] ? correctRowSetVelocity(myVelSets[k], velAcc[k], base[k], set.velocityTol,
                                                               rep.corrections)
                                       : correctVelocity(myVelRows[k], velAcc[k], myVelSeen[k], set.velocityTol,
                                                         rep.corrections));
      }
      rep.velocityIterations = sweep + 1;
      rep.velocityError = err;
      done = rep.corrections == before;
      if (!done && outOfTime(deadline)) break;
    }
    rep.correctionSeconds += std::chrono::duration<double>(Clock::now() - loopStart).count();
    // Every velocity correction's impulses whole before anything reads
    // them (the projection, the forces, the next step's warm start).
    for (size_t k = 0; k < cons.size(); ++k)
      if (!myIsSet[k]) foldPending(myVelRows[k], velAcc[k]);
    if (!done) rep.interrupted = true;
    if (project && !done && rep.velocityIterations >= set.maxIterations) {
      // As for the positions: the direct projection G u = 0 (in the mass
      // norm, so it only takes energy out), over the rows the sweeps used
      // where it can (its impulses then join the rows' forces), else the
      // MLCP's.
      rep.velocityProjection = ImpulseReport::Projection::Rows;
      if (!projectVelocityRows(velAcc)) {
        sys.setActiveVel(myU);
        myS.projectVelocities(t1, h);
        sys.getActiveVel(myU);
        addProjectionImpulses(velAcc);
        rep.velocityProjection = ImpulseReport::Projection::MLCP;
      }
    }
  }
  // Coulomb's bound holds exactly for the reported friction.
  for (size_t k = 0; k < cons.size(); ++k)
    if (myIsSet[k]) projectFriction(myVelSets[k], velAcc[k], base[k]);
  sys.setActiveVel(myU);
  sys.updateAttachmentStates();
  reportForces(posAcc, velAcc, base, h);
  myWarm.resize(cons.size());
  myWarmVel.resize(cons.size());
  for (size_t k = 0; k < cons.size(); ++k) {
    // Contacts are found afresh each step: no warm start for them.
    myWarm[k] = myIsSet[k] ? std::vector<double>() : posAcc[k].impulse;
    myWarmVel[k] = myIsSet[k] ? std::vector<double>() : velAcc[k].impulse;
  }
  // The hard error at t1 from the rows already built there (|φ| of a hard
  // bilateral row, the penetration −φ of a hard unilateral one), instead
  // of asking every constrainer to evaluate itself again.
  auto hardError = [&](const auto& r, int end) {
    for (int i = 0; i < end; ++i)
      if (r.compliance[i] == 0)
        rep.positionError = std::max(rep.positionError, r.unilateral(i) ? -r.phi[i] : std::abs(r.phi[i]));
  };
  for (size_t k = 0; k < cons.size(); ++k) {
    hardError(myVelRows[k], myVelRows[k].numRows());
    if (myIsSet[k]) hardError(myVelSets[k], myVelSets[k].firstFriction());
  }
}

}  // namespace sinew
