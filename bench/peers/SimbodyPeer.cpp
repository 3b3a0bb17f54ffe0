// The Simbody peer of the benchmarks (bench/peers/PeerScene.h): builds one of
// the four peer scenes in Simbody 3.7 (Debian libsimbody-dev), times the
// stepping and prints the result line.
//
//   peer_simbody SCENE N H STEPS [MU] [merson|se2]
//
// Integrator: SemiExplicitEulerIntegrator with the fixed step H, one step per
// call of stepTo(t + H): symplectic Euler, the scheme of the other peers, at
// the same h. "merson" (engine "simbody-merson") uses Simbody's default
// RungeKuttaMersonIntegrator and "se2" (engine "simbody-se2") the
// SemiExplicitEuler2Integrator, both with setFixedStepSize(H) (Merson is 4th
// order, 5 force evaluations a step; SE2 takes two half steps plus a full one
// for its error estimate). Constraint tolerance 1e-6: Simbody projects q and
// u back onto the constraints after a step; interpolation off.
//
// Joints are mobilizers (internal coordinates): chain is a Pin tree, so its
// hinge gap is 0; loop is a Pin tree closed by a Constraint::Ball to ground.
//
// Contact (pile, incline) is Simbody's compliant contact, a penalty method:
// a CompliantContactSubsystem, a (tilted) HalfSpace as the ground and a Brick
// on each free body (BrickHalfSpacePenalty: a linear spring with Hunt–Crossley
// damping at each penetrating corner of the face nearest the plane). Simbody
// 3.7 has no brick–brick contact, so in the pile each box also carries a
// TriangleMesh of itself for box–box contact (elastic foundation); contact
// cliques keep those meshes off the ground. Stiffness and damping (below) are
// what explicit stepping at h = 1 ms survives; stiffer or more damped contact
// blows up. Friction is Simbody's smoothed Coulomb law (static = dynamic = μ,
// no viscous term): it only reaches μ above the transition velocity 0.01 m/s,
// so a body held by friction creeps at a few mm/s (the cube at μ = 0.7 slides
// about 7 mm in 1 s where hard contact holds it) and the slide at μ = 0.5 is a
// few per cent longer than the analytic one.
#include <Simbody.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "PeerScene.h"

using namespace SimTK;

