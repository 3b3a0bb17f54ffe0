// The DART peer of the benchmarks (bench/peers/PeerScene.h): builds one of the
// four peer scenes in DART 6.12 (Debian libdart-dev), times the stepping and
// prints the result line.
//
//   peer_dart SCENE N H STEPS [MU]
//
// Settings: one World::step() of H per step; DART's default constraint solver
// (BoxedLcpConstraintSolver: Dantzig boxed LCP, PGS as fallback) with its
// default ERP/CFM. The links of chain and loop are one Skeleton of revolute
// joints (generalized coordinates, Featherstone articulated-body dynamics);
// the loop is closed by a BallJointConstraint to the world. Their box shapes
// carry no collision aspect (self-collision is off as well), so no collision
// work is timed for them, as in the other engines' jointed scenes.
//
// Contacts (pile, incline) use DART's own collision detector
// (DARTCollisionDetector: ODE-derived box-box clipping, up to 4 points per
// pair); the ground is a large welded box whose top face is the plane, since
// that detector has no box-plane test. DART combines a pair's friction as the
// minimum of the two shapes' coefficients (ContactConstraint.cpp) and
// restitution as their product (0 here); friction is a pyramid, two tangent
// directions each bounded by μ times the normal impulse. (The default FCL
// detector let the cube creep 0.6 mm at μ = 0.7 in 1 s; this one 5 µm.)
//
// Build: pkg-config's Cflags for dart carry -std=c++11, too old for the
// headers, so -std=c++17 has to come after them on the command line.

// Only the headers used: <dart/dart.hpp> pulls in IkFast.hpp, whose
// dart/external/ikfast/ikfast.h Debian ships in a package libdart-dev lacks.
#include <dart/collision/dart/DARTCollisionDetector.hpp>
#include <dart/constraint/BallJointConstraint.hpp>
#include <dart/constraint/ConstraintSolver.hpp>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/BoxShape.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/RevoluteJoint.hpp>
#include <dart/dynamics/ShapeNode.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/dynamics/WeldJoint.hpp>
#include <dart/simulation/World.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "PeerScene.h"

namespace {

using namespace dart::dynamics;
using dart::simulation::WorldPtr;

constexpr double kPileMu = 0.5;
const Eigen::Vector3d kLinkSize(1, 0.1, 0.1);
const Eigen::Vector3d kAxisY = Eigen::Vector3d::UnitY();

struct Sim {
  WorldPtr world;
  SkeletonPtr links;               // chain and loop
  std::vector<BodyNode*> bodies;   // links, or the free boxes
};

Eigen::Isometry3d pose(const Eigen::Vector3d& p, const Eigen::Matrix3d& R = Eigen::Matrix3d::Identity()) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() = R;
  T.translation() = p;
  return T;
}

Eigen::Matrix3d rotY(double angle) { return Eigen::AngleAxisd(angle, kAxisY).toRotationMatrix(); }

/// Body properties of a solid box of `mass`, its frame at the box centre.
BodyNode::Properties boxBody(const std::string& name, const Eigen::Vector3d& size, double mass) {
  BodyNode::Properties p;
  p.mName = name;
  p.mInertia = Inertia(mass, Eigen::Vector3d::Zero(), BoxShape::computeInertia(size, mass));
  return p;
}

/// A box shape that collides, with friction `mu` and restitution 0.
void addCollidingBox(BodyNode* body, const Eigen::Vector3d& size, double mu) {
  auto* node = body->createShapeNodeWith<VisualAspect, CollisionAspect, DynamicsAspect>(
      std::make_shared<BoxShape>(size));
  node->getDynamicsAspect()->setFrictionCoeff(mu);
  node->getDynamicsAspect()->setRestitutionCoeff(0);
}

