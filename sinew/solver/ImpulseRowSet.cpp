// Collision and friction impulses of the Impulse integrator (seed 004): the
// rows of a constrainer whose rows come from collision detection, kept
// sparse and corrected row by row (a projected Gauss–Seidel sweep per
// call). Detection runs once per phase, at t0 and at t1; a row's value at
// the look-ahead follows the velocities linearly, so the contact set stays
// the same while the loop converges.
#include <algorithm>
#include <cmath>

#include "sinew/solver/ImpulseSolver.h"

namespace sinew {

void ImpulseSolver::buildRowSet(Constrainer& c, double h, bool velocityLevel, RowSet& s) {
  MechSystem& sys = myS.mySys;
  myBuildG.clear();
  myBuildN.clear();
  myBuildD.clear();
  myLimits.clear();
  MechSystem::RowBuilder gb(sys, myBuildG, myS.myUp, myExtrasG), nb(sys, myBuildN, myS.myUp, myExtrasN),
      db(sys, myBuildD, myS.myUp, myExtrasD);
  gb.h = nb.h = db.h = velocityLevel ? h : 0;
  c.getBilateralConstraints(gb);
  c.getUnilateralConstraints(nb);
  c.getFrictionConstraints(db, myLimits);
  s.numBilateral = myBuildG.numRows();
  s.numUnilateral = myBuildN.numRows();
  const int n = s.numBilateral + s.numUnilateral + myBuildD.numRows();
  s.phi = gb.dist;
  s.phi.insert(s.phi.end(), nb.dist.begin(), nb.dist.end());
  s.phi.resize(n, 0.0);  // friction rows hold a velocity, not a position
  s.compliance = myBuildG.compliance;
  s.compliance.insert(s.compliance.end(), myBuildN.compliance.begin(), myBuildN.compliance.end());
  s.compliance.resize(n, 0.0);
  s.known.resize(n);
  s.normalOf.clear();
  s.mu.clear();
  for (const auto& l : myLimits) {
    s.normalOf.push_back(s.numBilateral + l.normalRow);
    s.mu.push_back(l.mu);
  }
  // Entries grouped by row (counting sort), then merged per component.
  const ConstraintRows* parts[3] = {&myBuildG, &myBuildN, &myBuildD};
  const int offs[3] = {0, s.numBilateral, s.numBilateral + s.numUnilateral};
  std::vector<int> count(n + 1, 0);
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < parts[k]->numRows(); ++i) s.known[offs[k] + i] = -parts[k]->rhs[i];
    for (const auto& e : parts[k]->entries) ++count[offs[k] + e.row() + 1];
  }
  for (int i = 0; i < n; ++i) count[i + 1] += count[i];
  myOrder.assign(count[n], 0);
  std::vector<int> fill(count.begin(), count.end() - 1);
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < static_cast<int>(parts[k]->entries.size()); ++j)
      myOrder[fill[offs[k] + parts[k]->entries[j].row()]++] = (k << 28) | j;
  s.start.assign(n + 1, 0);
  s.segs.clear();
  s.vals.clear();
  s.comps.clear();
  myLocal.resize(sys.numComponents(), -1);
  for (int i = 0; i < n; ++i) {
    s.start[i] = static_cast<int>(s.segs.size());
    for (int x = count[i]; x < count[i + 1]; ++x) {
      const auto& e = parts[myOrder[x] >> 28]->entries[myOrder[x] & ((1 << 28) - 1)];
      const int comp = myCompOfCol[e.col()];
      const auto& ci = sys.info(comp);
      auto seg = std::find_if(s.segs.begin() + s.start[i], s.segs.end(), [&](const RowSet::Seg& g) { return g.comp == comp; });
      if (seg == s.segs.end()) {
        s.segs.push_back({comp, static_cast<int>(s.vals.size())});
        s.vals.resize(s.vals.size() + ci.velSize, 0.0);
        seg = s.segs.end() - 1;
        if (myLocal[comp] < 0) {
          myLocal[comp] = 1;
          s.comps.push_back(comp);
        }
      }
      s.vals[seg->val + e.col() - ci.solveOffset] += e.value();
    }
  }
  s.start[n] = static_cast<int>(s.segs.size());
  for (int comp : s.comps) myLocal[comp] = -1;
  // Each row's effective inverse mass.
  s.K.assign(n, 0.0);
  double kmax = 0;
  for (int i = 0; i < n; ++i) {
    for (int g = s.start[i]; g < s.start[i + 1]; ++g) {
      const auto& Minv = myMinv[s.segs[g].comp];
      const Eigen::Map<const Eigen::VectorXd> v(s.vals.data() + s.segs[g].val, Minv.rows());
      s.K[i] += v.dot(Minv * v);
    }
    kmax = std::max(kmax, s.K[i]);
  }
  // Rows that no impulse can move (they touch only fixed components) stay out.
  for (double& k : s.K)
    if (!(k > 1e-14 * kmax)) k = 0;
}

