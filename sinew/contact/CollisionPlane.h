// CollisionPlane: a fixed, infinite plane that bodies collide with, the
// half-space behind it being solid — the ground of most models, without a
// box mesh standing in for it (the guide's examples use a thin fixed box;
// §8.1, §8.4). Add one with CollisionManager::addPlane; behaviours name it
// like any collidable, and it belongs to the Rigid group.
//
// Contacts against a plane are exact: a body's vertex x is at signed
// distance n·(x − p). Under vertex penetration each vertex within reach is
// a contact with the plane's normal; under CONTOUR_REGION (rigid bodies)
// the contacts are the corners of the convex hull, on the plane, of the
// body's vertices within reach and of its edges' crossings with the
// plane, each with its own depth. Both watch vertices just above the plane
// as hard contacts do elsewhere, so a body resting on it does not fall for
// a step first.
#pragma once

#include "sinew/math/Spatial.h"
#include "sinew/model/Component.h"

namespace sinew {

class CollisionPlane : public Component {
  SINEW_DECLARE_PROPERTIES
 public:
  /// The plane through `point` with outward `normal` (normalized); a zero
  /// or non-finite normal is a ModelError.
  CollisionPlane(std::string name, const Vector3d& point, const Vector3d& normal);
  const Vector3d& getPoint() const { return myPoint; }
  void setPoint(const Vector3d& p);
  const Vector3d& getNormal() const { return myNormal; }
  void setNormal(const Vector3d& n);
  /// Signed distance of x from the plane: negative behind it (inside).
  double distance(const Vector3d& x) const { return myNormal.dot(x - myPoint); }

 private:
  Vector3d myPoint, myNormal;
};

}  // namespace sinew
