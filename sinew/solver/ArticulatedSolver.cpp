#include "sinew/solver/ArticulatedSolver.h"
#include "sinew/solver/ArticulatedRows.h"

#include <unordered_map>

#include "sinew/Error.h"
#include "sinew/joints/JointBase.h"
#include "sinew/mech/RigidBody.h"

namespace sinew {

namespace {

/// Motion cross product a ×ₘ b for spatial twists (v, ω) about one point.
Vector6d crossMotion(const Vector6d& a, const Vector6d& b) {
  Vector6d r;
  r << a.tail<3>().cross(b.head<3>()) + a.head<3>().cross(b.tail<3>()), a.tail<3>().cross(b.tail<3>());
  return r;
}

/// Force cross product a ×f f for a twist a and a wrench f = (force, moment).
Vector6d crossForce(const Vector6d& a, const Vector6d& f) {
  Vector6d r;
  r << a.tail<3>().cross(f.head<3>()), a.tail<3>().cross(f.tail<3>()) + a.head<3>().cross(f.head<3>());
  return r;
}

/// Copies M's lower triangle into its upper. The articulated inertias are
/// kept exactly symmetric, each formed from its lower triangle: round-off's
/// antisymmetric part otherwise grows link by link (to 1e13 kg m² at the
/// root of a 100-link ball chain, until D loses its sign).
void mirrorLower(Matrix6d& M) {
  for (int j = 0; j < 6; ++j)
    for (int i = j + 1; i < 6; ++i) M(j, i) = M(i, j);
}

/// Adds to P the symmetric inertia I moved back to the point r before it:
/// XᵀIX for X = shiftMotion by r, X = [1, −[r]; 0, 1]. With I = [A, B; Bᵀ, C]
/// that is [A, B − A[r]; ·, C + [r]B + ([r]B)ᵀ − [r]A[r]], formed by cross
/// products (a third of the 6 × 6 products' work), the last block from its
/// lower triangle so that P stays exactly symmetric.
void addShiftedInertia(Matrix6d& P, const Matrix6d& I, const Vector3d& r) {
  Matrix3d W, Q;  // [r]A and [r]B; A[r] = −Wᵀ as A is symmetric
  for (int k = 0; k < 3; ++k) {
    W.col(k) = r.cross(I.block<3, 1>(0, k));
    Q.col(k) = r.cross(I.block<3, 1>(0, 3 + k));
  }
  const Matrix3d B = I.topRightCorner<3, 3>() + W.transpose();
  Matrix3d C;
  for (int i = 0; i < 3; ++i) {
    const Vector3d WRi = Vector3d(W.row(i)).cross(r);  // row i of [r]A[r]
    for (int j = 0; j <= i; ++j) C(i, j) = I(3 + i, 3 + j) + Q(i, j) + Q(j, i) - WRi(j);
  }
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) C(i, j) = C(j, i);
  P.topLeftCorner<3, 3>() += I.topLeftCorner<3, 3>();
  P.topRightCorner<3, 3>() += B;
  P.bottomLeftCorner<3, 3>() += B.transpose();
  P.bottomRightCorner<3, 3>() += C;
}

/// The motion S x along the link's allowed directions (x zero past dof).
Vector6d motionAlong(const Matrix6d& S, const Vector6d& x, int dof) {
  Vector6d xi = Vector6d::Zero();
  for (int k = 0; k < dof; ++k) xi += x(k) * S.col(k);
  return xi;
}

/// A twist ξ in the coordinates of frame T (v of T's origin, ω) at the
/// point p, in world axes.
Vector6d toPoint(const RigidTransform3d& T, const Vector6d& xi, const Vector3d& p) {
  Vector6d V;
  V.tail<3>() = T.R * xi.tail<3>();
  V.head<3>() = T.R * xi.head<3>() + V.tail<3>().cross(p - T.p);
  return V;
}

/// The inverse of toPoint.
Vector6d toFrameCoords(const RigidTransform3d& T, const Vector6d& V, const Vector3d& p) {
  Vector6d xi;
  xi.tail<3>() = T.R.transpose() * V.tail<3>();
  xi.head<3>() = T.R.transpose() * (V.head<3>() + V.tail<3>().cross(T.p - p));
  return xi;
}

/// A frame's pose times b (as RigidTransform3d::operator*), without
/// copying the pose first.
RigidTransform3d compose(const Frame& f, const RigidTransform3d& b) {
  return {f.getRotation() * b.p + f.getPosition(), f.getRotation() * b.R};
}

std::string pathOf(const Constrainer* c) {
  const auto* comp = dynamic_cast<const Component*>(c);
  return comp ? comp->getPathName() : std::string();
}

}  // namespace