/// Link i of a revolute chain: the joint about y sits at the link's −x end, and
/// `T_parent` places it in the parent's frame (the parent's centre, or world).
BodyNode* addLink(Sim& s, BodyNode* parent, const Eigen::Isometry3d& T_parent, int i) {
  RevoluteJoint::Properties j;
  j.mName = "hinge" + std::to_string(i);
  j.mAxis = kAxisY;
  j.mT_ParentBodyToJoint = T_parent;
  j.mT_ChildBodyToJoint = pose(Eigen::Vector3d(-0.5, 0, 0));
  BodyNode* b = s.links->createJointAndBodyNodePair<RevoluteJoint>(
      parent, j, boxBody("link" + std::to_string(i), kLinkSize, 1)).second;
  b->createShapeNodeWith<VisualAspect>(std::make_shared<BoxShape>(kLinkSize));
  s.bodies.push_back(b);
  return b;
}

void makeLinks(Sim& s) {
  s.links = Skeleton::create("links");
  s.links->disableSelfCollisionCheck();
}

/// Hinge i at (i, 0, 0): from the world for i = 0, else 0.5 m along the
/// previous link's x from its centre. All joint angles 0 = horizontal.
void buildChain(Sim& s, int n) {
  makeLinks(s);
  BodyNode* prev = addLink(s, nullptr, pose(Eigen::Vector3d::Zero()), 0);
  for (int i = 1; i < n; ++i) prev = addLink(s, prev, pose(Eigen::Vector3d(0.5, 0, 0)), i);
  s.world->addSkeleton(s.links);
}

/// The U as a tree from the first ground hinge: the fixed turns of the
/// corners go into the joints' parent transforms so that all angles start at
/// 0; the second ground hinge becomes a ball constraint at the free end.
void buildLoop(Sim& s, int n) {
  makeLinks(s);
  const double down = M_PI / 2, up = -M_PI / 2;  // turn of the link's x axis about y
  const Eigen::Vector3d end(0.5, 0, 0);
  BodyNode* prev = addLink(s, nullptr, pose(Eigen::Vector3d::Zero(), rotY(down)), 0);
  for (int i = 1; i < n; ++i) {
    const bool corner = (i == 1 || i == n - 1);  // link 0 → level, level → link n−1
    prev = addLink(s, prev, pose(end, rotY(corner ? up : 0)), i);
  }
  s.world->addSkeleton(s.links);
  // Built at the rest pose, so the constraint's body-local point is the free end.
  auto closure = std::make_shared<dart::constraint::BallJointConstraint>(prev, Eigen::Vector3d(n - 2, 0, 0));
  s.world->getConstraintSolver()->addConstraint(closure);
}

/// A welded box of `size` posed by T, as its own skeleton.
void addFixedBox(Sim& s, const Eigen::Vector3d& size, const Eigen::Isometry3d& T, double mu) {
  auto skel = Skeleton::create("ground");
  WeldJoint::Properties j;
  j.mT_ParentBodyToJoint = T;
  BodyNode* b = skel->createJointAndBodyNodePair<WeldJoint>(nullptr, j, boxBody("ground", size, 1)).second;
  addCollidingBox(b, size, mu);
  s.world->addSkeleton(skel);
}

/// A free box of `mass` posed by T, as its own skeleton.
BodyNode* addFreeBox(Sim& s, const std::string& name, const Eigen::Vector3d& size, double mass,
                     const Eigen::Isometry3d& T, double mu) {
  auto skel = Skeleton::create(name);
  auto pair = skel->createJointAndBodyNodePair<FreeJoint>(nullptr, FreeJoint::Properties(), boxBody(name, size, mass));
  pair.first->setPositions(FreeJoint::convertToPositions(T));
  addCollidingBox(pair.second, size, mu);
  s.world->addSkeleton(skel);
  s.bodies.push_back(pair.second);
  return pair.second;
}

void useDartCollision(Sim& s) {
  s.world->getConstraintSolver()->setCollisionDetector(dart::collision::DARTCollisionDetector::create());
}