namespace {

// Per-corner spring of a brick on the ground: k = stiffness/2 (the two
// surfaces' springs in series), 4 corners on a face: 4e5 N/m for a 1 kg box.
constexpr Real kBrickStiffness = 2e5;     // N/m per corner per surface
// Hunt–Crossley c (s/m): the damping k·x·c grows with the penetration x, and
// explicit stepping at 1 ms blows up a corner impact from 1.5 m beyond ~1.
constexpr Real kDissipation = 0.5;
// Box–box elastic foundation: pressure per depth E/thickness, halved for the
// two meshes in series: 1e5 Pa/m, 1 mm under a stack of ten boxes. Stiffer
// (4e5) blows up the 100-box pile at 1 ms.
constexpr Real kMeshStiffness = 2e3;      // Pa (per unit strain)
constexpr Real kMeshThickness = 0.01;     // m
constexpr int kMeshResolution = 3;        // extra vertices on an edge: 0.25 m
constexpr Real kPileMu = 0.5;

struct Sim {
  MultibodySystem system;
  SimbodyMatterSubsystem matter{system};
  GeneralForceSubsystem forces{system};
  std::unique_ptr<ContactTrackerSubsystem> tracker;    // contact scenes only
  std::unique_ptr<CompliantContactSubsystem> contact;  // contact scenes only
  std::vector<MobilizedBody> links;  // the bodies, in scene order
  Constraint::Ball closure;          // loop only
  Vec3 closurePoint{0};              // its ground point
  State state;
};

/// The rotation turning a Pin's axis (the mobilizer frame's z) onto world y.
Rotation pinFrame() { return Rotation(-Pi / 2, XAxis); }

/// A 1 × 0.1 × 0.1 m link of 1 kg; body origin at its inboard end, long axis x.
Body::Rigid linkBody() {
  const Vec3 centre(0.5, 0, 0);
  const Inertia central(1.0 / 12 * (0.01 + 0.01), 1.0 / 12 * (1 + 0.01), 1.0 / 12 * (1 + 0.01));
  return Body::Rigid(MassProperties(1, centre, central.shiftFromMassCenter(centre, 1)));
}

/// A pin chain of n links, each hinged at the outboard end (1, 0, 0) of the
/// previous one (ground at the origin for the first), all pointing along +x.
void buildPinChain(Sim& s, int n) {
  const Rotation R = pinFrame();
  const Body::Rigid body = linkBody();
  for (int i = 0; i < n; ++i) {
    const bool first = (i == 0);
    MobilizedBody& parent = first ? s.matter.updGround() : s.links.back();
    const Transform X_PF(R, first ? Vec3(0) : Vec3(1, 0, 0));
    s.links.push_back(MobilizedBody::Pin(parent, X_PF, body, Transform(R)));
  }
}

void buildChain(Sim& s, int n) {
  buildPinChain(s, n);
  s.state = s.system.realizeTopology();
}

/// The U: a pin chain from the hinge at (0,0,0) down, along the bottom and up
/// to the last link, whose free end is held at (N − 2, 0, 0) by a ball.
void buildLoop(Sim& s, int n) {
  buildPinChain(s, n);
  s.closurePoint = Vec3(n - 2, 0, 0);
  s.closure = Constraint::Ball(s.matter.updGround(), s.closurePoint, s.links.back(), Vec3(1, 0, 0));
  s.state = s.system.realizeTopology();
  // A positive pin angle turns +x towards −z: link 0 hangs, link 1 turns back
  // level, the last one turns up.
  s.links[0].setOneQ(s.state, 0, Pi / 2);
  s.links[1].setOneQ(s.state, 0, -Pi / 2);
  s.links[n - 1].setOneQ(s.state, 0, -Pi / 2);
}

ContactMaterial material(Real stiffness, Real mu) { return ContactMaterial(stiffness, kDissipation, mu, mu, 0); }

/// The contact subsystem and the ground half-space with upward normal n,
/// tilted by `tilt` about y. A HalfSpace fills x > 0 of its frame: turning x
/// onto −n puts the solid under the plane.
ContactSurface& addGround(Sim& s, Real tilt, Real mu) {
  // Simbody keeps references to these two handles: they must live on.
  s.tracker.reset(new ContactTrackerSubsystem(s.system));
  s.contact.reset(new CompliantContactSubsystem(s.system, *s.tracker));
  s.contact->setTransitionVelocity(0.01);  // the default, stated
  MobilizedBody& ground = s.matter.updGround();
  const int index = ground.updBody().addContactSurface(
      Rotation(tilt + Pi / 2, YAxis), ContactSurface(ContactGeometry::HalfSpace(), material(kBrickStiffness, mu)));
  return ground.updBody().updContactSurface(index);
}

/// A free cube of side `side` and 1 kg with a Brick contact surface.
MobilizedBody::Free addCube(Sim& s, Real side, Real mu) {
  Body::Rigid body(MassProperties(1, Vec3(0), UnitInertia::brick(Vec3(side / 2))));
  body.addContactSurface(Transform(), ContactSurface(ContactGeometry::Brick(Vec3(side / 2)), material(kBrickStiffness, mu)));
  MobilizedBody::Free b(s.matter.updGround(), Transform(), body, Transform());
  s.links.push_back(b);
  return b;
}

void buildPile(Sim& s, int n) {
  ContactSurface& ground = addGround(s, 0, kPileMu);
  const ContactGeometry::TriangleMesh mesh(PolygonalMesh::createBrickMesh(Vec3(0.5), kMeshResolution));
  for (int k = 0; k < n; ++k) {
    MobilizedBody::Free b = addCube(s, 1, kPileMu);
    // The mesh is only for box–box contact: a clique shared with the ground
    // keeps it from touching the plane the brick already rests on.
    const ContactCliqueId clique = ContactSurface::createNewContactClique();
    ground.joinClique(clique);
    ContactSurface surface(mesh, material(kMeshStiffness, kPileMu), kMeshThickness);
    surface.joinClique(clique);
    b.updBody().addContactSurface(Transform(), surface);
  }
  s.state = s.system.realizeTopology();
  const UnitVec3 axis(Vec3(1, 1, 0));
  for (int k = 0; k < n; ++k) {
    const int i = k % 9;
    const Vec3 pos(1.5 * (i % 3 - 1), 1.5 * (i / 3 - 1), 1 + 1.5 * (k / 9));
    s.links[k].setQToFitTransform(s.state, Transform(Rotation(0.05 * (k % 5 + 1), axis), pos));
  }
}

void buildIncline(Sim& s, Real mu) {
  const Real a = peers::kInclineAngle;
  addGround(s, a, mu);
  addCube(s, 0.2, mu);
  s.state = s.system.realizeTopology();
  // Resting on the plane: turned with it, centre 0.1 m along its normal less
  // the static sink of the four corner springs (k = stiffness/2 each), so that
  // it does not start bouncing.
  const Vec3 normal(std::sin(a), 0, std::cos(a));
  const Real sink = peers::kGravity * std::cos(a) / (4 * kBrickStiffness / 2);
  s.links[0].setQToFitTransform(s.state, Transform(Rotation(a, YAxis), (0.1 - sink) * normal));
}

Real energy(const Sim& s) {
  s.system.realize(s.state, Stage::Dynamics);
  return s.system.calcEnergy(s.state);
}

Real largestSpeed(const Sim& s) {
  Real worst = 0;
  for (const MobilizedBody& b : s.links) worst = std::max(worst, b.getBodyOriginVelocity(s.state).norm());
  return worst;
}

/// Takes the integrator's name out of the argument list wherever it stands.
std::string extractIntegrator(int& argc, char** argv) {
  std::string name;
  int out = 0;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && (std::strcmp(argv[i], "merson") == 0 || std::strcmp(argv[i], "se2") == 0))
      name = argv[i];
    else
      argv[out++] = argv[i];
  }
  argc = out;
  return name;
}