// ------------------------------------------------------------- the trees

ArticulatedSolver::ArticulatedSolver(MechSystemSolver& s) : myS(s) {
  const MechSystem& sys = s.mySys;
  std::vector<RigidBody*> bodies;
  std::unordered_map<const Frame*, int> bodyIndex;
  for (int i = 0; i < sys.numComponents(); ++i) {
    const auto& ci = sys.info(i);
    if (ci.comp->isParametric()) myHasParametric = true;
    // An attached component's mass would belong to its master's inertia.
    if (ci.comp->isAttached() && ci.comp->getMass() > 0)
      throw ModelError("the Articulated integrator cannot take an attached component with mass", ci.comp->componentPath());
    if (ci.solveOffset < 0) continue;
    if (!ci.rigid) throw ModelError("the Articulated integrator advances rigid bodies only", ci.comp->componentPath());
    bodyIndex[ci.rigid] = static_cast<int>(bodies.size());
    bodies.push_back(ci.rigid);
  }
  // Each joint between two active bodies is an edge; one between an active
  // body and ground (or a non-dynamic frame) roots a tree.
  std::vector<JointBase*> joints;
  std::vector<std::vector<int>> edges(bodies.size());
  std::vector<int> rootJoint(bodies.size(), -1);
  auto activeIndex = [&](const Frame* f, const JointBase& j) {
    if (!f) return -1;
    auto it = bodyIndex.find(f);
    if (it != bodyIndex.end()) return it->second;
    if (!f->isParametric())
      throw ModelError("the Articulated integrator takes joints between rigid bodies, ground and non-dynamic frames",
                       j.getPathName());
    return -1;
  };
  for (Constrainer* c : s.myConstrainers) {
    auto* j = dynamic_cast<JointBase*>(c);
    if (!j) throw ModelError("the Articulated integrator takes joints only, no other constraint or contact", pathOf(c));
    if (!j->getBodyA()) continue;  // not connected: no rows either
    const int a = activeIndex(j->getBodyA(), *j), b = activeIndex(j->getBodyB(), *j);
    if (a < 0 && b < 0) continue;  // nothing it holds can move
    const int k = static_cast<int>(joints.size());
    joints.push_back(j);
    if (a >= 0 && b >= 0) {
      edges[a].push_back(k);
      edges[b].push_back(k);
      continue;
    }
    int& root = rootJoint[a >= 0 ? a : b];
    if (root >= 0) myCutJoints.push_back(j);  // a second way to ground: a loop
    else root = k;
  }
  // Breadth first from each root: parents come before their children.
  std::vector<int> linkOf(bodies.size(), -1);
  std::vector<char> used(joints.size(), 0);
  auto grow = [&](size_t first) {
    for (size_t n = first; n < myLinks.size(); ++n) {
      const int b = bodyIndex.at(myLinks[n].body);
      for (int k : edges[b]) {
        if (used[k]) continue;
        used[k] = 1;
        JointBase* j = joints[k];
        const int other = bodyIndex.at(j->getBodyA() == myLinks[n].body ? j->getBodyB() : j->getBodyA());
        if (linkOf[other] >= 0) {  // both ends already in the trees: a loop
          myCutJoints.push_back(j);
          continue;
        }
        linkOf[other] = static_cast<int>(myLinks.size());
        addLink(bodies[other], j, static_cast<int>(n));
      }
    }
  };
  for (size_t b = 0; b < bodies.size(); ++b) {
    if (rootJoint[b] < 0) continue;
    used[rootJoint[b]] = 1;
    linkOf[b] = static_cast<int>(myLinks.size());
    addLink(bodies[b], joints[rootJoint[b]], -1);
  }
  grow(0);
  for (size_t b = 0; b < bodies.size(); ++b) {
    if (linkOf[b] >= 0) continue;
    const size_t first = myLinks.size();
    linkOf[b] = static_cast<int>(first);
    addLink(bodies[b], nullptr, -1);
    grow(first);
  }
}

