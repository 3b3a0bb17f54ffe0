// Bullet peer for the peer benchmarks (PeerScene.h): builds one scene in
// Bullet Physics 3.24 (Debian libbullet-dev, double-precision build
// "bullet-float64", compiled with -DBT_USE_DOUBLE_PRECISION), times the
// steps and prints the result line.
//
//   peer_bullet SCENE N H STEPS [MU [bullet|multibody]]
//
// "bullet" (default): maximal coordinates, btDiscreteDynamicsWorld with
// btSequentialImpulseConstraintSolver, btRigidBody links and btHingeConstraint.
// "multibody": reduced coordinates, btMultiBodyDynamicsWorld with
// btMultiBodyConstraintSolver and one btMultiBody of revolute links (engine
// "bullet-multibody"); it only applies to chain and loop, pile and incline
// always run the rigid-body world and print "bullet".
//
// Settings: one stepSimulation(H, 0) per step (exactly one step of H),
// 50 solver iterations, Bullet's default ERP/CFM and split impulse, sleeping
// disabled, multibody damping set to 0 (Bullet defaults to 0.04). Pair
// friction is exactly MU: every body gets friction MU and the combine callback
// takes the minimum (Bullet's default product would give box-box pairs MU²).
// Two friction directions per contact so that friction is isotropic.
#include "PeerScene.h"

#include <btBulletDynamicsCommon.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>
#include <BulletDynamics/Featherstone/btMultiBodyPoint2Point.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace {

constexpr int kIterations = 50;
const btVector3 kAxisY(0, 1, 0);

// Everything one simulation owns. The world is declared last so that it is
// destroyed first: its destructor still touches the bodies' broadphase proxies.
struct Sim {
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher{&config};
  btDbvtBroadphase broadphase;
  std::unique_ptr<btConstraintSolver> solver;
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
  std::vector<std::unique_ptr<btHingeConstraint>> hinges;
  std::unique_ptr<btMultiBody> mb;
  std::vector<std::unique_ptr<btMultiBodyLinkCollider>> colliders;
  std::unique_ptr<btMultiBodyPoint2Point> closure;
  btVector3 closurePoint{0, 0, 0};
  std::unique_ptr<btDiscreteDynamicsWorld> world;

  explicit Sim(bool multibody) {
    if (multibody) {
      auto* s = new btMultiBodyConstraintSolver;
      solver.reset(s);
      world = std::make_unique<btMultiBodyDynamicsWorld>(&dispatcher, &broadphase, s, &config);
    } else {
      solver = std::make_unique<btSequentialImpulseConstraintSolver>();
      world = std::make_unique<btDiscreteDynamicsWorld>(&dispatcher, &broadphase, solver.get(), &config);
    }
    world->setGravity(btVector3(0, 0, -peers::kGravity));
    world->getSolverInfo().m_numIterations = kIterations;
    world->getSolverInfo().m_solverMode |= SOLVER_USE_2_FRICTION_DIRECTIONS;
  }

  btMultiBodyDynamicsWorld* mbWorld() { return static_cast<btMultiBodyDynamicsWorld*>(world.get()); }
};

btScalar minFriction(const btCollisionObject* a, const btCollisionObject* b) {
  return std::min(a->getFriction(), b->getFriction());
}

btTransform pose(const btQuaternion& q, const btVector3& p) { return btTransform(q, p); }

// Adds a body; mass 0 makes it static. mask 0 keeps it out of every contact
// pair, which is how the jointed scenes switch off link-link collisions.
btRigidBody* addBody(Sim& s, btCollisionShape* shape, btScalar mass, const btTransform& tf, btScalar mu,
                     int mask = btBroadphaseProxy::AllFilter) {
  btVector3 inertia(0, 0, 0);
  if (mass > 0) shape->calculateLocalInertia(mass, inertia);
  btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
  info.m_startWorldTransform = tf;
  info.m_friction = mu;
  info.m_restitution = 0;
  s.bodies.emplace_back(new btRigidBody(info));
  btRigidBody* body = s.bodies.back().get();
  body->setActivationState(DISABLE_DEACTIVATION);
  s.world->addRigidBody(body, btBroadphaseProxy::DefaultFilter, mask);
  return body;
}

