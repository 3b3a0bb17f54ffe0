#include "sinew/contact/CollisionPlane.h"

#include <cmath>

#include "sinew/Error.h"

namespace sinew {

SINEW_PROPERTIES(CollisionPlane, Component) {
  list.add<CollisionPlane>("point", "a point of the plane", &CollisionPlane::getPoint, &CollisionPlane::setPoint);
  list.add<CollisionPlane>("normal", "unit outward normal (the solid side is behind it)", &CollisionPlane::getNormal,
                           &CollisionPlane::setNormal);
}

CollisionPlane::CollisionPlane(std::string name, const Vector3d& point, const Vector3d& normal)
    : Component(std::move(name)) {
  setPoint(point);
  setNormal(normal);
}

void CollisionPlane::setPoint(const Vector3d& p) {
  if (!p.allFinite()) throw ModelError("plane point must be finite", describe());
  myPoint = p;
}

void CollisionPlane::setNormal(const Vector3d& n) {
  if (!n.allFinite() || !(n.norm() > 0)) throw ModelError("plane normal must be finite and non-zero", describe());
  myNormal = n.normalized();
}

}  // namespace sinew