void ArticulatedSolver::addLink(RigidBody* body, JointBase* joint, int parent) {
  Link& l = myLinks.emplace_back();
  l.body = body;
  l.joint = joint;
  l.parent = parent;
  if (!joint) {  // a free root: its coordinates are its twist, S = I
    l.dof = 6;
    l.Sw = Matrix6d::Identity();
    return;
  }
  l.childIsA = joint->getBodyA() == body;
  refreshJointFrames(l);
  if (parent < 0) l.fixedParent = l.childIsA ? joint->getBodyB() : joint->getBodyA();
  l.dof = joint->getCoupling().getFixedMotionSubspace(l.S);
  if (l.dof < 0)
    throw ModelError("the Articulated integrator needs joints whose allowed motion is fixed in the joint frame "
                     "(hinge, slider, cylindrical, planar, solid, spherical, gimbal); this joint's turns with "
                     "its coordinates",
                     joint->getPathName());
  checkJoint(l, 0);
}

void ArticulatedSolver::checkJoint(Link& l, double t) const {
  const JointBase& j = *l.joint;
  auto fail = [&](const std::string& what) {
    const std::string msg = "the Articulated integrator cannot take " + what;
    if (t == 0) throw ModelError(msg, j.getPathName());
    throw SolverError(t, j.getPathName(), msg);
  };
  if (j.getLinearCompliance() != 0 || j.getRotaryCompliance() != 0) fail("a compliant joint");
  const RigidBodyCoupling& cp = j.getCoupling();
  l.limited = false;
  for (int i = 0; i < cp.numCoordinates(); ++i) {
    const CoordinateInfo& q = cp.getCoordinateInfo(i);
    if (q.locked) fail("a locked coordinate (" + q.name + ")");
    if (std::isfinite(q.min) || std::isfinite(q.max)) l.limited = true;
  }
  // Other unilateral constraints (a spherical joint's tilt limit) give
  // their rows at every step too.
  l.limited = l.limited || cp.hasOtherLimits();
}

ArticulatedSolver::~ArticulatedSolver() = default;

// ------------------------------------------------------------------ a step

void ArticulatedSolver::step(double t0, double t1) {
  const double h = t1 - t0;
  MechSystem& sys = myS.mySys;
  myS.updateParametric(h);
  sys.updateExpansions();
  sys.updateAttachmentStates();
  myS.computeForces(t0, false, false);
  bool rows = !myCutJoints.empty();
  for (Link& l : myLinks) {
    if (l.joint) {
      checkJoint(l, t1);
      rows = rows || l.limited;
    }
    readState(l, h);
  }
  solveAccelerations(h, t1);
  if (rows) solveVelocityRows(h, t1);
  recordJointForces(h);
  // Non-dynamic frames first: a joint's parent may be one.
  if (myHasParametric) {
    Eigen::VectorXd q;
    sys.getFullPos(q);
    myS.moveParametric(q, h);
    sys.setFullPos(q);
  }
  // Without rows each link's twist follows as soon as it has moved (its
  // parent's has); projection passes first move the links again.
  for (Link& l : myLinks) {
    moveLink(l, h * l.u);
    if (!rows) setLinkVelocity(l);
  }
  if (rows) {
    projectPositions(t1);
    for (Link& l : myLinks) setLinkVelocity(l);
  }
  sys.updateExpansions();
  sys.updateAttachmentStates();
}

void ArticulatedSolver::readState(Link& l, double h) {
  const RigidBody& b = *l.body;
  const RigidTransform3d TBW = b.getPose();
  // Each link's quantities are about its body's origin, in world axes:
  // its twist and wrench as the body keeps them, and its inertia there.
  l.Vread = b.getVelocity();
  l.V = l.Vread;
  l.I = b.getInertia().worldMatrix(TBW.R);
  mirrorLower(l.I);
  l.IA = l.I;
  l.F.setZero();
  l.Vroot.setZero();
  l.AcRoot.setZero();
  l.origin = TBW.p;
  if (!l.joint) {  // a free root: its coordinates are its twist
    l.u = l.V;
    l.c.setZero();
    l.cJ.setZero();
    // Moving at a fixed twist, its origin's spatial acceleration is v × ω.
    l.AcRoot << l.V.head<3>().cross(l.V.tail<3>()), Vector3d::Zero();
  } else {
    // The joint's velocity is the body's twist less its parent's as both
    // were set (or restored); the parent's twist now (a non-dynamic
    // parent's may have changed, with an acceleration) carries it on.
    refreshJointFrames(l);
    Vector6d Vp = Vector6d::Zero(), VpBefore = Vector6d::Zero(), Ap = Vector6d::Zero();
    if (l.parent >= 0) {
      const Link& p = myLinks[l.parent];
      l.r = TBW.p - p.body->getPosition();
      Vp = shiftMotion(p.V, l.r);
      VpBefore = shiftMotion(p.Vread, l.r);
      formParentFrame(l);
    } else if (l.fixedParent) {
      const Twist& tw = l.fixedParent->getVelocity();
      const Vector3d r = TBW.p - l.fixedParent->getPosition();
      Vp = shiftMotion(tw, r);
      l.TFpW = compose(*l.fixedParent, l.TFpP);
      const Twist before = l.fixedAt.matches(*l.fixedParent) ? l.fixedV : tw;
      VpBefore = shiftMotion(before, r);
      // The parent's spatial acceleration at its origin o: d/dt of its twist
      // at the fixed point o is (a_o + v_o × ω, α), of which v_o × ω is that
      // of moving at a fixed twist; then moved to here. (fixedV is kept only
      // by setLinkVelocity, once the step is done.)
      Vector6d moving;
      moving << tw.head<3>().cross(tw.tail<3>()), Vector3d::Zero();
      l.AcRoot = shiftMotion(moving, r);
      Ap = shiftMotion((tw - before) / h + moving, r);
      l.Vroot = Vp;
    } else {
      l.TFpW = l.TFpP;
    }
    // From the poses alone (not kept from the last step), so that a
    // restored state continues bit for bit.
    l.TFcW = TBW * l.TFcB;
    l.Trel = l.TFpW.inverseTimes(l.TFcW);
    withStaticSize(l.dof, [&](auto k) { jointVelocity<decltype(k)::value>(l, Vp, VpBefore, Ap); });
  }
  l.p0 = crossForce(l.V, l.I * l.V) - b.getForce();
  l.pA = l.p0;
}