void buildPile(Sim& s, int n) {
  useDartCollision(s);
  // 100 × 100 × 1 m slab whose top face is z = 0.
  addFixedBox(s, Eigen::Vector3d(100, 100, 1), pose(Eigen::Vector3d(0, 0, -0.5)), kPileMu);
  const Eigen::Vector3d axis = Eigen::Vector3d(1, 1, 0).normalized();
  for (int k = 0; k < n; ++k) {
    const int i = k % 9;
    const Eigen::Vector3d p(1.5 * (i % 3 - 1), 1.5 * (i / 3 - 1), 1 + 1.5 * (k / 9));
    const Eigen::Matrix3d R = Eigen::AngleAxisd(0.05 * (k % 5 + 1), axis).toRotationMatrix();
    addFreeBox(s, "box" + std::to_string(k), Eigen::Vector3d::Ones(), 1, pose(p, R), kPileMu);
  }
}

void buildIncline(Sim& s, double mu) {
  useDartCollision(s);
  const Eigen::Matrix3d R = rotY(peers::kInclineAngle);
  const Eigen::Vector3d normal = R * Eigen::Vector3d::UnitZ();  // (sin 30°, 0, cos 30°)
  // 20 × 20 × 1 m slab, top face through the origin; the cube slides < 2 m.
  addFixedBox(s, Eigen::Vector3d(20, 20, 1), pose(-0.5 * normal, R), mu);
  addFreeBox(s, "cube", Eigen::Vector3d::Constant(0.2), 1, pose(0.1 * normal, R), mu);
}

/// Kinetic plus gravity potential energy of the links, in J. The potential is
/// written out as m g z of each centre, as in the other peers; DART's
/// Skeleton::computePotentialEnergy() (−m g·x) gives the same values here.
double energy(const Sim& s) {
  double e = s.links->computeKineticEnergy();
  for (const BodyNode* b : s.bodies) e += b->getMass() * peers::kGravity * b->getCOM()[2];
  return e;
}

double largestSpeed(const Sim& s) {
  double worst = 0;
  for (const BodyNode* b : s.bodies) worst = std::max(worst, b->getCOMLinearVelocity().norm());
  return worst;
}

peers::Result run(Sim& s, const peers::Args& args) {
  const bool jointed = args.scene == "chain" || args.scene == "loop";
  peers::buildScene(
      args, [&](int n) { buildChain(s, n); }, [&](int n) { buildLoop(s, n); }, [&](int n) { buildPile(s, n); },
      [&](double mu) { buildIncline(s, mu); });
  const Eigen::Vector3d start = s.bodies.front()->getCOM();
  const double e0 = jointed ? energy(s) : 0;

  peers::Result r;
  r.usPerStep = peers::timeSteps(args.steps, [&] { s.world->step(); });

  const Eigen::Vector3d last = s.bodies.back()->getCOM();
  if (jointed) {
    r.energyDrift = std::fabs(energy(s) - e0) / (args.n * 1.0 * peers::kGravity * 1.0);
    r.result = last[2];
    // Hinges in the tree are exact; only the loop's closing joint can open.
    r.constraintError = 0;
    if (args.scene == "loop") {
      const Eigen::Vector3d freeEnd = s.bodies.back()->getWorldTransform() * Eigen::Vector3d(0.5, 0, 0);
      r.constraintError = (freeEnd - Eigen::Vector3d(args.n - 2, 0, 0)).norm();
    }
  } else if (args.scene == "pile") {
    r.result = largestSpeed(s);
  } else {
    const double a = peers::kInclineAngle;
    r.result = (last - start).dot(Eigen::Vector3d(std::cos(a), 0, -std::sin(a)));
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const peers::Args args = peers::parseArgs(argc, argv);
  const bool enoughLinks = args.scene == "loop" ? args.n >= 3 : args.n >= 1;
  if (!enoughLinks) {
    std::fprintf(stderr, "N too small for scene %s\n", args.scene.c_str());
    return 2;
  }
  Sim s;
  s.world = dart::simulation::World::create("peer");
  s.world->setGravity(Eigen::Vector3d(0, 0, -peers::kGravity));  // also passed to every skeleton added
  s.world->setTimeStep(args.h);
  peers::print("dart", args, run(s, args));
  return 0;
}