btCollisionShape* addShape(Sim& s, btCollisionShape* shape) {
  s.shapes.emplace_back(shape);
  return shape;
}

btCollisionShape* linkShape(Sim& s) { return addShape(s, new btBoxShape(btVector3(0.5, 0.05, 0.05))); }

// Ground hinge: the single-body constructor pins pivotA to where it is now.
void groundHinge(Sim& s, btRigidBody* b, const btVector3& pivot) {
  s.hinges.emplace_back(new btHingeConstraint(*b, pivot, kAxisY));
  s.world->addConstraint(s.hinges.back().get());
}

// Hinge from the +x end of a to the −x end of b (every link's local y is world y).
void linkHinge(Sim& s, btRigidBody* a, btRigidBody* b) {
  s.hinges.emplace_back(
      new btHingeConstraint(*a, *b, btVector3(0.5, 0, 0), btVector3(-0.5, 0, 0), kAxisY, kAxisY));
  s.world->addConstraint(s.hinges.back().get());
}

// ---- rigid-body (maximal coordinate) scenes --------------------------------

btRigidBody* buildChainRigid(Sim& s, int n) {
  btCollisionShape* shape = linkShape(s);
  btRigidBody* prev = nullptr;
  for (int i = 0; i < n; ++i) {
    btRigidBody* b = addBody(s, shape, 1, pose(btQuaternion::getIdentity(), btVector3(i + 0.5, 0, 0)), 0, 0);
    if (prev) linkHinge(s, prev, b);
    else groundHinge(s, b, btVector3(-0.5, 0, 0));
    prev = b;
  }
  return prev;
}

btRigidBody* buildLoopRigid(Sim& s, int n) {
  btCollisionShape* shape = linkShape(s);
  // Turning local x about y by +90° points it down, by −90° up.
  const btQuaternion down(kAxisY, M_PI / 2), up(kAxisY, -M_PI / 2);
  btRigidBody* prev = addBody(s, shape, 1, pose(down, btVector3(0, 0, -0.5)), 0, 0);
  groundHinge(s, prev, btVector3(-0.5, 0, 0));
  for (int i = 1; i < n; ++i) {
    const bool last = i == n - 1;
    const btTransform tf = last ? pose(up, btVector3(n - 2, 0, -0.5))
                                : pose(btQuaternion::getIdentity(), btVector3(i - 0.5, 0, -1));
    btRigidBody* b = addBody(s, shape, 1, tf, 0, 0);
    linkHinge(s, prev, b);
    prev = b;
  }
  groundHinge(s, prev, btVector3(0.5, 0, 0));
  return prev;
}

double rigidEnergy(const Sim& s) {
  double e = 0;
  for (const auto& b : s.bodies) {
    const double m = b->getMass();
    if (m == 0) continue;
    const btTransform& tf = b->getCenterOfMassTransform();
    const btVector3 w = tf.getBasis().transpose() * b->getAngularVelocity();  // body frame
    const btVector3 inertia = b->getLocalInertia();
    e += 0.5 * m * b->getLinearVelocity().length2() + 0.5 * (inertia * w * w).dot(btVector3(1, 1, 1)) +
         m * peers::kGravity * tf.getOrigin().z();
  }
  return e;
}

// Largest gap between a hinge's pivot carried by body A and by body B; for a
// ground hinge B is Bullet's fixed body (identity pose, frame at the pin).
double hingeError(const Sim& s) {
  double worst = 0;
  for (const auto& h : s.hinges) {
    const btVector3 a = h->getRigidBodyA().getCenterOfMassTransform() * h->getAFrame().getOrigin();
    const btVector3 b = h->getRigidBodyB().getCenterOfMassTransform() * h->getBFrame().getOrigin();
    worst = std::max(worst, double((a - b).length()));
  }
  return worst;
}

double timeWorld(Sim& s, const peers::Args& a) {
  return peers::timeSteps(a.steps, [&] { s.world->stepSimulation(a.h, 0); });
}

peers::Result runJointedRigid(const peers::Args& a) {
  Sim s(false);
  btRigidBody* last = a.scene == "chain" ? buildChainRigid(s, a.n) : buildLoopRigid(s, a.n);
  const double e0 = rigidEnergy(s);
  peers::Result r;
  r.usPerStep = timeWorld(s, a);
  r.energyDrift = std::abs(rigidEnergy(s) - e0) / (a.n * peers::kGravity);
  r.constraintError = hingeError(s);
  r.result = last->getCenterOfMassPosition().z();
  return r;
}

