// MechModel's collision methods (guide §8.1, §8.2, §8.9.1), defined here so
// that mech/ does not depend on contact/ (DESIGN §3).
#include <cmath>

#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/contact/CollisionResponse.h"
#include "sinew/mech/MechModel.h"
#include "sinew/mech/Point.h"

namespace sinew {

CollisionManager& MechModel::getCollisionManager() {
  if (!myCollisionManager)
    myCollisionManager = &static_cast<CollisionManager&>(addComponent(std::make_unique<CollisionManager>(*this)));
  return *myCollisionManager;
}

CollisionBehavior& MechModel::setCollisionBehavior(Component& a, Component& b, bool enabled, double mu) {
  return getCollisionManager().setBehavior(a, b, std::make_unique<CollisionBehavior>(enabled, mu));
}

CollisionBehavior& MechModel::setCollisionBehavior(Component& a, Component& b,
                                                   std::unique_ptr<CollisionBehavior> behav) {
  return getCollisionManager().setBehavior(a, b, std::move(behav));
}

CollisionBehavior& MechModel::setCollisionBehavior(Component& a, Collidable::Group g, bool enabled, double mu) {
  return getCollisionManager().setBehavior(a, g, std::make_unique<CollisionBehavior>(enabled, mu));
}

CollisionBehavior& MechModel::setCollisionBehavior(Component& a, Collidable::Group g,
                                                   std::unique_ptr<CollisionBehavior> behav) {
  return getCollisionManager().setBehavior(a, g, std::move(behav));
}

CollisionBehavior* MechModel::getCollisionBehavior(Component& a, Component& b) {
  return getCollisionManager().getBehavior(a, b);
}

CollisionBehavior* MechModel::getCollisionBehavior(Component& a, Collidable::Group g) {
  return getCollisionManager().getBehavior(a, g);
}

bool MechModel::clearCollisionBehavior(Component& a, Component& b) {
  return getCollisionManager().clearBehavior(a, b);
}

void MechModel::clearCollisionBehaviors() { getCollisionManager().clearBehaviors(); }

void MechModel::setDefaultCollisionBehavior(bool enabled, double mu) {
  setDefaultCollisionBehavior(CollisionBehavior(enabled, mu));
}

void MechModel::setDefaultCollisionBehavior(const CollisionBehavior& behav) {
  getCollisionManager().setDefaultBehavior(Collidable::All, Collidable::All, behav);
}

void MechModel::setDefaultCollisionBehavior(Collidable::Group g0, Collidable::Group g1, bool enabled, double mu) {
  setDefaultCollisionBehavior(g0, g1, CollisionBehavior(enabled, mu));
}

void MechModel::setDefaultCollisionBehavior(Collidable::Group g0, Collidable::Group g1,
                                            const CollisionBehavior& behav) {
  getCollisionManager().setDefaultBehavior(g0, g1, behav);
}

CollisionBehavior& MechModel::getDefaultCollisionBehavior(Collidable::Group g0, Collidable::Group g1) {
  return getCollisionManager().getDefaultBehavior(g0, g1);
}

const CollisionBehavior* MechModel::getActingCollisionBehavior(Component& a, Component& b) {
  return getCollisionManager().getActingBehavior(a, b);
}

CollisionResponse& MechModel::setCollisionResponse(Component& a, Component& b) {
  return getCollisionManager().setResponse(a, b, std::make_unique<CollisionResponse>());
}

CollisionResponse& MechModel::setCollisionResponse(Component& a, Component& b,
                                                   std::unique_ptr<CollisionResponse> resp) {
  return getCollisionManager().setResponse(a, b, std::move(resp));
}

CollisionResponse& MechModel::setCollisionResponse(Component& a, Collidable::Group g) {
  return getCollisionManager().setResponse(a, g, std::make_unique<CollisionResponse>());
}

CollisionResponse& MechModel::setCollisionResponse(Component& a, Collidable::Group g,
                                                   std::unique_ptr<CollisionResponse> resp) {
  return getCollisionManager().setResponse(a, g, std::move(resp));
}

CollisionResponse* MechModel::getCollisionResponse(Component& a, Component& b) {
  return getCollisionManager().getResponse(a, b);
}

CollisionResponse* MechModel::getCollisionResponse(Component& a, Collidable::Group g) {
  return getCollisionManager().getResponse(a, g);
}

bool MechModel::clearCollisionResponse(Component& a, Component& b) {
  return getCollisionManager().clearResponse(a, b);
}

bool MechModel::clearCollisionResponse(Component& a, Collidable::Group g) {
  return getCollisionManager().clearResponse(a, g);
}

void MechModel::clearCollisionResponses() { getCollisionManager().clearResponses(); }

void MechModel::setFriction(double mu) { getCollisionManager().setFriction(mu); }
double MechModel::getFriction() { return getCollisionManager().getFriction(); }

void MechModel::setPenetrationTol(double tol) {
  if (!(tol >= 0) || !std::isfinite(tol)) throw ModelError("penetrationTol must be non-negative and finite", describe());
  myPenetrationTol = tol;
}

namespace {
void extendBounds(const Component& c, Eigen::AlignedBox3d& box) {
  if (auto* body = dynamic_cast<const RigidBody*>(&c)) {
    const RigidTransform3d T = body->getPose();
    for (auto& mc : const_cast<RigidBody*>(body)->meshes())
      if (mc.getMesh())
        for (int i = 0; i < mc.getMesh()->numVertices(); ++i) box.extend(T.transformPoint(mc.getMesh()->getVertex(i)));
  }
  if (auto* p = dynamic_cast<const Point*>(&c)) box.extend(p->getPosition());  // FEM nodes, particles
  if (auto* cc = dynamic_cast<const CompositeComponent*>(&c))
    for (int i = 0; i < cc->numComponents(); ++i) extendBounds(*cc->getComponent(i), box);
}
}  // namespace

double MechModel::getPenetrationTol() const {
  if (myPenetrationTol >= 0) return myPenetrationTol;  // set, or computed before
  Eigen::AlignedBox3d box;
  extendBounds(*this, box);
  const double radius = box.isEmpty() ? 0.0 : 0.5 * box.diagonal().norm();
  myPenetrationTol = radius > 0 ? 1e-4 * radius : 1e-4;
  return myPenetrationTol;
}

}  // namespace sinew
