// CollisionBehavior: how a pair of collidables (or of groups) collides
// (guide §8.1.1, §8.2.1). A behaviour is a component of the collision
// manager's `behaviors` list; its unset properties (friction, compliance,
// damping, the point and region tolerances, stiction creep: negative;
// method and vertexPenetrations: until set) are the detecting manager's,
// and an unset penetrationTol the detecting MechModel's.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "sinew/contact/ContactForceBehavior.h"
#include "sinew/contact/ContactRendering.h"
#include "sinew/model/Component.h"
#include "sinew/model/Property.h"

namespace sinew {

/// The collider that finds the contacts (§8.4.2; the guide's
/// CollisionManager.ColliderType). TRI_INTERSECTION's vertex penetration is
/// the bounding-volume tree's exact point–mesh distance; SIGNED_DISTANCE
/// uses a rigid body's distance grid (§4.6) instead; AJL_CONTOUR finds the
/// intersection contours with exact predicates (MeshIntersector.h), and
/// from them the penetrating vertices, the penetration regions and their
/// areas. `Inherited` (a behaviour's default) takes the manager's.
enum class ColliderType { AjlContour, TriIntersection, SignedDistance, Inherited };
template <>
struct EnumNames<ColliderType> {
  static const std::vector<std::string>& get();
};

class CollisionBehavior : public Component {
  SINEW_DECLARE_PROPERTIES
 public:
  /// How contact constraints are generated (§8.4.1.3).
  enum class Method { ContourRegion, VertexPenetration, VertexEdgePenetration, Default, Inactive };
  /// Whose vertices are tested against the other's mesh (§8.4.1.3).
  enum class VertexPenetrations { BothCollidables, FirstCollidable, SecondCollidable, Auto };
  /// The colour map a viewer draws over the contact region (§8.5).
  enum class ColorMapType { None, PenetrationDepth, ContactPressure };

  /// Disabled, every other property inherited (§8.2.1).
  CollisionBehavior();
  /// `mu` < 0 (or `enabled` false) leaves friction inherited.
  CollisionBehavior(bool enabled, double mu);
  /// A copy with the same settings (the guide's `new CollisionBehavior(behav)`);
  /// a behaviour may be added to the manager only once.
  CollisionBehavior(const CollisionBehavior& other);

  bool isEnabled() const { return myEnabled; }
  void setEnabled(bool e) { myEnabled = e; }
  /// Coulomb friction μ; negative: inherited from the manager.
  double getFriction() const { return myFriction; }
  void setFriction(double mu);
  /// Contact compliance C = 1/K (§8.7.1); negative: inherited.
  double getCompliance() const { return myCompliance; }
  void setCompliance(double c);
  /// Contact damping D (§8.7.1); negative: inherited.
  double getDamping() const { return myDamping; }
  void setDamping(double d);
  /// Interpenetration kept for stable contact (§8.9.1); negative: the MechModel's.
  double getPenetrationTol() const { return myPenetrationTol; }
  void setPenetrationTol(double tol);
  /// CONTOUR_REGION (§8.2.1): contact points closer than this on the
  /// region's plane are one (fewer, sparser contacts); negative: inherited
  /// from the manager, whose default is the penetration tolerance.
  double getRigidPointTol() const { return myRigidPointTol; }
  void setRigidPointTol(double tol);
  /// CONTOUR_REGION (§8.2.1): triangle crossings closer than this belong
  /// to one contact region; negative: inherited from the manager, whose
  /// default is the penetration tolerance.
  double getRigidRegionTol() const { return myRigidRegionTol; }
  void setRigidRegionTol(double tol);
  /// The creep speed allowed to contacts held by static friction
  /// (§8.2.1, §8.9.4): friction rows get the compliance stictionCreep / h,
  /// so a sticking contact slides at stictionCreep per newton of its
  /// friction force; it regularizes the friction of redundant contacts.
  /// Negative: inherited from the manager (default 0, none).
  double getStictionCreep() const { return myStictionCreep; }
  void setStictionCreep(double c);
  Method getMethod() const { return myMethod; }
  /// How contacts are generated (§8.4.1.3). Until set here, the detecting
  /// manager's method (§8.2.1; itself DEFAULT unless set). DEFAULT: CONTOUR_REGION
  /// between two rigid bodies, and between a rigid body and a collision
  /// plane; VERTEX_PENETRATION otherwise, and (both bodies' vertices)
  /// between two rigid meshes under the SIGNED_DISTANCE collider, which
  /// finds no regions. VertexEdgePenetration adds edge–edge
  /// contacts to vertex penetration and needs the AJL_CONTOUR collider;
  /// ContourRegion is for two rigid bodies only (ModelErrors at detection
  /// otherwise).
  void setMethod(Method m);
  bool isMethodSet() const { return myMethodSet; }
  /// Back to the manager's method (the property's Inherited mode; the
  /// behaviour's own value is DEFAULT again).
  void clearMethod() {
    myMethod = Method::Default;
    myMethodSet = false;
  }
  /// Whose vertices vertex penetration tests (§8.4.1.3). Until set here,
  /// the manager's (default AUTO).
  VertexPenetrations getVertexPenetrations() const { return myVertexPenetrations; }
  void setVertexPenetrations(VertexPenetrations v) {
    myVertexPenetrations = v;
    myVertexPenetrationsSet = true;
  }
  bool isVertexPenetrationsSet() const { return myVertexPenetrationsSet; }
  void clearVertexPenetrations() {
    myVertexPenetrations = VertexPenetrations::Auto;
    myVertexPenetrationsSet = false;
  }
  /// Vertex-penetration contacts of an FEM model as bilateral rows, dropped
  /// between steps when they pull (§8.4.1.2); default true. Contacts with
  /// friction, and those between two rigid bodies, stay unilateral. Until
  /// set here, the manager's (§8.2.1: behaviours inherit what they have
  /// not set).
  bool getBilateralVertexContact() const { return myBilateralVertexContact; }
  void setBilateralVertexContact(bool b) {
    myBilateralVertexContact = b;
    myBilateralSet = true;
  }
  bool isBilateralVertexContactSet() const { return myBilateralSet; }
  /// Constraint reduction (§8.6.1): keep, deepest first, only the pair's
  /// contacts whose rows are independent of those kept, so that redundant
  /// contact (a box face on a face: four rows for three free directions)
  /// gives as many rows as the directions it blocks. Acts if set here or on
  /// the collision manager; default false.
  /// The collider for this pair; Inherited (default): the manager's.
  ColliderType getColliderType() const { return myColliderType; }
  void setColliderType(ColliderType t);
  bool getReduceConstraints() const { return myReduceConstraints; }
  void setReduceConstraints(bool r) { myReduceConstraints = r; }
  /// A contact force law in place of hard contact (§8.7.2), e.g. a
  /// LinearElasticContact (§8.7.3); null: none. Copies share it.
  const ContactForceBehavior* getForceBehavior() const { return myForceBehavior.get(); }
  void setForceBehavior(std::shared_ptr<const ContactForceBehavior> b) { myForceBehavior = std::move(b); }
  /// The colour map to draw (§8.5; default NONE). Its data is computed
  /// without a viewer: PENETRATION_DEPTH is the penetration regions' vertex
  /// depths under AJL_CONTOUR, found also for an INACTIVE pair (the
  /// guide's PenetrationRenderDemo shows penetration without contact);
  /// CONTACT_PRESSURE is the contacts' vertex pressures.
  /// This behaviour's own map (NONE when it has none: then the
  /// manager's, CollisionManager::colorMapOf resolves it).
  ColorMapType getDrawColorMap() const { return myColorMap.value_or(ColorMapType::None); }
  void setDrawColorMap(ColorMapType t) { myColorMap = t; }
  bool isDrawColorMapSet() const { return myColorMap.has_value(); }