// The fixed plane as a static 100 × 100 × 2 m box whose top face (local +z)
// passes through the origin. A box rather than btStaticPlaneShape because
// box-box pairs get Bullet's face-clipping detector (all four contacts at
// once); box-plane pairs gather theirs a point or a few at a time, and the
// incline cube then rocks and slides 1.3 % short of the analytic distance.
void addGround(Sim& s, const btQuaternion& q, btScalar mu) {
  btCollisionShape* slab = addShape(s, new btBoxShape(btVector3(50, 50, 1)));
  addBody(s, slab, 0, pose(q, quatRotate(q, btVector3(0, 0, -1))), mu);
}

peers::Result runPile(const peers::Args& a) {
  Sim s(false);
  addGround(s, btQuaternion::getIdentity(), a.mu);
  btCollisionShape* box = addShape(s, new btBoxShape(btVector3(0.5, 0.5, 0.5)));
  const btVector3 axis = btVector3(1, 1, 0).normalized();
  for (int k = 0; k < a.n; ++k) {
    const int i = k % 9;
    const btVector3 p(1.5 * (i % 3 - 1), 1.5 * (i / 3 - 1), 1 + 1.5 * (k / 9));
    addBody(s, box, 1, pose(btQuaternion(axis, 0.05 * (k % 5 + 1)), p), a.mu);
  }
  peers::Result r;
  r.usPerStep = timeWorld(s, a);
  double fastest = 0;
  for (const auto& b : s.bodies) fastest = std::max(fastest, double(b->getLinearVelocity().length()));
  r.result = fastest;
  return r;
}

peers::Result runIncline(const peers::Args& a) {
  Sim s(false);
  const double t = peers::kInclineAngle;
  const btVector3 normal(std::sin(t), 0, std::cos(t)), downhill(std::cos(t), 0, -std::sin(t));
  addGround(s, btQuaternion(kAxisY, t), a.mu);
  btCollisionShape* cube = addShape(s, new btBoxShape(btVector3(0.1, 0.1, 0.1)));
  const btVector3 start = 0.1 * normal;
  btRigidBody* b = addBody(s, cube, 1, pose(btQuaternion(kAxisY, t), start), a.mu);
  peers::Result r;
  r.usPerStep = timeWorld(s, a);
  r.result = (b->getCenterOfMassPosition() - start).dot(downhill);
  return r;
}

// ---- multibody (reduced coordinate) scenes ---------------------------------

// N revolute links about y on a fixed base at the origin; in the zero pose
// every link lies along +x, so joint i sits at (i, 0, 0).
btMultiBody* buildMultiBodyChain(Sim& s, int n) {
  s.mb.reset(new btMultiBody(n, 0, btVector3(0, 0, 0), true, false));
  btMultiBody* mb = s.mb.get();
  mb->setBasePos(btVector3(0, 0, 0));
  btVector3 inertia;
  btBoxShape(btVector3(0.5, 0.05, 0.05)).calculateLocalInertia(1, inertia);
  const btVector3 halfLink(0.5, 0, 0);
  for (int i = 0; i < n; ++i) {
    const btVector3 fromParent = i == 0 ? btVector3(0, 0, 0) : halfLink;
    mb->setupRevolute(i, 1, inertia, i - 1, btQuaternion::getIdentity(), kAxisY, fromParent, halfLink, true);
  }
  mb->finalizeMultiDof();
  mb->setLinearDamping(0);
  mb->setAngularDamping(0);
  mb->setHasSelfCollision(false);
  mb->setCanSleep(false);
  return mb;
}