bool ArticulatedSolver::PoseKey::matches(const Frame& f) const {
  return f.getPosition() == pos && f.getQuaternion().coeffs() == quat;
}

void ArticulatedSolver::PoseKey::take(const Frame& f) {
  pos = f.getPosition();
  quat = f.getQuaternion().coeffs();
}

void ArticulatedSolver::formParentFrame(Link& l) {
  // A pure function of the parent's pose (PoseKey).
  const RigidBody& p = *myLinks[l.parent].body;
  if (l.TFpWAt.matches(p)) return;
  l.TFpW = compose(p, l.TFpP);
  l.TFpWAt.take(p);
}

void ArticulatedSolver::refreshJointFrames(Link& l) {
  // A grounded joint's D moves with transformGeometry: the frames and C's
  // inverse are taken afresh when the joint's frames have changed.
  if (l.framesVersion == l.joint->getFramesVersion()) return;
  l.framesVersion = l.joint->getFramesVersion();
  l.TFpWAt.forget();  // TFpW with them
  l.TFcB = l.childIsA ? l.joint->getTCA() : l.joint->getTDB();
  l.TBFc = l.TFcB.inverse();
  l.TFpP = l.childIsA ? l.joint->getTDB() : l.joint->getTCA();
}

template <int K>
void ArticulatedSolver::jointVelocity(Link& l, const Vector6d& Vp, const Vector6d& VpBefore, const Vector6d& Ap) {
  const Vector3d& p = l.body->getPosition();
  for (int i = 0; i < K; ++i) l.Sw.col(i) = toPoint(l.TFcW, l.S.col(i), p);
  // The columns of S are unit vectors along the frame's axes: Sᵀ picks u.
  l.u.head<K>() = l.S.leftCols<K>().transpose() * toFrameCoords(l.TFcW, l.Vread - VpBefore, p);
  const Vector6d vJ = l.Sw.leftCols<K>() * l.u.head<K>();
  l.V = Vp + vJ;
  // S is fixed in the moving child, so Ṡu = V ×ₘ (S u); a non-dynamic
  // parent's acceleration rides along in c (its link has no parent link).
  l.cJ = crossMotion(l.V, vJ);
  l.c = l.cJ + Ap;
}