  // Contact rendering (§8.5; ContactRendering.h): each setting is the
  // manager's until set here. The getters give this behaviour's own value,
  // or the guide's default where it has none; the collision manager's
  // renderSettings(behaviour) resolves them.
  /// 0 or 1 (a ModelError otherwise): the collidable that normals point
  /// toward, forces act on and colour maps lie on.
  int getRenderingCollidable() const { return myRender.renderingCollidable.value_or(0); }
  void setRenderingCollidable(int c);
  bool getDrawIntersectionContours() const { return myRender.drawIntersectionContours.value_or(false); }
  void setDrawIntersectionContours(bool b) { myRender.drawIntersectionContours = b; }
  bool getDrawIntersectionPoints() const { return myRender.drawIntersectionPoints.value_or(false); }
  void setDrawIntersectionPoints(bool b) { myRender.drawIntersectionPoints = b; }
  bool getDrawContactNormals() const { return myRender.drawContactNormals.value_or(false); }
  void setDrawContactNormals(bool b) { myRender.drawContactNormals = b; }
  bool getDrawContactForces() const { return myRender.drawContactForces.value_or(false); }
  void setDrawContactForces(bool b) { myRender.drawContactForces = b; }
  bool getDrawFrictionForces() const { return myRender.drawFrictionForces.value_or(false); }
  void setDrawFrictionForces(bool b) { myRender.drawFrictionForces = b; }
  ColorInterpolation getColorMapInterpolation() const {
    return myRender.colorMapInterpolation.value_or(ColorInterpolation::HSV);
  }
  void setColorMapInterpolation(ColorInterpolation i) { myRender.colorMapInterpolation = i; }
  /// This pair's own colour-map range; none (the default): the manager's,
  /// so that every pair shares one scale.
  const std::optional<ScalarRange>& getColorMapRange() const { return myRender.colorMapRange; }
  void setColorMapRange(const ScalarRange& r) { myRender.colorMapRange = r; }
  void clearColorMapRange() { myRender.colorMapRange.reset(); }
  const ContactRenderOverrides& renderOverrides() const { return myRender; }

 private:
  bool myEnabled = false, myBilateralVertexContact = true, myBilateralSet = false, myReduceConstraints = false;
  bool myMethodSet = false, myVertexPenetrationsSet = false;
  double myFriction = -1, myCompliance = -1, myDamping = -1, myPenetrationTol = -1, myRigidPointTol = -1;
  double myRigidRegionTol = -1, myStictionCreep = -1;
  Method myMethod = Method::Default;
  VertexPenetrations myVertexPenetrations = VertexPenetrations::Auto;
  ColliderType myColliderType = ColliderType::Inherited;
  std::optional<ColorMapType> myColorMap;
  std::shared_ptr<const ContactForceBehavior> myForceBehavior;
  ContactRenderOverrides myRender;
  friend class CollisionManager;  // updates the pair's own colour-map range
};

template <>
struct EnumNames<CollisionBehavior::Method> {
  static const std::vector<std::string>& get();
};
template <>
struct EnumNames<CollisionBehavior::VertexPenetrations> {
  static const std::vector<std::string>& get();
};
template <>
struct EnumNames<CollisionBehavior::ColorMapType> {
  static const std::vector<std::string>& get();
};

}  // namespace sinew
