#include "sinew/fem/FemNode3d.h"

#include "sinew/Error.h"
#include "sinew/fem/FemModel3d.h"

namespace sinew {

SINEW_PROPERTIES(FemNode3d, Particle) {
  list.add<FemNode3d>("restPosition", "rest (undeformed) position", &FemNode3d::getRestPosition,
                      [](FemNode3d& n, const Vector3d& p) { n.setRestPosition(p); });
  addStressStrainProperties<FemNode3d>(list);
  list.add<FemNode3d>("director", "shell director x − x_back (zero without one)", &FemNode3d::getDirector);
  list.add<FemNode3d>("restDirector", "rest shell director", &FemNode3d::getRestDirector);
}

FemNode3d::FemNode3d() { setMass(0); }

FemNode3d::FemNode3d(const Vector3d& pos) : FemNode3d() {
  setPosition(pos);
  setRestPosition(pos);
}

namespace {
FemModel3d* ownerModel(const FemNode3d& n) {
  const Component* list = n.getParent();
  return list ? dynamic_cast<FemModel3d*>(list->getParent()) : nullptr;
}
}  // namespace

void FemNode3d::setRestPosition(const Vector3d& p) {
  if (!p.allFinite()) throw ModelError("rest position is not finite", describe());
  const Vector3d d = getRestDirector();  // kept: the back node's rest moves along
  myRest = p;
  if (myBackNode) myBackNode->setRestPosition(p - d);
  if (FemModel3d* m = ownerModel(*this)) m->invalidateRestData();  // masses follow the rest volumes
}

void FemNode3d::transformGeometry(const RigidTransform3d& X) {
  Particle::transformGeometry(X);
  myRest = X.transformPoint(myRest);
}

BackNode3d* FemNode3d::getBackNode() const { return myBackNode; }

Vector3d FemNode3d::getDirector() const {
  return myBackNode ? Vector3d(getPosition() - myBackNode->getPosition()) : Vector3d::Zero();
}

Vector3d FemNode3d::getRestDirector() const {
  return myBackNode ? Vector3d(myRest - myBackNode->getRestPosition()) : Vector3d::Zero();
}

Vector3d FemNode3d::getDirectorVel() const {
  return myBackNode ? Vector3d(getVelocity() - myBackNode->getVelocity()) : Vector3d::Zero();
}

void FemNode3d::setDirector(const Vector3d& d) {
  if (!myBackNode) throw ModelError("node has no director: it belongs to no regular shell element", describe());
  if (!d.allFinite()) throw ModelError("director is not finite", describe());
  myBackNode->setPosition(getPosition() - d);
  myDirectorInitialized = true;
}

void FemNode3d::setRestDirector(const Vector3d& d) {
  if (!myBackNode) throw ModelError("node has no director: it belongs to no regular shell element", describe());
  if (!d.allFinite() || !(d.norm() > 0)) throw ModelError("rest director must be finite and non-zero", describe());
  myBackNode->setRestPosition(myRest - d);
  myRestDirectorExplicit = true;
  if (FemModel3d* m = ownerModel(*this)) m->updateNodeMasses();  // shell volumes follow
}

void FemNode3d::refreshDirector() {
  if (!myBackNode || myNumShells == 0) return;
  const Vector3d old = getRestDirector();
  if (!myRestDirectorExplicit) {
    if (!(myShellArea.norm() > 0))
      throw ModelError("the regular shells around this node have no net normal (flat or folded at rest)",
                       describe());
    myBackNode->setRestPosition(myRest - myShellArea.normalized() * (myShellThickness / myNumShells));
  }
  const Vector3d rest = getRestDirector();
  if (!myDirectorInitialized) {
    myBackNode->setPosition(getPosition() - rest);
    myDirectorInitialized = true;
  } else if (old.norm() > 0) {
    myBackNode->setPosition(getPosition() - getDirector() * (rest.norm() / old.norm()));
  }
}

BackNode3d::BackNode3d(FemNode3d& node) : myNode(&node) {
  setMass(0);
  setPosition(node.getPosition());
  myRest = node.getRestPosition();
}

void BackNode3d::transformGeometry(const RigidTransform3d& X) {
  Particle::transformGeometry(X);
  myRest = X.transformPoint(myRest);
}

Point* FemNode3d::getDirectorPoint() const { return getBackNode(); }

}  // namespace sinew
