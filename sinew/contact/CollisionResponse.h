// CollisionResponse (guide §8.8.1–8.8.2): what the contacts between one
// collidable and another — or a group of them (Collidable::Rigid, …) —
// were in the last step, for monitors and output: whether they touch, each
// contact's points, normal and forces, and the forces and pressures on the
// colliding vertices. Create one with MechModel::setCollisionResponse(a, b)
// before running and query it from a monitor (demos/ContactForceMonitor).
//
// As the guide says, the information lags the simulation by part of a
// step: the contacts are those detected at the end of step i − 1, their
// forces those the solve of step i found.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sinew/math/Spatial.h"
#include "sinew/mech/Collidable.h"
#include "sinew/model/Component.h"

namespace sinew {

class CollisionManager;
struct ContactPoint;

/// One contact of a response, seen from its first collidable (index 0).
struct ContactData {
  Component* collidable0 = nullptr;  ///< the response's first collidable (or its mesh)
  Component* collidable1 = nullptr;  ///< the body it touches (a member of the group, for a group response)
  Vector3d position0 = Vector3d::Zero();  ///< the contact point on collidable 0
  Vector3d position1 = Vector3d::Zero();  ///< the contact point on collidable 1
  Vector3d normal = Vector3d::Zero();     ///< unit, from collidable 1 toward collidable 0
  double depth = 0;                       ///< penetration (negative: a point watched just outside)
  Vector3d contactForce = Vector3d::Zero();   ///< the normal force on collidable 0
  Vector3d frictionForce = Vector3d::Zero();  ///< the friction force on collidable 0
  double pressure = 0;  ///< normal force over the vertex's area
  /// The penetrating vertex of collidable 0's or 1's collision mesh (the
  /// other is −1): vertex penetration makes each contact a vertex of one
  /// mesh inside the other.
  int vertex0 = -1, vertex1 = -1;
  const Vector3d& getPosition0() const { return position0; }
  const Vector3d& getPosition1() const { return position1; }
  const Vector3d& getNormal() const { return normal; }
  const Vector3d& getContactForce() const { return contactForce; }
  const Vector3d& getFrictionForce() const { return frictionForce; }
};

/// A penetration region (§8.8.1; AJL_CONTOUR only): the part of one
/// collidable's collision mesh inside the other's, bounded by intersection
/// contours.
struct PenetrationRegion {
  Component* collidable = nullptr;  ///< whose mesh the region lies on
  Component* other = nullptr;       ///< the collidable it penetrates
  std::vector<int> vertices;        ///< the mesh's vertices inside the other
  /// Each vertex's penetration depth: its distance to the other's surface
  /// (the data of a PENETRATION_DEPTH colour map, §8.5).
  std::vector<double> depths;
  double maxDepth = 0;  ///< the largest of depths
  /// The bounding contours, in world coordinates, each a closed polyline
  /// (the last point joins the first) running positively about the first
  /// collidable of the pair's outward normal.
  std::vector<std::vector<Vector3d>> contours;
  double area = 0;  ///< the area the contours enclose (the norm of their vector area)
};

class CollisionBehavior;

/// One active collision of a response (§8.8.2): a pair of collidables in
/// contact — two bodies, or two meshes of one FEM model in self-collision
/// — with the behaviour it collides under and its contacts and penetration
/// regions, seen from collidable 0 (the response's first collidable, or
/// its part). It holds what ArtiSynth's CollisionHandler maintains for the
/// pair, as data: Sinew's contact rows live in the CollisionManager.
struct CollisionHandler {
  Component* collidable0 = nullptr;
  Component* collidable1 = nullptr;
  const CollisionBehavior* behavior = nullptr;
  std::vector<ContactData> contacts;        ///< as getContactData() gives them
  std::vector<PenetrationRegion> regions0;  ///< on collidable 0 (AJL_CONTOUR only)
  std::vector<PenetrationRegion> regions1;  ///< on collidable 1
  Component* getCollidable(int cidx) const { return cidx == 0 ? collidable0 : collidable1; }
  const CollisionBehavior* getBehavior() const { return behavior; }
  int numContacts() const { return static_cast<int>(contacts.size()); }
};

class CollisionResponse : public Component {
 public:
  explicit CollisionResponse(std::string name = {}) : Component(std::move(name)) {}

  Component* getCollidable0() const { return myA; }
  /// The second collidable, or null for a group response.
  Component* getCollidable1() const { return myB; }
  Collidable::Group getGroup() const { return myGroup; }

  /// Whether the collidables touch: a contact penetrates or carries force.
  bool inContact() const;
  /// The contacts of the last step that penetrate or carry force.
  std::vector<ContactData> getContactData() const;
  /// Forces on the vertices of collidable `cidx` (0 or 1) that penetrate
  /// the other, by vertex index of its collision mesh: normal plus
  /// friction, as acting on that collidable. The other side of each
  /// contact (a point on a face) is in getContactData().
  std::map<int, Vector3d> getContactForces(int cidx) const;
  /// Pressures at those vertices.
  std::map<int, double> getContactPressures(int cidx) const;
  /// The penetration regions on collidable `cidx` (0 or 1) of the last
  /// detection; empty unless the pair uses the AJL_CONTOUR collider.
  std::vector<PenetrationRegion> getPenetrationRegions(int cidx) const;
  /// One handler per pair of collidables of this response that is in
  /// contact (a contact penetrates or carries force), in the order their
  /// first contacts were found.
  std::vector<CollisionHandler> getHandlers() const;

 private:
  friend class CollisionManager;
  /// Whether the contact is between this response's collidables, and
  /// whether its penetrating side is collidable 1.
  bool matches(const ContactPoint& c, bool& flipped) const;
  /// Whether collidables x and y are this response's, in either order.
  bool matches(const Component* x, const Component* y, bool& flipped) const;
  /// matches(), for a contact that penetrates or carries force.
  bool reports(const ContactPoint& c, bool& flipped) const;
  ContactData toData(const ContactPoint& c, bool flipped) const;
  void requireIndex(int cidx) const;

  const CollisionManager* myManager = nullptr;
  Component* myA = nullptr;
  Component* myB = nullptr;
  Collidable::Group myGroup = Collidable::Group::All;
};

}  // namespace sinew
