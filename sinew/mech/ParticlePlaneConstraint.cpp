#include "sinew/mech/ParticlePlaneConstraint.h"

#include <cmath>

namespace sinew {

SINEW_PROPERTIES(ParticlePlaneConstraint, Component) {
  list.add<ParticlePlaneConstraint>("unilateral", "keep particles above the plane only",
                                    &ParticlePlaneConstraint::isUnilateral,
                                    &ParticlePlaneConstraint::setUnilateral)
      .setDefault(false);
  list.add<ParticlePlaneConstraint>("compliance", "constraint compliance (0 = hard)",
                                    &ParticlePlaneConstraint::getCompliance,
                                    &ParticlePlaneConstraint::setCompliance)
      .setRange(0, INFINITY)
      .setDefault(0.0);
  list.add<ParticlePlaneConstraint>("damping", "constraint damping", &ParticlePlaneConstraint::getDamping,
                                    &ParticlePlaneConstraint::setDamping)
      .setRange(0, INFINITY)
      .setDefault(0.0);
}

ParticlePlaneConstraint::ParticlePlaneConstraint(std::string name, const Vector3d& n, const Vector3d& p)
    : Component(std::move(name)), myPoint(p) {
  if (!(n.norm() > 0) || !n.allFinite() || !p.allFinite())
    throw ModelError("plane normal must be non-zero and finite", describe());
  myNormal = n.normalized();
}

void ParticlePlaneConstraint::transformGeometry(const RigidTransform3d& X) {
  myNormal = X.R * myNormal;
  myPoint = X.transformPoint(myPoint);
}

void ParticlePlaneConstraint::addParticle(Point& p) {
  myPoints.push_back(&p);
  myForces.push_back(0);
  if (auto* parent = getParent()) parent->componentStructureChanged();
}

void ParticlePlaneConstraint::setCompliance(double c) {
  if (!(c >= 0)) throw ModelError("compliance must be non-negative", describe());
  myCompliance = c;
}

void ParticlePlaneConstraint::setDamping(double d) {
  if (!(d >= 0)) throw ModelError("damping must be non-negative", describe());
  myDamping = d;
}

double ParticlePlaneConstraint::getDistance(int i) const {
  return myNormal.dot(myPoints.at(i)->getPosition() - myPoint);
}

void ParticlePlaneConstraint::addRows(ConstraintBuilder& b, bool unilateralRows) {
  myEngaged.clear();
  for (int i = 0; i < numParticles(); ++i) {
    double d = getDistance(i);
    // Unilateral rows are offered only near or below the plane; the MLCP
    // then decides which ones push.
    if (unilateralRows && d > 1e-8) continue;
    b.beginRow(d, myCompliance, myDamping);
    b.addEntry(*myPoints[i], myNormal.transpose());
    myEngaged.push_back(i);
  }
}

void ParticlePlaneConstraint::getBilateralConstraints(ConstraintBuilder& G) {
  if (!myUnilateral) addRows(G, false);
}

void ParticlePlaneConstraint::getUnilateralConstraints(ConstraintBuilder& N) {
  if (myUnilateral) addRows(N, true);
}

void ParticlePlaneConstraint::setConstraintForces(const double* bilateral, const double* unilateral) {
  std::fill(myForces.begin(), myForces.end(), 0.0);
  const double* f = myUnilateral ? unilateral : bilateral;
  for (size_t k = 0; k < myEngaged.size(); ++k) myForces[myEngaged[k]] = f[k];
}

}  // namespace sinew
