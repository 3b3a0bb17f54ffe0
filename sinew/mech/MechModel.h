// MechModel: the container and simulator of a mechanical model (guide
// §1.1.5, §3.1–3.6, §4.1, §4.8).
//
// It holds the predefined component lists (named as ArtiSynth names them, so
// paths match), the simulation properties (gravity, integrator,
// stabilization, damping defaults that its descendants inherit) and runs the
// step pipeline of MechSystemSolver. Any arrangement of components works:
// the model compiles whatever dynamic components, force effectors and
// constrainers lie anywhere below it (§4.8).
#pragma once

#include <memory>

#include "sinew/mech/Attachments.h"
#include "sinew/mech/PointAttachable.h"
#include "sinew/mech/AxialSpring.h"
#include "sinew/mech/FrameSpring.h"
#include "sinew/mech/ParticlePlaneConstraint.h"
#include "sinew/mech/RigidBody.h"
#include "sinew/mech/Collidable.h"
#include "sinew/mech/MechSystemBase.h"

namespace sinew {

class CollisionManager;
class CollisionBehavior;
class CollisionResponse;

class MechModel : public MechSystemBase {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit MechModel(std::string name = {});
  ~MechModel() override;

  // Predefined containers (§1.1.5)
  ComponentList<Model>& models() { return *myModels; }
  ComponentList<Particle>& particles() { return *myParticles; }
  ComponentList<Point>& points() { return *myPoints; }
  ComponentList<RigidBody>& rigidBodies() { return *myRigidBodies; }
  ComponentList<Frame>& frames() { return *myFrames; }
  ComponentList<FrameMarker>& frameMarkers() { return *myFrameMarkers; }
  ComponentList<AxialSpring>& axialSprings() { return *myAxialSprings; }
  ComponentList<FrameSpring>& frameSprings() { return *myFrameSprings; }
  ComponentList<Component>& forceEffectors() { return *myForceEffectors; }
  ComponentList<Component>& particleConstraints() { return *myParticleConstraints; }
  ComponentList<Component>& bodyConnectors() { return *myBodyConnectors; }
  ComponentList<AttachmentComponent>& attachments() { return *myAttachments; }

  // Add helpers; each returns a reference to the added component.
  /// Adds a sub-model (e.g. a FemModel3d) whose components join this
  /// model's system (`mech.addModel(fem)`, §6.1).
  template <class M>
  M& addModel(std::unique_ptr<M> m) {
    return static_cast<M&>(myModels->add(std::move(m)));
  }
  Particle& addParticle(std::unique_ptr<Particle> p) { return myParticles->add(std::move(p)); }
  Particle& addParticle(const std::string& name, double mass, double x, double y, double z);
  Point& addPoint(std::unique_ptr<Point> p) { return myPoints->add(std::move(p)); }
  RigidBody& addRigidBody(std::unique_ptr<RigidBody> b) { return myRigidBodies->add(std::move(b)); }
  Frame& addFrame(std::unique_ptr<Frame> f) { return myFrames->add(std::move(f)); }
  FrameMarker& addFrameMarker(std::unique_ptr<FrameMarker> m) { return myFrameMarkers->add(std::move(m)); }
  /// A marker on `frame` at body location `loc`.
  FrameMarker& addFrameMarker(Frame& frame, const Vector3d& loc, const std::string& name = {});
  /// A marker on `frame` at world position `posW`.
  FrameMarker& addFrameMarkerWorld(Frame& frame, const Vector3d& posW, const std::string& name = {});
  template <class S>
  S& addAxialSpring(std::unique_ptr<S> s) { return static_cast<S&>(myAxialSprings->add(std::move(s))); }
  /// Sets the spring's points and adds it.
  template <class S>
  S& attachAxialSpring(Point& p0, Point& p1, std::unique_ptr<S> s) {
    s->setPoints(p0, p1);
    return addAxialSpring(std::move(s));
  }
  /// Adds a frame spring (guide §3.5.3); set its frames before the first step.
  FrameSpring& addFrameSpring(std::unique_ptr<FrameSpring> s) { return myFrameSprings->add(std::move(s)); }
  /// Adds any component that is a force effector.
  Component& addForceEffector(std::unique_ptr<Component> c);
  /// Adds a joint or connector (guide §3.3.3) to `bodyConnectors`.
  template <class C>
  C& addBodyConnector(std::unique_ptr<C> c) {
    return static_cast<C&>(myBodyConnectors->addComponent(std::move(c)));
  }
  template <class C>
  C& addParticleConstraint(std::unique_ptr<C> c) {
    return static_cast<C&>(myParticleConstraints->addComponent(std::move(c)));
  }

