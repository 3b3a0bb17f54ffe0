#include "sinew/contact/CollisionBehavior.h"

#include <cmath>

#include "sinew/Error.h"

namespace sinew {

const std::vector<std::string>& EnumNames<CollisionBehavior::Method>::get() {
  static const std::vector<std::string> n{"CONTOUR_REGION", "VERTEX_PENETRATION", "VERTEX_EDGE_PENETRATION",
                                          "DEFAULT", "INACTIVE"};
  return n;
}

const std::vector<std::string>& EnumNames<ColliderType>::get() {
  static const std::vector<std::string> n{"AJL_CONTOUR", "TRI_INTERSECTION", "SIGNED_DISTANCE", "INHERITED"};
  return n;
}

const std::vector<std::string>& EnumNames<CollisionBehavior::ColorMapType>::get() {
  static const std::vector<std::string> n{"NONE", "PENETRATION_DEPTH", "CONTACT_PRESSURE"};
  return n;
}

const std::vector<std::string>& EnumNames<CollisionBehavior::VertexPenetrations>::get() {
  static const std::vector<std::string> n{"BOTH_COLLIDABLES", "FIRST_COLLIDABLE", "SECOND_COLLIDABLE", "AUTO"};
  return n;
}

SINEW_PROPERTIES(CollisionBehavior, Component) {
  list.add<CollisionBehavior>("enabled", "whether collisions are enabled", &CollisionBehavior::isEnabled,
                              &CollisionBehavior::setEnabled)
      .setDefault(false);
  list.add<CollisionBehavior>("friction", "Coulomb friction coefficient (< 0: inherited)",
                              &CollisionBehavior::getFriction, &CollisionBehavior::setFriction)
      .setDefault(-1.0);
  list.add<CollisionBehavior>("compliance", "contact compliance (< 0: inherited)", &CollisionBehavior::getCompliance,
                              &CollisionBehavior::setCompliance)
      .setDefault(-1.0);
  list.add<CollisionBehavior>("damping", "contact damping (< 0: inherited)", &CollisionBehavior::getDamping,
                              &CollisionBehavior::setDamping)
      .setDefault(-1.0);
  list.add<CollisionBehavior>("penetrationTol", "allowed interpenetration (< 0: the MechModel's)",
                              &CollisionBehavior::getPenetrationTol, &CollisionBehavior::setPenetrationTol)
      .setDefault(-1.0);
  list.add<CollisionBehavior>("rigidPointTol", "CONTOUR_REGION: least distance between contact points (< 0: inherited)",
                              &CollisionBehavior::getRigidPointTol, &CollisionBehavior::setRigidPointTol)
      .setDefault(-1.0);
  list.add<CollisionBehavior>("rigidRegionTol",
                              "CONTOUR_REGION: crossings closer than this form one region (< 0: inherited)",
                              &CollisionBehavior::getRigidRegionTol, &CollisionBehavior::setRigidRegionTol)
      .setDefault(-1.0);
  list.add<CollisionBehavior>("stictionCreep", "creep speed of sticking contacts per newton (< 0: inherited)",
                              &CollisionBehavior::getStictionCreep, &CollisionBehavior::setStictionCreep)
      .setDefault(-1.0);
  // Inherited from the manager until set: the property's mode says which,
  // and its value while Inherited is the behaviour's own (DEFAULT, AUTO:
  // the manager's then decides). Made Inherited (or reset to its default),
  // the behaviour's value is cleared back to that; made Explicit, the
  // behaviour keeps it as its own.
  auto inheritedUntilSet = [](PropertyInfo& info, bool (CollisionBehavior::*isSet)() const,
                              void (CollisionBehavior::*clear)(), void (*pin)(CollisionBehavior&)) {
    info.inheritable = true;  // resetToDefault() makes it Inherited
    info.getMode = [isSet](const HasProperties& h) {
      return (static_cast<const CollisionBehavior&>(h).*isSet)() ? PropertyMode::Explicit : PropertyMode::Inherited;
    };
    info.setMode = [clear, pin](HasProperties& h, PropertyMode m) {
      auto& b = static_cast<CollisionBehavior&>(h);
      if (m == PropertyMode::Inherited) (b.*clear)();
      else pin(b);
    };
  };
  inheritedUntilSet(list.add<CollisionBehavior>("method", "how contact constraints are generated (unset: the manager's)",
                                                &CollisionBehavior::getMethod, &CollisionBehavior::setMethod)
                        .setDefault(std::string("DEFAULT")),
                    &CollisionBehavior::isMethodSet, &CollisionBehavior::clearMethod,
                    [](CollisionBehavior& b) { b.setMethod(b.getMethod()); });
  inheritedUntilSet(list.add<CollisionBehavior>("vertexPenetrations", "whose vertices are tested (unset: the manager's)",
                                                &CollisionBehavior::getVertexPenetrations,
                                                &CollisionBehavior::setVertexPenetrations)
                        .setDefault(std::string("AUTO")),
                    &CollisionBehavior::isVertexPenetrationsSet, &CollisionBehavior::clearVertexPenetrations,
                    [](CollisionBehavior& b) { b.setVertexPenetrations(b.getVertexPenetrations()); });
  list.add<CollisionBehavior>("bilateralVertexContact", "FEM vertex contacts as bilateral rows",
                              &CollisionBehavior::getBilateralVertexContact,
                              &CollisionBehavior::setBilateralVertexContact)
      .setDefault(true);
  list.add<CollisionBehavior>("colliderType", "the collider (INHERITED: the manager's)",
                              &CollisionBehavior::getColliderType, &CollisionBehavior::setColliderType);
  list.add<CollisionBehavior>("drawColorMap", "the colour map of the contact region (§8.5)",
                              &CollisionBehavior::getDrawColorMap, &CollisionBehavior::setDrawColorMap);
  list.add<CollisionBehavior>("renderingCollidable", "0 or 1: the collidable normals, forces and maps refer to (§8.5)",
                              &CollisionBehavior::getRenderingCollidable, &CollisionBehavior::setRenderingCollidable)
      .setDefault(0);
  list.add<CollisionBehavior>("drawIntersectionContours", "draw the intersection contours (§8.5)",
                              &CollisionBehavior::getDrawIntersectionContours,
                              &CollisionBehavior::setDrawIntersectionContours)
      .setDefault(false);
  list.add<CollisionBehavior>("drawIntersectionPoints", "draw the penetrating vertices (§8.5)",
                              &CollisionBehavior::getDrawIntersectionPoints,
                              &CollisionBehavior::setDrawIntersectionPoints)
      .setDefault(false);
  list.add<CollisionBehavior>("drawContactNormals", "draw the contact normals (§8.5)",
                              &CollisionBehavior::getDrawContactNormals, &CollisionBehavior::setDrawContactNormals)
      .setDefault(false);
  list.add<CollisionBehavior>("drawContactForces", "draw the contact forces (§8.5)",
                              &CollisionBehavior::getDrawContactForces, &CollisionBehavior::setDrawContactForces)
      .setDefault(false);
  list.add<CollisionBehavior>("drawFrictionForces", "draw the friction forces (§8.5)",
                              &CollisionBehavior::getDrawFrictionForces, &CollisionBehavior::setDrawFrictionForces)
      .setDefault(false);
  list.add<CollisionBehavior>("colorMapInterpolation", "RGB or HSV interpolation of the colour map (§8.5)",
                              &CollisionBehavior::getColorMapInterpolation,
                              &CollisionBehavior::setColorMapInterpolation);
  list.add<CollisionBehavior>("reduceConstraints", "keep only independent contact rows (§8.6.1)",
                              &CollisionBehavior::getReduceConstraints, &CollisionBehavior::setReduceConstraints)
      .setDefault(false);
}

CollisionBehavior::CollisionBehavior() : Component() {}

CollisionBehavior::CollisionBehavior(bool enabled, double mu) : Component(), myEnabled(enabled) {
  if (enabled && mu >= 0) setFriction(mu);
}

CollisionBehavior::CollisionBehavior(const CollisionBehavior& o)
    : Component(),
      myEnabled(o.myEnabled),
      myBilateralVertexContact(o.myBilateralVertexContact),
      myBilateralSet(o.myBilateralSet),
      myReduceConstraints(o.myReduceConstraints),
      myMethodSet(o.myMethodSet),
      myVertexPenetrationsSet(o.myVertexPenetrationsSet),
      myFriction(o.myFriction),
      myCompliance(o.myCompliance),
      myDamping(o.myDamping),
      myPenetrationTol(o.myPenetrationTol),
      myRigidPointTol(o.myRigidPointTol),
      myRigidRegionTol(o.myRigidRegionTol),
      myStictionCreep(o.myStictionCreep),
      myMethod(o.myMethod),
      myVertexPenetrations(o.myVertexPenetrations),
      myColliderType(o.myColliderType),
      myColorMap(o.myColorMap),
      myForceBehavior(o.myForceBehavior),
      myRender(o.myRender) {}

namespace {
double checked(double v, const Component& c, const char* what) {
  if (std::isnan(v) || std::isinf(v)) throw ModelError(std::string(what) + " must be finite", c.describe());
  return v < 0 ? -1 : v;
}
}  // namespace

void CollisionBehavior::setFriction(double mu) { myFriction = checked(mu, *this, "friction"); }
void CollisionBehavior::setCompliance(double c) { myCompliance = checked(c, *this, "compliance"); }
void CollisionBehavior::setDamping(double d) { myDamping = checked(d, *this, "damping"); }
void CollisionBehavior::setPenetrationTol(double tol) { myPenetrationTol = checked(tol, *this, "penetrationTol"); }
void CollisionBehavior::setRigidPointTol(double tol) { myRigidPointTol = checked(tol, *this, "rigidPointTol"); }
void CollisionBehavior::setRigidRegionTol(double tol) { myRigidRegionTol = checked(tol, *this, "rigidRegionTol"); }
void CollisionBehavior::setStictionCreep(double c) { myStictionCreep = checked(c, *this, "stictionCreep"); }

void CollisionBehavior::setColliderType(ColliderType t) { myColliderType = t; }

void CollisionBehavior::setRenderingCollidable(int c) {
  if (c != 0 && c != 1) throw ModelError("renderingCollidable must be 0 or 1, not " + std::to_string(c), describe());
  myRender.renderingCollidable = c;
}

void CollisionBehavior::setMethod(Method m) {
  myMethod = m;
  myMethodSet = true;
}

}  // namespace sinew