// Adds the posed multibody to the world. Each link gets a collider that
// collides with nothing (mask 0): without colliders the links belong to no
// simulation island and Bullet 3.24 never solves the loop's closure constraint.
void addMultiBody(Sim& s) {
  btMultiBody* mb = s.mb.get();
  btCollisionShape* shape = linkShape(s);
  for (int i = 0; i < mb->getNumLinks(); ++i) {
    s.colliders.emplace_back(new btMultiBodyLinkCollider(mb, i));
    btMultiBodyLinkCollider* col = s.colliders.back().get();
    col->setCollisionShape(shape);
    col->setActivationState(DISABLE_DEACTIVATION);
    mb->getLink(i).m_collider = col;
  }
  btAlignedObjectArray<btQuaternion> rot;
  btAlignedObjectArray<btVector3> origin;
  mb->updateCollisionObjectWorldTransforms(rot, origin);  // poses before the broadphase sees them
  for (auto& col : s.colliders) s.world->addCollisionObject(col.get(), btBroadphaseProxy::DefaultFilter, 0);
  s.mbWorld()->addMultiBody(mb);
}

// The U as a tree from the first ground hinge, closed by a point-to-point
// constraint pinning the last link's free (+x) end to (N − 2, 0, 0).
void buildMultiBodyLoop(Sim& s, int n) {
  btMultiBody* mb = buildMultiBodyChain(s, n);
  mb->setJointPos(0, M_PI / 2);       // link 0 hangs down
  mb->setJointPos(1, -M_PI / 2);      // link 1 level again
  mb->setJointPos(n - 1, -M_PI / 2);  // last link points up
  addMultiBody(s);
  s.closurePoint = btVector3(n - 2, 0, 0);
  s.closure.reset(new btMultiBodyPoint2Point(mb, n - 1, nullptr, btVector3(0.5, 0, 0), s.closurePoint));
  s.mbWorld()->addMultiBodyConstraint(s.closure.get());
}

// Kinetic energy from the link velocities in each link's own frame (centre of
// mass origin, so ½mv² + ½ωᵀIω needs no rotation); height from the link pose.
double multiBodyEnergy(const btMultiBody& mb) {
  const int n = mb.getNumLinks();
  std::vector<btVector3> omega(n + 1), vel(n + 1);
  mb.compTreeLinkVelocities(omega.data(), vel.data());
  double e = 0;
  for (int i = 0; i < n; ++i) {
    const double m = mb.getLinkMass(i);
    const btVector3& w = omega[i + 1];
    e += 0.5 * m * vel[i + 1].length2() + 0.5 * (mb.getLinkInertia(i) * w * w).dot(btVector3(1, 1, 1)) +
         m * peers::kGravity * mb.localPosToWorld(i, btVector3(0, 0, 0)).z();
  }
  return e;
}

peers::Result runMultiBody(const peers::Args& a) {
  Sim s(true);
  if (a.scene == "chain") {
    buildMultiBodyChain(s, a.n);
    addMultiBody(s);
  } else {
    buildMultiBodyLoop(s, a.n);
  }
  const btMultiBody& mb = *s.mb;
  const double e0 = multiBodyEnergy(mb);
  peers::Result r;
  r.usPerStep = timeWorld(s, a);
  r.energyDrift = std::abs(multiBodyEnergy(mb) - e0) / (a.n * peers::kGravity);
  r.constraintError = 0;
  if (s.closure) r.constraintError = (mb.localPosToWorld(a.n - 1, btVector3(0.5, 0, 0)) - s.closurePoint).length();
  r.result = mb.localPosToWorld(a.n - 1, btVector3(0, 0, 0)).z();
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const peers::Args args = peers::parseArgs(argc, argv);
  const std::string engine = argc > 6 ? argv[6] : "bullet";
  if (engine != "bullet" && engine != "multibody") {
    std::fprintf(stderr, "unknown engine %s (bullet|multibody)\n", engine.c_str());
    return 2;
  }
  gCalculateCombinedFrictionCallback = minFriction;
  const bool jointed = args.scene == "chain" || args.scene == "loop";
  if (jointed && args.n < (args.scene == "loop" ? 3 : 1)) {
    std::fprintf(stderr, "%s needs more links\n", args.scene.c_str());
    return 2;
  }
  if (jointed && engine == "multibody") {
    peers::print("bullet-multibody", args, runMultiBody(args));
  } else if (jointed) {
    peers::print("bullet", args, runJointedRigid(args));
  } else if (args.scene == "pile") {
    peers::print("bullet", args, runPile(args));
  } else if (args.scene == "incline") {
    peers::print("bullet", args, runIncline(args));
  } else {
    std::fprintf(stderr, "unknown scene %s\n", args.scene.c_str());
    return 2;
  }
  return 0;
}