std::unique_ptr<Integrator> makeIntegrator(const Sim& s, const std::string& name, Real h) {
  std::unique_ptr<Integrator> integ;
  if (name == "merson")
    integ.reset(new RungeKuttaMersonIntegrator(s.system));
  else if (name == "se2")
    integ.reset(new SemiExplicitEuler2Integrator(s.system));
  else
    integ.reset(new SemiExplicitEulerIntegrator(s.system, h));
  integ->setFixedStepSize(h);
  integ->setConstraintTolerance(1e-6);
  integ->setAllowInterpolation(false);  // the state returned is the one stepped to
  return integ;
}

peers::Result run(Sim& s, const peers::Args& args, const std::string& integrator) {
  const bool jointed = args.scene == "chain" || args.scene == "loop";
  peers::buildScene(
      args, [&](int n) { buildChain(s, n); }, [&](int n) { buildLoop(s, n); }, [&](int n) { buildPile(s, n); },
      [&](double mu) { buildIncline(s, mu); });
  s.system.realizeModel(s.state);
  s.system.realize(s.state, Stage::Position);
  const Vec3 start = s.links[0].getBodyOriginLocation(s.state);
  const Real e0 = jointed ? energy(s) : 0;

  std::unique_ptr<Integrator> integ = makeIntegrator(s, integrator, args.h);
  integ->initialize(s.state);
  int k = 0;
  peers::Result r;
  r.usPerStep = peers::timeSteps(args.steps, [&] { integ->stepTo(++k * args.h); });
  if (integ->getNumStepsTaken() != args.steps)
    std::fprintf(stderr, "warning: %d internal steps for %d\n", integ->getNumStepsTaken(), args.steps);
  s.state = integ->getState();
  s.system.realize(s.state, Stage::Velocity);

  const MobilizedBody& last = s.links.back();
  if (jointed) {
    r.energyDrift = std::fabs(energy(s) - e0) / (args.n * 1.0 * peers::kGravity * 1.0);
    r.constraintError = args.scene == "loop"
        ? (last.findStationLocationInGround(s.state, Vec3(1, 0, 0)) - s.closurePoint).norm() : 0;
    r.result = last.findStationLocationInGround(s.state, Vec3(0.5, 0, 0))[2];
  } else if (args.scene == "pile") {
    r.result = largestSpeed(s);
  } else {
    const Real a = peers::kInclineAngle;
    const Vec3 d = s.links[0].getBodyOriginLocation(s.state) - start;
    r.result = d[0] * std::cos(a) - d[2] * std::sin(a);
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string integrator = extractIntegrator(argc, argv);
  const peers::Args args = peers::parseArgs(argc, argv);
  const bool enoughLinks = args.scene == "loop" ? args.n >= 3 : args.n >= 1;
  if (!enoughLinks) {
    std::fprintf(stderr, "N too small for scene %s\n", args.scene.c_str());
    return 2;
  }
  const std::string engine = integrator.empty() ? "simbody" : "simbody-" + integrator;
  try {
    Sim s;
    Force::UniformGravity(s.forces, s.matter, Vec3(0, 0, -peers::kGravity));
    peers::print(engine.c_str(), args, run(s, args, integrator));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "simbody: %s\n", e.what());
    return 1;
  }
  return 0;
}
