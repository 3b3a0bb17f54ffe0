#include "sinew/mech/AxialSpring.h"

#include <cmath>

namespace sinew {

SINEW_PROPERTIES(AxialSpring, Component) {
  list.add<AxialSpring>("restLength", "rest length l0", &AxialSpring::getRestLength,
                        &AxialSpring::setRestLength)
      .setRange(0, INFINITY)
      .setDefault(0.0);
  list.addComposite<AxialSpring>("material", "force law of the spring",
                                 [](AxialSpring& s) -> HasProperties* { return s.getMaterial(); });
  list.add<AxialSpring>("length", "current length", &AxialSpring::getLength);
  list.add<AxialSpring>("lengthDot", "current lengthening speed", &AxialSpring::getLengthDot);
  list.add<AxialSpring>("forceNorm", "current tension", &AxialSpring::getForceNorm);
}

AxialSpring::AxialSpring(std::string name, double restLength)
    : AxialSpring(std::move(name), restLength, std::make_unique<LinearAxialMaterial>()) {}

AxialSpring::AxialSpring(std::string name, double k, double d, double restLength)
    : AxialSpring(std::move(name), restLength, std::make_unique<LinearAxialMaterial>(k, d)) {}

AxialSpring::AxialSpring(std::string name, double restLength, std::unique_ptr<AxialMaterial> mat)
    : Component(std::move(name)), myMaterial(std::move(mat)) {
  setRestLength(restLength);
}

void AxialSpring::setPoints(Point& p0, Point& p1) {
  if (&p0 == &p1) throw ModelError("spring points must differ", describe());
  myP0 = &p0;
  myP1 = &p1;
  if (auto* p = getParent()) p->componentStructureChanged();
}

void AxialSpring::setRestLength(double l0) {
  if (!(l0 >= 0) || !std::isfinite(l0))
    throw ModelError("restLength must be finite and non-negative, got " + std::to_string(l0), describe());
  myRestLength = l0;
}

void AxialSpring::setMaterial(std::unique_ptr<AxialMaterial> mat) {
  if (!mat) throw ModelError("material cannot be null", describe());
  myMaterial = std::move(mat);
}

void AxialSpring::computeDirection(Vector3d& u, double& l) const {
  if (!myP0 || !myP1) throw ModelError("spring has no points", describe());
  Vector3d d = myP1->getPosition() - myP0->getPosition();
  l = d.norm();
  u = l > 0 ? Vector3d(d / l) : Vector3d::Zero();
}

double AxialSpring::getLength() const {
  Vector3d u;
  double l;
  computeDirection(u, l);
  return l;
}

double AxialSpring::getLengthDot() const {
  Vector3d u;
  double l;
  computeDirection(u, l);
  return u.dot(myP1->getVelocity() - myP0->getVelocity());
}

double AxialSpring::getForceNorm() const {
  return myMaterial->computeF(getLength(), getLengthDot(), myRestLength, getNetExcitation());
}

void AxialSpring::applyForces(double) {
  Vector3d u;
  double l;
  computeDirection(u, l);
  double ldot = u.dot(myP1->getVelocity() - myP0->getVelocity());
  double F = myMaterial->computeF(l, ldot, myRestLength, getNetExcitation());
  if (l == 0 && F != 0)
    throw ModelError("spring has zero length but non-zero tension " + std::to_string(F) +
                         ": its direction is undefined",
                     describe());
  myP0->addForce(Vector3d(F * u));
  myP1->addForce(Vector3d(-F * u));
}

void AxialSpring::declareJacobianBlocks(JacobianPattern& pat) {
  myBlk[0] = pat.declareBlock(*myP0, *myP0);
  myBlk[1] = pat.declareBlock(*myP0, *myP1);
  myBlk[2] = pat.declareBlock(*myP1, *myP0);
  myBlk[3] = pat.declareBlock(*myP1, *myP1);
}

void AxialSpring::addPosJacobian(JacobianMatrix& K, double s) {
  // ∂f0/∂x1 = F'(l) uuᵀ + (F/l)(I − uuᵀ); the other blocks follow by sign.
  Vector3d u;
  double l;
  computeDirection(u, l);
  double ldot = u.dot(myP1->getVelocity() - myP0->getVelocity());
  double a = getNetExcitation();
  double dFdl = myMaterial->computeDFdl(l, ldot, myRestLength, a);
  Matrix3d Kp;
  if (l > 0) {
    double F = myMaterial->computeF(l, ldot, myRestLength, a);
    Matrix3d uu = u * u.transpose();
    Kp = dFdl * uu + (F / l) * (Matrix3d::Identity() - uu);
  } else {
    // Coincident points with zero tension: the limit of a zero-rest-length law.
    Kp = dFdl * Matrix3d::Identity();
  }
  Kp *= s;
  K.addBlock(myBlk[0], -Kp);
  K.addBlock(myBlk[1], Kp);
  K.addBlock(myBlk[2], Kp);
  K.addBlock(myBlk[3], -Kp);
}

void AxialSpring::addVelJacobian(JacobianMatrix& D, double s) {
  if (myMaterial->isDFdldotZero()) return;
  Vector3d u;
  double l;
  computeDirection(u, l);
  double ldot = u.dot(myP1->getVelocity() - myP0->getVelocity());
  double dFdv = myMaterial->computeDFdldot(l, ldot, myRestLength, getNetExcitation());
  Matrix3d Dp = (s * dFdv) * (u * u.transpose());
  D.addBlock(myBlk[0], -Dp);
  D.addBlock(myBlk[1], Dp);
  D.addBlock(myBlk[2], Dp);
  D.addBlock(myBlk[3], -Dp);
}

double AxialSpring::getPotentialEnergy() const {
  return myMaterial->computeEnergy(getLength(), myRestLength, getNetExcitation());
}

SINEW_PROPERTIES(Muscle, AxialSpring) {
  list.add<Muscle>("excitation", "excitation in [0, 1]", &Muscle::getExcitation, &Muscle::setExcitation)
      .setRange(0, 1)
      .setDefault(0.0);
}

Muscle::Muscle(std::string name, double restLength)
    : AxialSpring(std::move(name), restLength, std::make_unique<SimpleAxialMuscle>()) {}

void Muscle::setExcitation(double a) {
  if (!(a >= 0 && a <= 1)) throw ModelError("excitation must lie in [0, 1]", describe());
  myExcitation = a;
}

}  // namespace sinew