double ImpulseSolver::rowVelocity(const RowSet& s, int i) const {
  double v = 0;
  for (int g = s.start[i]; g < s.start[i + 1]; ++g) {
    const auto& ci = myS.mySys.info(s.segs[g].comp);
    v += Eigen::Map<const Eigen::VectorXd>(s.vals.data() + s.segs[g].val, ci.velSize)
             .dot(myU.segment(ci.solveOffset, ci.velSize));
  }
  return v;
}

double ImpulseSolver::frictionBound(const RowSet& s, const Accum& a, const std::vector<double>& base, int i) {
  const int f = i - s.firstFriction();
  return s.mu[f] * std::max(0.0, impulseTotal(a, base, s.normalOf[f]));
}

void ImpulseSolver::applyCorrection(const RowSet& s, Accum& a, int i, double delta, long& corrections) {
  a.impulse[i] += delta;
  applyRow(s, i, delta);
  ++corrections;
}

void ImpulseSolver::applyRow(const RowSet& s, int i, double p) {
  for (int g = s.start[i]; g < s.start[i + 1]; ++g) {
    const int comp = s.segs[g].comp;
    ++myVelVersion[comp];
    const auto& ci = myS.mySys.info(comp);
    const Eigen::Map<const Eigen::VectorXd> v(s.vals.data() + s.segs[g].val, ci.velSize);
    myU.segment(ci.solveOffset, ci.velSize).noalias() += p * (myMinv[comp] * v);
  }
}

double ImpulseSolver::correctFriction(const RowSet& s, Accum& a, const std::vector<double>& base, int i0,
                                      int i1, double tol, long& corrections) {
  // A projected step on the contact's friction impulse p: p ← Π(p − α v)
  // with v the rows' slip velocities, α one scalar for all of them, and Π
  // the projection onto the disc |p| ≤ μ·(normal impulse). Its fixed
  // points are Coulomb's law: v = 0 inside the disc (sticking), or p on
  // the rim opposite the slip (sliding, maximal dissipation), whatever the
  // rows' directions (the MLCP's box bounds each row alone).
  auto total = [&](int i) { return impulseTotal(a, base, i); };
  const double bound = frictionBound(s, a, base, i0);
  double kmax = 0;
  for (int i = i0; i < i1; ++i) kmax = std::max(kmax, s.K[i]);
  if (kmax == 0) return 0;
  double p[3], norm2 = 0;
  for (int i = i0; i < i1; ++i) {
    p[i - i0] = total(i) - (rowVelocity(s, i) + s.known[i]) / kmax;
    norm2 += p[i - i0] * p[i - i0];
  }
  const double scale = norm2 > bound * bound ? bound / std::sqrt(norm2) : 1.0;
  double err = 0;
  for (int i = i0; i < i1; ++i) {
    const double delta = scale * p[i - i0] - total(i);
    err = std::max(err, std::abs(delta) * s.K[i]);
    a.impulse[i] += delta;
    applyRow(s, i, delta);
  }
  if (err > tol) ++corrections;
  return err;
}

