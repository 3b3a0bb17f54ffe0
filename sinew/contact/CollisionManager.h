// CollisionManager: the MechModel's collision handling (guide §8.1, §8.2,
// §8.4, §8.8). It keeps the collision behaviours (pairs, pairs with a group,
// and the defaults between groups, with the priorities of §8.1.2), finds
// the contacts of every enabled pair of rigid bodies at the current
// configuration, and supplies them to the solver as a Constrainer:
// unilateral rows along the contact normals and, where friction is set,
// two box-friction rows per contact bounded by μ times the normal impulse
// (§8.9.4).
//
// Contacts come from vertex penetration (§8.4.1.2): each vertex of one
// body's collision mesh inside the other's gives a contact with the normal
// toward the nearest point of the other surface and the distance to it as
// depth. Between two rigid bodies the vertices of both are tested, in place
// of the guide's contour-region default, which is not built yet. A contact
// holds a penetration of up to penetrationTol (§8.9.1) and pushes out what
// is deeper; vertices outside, up to penetrationTol plus the distance the
// pair can close within the step, are watched too, so that an arriving body
// is stopped at the surface within the step it reaches it.
// FEM collidables are not built yet.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "sinew/contact/CollisionBehavior.h"
#include "sinew/geometry/TriangleBVTree.h"
#include "sinew/mech/Collidable.h"
#include "sinew/mech/DynamicComponent.h"
#include "sinew/model/Component.h"

namespace sinew {

class MechModel;
class RigidBody;

/// One contact of the last detection (§8.8.2), in world coordinates.
struct ContactPoint {
  RigidBody* bodyA = nullptr;  ///< owns the penetrating vertex
  RigidBody* bodyB = nullptr;  ///< the body it penetrates
  Vector3d position = Vector3d::Zero();  ///< the vertex
  Vector3d normal = Vector3d::Zero();    ///< unit, from B toward A
  double depth = 0;  ///< penetration distance; negative: a vertex just outside (speculative)
  double mu = 0;                         ///< friction coefficient
  double normalForce = 0;                ///< on A along `normal`, from the last solve
  Vector3d frictionForce = Vector3d::Zero();  ///< on A, from the last solve
  Vector3d frictionDirs[2] = {Vector3d::Zero(), Vector3d::Zero()};  ///< box-friction directions
  double vertexArea = 0;  ///< a third of the area of the faces around the vertex
  double pressure = 0;    ///< normalForce over the vertex's area (halved two-way)
  bool twoWay = false;    ///< vertices of both bodies are tested (§8.7.2.1)
  const CollisionBehavior* behavior = nullptr;  ///< the behaviour that governs it
};

class CollisionManager : public CompositeComponent, public Constrainer {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit CollisionManager(MechModel& mech);
  ~CollisionManager() override;

  // Behaviours (§8.1.1, §8.1.2)
  CollisionBehavior& setBehavior(Component& a, Component& b, std::unique_ptr<CollisionBehavior> behav);
  CollisionBehavior& setBehavior(Component& a, Collidable::Group g, std::unique_ptr<CollisionBehavior> behav);
  CollisionBehavior* getBehavior(Component& a, Component& b) const;
  CollisionBehavior* getBehavior(Component& a, Collidable::Group g) const;
  bool clearBehavior(Component& a, Component& b);
  void clearBehaviors();
  void setDefaultBehavior(Collidable::Group g0, Collidable::Group g1, const CollisionBehavior& behav);
  /// Rigid, Deformable or Self only (§8.1.2); ModelError otherwise.
  CollisionBehavior& getDefaultBehavior(Collidable::Group g0, Collidable::Group g1) const;
  /// The behaviour that governs two specific bodies, or null if none is
  /// enabled for them.
  const CollisionBehavior* getActingBehavior(Component& a, Component& b) const;
  ComponentList<CollisionBehavior>& behaviors() { return *myBehaviors; }

  // Global settings that behaviours inherit (§8.2.1)
  double getFriction() const { return myFriction; }
  void setFriction(double mu);
  double getCompliance() const { return myCompliance; }
  void setCompliance(double c);
  double getDamping() const { return myDamping; }
  void setDamping(double d);

  /// The contacts found by the last detection, with their forces from the
  /// last solve (§8.8).
  const std::vector<ContactPoint>& getContacts() const { return myReported; }
  /// Total force on `body` from its contacts in the last solve.
  Vector3d getContactForce(const RigidBody& body) const;
  /// Runs detection at the current configuration (the solver does so
  /// whenever it builds rows), watching what can come into contact within
  /// a step h.
  void updateContacts(double h = 0);

  // Constrainer
  void getUnilateralConstraints(ConstraintBuilder& N) override;
  void getFrictionConstraints(ConstraintBuilder& D, std::vector<FrictionLimit>& limits) override;
  void setConstraintForces(const double* bilateral, const double* unilateral) override;
  void setFrictionForces(const double* friction) override;
  double getMaxHardError() override;

 private:
  struct PairEntry {
    Component* a;
    Component* b;  ///< null when the entry names a group
    Collidable::Group group;
    CollisionBehavior* behav;
  };
  struct BodyGeometry;
  const BodyGeometry* geometryOf(RigidBody& body);
  void detectPair(RigidBody& a, RigidBody& b, const CollisionBehavior& behav, double reach);
  void detectVertices(RigidBody& a, RigidBody& b, double mu, double margin, double eps);
  std::vector<RigidBody*> collidableBodies() const;
  CollisionBehavior& addBehavior(std::unique_ptr<CollisionBehavior> behav);
  double penetrationTol(const CollisionBehavior& b) const;
  /// Compliant or governed by a force law: acts only on penetration and is
  /// not corrected by position stabilization.
  bool isSoft(const CollisionBehavior& b) const;
  double resolved(double own, double inherited) const { return own >= 0 ? own : inherited; }
  static int groupIndex(Collidable::Group g);

  MechModel& myMech;
  ComponentList<CollisionBehavior>* myBehaviors;
  std::vector<PairEntry> myPairs;
  std::unique_ptr<CollisionBehavior> myDefaults[3][3];  ///< Rigid, Deformable, Self
  double myFriction = 0, myCompliance = 0, myDamping = 0;
  std::map<const RigidBody*, std::unique_ptr<BodyGeometry>> myGeometry;
  std::vector<ContactPoint> myContacts;  ///< of the last detection
  std::vector<ContactPoint> myReported;  ///< of the last velocity solve, with forces
  std::vector<int> myRowContact;  ///< contact of each unilateral row of the last build
  std::vector<int> myFrictionContact;
};

}  // namespace sinew