template <int K>
void ArticulatedSolver::inward(Link& l, double t1) {
  using Cols = Eigen::Matrix<double, 6, K>;
  using Square = Eigen::Matrix<double, K, K>;
  const auto Sw = l.Sw.leftCols<K>();
  const Cols U = l.IA * Sw;
  // D and the articulated inertia passed on are symmetric: kept so exactly
  // (see mirrorLower).
  const Square D = 0.5 * (Sw.transpose() * U + U.transpose() * Sw);
  Square Dinv;
  if constexpr (K > 0) {
    if (!D.allFinite())
      throw SolverError(t1, l.body->componentPath(),
                        "the Articulated step diverged (a non-finite inertia along the joint's motion): "
                        "a smaller step may resolve it");
    if constexpr (K <= 4) Dinv = D.inverse();  // closed form
    else Dinv = D.llt().solve(Square::Identity());
    if (!Dinv.allFinite() || (D.diagonal().array() <= 0).any())
      throw SolverError(t1, l.body->componentPath(),
                        "the body has no mass or inertia along its joint's motion (Articulated integrator)");
  }
  l.U.leftCols<K>() = U;
  l.Dinv.topLeftCorner<K, K>() = Dinv;
  l.up.head<K>() = -Sw.transpose() * l.pA;
  if (l.parent < 0) return;
  Link& p = myLinks[l.parent];
  const Cols UDinv = U * Dinv;
  Matrix6d Ia;  // I^A − U D⁻¹ Uᵀ, from its lower triangle
  for (int j = 0; j < 6; ++j)
    for (int i = j; i < 6; ++i) Ia(i, j) = l.IA(i, j) - UDinv.row(i).dot(U.row(j));
  mirrorLower(Ia);
  addShiftedInertia(p.IA, Ia, l.r);
  p.pA += shiftForceBack(l.pA + Ia * l.c + UDinv * l.up.head<K>(), l.r);
}

template <int K>
void ArticulatedSolver::outward(Link& l, double h) {
  const Vector6d a = (l.parent >= 0 ? shiftMotion(myLinks[l.parent].A, l.r) : Vector6d::Zero()) + l.c;
  const Eigen::Matrix<double, K, 1> qdd =
      l.Dinv.topLeftCorner<K, K>() * (l.up.head<K>() - l.U.leftCols<K>().transpose() * a);
  l.A = a + l.Sw.leftCols<K>() * qdd;
  l.u.head<K>() += h * qdd;
  // A free root's twist is at its moving origin: v̇_o = a_v + ω × v_o for
  // the spatial acceleration a there.
  if (!l.joint) l.u.head<3>() += h * l.V.tail<3>().cross(l.V.head<3>());
}

void ArticulatedSolver::solveAccelerations(double h, double t1) {
  // Inward: each link's articulated inertia I^A and bias p^A are complete
  // once its children have passed theirs on.
  for (int i = static_cast<int>(myLinks.size()) - 1; i >= 0; --i)
    withStaticSize(myLinks[i].dof, [&](auto k) { inward<decltype(k)::value>(myLinks[i], t1); });
  for (Link& l : myLinks) withStaticSize(l.dof, [&](auto k) { outward<decltype(k)::value>(l, h); });
}

void ArticulatedSolver::moveLink(Link& l, const Vector6d& dq) {
  RigidBody& b = *l.body;
  if (!l.joint) {  // a free root: dq is its origin's displacement and rotation
    double q[7];
    b.getPosState(q);
    b.addPosImpulse(q, 1.0, dq.data());
    b.setPosState(q);
    return;
  }
  if (l.parent >= 0) formParentFrame(l);
  else if (l.fixedParent) l.TFpW = compose(*l.fixedParent, l.TFpP);  // moved already
  // The joint moves by ξ = S dq in the child's joint frame, then onto its
  // coupling: round-off never accumulates.
  const Vector6d xi = motionAlong(l.S, dq, l.dof);
  RigidTransform3d T = l.Trel;
  T.p += T.R * xi.head<3>();
  T.R = T.R * rotationExp(xi.tail<3>());
  const RigidTransform3d TCD = l.joint->projectTCD(l.childIsA ? T : T.inverse());
  l.Trel = l.childIsA ? TCD : TCD.inverse();
  l.TFcW = l.TFpW * l.Trel;
  b.setPose(l.TFcW * l.TBFc);
}

void ArticulatedSolver::setLinkVelocity(Link& l) {
  RigidBody& b = *l.body;
  const Vector3d& p = b.getPosition();
  if (!l.joint) {
    l.V = l.u;
  } else {
    Vector6d Vp = Vector6d::Zero();
    if (l.parent >= 0) {
      l.r = p - myLinks[l.parent].body->getPosition();
      Vp = shiftMotion(myLinks[l.parent].V, l.r);
    } else if (l.fixedParent) {
      // The non-dynamic parent's twist where it has moved to, for the next step.
      l.fixedV = l.fixedParent->getVelocity();
      l.fixedAt.take(*l.fixedParent);
      Vp = shiftMotion(l.fixedV, p - l.fixedParent->getPosition());
    }
    l.V = Vp + toPoint(l.TFcW, motionAlong(l.S, l.u, l.dof), p);
  }
  b.setVelocity(l.V);
}

}  // namespace sinew