double ImpulseSolver::correctRowSetPosition(RowSet& s, Accum& a, double h, double tol, long& corrections) {
  const int n = s.numRows();
  if (n == 0) return 0;
  if (static_cast<int>(a.impulse.size()) != n) a.impulse.assign(n, 0.0);
  double err = 0;
  const long before = corrections;
  for (int i = 0; i < s.firstFriction(); ++i) {
    if (s.K[i] == 0) continue;
    // The look-ahead value, linear in the velocities from t0.
    const double c2 = s.compliance[i] / (h * h);
    const double res = s.phi[i] + h * (rowVelocity(s, i) + s.known[i]) + c2 * h * a.impulse[i];
    const double scale = s.K[i] + c2;
    double delta = -res / (h * scale);
    if (s.unilateral(i)) delta = std::max(delta, -a.impulse[i]);
    // The correction's size as a displacement over the step.
    const double e = std::abs(delta) * scale * h;
    err = std::max(err, e);
    if (e > tol) applyCorrection(s, a, i, delta, corrections);
  }
  // Friction: no slip over the step as far as the normal impulse allows,
  // so that positions move with the step's friction.
  for (int i = s.firstFriction(), j; i < n; i = j) {
    j = s.frictionGroupEnd(i);
    err = std::max(err, h * correctFriction(s, a, {}, i, j, tol / h, corrections));
  }
  // The look-ahead of the components touched, for the joints' rows.
  if (corrections > before) moveLookAhead(s.comps, h);
  return err;
}

double ImpulseSolver::correctRowSetVelocity(const RowSet& s, Accum& a, const std::vector<double>& base,
                                            double tol, long& corrections) {
  const int n = s.numRows();
  if (n == 0) return 0;
  if (static_cast<int>(a.impulse.size()) != n) a.impulse.assign(n, 0.0);
  auto total = [&](int i) { return impulseTotal(a, base, i); };
  double err = 0;
  for (int i = 0; i < s.firstFriction(); ++i) {
    if (s.K[i] == 0) continue;
    // Hard rows that hold: a separated unilateral one (φ > 0) may close its
    // gap unless it pushed in this step (then its impulse may only shrink
    // until it no longer pushes it apart); a compliant one keeps the
    // velocity its force gave.
    const bool gap = s.unilateral(i) && s.phi[i] > 0;
    if (s.compliance[i] != 0 || (gap && !(total(i) > 0))) continue;
    double delta = -(rowVelocity(s, i) + s.known[i]) / s.K[i];
    if (s.unilateral(i)) delta = std::max(delta, -total(i));
    if (gap) delta = std::min(delta, 0.0);
    const double e = std::abs(delta) * s.K[i];
    err = std::max(err, e);
    if (e > tol) applyCorrection(s, a, i, delta, corrections);
  }
  for (int i = s.firstFriction(), j; i < n; i = j) {
    j = s.frictionGroupEnd(i);
    err = std::max(err, correctFriction(s, a, base, i, j, tol, corrections));
  }
  return err;
}

void ImpulseSolver::projectFriction(const RowSet& s, Accum& a, const std::vector<double>& base) {
  const int n = s.numRows();
  if (static_cast<int>(a.impulse.size()) != n) return;
  auto total = [&](int i) { return impulseTotal(a, base, i); };
  for (int i = s.firstFriction(), j; i < n; i = j) {
    j = s.frictionGroupEnd(i);
    const double bound = frictionBound(s, a, base, i);
    double norm2 = 0;
    for (int k = i; k < j; ++k) norm2 += total(k) * total(k);
    if (!(norm2 > bound * bound)) continue;
    const double scale = bound / std::sqrt(norm2);
    for (int k = i; k < j; ++k) {
      const double delta = (scale - 1) * total(k);
      a.impulse[k] += delta;
      applyRow(s, k, delta);
    }
  }
}

}  // namespace sinew