  // Attachments (§3.6)
  /// Attaches point p to a particle/point or to a frame at p's current position.
  /// Adds an attachment built elsewhere (e.g. FemModel3d::createPointAttachment)
  /// and connects its slave (`mech.addAttachment(a)`, §3.6, §6.4.3).
  AttachmentComponent& addAttachment(std::unique_ptr<AttachmentComponent> a);
  AttachmentComponent& attachPoint(Point& p, Point& master);
  AttachmentComponent& attachPoint(Point& p, Frame& master);
  AttachmentComponent& attachPoint(Point& p, Frame& master, const Vector3d& loc);
  /// Attaches p at its current position to an FEM model (its containing
  /// element, or the nearest point of its surface) or to an FEM element
  /// (§6.4.3).
  AttachmentComponent& attachPoint(Point& p, PointAttachable& master);
  /// Attaches frame f at its current pose to a frame, rigid body, FEM model
  /// or FEM element (any FrameAttachable, §3.6.3, §6.6).
  AttachmentComponent& attachFrame(Frame& f, FrameAttachable& master);
  /// Sets f's pose to TFW, then attaches it to master.
  AttachmentComponent& attachFrame(Frame& f, FrameAttachable& master, const RigidTransform3d& TFW);
  /// Removes the attachment of p (or f); returns false if it had none.
  bool detachPoint(Point& p) { return detachSlave(p); }
  bool detachFrame(Frame& f) { return detachSlave(f); }

  // Collisions (guide Ch. 8; sinew/contact/MechModelCollisions.cpp). The
  // collision manager is created on first use as the child
  // `collisionManager`. `mu` < 0 leaves friction inherited (setFriction).
  CollisionManager& getCollisionManager();
  /// The collision manager if one has been created, else null.
  CollisionManager* findCollisionManager() const { return myCollisionManager; }
  CollisionBehavior& setCollisionBehavior(Component& a, Component& b, bool enabled, double mu = -1);
  CollisionBehavior& setCollisionBehavior(Component& a, Component& b, std::unique_ptr<CollisionBehavior> behav);
  CollisionBehavior& setCollisionBehavior(Component& a, Collidable::Group g, bool enabled, double mu = -1);
  CollisionBehavior& setCollisionBehavior(Component& a, Collidable::Group g, std::unique_ptr<CollisionBehavior> behav);
  /// The behaviour set for exactly this pair (or body and group), else null.
  CollisionBehavior* getCollisionBehavior(Component& a, Component& b);
  CollisionBehavior* getCollisionBehavior(Component& a, Collidable::Group g);
  bool clearCollisionBehavior(Component& a, Component& b);
  void clearCollisionBehaviors();
  void setDefaultCollisionBehavior(bool enabled, double mu);
  void setDefaultCollisionBehavior(const CollisionBehavior& behav);
  void setDefaultCollisionBehavior(Collidable::Group g0, Collidable::Group g1, bool enabled, double mu);
  void setDefaultCollisionBehavior(Collidable::Group g0, Collidable::Group g1, const CollisionBehavior& behav);
  CollisionBehavior& getDefaultCollisionBehavior(Collidable::Group g0, Collidable::Group g1);
  /// The behaviour governing two bodies, or null if they do not collide.
  const CollisionBehavior* getActingCollisionBehavior(Component& a, Component& b);
  // Collision responses (§8.8.1): the contacts between a and b (or a group).
  CollisionResponse& setCollisionResponse(Component& a, Component& b);
  CollisionResponse& setCollisionResponse(Component& a, Component& b, std::unique_ptr<CollisionResponse> resp);
  CollisionResponse& setCollisionResponse(Component& a, Collidable::Group g);
  CollisionResponse& setCollisionResponse(Component& a, Collidable::Group g, std::unique_ptr<CollisionResponse> resp);
  CollisionResponse* getCollisionResponse(Component& a, Component& b);
  CollisionResponse* getCollisionResponse(Component& a, Collidable::Group g);
  bool clearCollisionResponse(Component& a, Component& b);
  bool clearCollisionResponse(Component& a, Collidable::Group g);
  void clearCollisionResponses();
  /// The friction coefficient behaviours inherit (the manager's).
  void setFriction(double mu);
  double getFriction();
  /// Interpenetration kept for stable contact (§8.9.1). Unless set, 1e-4
  /// of the model's radius (half the diagonal of the bounding box of its
  /// rigid bodies' meshes), computed when first asked.
  void setPenetrationTol(double tol);
  double getPenetrationTol() const;

 protected:
  void checkForceEffectors(const std::vector<ForceEffector*>& effs) const override;

 private:
  bool detachSlave(DynamicComponent& slave);

  ComponentList<Model>* myModels;
  ComponentList<Particle>* myParticles;
  ComponentList<Point>* myPoints;
  ComponentList<RigidBody>* myRigidBodies;
  ComponentList<Frame>* myFrames;
  ComponentList<FrameMarker>* myFrameMarkers;
  ComponentList<AxialSpring>* myAxialSprings;
  ComponentList<FrameSpring>* myFrameSprings;
  ComponentList<Component>* myForceEffectors;
  ComponentList<Component>* myParticleConstraints;
  ComponentList<Component>* myBodyConnectors;
  ComponentList<AttachmentComponent>* myAttachments;
  CollisionManager* myCollisionManager = nullptr;
  mutable double myPenetrationTol = -1;  ///< < 0: not set nor computed yet
};

}  // namespace sinew
