// The Articulated integrator's loops and limits (ArticulatedSolver.h): the
// rows of cut joints and of coordinate ranges over the links' twists, their
// Delassus matrix from articulated responses, the impulses that hold them,
// and the projection passes after the positions move.
#include <Eigen/Cholesky>
#include <limits>
#include <unordered_map>

#include "sinew/Error.h"
#include "sinew/joints/JointBase.h"
#include "sinew/mech/RigidBody.h"
#include "sinew/solver/ArticulatedRows.h"
#include "sinew/solver/ProjectedGaussSeidel.h"

namespace sinew {

/// Collects a joint's rows as link entries (the ConstraintBuilder the
/// joints write their rows to).
class ArticulatedSolver::RowSink : public ConstraintBuilder {
 public:
  RowSink(Rows& r, const std::vector<Link>& links, double h, bool entries)
      : myR(r), myLinks(links), myH(h), myEntries(entries) {}
  bool unilateral = false;
  void beginRow(double dist, double compliance, double damping, double velocityProduct) override {
    (void)compliance, (void)damping;  // compliant joints are refused
    if (!myEntries) {
      myR.dists.push_back(dist);
      return;
    }
    Rows::Row& r = myR.rows.emplace_back();
    r.dist = dist;
    r.rate = velocityProduct;
    r.unilateral = unilateral;
  }
  void addEntry(const DynamicComponent& c, const Eigen::Ref<const Eigen::RowVectorXd>& g) override {
    if (!myEntries) return;
    Rows::Row& r = myR.rows.back();
    auto it = myR.linkOf.find(&c);
    if (it == myR.linkOf.end()) {
      if (!c.isParametric())
        throw ModelError("the Articulated integrator takes rows on rigid bodies and non-dynamic frames only",
                         c.componentPath());
      Eigen::VectorXd u(c.getVelStateSize());
      c.getVelState(u.data());
      r.paramValue += g.dot(u);
      return;
    }
    // g acts on the body's twist (v of its origin, ω) now; the link's
    // quantities are about its origin at the step's start (the same point
    // unless a projection pass has moved the body since).
    const int k = it->second;
    const Vector6d w = shiftForceBack(g.transpose(), myLinks[k].body->getPosition() - myLinks[k].origin);
    const int slot = (r.link[0] < 0 || r.link[0] == k) ? 0 : 1;
    if (slot == 1 && r.link[1] >= 0 && r.link[1] != k)
      throw ModelError("a row on more than two bodies", c.componentPath());
    if (r.link[slot] < 0) r.w[slot].setZero();
    r.link[slot] = k;
    r.w[slot] += w;
  }
  bool wantsVelocityProducts() const override { return myH > 0; }
  double stepSize() const override { return myH; }
  bool wantsEntries() const override { return myEntries; }

