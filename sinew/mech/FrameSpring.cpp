#include "sinew/mech/FrameSpring.h"

#include <cmath>

namespace sinew {

SINEW_PROPERTIES(FrameSpring, Component) {
  list.addComposite<FrameSpring>("material", "force law of the spring",
                                 [](FrameSpring& s) -> HasProperties* { return s.getMaterial(); });
  list.add<FrameSpring>("springForce", "wrench on frame C, in C coordinates about C's origin",
                        &FrameSpring::getSpringForce);
  list.add<FrameSpring>("symmetricJacobian", "symmetrize the stiffness blocks for the solver",
                        &FrameSpring::isSymmetricJacobian, &FrameSpring::setSymmetricJacobian)
      .setDefault(true);
  list.add<FrameSpring>("axisLength", "length of the drawn C and D axes", &FrameSpring::getAxisLength,
                        &FrameSpring::setAxisLength)
      .setRange(0, INFINITY)
      .setDefault(0.0);
}

FrameSpring::FrameSpring(std::string name) : FrameSpring(std::move(name), 1, 1, 0, 0) {}

FrameSpring::FrameSpring(std::string name, double kt, double kr, double dt, double dr)
    : Component(std::move(name)), myMaterial(std::make_unique<LinearFrameMaterial>(kt, kr, dt, dr)) {}

void FrameSpring::setMaterial(std::unique_ptr<FrameMaterial> mat) {
  if (!mat) throw ModelError("material cannot be null", describe());
  myMaterial = std::move(mat);
}

void FrameSpring::setFrames(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW) {
  setFrames(bodyA, bodyA.getPose().inverse() * TDW, bodyB, bodyB ? bodyB->getPose().inverse() * TDW : TDW);
}

void FrameSpring::setFrames(Frame& bodyA, const RigidTransform3d& TCA, Frame* bodyB,
                            const RigidTransform3d& TDB) {
  if (&bodyA == bodyB) throw ModelError("a frame spring cannot connect a frame to itself", describe());
  myA = &bodyA;
  myB = bodyB;
  myTCA = TCA;
  myTDB = TDB;
  // The model must recompile: the Jacobian blocks depend on the bodies.
  for (Component* c = getParent(); c; c = c->getParent()) c->componentStructureChanged();
}

void FrameSpring::setAxisLength(double l) {
  if (!(l >= 0) || !std::isfinite(l))
    throw ModelError("axisLength must be finite and non-negative, got " + std::to_string(l), describe());
  myAxisLength = l;
}

void FrameSpring::requireConnected() const {
  if (!myA) throw ModelError("frame spring has no frames (call setFrames)", describe());
}

RigidTransform3d FrameSpring::getCurrentTCW() const {
  requireConnected();
  return myA->getPose() * myTCA;
}

RigidTransform3d FrameSpring::getCurrentTDW() const {
  requireConnected();
  return myB ? myB->getPose() * myTDB : myTDB;
}

RigidTransform3d FrameSpring::getCurrentTDC() const { return getCurrentTCW().inverse() * getCurrentTDW(); }

// The relative displacement ξ of D with respect to C (C coordinates) moves
// with the body twists as ξ̇ = P_B u_B − P_A u_A, P = diag(R_Cᵀ, R_Cᵀ)·J(r),
// where J(r) maps a body twist to the twist of a frame at D's origin, r
// away. The spring's wrench w on C then reaches the bodies as
// F_A = P_Aᵀ w and F_B = −P_Bᵀ w.
struct FrameSpring::Kinematics {
  RigidTransform3d TCW, TDW, TDC;
  Vector3d rA, rB = Vector3d::Zero();  ///< D's origin from A's and B's origins (world)
  Matrix6d PA, PB = Matrix6d::Zero();
  Twist vel;  ///< v̂_DC
};

FrameSpring::Kinematics FrameSpring::computeKinematics() const {
  Kinematics k;
  k.TCW = getCurrentTCW();
  k.TDW = getCurrentTDW();
  k.TDC = k.TCW.inverse() * k.TDW;
  Matrix6d RT = Matrix6d::Zero();
  RT.topLeftCorner<3, 3>() = RT.bottomRightCorner<3, 3>() = k.TCW.R.transpose();
  k.rA = k.TDW.p - myA->getPosition();
  k.PA = RT * frameVelocityJacobian(k.rA);
  k.vel = -k.PA * myA->getVelocity();
  if (myB) {
    k.rB = k.TDW.p - myB->getPosition();
    k.PB = RT * frameVelocityJacobian(k.rB);
    k.vel += k.PB * myB->getVelocity();
  }
  return k;
}

Twist FrameSpring::getRelativeVelocity() const { return computeKinematics().vel; }

Wrench FrameSpring::getSpringForce() const {
  Kinematics k = computeKinematics();
  Wrench w = myMaterial->computeF(k.TDC, k.vel);
  w.tail<3>() += k.TDC.p.cross(w.head<3>());
  return w;
}

void FrameSpring::applyForces(double) {
  Kinematics k = computeKinematics();
  Wrench w = myMaterial->computeF(k.TDC, k.vel);
  Wrench fa = k.PA.transpose() * w;
  myA->addForce(fa.data());
  if (myB) {
    Wrench fb = -k.PB.transpose() * w;
    myB->addForce(fb.data());
  }
}

void FrameSpring::declareJacobianBlocks(JacobianPattern& pat) {
  requireConnected();
  myBlk[0] = pat.declareBlock(*myA, *myA);
  if (!myB) return;
  myBlk[1] = pat.declareBlock(*myA, *myB);
  myBlk[2] = pat.declareBlock(*myB, *myA);
  myBlk[3] = pat.declareBlock(*myB, *myB);
}

namespace {

/// Blocks ∂F_X/∂q_Y through the material: −σ_Xσ_Y P_Xᵀ W P_Y with σ_A = −1,
/// σ_B = +1, for W = ∂w/∂ξ (or ∂w/∂ξ̇).
void materialBlocks(const Matrix6d& PA, const Matrix6d& PB, const Matrix6d& W, Matrix6d blk[4]) {
  blk[0] = -PA.transpose() * W * PA;
  blk[1] = PA.transpose() * W * PB;
  blk[2] = PB.transpose() * W * PA;
  blk[3] = -PB.transpose() * W * PB;
}

void symmetrize(Matrix6d blk[4]) {
  blk[0] = 0.5 * (blk[0] + blk[0].transpose()).eval();
  blk[3] = 0.5 * (blk[3] + blk[3].transpose()).eval();
  blk[1] = 0.5 * (blk[1] + blk[2].transpose()).eval();
  blk[2] = blk[1].transpose();
}

}  // namespace

void FrameSpring::addBlocks(JacobianMatrix& J, Matrix6d blk[4]) const {
  if (mySymmetric) symmetrize(blk);
  J.addBlock(myBlk[0], blk[0]);
  if (!myB) return;
  for (int i = 1; i < 4; ++i) J.addBlock(myBlk[i], blk[i]);
}

void FrameSpring::addPosJacobian(JacobianMatrix& K, double s) {
  // Two parts: the material's stiffness through ξ, and the geometric terms
  // of a fixed wrench (f, m) (world) turning with C and changing its lever
  // arms r_A, r_B. The velocity dependence of ξ̇ on the pose is left out,
  // as for axial springs.
  Kinematics k = computeKinematics();
  Matrix6d blk[4];
  materialBlocks(k.PA, k.PB, myMaterial->computeDFdq(k.TDC, k.vel), blk);
  const Wrench w = myMaterial->computeF(k.TDC, k.vel);
  const Matrix3d F = skew(k.TCW.R * w.head<3>()), Mx = skew(k.TCW.R * w.tail<3>());
  blk[0].topRightCorner<3, 3>() -= F;
  blk[0].bottomLeftCorner<3, 3>() += F;
  blk[0].bottomRightCorner<3, 3>() -= Mx + skew(k.rA) * F;
  blk[1].bottomLeftCorner<3, 3>() -= F;
  blk[1].bottomRightCorner<3, 3>() += F * skew(k.rB);
  blk[2].topRightCorner<3, 3>() += F;
  blk[2].bottomRightCorner<3, 3>() += Mx + skew(k.rB) * F;
  blk[3].bottomRightCorner<3, 3>() -= F * skew(k.rB);
  for (auto& b : blk) b *= s;
  addBlocks(K, blk);
}

void FrameSpring::addVelJacobian(JacobianMatrix& D, double s) {
  if (myMaterial->isDFduZero()) return;
  Kinematics k = computeKinematics();
  Matrix6d blk[4];
  materialBlocks(k.PA, k.PB, s * myMaterial->computeDFdu(k.TDC, k.vel), blk);
  addBlocks(D, blk);
}

double FrameSpring::getPotentialEnergy() const { return myMaterial->computeEnergy(getCurrentTDC()); }

void FrameSpring::transformGeometry(const RigidTransform3d& X) {
  if (myA && !myB) myTDB = X * myTDB;
}

}  // namespace sinew
