#include "sinew/fem/FemNode3d.h"

#include "sinew/Error.h"

namespace sinew {

SINEW_PROPERTIES(FemNode3d, Particle) {
  list.add<FemNode3d>("restPosition", "rest (undeformed) position", &FemNode3d::getRestPosition,
                      [](FemNode3d& n, const Vector3d& p) { n.setRestPosition(p); });
  addStressStrainProperties<FemNode3d>(list);
}

FemNode3d::FemNode3d() { setMass(0); }

FemNode3d::FemNode3d(const Vector3d& pos) : FemNode3d() {
  setPosition(pos);
  setRestPosition(pos);
}

void FemNode3d::setRestPosition(const Vector3d& p) {
  if (!p.allFinite()) throw ModelError("rest position is not finite", describe());
  myRest = p;
}

void FemNode3d::transformGeometry(const RigidTransform3d& X) {
  Particle::transformGeometry(X);
  myRest = X.transformPoint(myRest);
}

}  // namespace sinew