 private:
  Rows& myR;
  const std::vector<Link>& myLinks;
  double myH;
  bool myEntries;
};


namespace {
/// The regularization of K: 1e-10 of its largest diagonal (see solveRows).
double regularization(const Eigen::MatrixXd& K) { return 1e-10 * std::max(K.diagonal().maxCoeff(), 1e-300); }

/// A row's value Σ w·x over its links for the links' twist-like field x.
template <class Row, class Links, class Field>
double rowValue(const Row& r, const Links& links, Field x) {
  double v = 0;
  for (int s = 0; s < 2; ++s)
    if (r.link[s] >= 0) v += r.w[s].dot(links[r.link[s]].*x);
  return v;
}
}  // namespace

void ArticulatedSolver::buildRows(double h, bool velocityLevel, bool entries) {
  if (!myRows) {
    myRows = std::make_unique<Rows>();
    for (size_t i = 0; i < myLinks.size(); ++i) myRows->linkOf[myLinks[i].body] = static_cast<int>(i);
  }
  Rows& R = *myRows;
  if (entries) {
    R.rows.clear();
    R.sources.clear();
  }
  R.dists.clear();
  RowSink sink(R, myLinks, velocityLevel ? h : 0, entries);
  auto count = [&] { return entries ? R.numRows() : static_cast<int>(R.dists.size()); };
  auto add = [&](JointBase* j, int link) {
    Rows::Source src{j, link, count(), 0, 0};
    if (link < 0) {
      sink.unilateral = false;
      j->getBilateralConstraints(sink);
      src.numG = count() - src.first;
    }
    sink.unilateral = true;
    j->getUnilateralConstraints(sink);
    src.numN = count() - src.first - src.numG;
    if (entries) R.sources.push_back(src);
  };
  for (JointBase* j : myCutJoints) add(j, -1);
  for (size_t i = 0; i < myLinks.size(); ++i)
    if (myLinks[i].joint && myLinks[i].limited) add(myLinks[i].joint, static_cast<int>(i));
  if (!entries) return;
  // The targets of the velocity solve, as the MLCP's (MechSystemSolver::
  // buildConstraintRows): G u⁺ = −(h/2)Ġu; a separated limit may close its
  // gap within the step but not cross it.
  const int m = R.numRows();
  R.target.resize(m);
  for (int k = 0; k < m; ++k) {
    const Rows::Row& r = R.rows[k];
    R.target[k] = velocityLevel ? -0.5 * h * r.rate - r.paramValue - (r.unilateral && r.dist > 0 ? r.dist / h : 0.0)
                                : -r.dist;
  }
  // K column by column: the rows' velocity change for a unit impulse on row k.
  R.K.resize(m, m);
  for (int k = 0; k < m; ++k) {
    loadImpulse(k, 1.0);
    respond();
    for (int j = 0; j < m; ++j) R.K(j, k) = rowValue(R.rows[j], myLinks, &Link::AT);
  }
  for (int k = 0; k < m; ++k)
    for (int j = 0; j < k; ++j) R.K(j, k) = R.K(k, j) = 0.5 * (R.K(j, k) + R.K(k, j));
  Eigen::MatrixXd& Kreg = R.scratch.Kreg;
  Kreg = R.K;
  Kreg.diagonal().array() += regularization(R.K);
  R.allActive.compute(Kreg);
}

void ArticulatedSolver::addRowImpulse(int k, double lambda) {
  const Rows::Row& r = myRows->rows[k];
  for (int s = 0; s < 2; ++s)
    if (r.link[s] >= 0) myLinks[r.link[s]].pT += lambda * r.w[s];
}

void ArticulatedSolver::loadImpulse(int k, double lambda) {
  for (Link& l : myLinks) l.pT.setZero();
  addRowImpulse(k, lambda);
}

void ArticulatedSolver::loadImpulses(const Eigen::VectorXd& lambda) {
  for (Link& l : myLinks) l.pT.setZero();
  for (int k = 0; k < myRows->numRows(); ++k)
    if (lambda[k] != 0) addRowImpulse(k, lambda[k]);
}

void ArticulatedSolver::respond() {
  // The articulated-body passes with impulses for forces and no velocity:
  // inward the impulses' articulated part (p = −F), outward the response.
  for (Link& l : myLinks) l.pT = -l.pT;
  for (int i = static_cast<int>(myLinks.size()) - 1; i >= 0; --i) {
    Link& l = myLinks[i];
    withStaticSize(l.dof, [&](auto kk) {
      constexpr int K = decltype(kk)::value;
      l.upT.head<K>() = -l.Sw.leftCols<K>().transpose() * l.pT;
      if (l.parent >= 0)
        myLinks[l.parent].pT += shiftForceBack(
            l.pT + l.U.leftCols<K>() * (l.Dinv.topLeftCorner<K, K>() * l.upT.head<K>()), l.r);
    });
  }
  for (Link& l : myLinks) {
    const Vector6d a = l.parent >= 0 ? shiftMotion(myLinks[l.parent].AT, l.r) : Vector6d::Zero();
    withStaticSize(l.dof, [&](auto kk) {
      constexpr int K = decltype(kk)::value;
      const Eigen::Matrix<double, K, 1> du =
          l.Dinv.topLeftCorner<K, K>() * (l.upT.head<K>() - l.U.leftCols<K>().transpose() * a);
      l.duT.head<K>() = du;
      l.AT = a + l.Sw.leftCols<K>() * du;
    });
  }
}

bool ArticulatedSolver::solveRows(const Eigen::VectorXd& y0, Eigen::VectorXd& lambda) {
  // Active set on the small dense problem: bilateral rows always active,
  // a unilateral row while its impulse is positive, added where its value
  // would cross its bound. Redundant rows (a planar loop's out-of-plane
  // closure) make K singular: a regularization of 1e-10 of its largest
  // diagonal gives them the least impulse.
  Rows& R = *myRows;
  Rows::Scratch& s = R.scratch;
  const int m = R.numRows();
  Eigen::VectorXd& need = s.need;
  need = R.target - y0;
  const double eps = regularization(R.K);
  std::vector<char>& active = s.active;
  active.resize(m);
  for (int k = 0; k < m; ++k) active[k] = !R.rows[k].unilateral || need[k] > 0;
  std::vector<int>& A = s.A;
  for (int iter = 0; iter < 3 * m + 3; ++iter) {
    A.clear();
    for (int k = 0; k < m; ++k)
      if (active[k]) A.push_back(k);
    if (static_cast<int>(A.size()) == m) {
      lambda = R.allActive.solve(need);
    } else {
      const int na = static_cast<int>(A.size());
      s.KA.resize(na, na);
      s.b.resize(na);
      for (int i = 0; i < na; ++i) {
        s.b[i] = need[A[i]];
        for (int j = 0; j < na; ++j) s.KA(i, j) = R.K(A[i], A[j]);
        s.KA(i, i) += eps;
      }
      s.ldlt.compute(s.KA);
      s.x = s.ldlt.solve(s.b);
      lambda.setZero(m);
      for (int i = 0; i < na; ++i) lambda[A[i]] = s.x[i];
    }
    // Drop the most negative unilateral impulse, else add the worst crossing.
    int drop = -1;
    for (int k : A)
      if (R.rows[k].unilateral && lambda[k] < 0 && (drop < 0 || lambda[k] < lambda[drop])) drop = k;
    if (drop >= 0) {
      active[drop] = 0;
      continue;
    }
    Eigen::VectorXd& slack = s.slack;
    slack.noalias() = R.K * lambda;
    slack -= need;
    int add = -1;
    for (int k = 0; k < m; ++k)
      if (!active[k] && slack[k] < -1e-12 * (1 + std::abs(need[k])) && (add < 0 || slack[k] < slack[add])) add = k;
    if (add < 0) return true;
    active[add] = 1;
  }
  // The active set cycled (possible in principle): projected Gauss–Seidel
  // on K + εI from the last iterate, which converges for K + εI positive
  // definite; unilateral rows are bounded below by zero.
  Eigen::MatrixXd W = R.K;
  W.diagonal().array() += eps;
  const double inf = std::numeric_limits<double>::infinity();
  PGSBounds bounds{Eigen::VectorXd::Constant(m, -inf), Eigen::VectorXd::Constant(m, inf), {}};
  for (int k = 0; k < m; ++k)
    if (R.rows[k].unilateral) bounds.lo[k] = 0;
  Eigen::VectorXd r = W * lambda - need;
  const int maxSweeps = 200;
  return projectedGaussSeidel(W, bounds, r, lambda, 1e-12 * (1 + need.cwiseAbs().maxCoeff()), maxSweeps) <= maxSweeps;
}

void ArticulatedSolver::solveVelocityRows(double h, double t1) {
  buildRows(h, true, true);
  Rows& R = *myRows;
  const int m = R.numRows();
  if (m == 0) return;
  // The rows' values at the unconstrained velocities, with the step's S.
  for (Link& l : myLinks) {
    if (!l.joint) {
      l.AT = l.u;
      continue;
    }
    const Vector6d Vp = l.parent >= 0 ? shiftMotion(myLinks[l.parent].AT, l.r) : l.Vroot;
    l.AT = Vp + l.Sw * l.u;
  }
  // The tree's own curvature: over the step the bodies move at fixed
  // coordinate velocities, so their twists (v_o, ω) change at the spatial
  // acceleration a_c they then have (Σ Ṡu along the path, from a root
  // moving at its own fixed twist) plus ω × v_o, the origin's own turn. A
  // row held to −(h/2)(Ġu + G u̇_c) stays closed to second order (Ġu, the
  // row's rate at fixed twists, covers the rest). A non-dynamic parent
  // moves at its twist over the step: its change of twist is not part of
  // that motion, only the v × ω of moving at it.
  for (Link& l : myLinks)
    l.Ac = (l.parent >= 0 ? shiftMotion(myLinks[l.parent].Ac, l.r) : l.AcRoot) + l.cJ;
  Eigen::VectorXd& y0 = R.scratch.y0;
  y0.resize(m);
  for (int k = 0; k < m; ++k) {
    const Rows::Row& r = R.rows[k];
    y0[k] = rowValue(r, myLinks, &Link::AT);
    double curvature = rowValue(r, myLinks, &Link::Ac);
    for (int s = 0; s < 2; ++s)
      if (r.link[s] >= 0) curvature += r.w[s].head<3>().dot(myLinks[r.link[s]].V.tail<3>().cross(myLinks[r.link[s]].V.head<3>()));
    R.target[k] -= 0.5 * h * curvature;
  }
  if (!solveRows(y0, R.lambda) || !R.lambda.allFinite())
    throw SolverError(t1, "", "the Articulated integrator's constraint solve did not converge");
  loadImpulses(R.lambda);
  for (Link& l : myLinks) l.F = l.pT;
  respond();
  for (Link& l : myLinks) {
    l.u += l.duT;
    l.A += l.AT / h;
  }
  // The cut joints' forces, in their rows' order.
  for (const Rows::Source& src : R.sources) {
    if (src.link >= 0) continue;
    Eigen::VectorXd& f = R.scratch.b;
    f = R.lambda.segment(src.first, src.numG + src.numN) / h;
    src.joint->setConstraintForces(f.data(), f.data() + src.numG);
  }
}

void ArticulatedSolver::projectPositions(double t1) {
  // Passes as GlobalMass stabilization's (§4.1.3): the position change
  // δ = M⁻¹Gᵀλ with G M⁻¹ Gᵀ λ = −φ, while the rows' errors exceed the
  // tolerance; five passes at most, as MechSystemSolver::stabilizePositions.
  // Loops alone reuse the velocity solve's rows and K (a chord pass: the
  // rows have turned by h·ω since); with limits, whose bound may change,
  // and at the last pass, the rows and K are formed afresh.
  Rows& R = *myRows;
  const double tol = myS.myStabilizationTol;
  const int maxPasses = 5;
  for (int pass = 0; pass < maxPasses; ++pass) {
    bool fresh = pass == maxPasses - 1;
    for (const Rows::Row& r : R.rows) fresh = fresh || r.unilateral;
    if (!fresh) {
      buildRows(0, false, false);
      fresh = static_cast<int>(R.dists.size()) != R.numRows();
    }
    if (fresh) {
      buildRows(0, false, true);
      R.dists.clear();
      for (const Rows::Row& r : R.rows) R.dists.push_back(r.dist);
    }
    double err = 0;
    for (int k = 0; k < R.numRows(); ++k) {
      const double d = R.dists[k];
      err = std::max(err, R.rows[k].unilateral ? -d : std::abs(d));
      R.target[k] = -d;
    }
    if (err <= tol) return;
    Eigen::VectorXd& lambda = R.scratch.lambda;
    R.scratch.y0.setZero(R.numRows());
    if (!solveRows(R.scratch.y0, lambda) || !lambda.allFinite())
      throw SolverError(t1, "", "the Articulated integrator's projection did not converge");
    loadImpulses(lambda);
    respond();
    for (Link& l : myLinks) moveLink(l, l.duT);
  }
}

}  // namespace sinew
