// The ODE peer of the benchmarks (bench/peers/PeerScene.h): builds one of the
// four peer scenes in the Open Dynamics Engine 0.16.2 (Debian libode-dev,
// double precision), times the stepping and prints the result line.
//
//   peer_ode SCENE N H STEPS [MU] [quick]
//
// Without "quick" the engine is "ode": dWorldStep, ODE's exact solver that
// factors the dense constraint matrix of each island (O(rows³), so it is only
// practical for small N). With "quick" the engine is "ode-quick":
// dWorldQuickStep, projected Gauss–Seidel (SOR) with 50 iterations.
//
// Contacts (pile, incline) use dContactApprox1: a friction pyramid whose two
// bounds are μ times the normal force, i.e. Coulomb friction. Without it ODE
// would treat μ as a fixed force bound in newtons.
#include <ode/ode.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "PeerScene.h"

namespace {

constexpr int kMaxContactsPerPair = 8;
constexpr int kQuickIterations = 50;
constexpr dReal kPileMu = 0.5;

struct Sim {
  dWorldID world = nullptr;
  dSpaceID space = nullptr;           // only for scenes with contact
  dJointGroupID contacts = nullptr;   // emptied after every step
  std::vector<dBodyID> bodies;
  std::vector<dJointID> hinges;
  dReal mu = 0;
  bool quick = false;
};

/// A box body of mass `mass` with solid-box inertia at `pos`, turned by R.
dBodyID makeBox(Sim& s, dReal lx, dReal ly, dReal lz, dReal mass, const dReal* pos, const dMatrix3 R) {
  dBodyID b = dBodyCreate(s.world);
  dMass m;
  dMassSetBoxTotal(&m, mass, lx, ly, lz);
  dBodySetMass(b, &m);
  dBodySetPosition(b, pos[0], pos[1], pos[2]);
  dBodySetRotation(b, R);
  s.bodies.push_back(b);
  return b;
}

/// A hinge about the world y axis through (x, 0, z); a null body is the ground.
void addHinge(Sim& s, dBodyID b1, dBodyID b2, dReal x, dReal z) {
  dJointID j = dJointCreateHinge(s.world, nullptr);
  dJointAttach(j, b1, b2);
  dJointSetHingeAnchor(j, x, 0, z);
  dJointSetHingeAxis(j, 0, 1, 0);
  s.hinges.push_back(j);
}

void buildChain(Sim& s, int n) {
  dMatrix3 R;
  dRSetIdentity(R);
  dBodyID prev = nullptr;
  for (int i = 0; i < n; ++i) {
    const dReal pos[3] = {i + 0.5, 0, 0};
    dBodyID b = makeBox(s, 1, 0.1, 0.1, 1, pos, R);
    addHinge(s, prev, b, i, 0);
    prev = b;
  }
}

void buildLoop(Sim& s, int n) {
  dMatrix3 level, upright;
  dRSetIdentity(level);
  // The vertical links are the same box (long axis x) turned 90° about y.
  dRFromAxisAndAngle(upright, 0, 1, 0, M_PI / 2);
  for (int i = 0; i < n; ++i) {
    const bool side = (i == 0 || i == n - 1);
    const dReal x = (i == 0) ? 0 : (i == n - 1) ? n - 2 : i - 0.5;
    const dReal pos[3] = {x, 0, side ? -0.5 : -1.0};
    makeBox(s, 1, 0.1, 0.1, 1, pos, side ? upright : level);
  }
  addHinge(s, nullptr, s.bodies[0], 0, 0);
  // Link i and link i + 1 meet at (i, 0, −1), the two bottom corners included.
  for (int i = 0; i + 1 < n; ++i) addHinge(s, s.bodies[i], s.bodies[i + 1], i, -1);
  addHinge(s, s.bodies[n - 1], nullptr, n - 2, 0);
}

void makeContactSpace(Sim& s, dReal mu) {
  s.space = dHashSpaceCreate(nullptr);
  s.contacts = dJointGroupCreate(0);
  s.mu = mu;
}

void buildPile(Sim& s, int n) {
  makeContactSpace(s, kPileMu);
  dCreatePlane(s.space, 0, 0, 1, 0);
  for (int k = 0; k < n; ++k) {
    const int i = k % 9;
    const dReal pos[3] = {1.5 * (i % 3 - 1), 1.5 * (i / 3 - 1), 1 + 1.5 * (k / 9)};
    dMatrix3 R;
    dRFromAxisAndAngle(R, 1, 1, 0, 0.05 * (k % 5 + 1));  // ODE normalises the axis
    dBodyID b = makeBox(s, 1, 1, 1, 1, pos, R);
    dGeomSetBody(dCreateBox(s.space, 1, 1, 1), b);
  }
}

void buildIncline(Sim& s, dReal mu) {
  makeContactSpace(s, mu);
  const dReal a = peers::kInclineAngle;
  // Turning z by 30° about y gives the plane normal (sin 30°, 0, cos 30°).
  dCreatePlane(s.space, std::sin(a), 0, std::cos(a), 0);
  dMatrix3 R;
  dRFromAxisAndAngle(R, 0, 1, 0, a);
  const dReal pos[3] = {0.1 * std::sin(a), 0, 0.1 * std::cos(a)};
  dBodyID b = makeBox(s, 0.2, 0.2, 0.2, 1, pos, R);
  dGeomSetBody(dCreateBox(s.space, 0.2, 0.2, 0.2), b);
}

void nearCallback(void* data, dGeomID g1, dGeomID g2) {
  Sim& s = *static_cast<Sim*>(data);
  dContact c[kMaxContactsPerPair];
  std::memset(c, 0, sizeof c);
  const int count = dCollide(g1, g2, kMaxContactsPerPair, &c[0].geom, sizeof(dContact));
  dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
  for (int k = 0; k < count; ++k) {
    c[k].surface.mode = dContactApprox1;  // pyramid, bounds scale with normal force
    c[k].surface.mu = s.mu;
    dJointAttach(dJointCreateContact(s.world, s.contacts, &c[k]), b1, b2);
  }
}

void step(Sim& s, dReal h) {
  if (s.space) dSpaceCollide(s.space, &s, nearCallback);
  if (s.quick)
    dWorldQuickStep(s.world, h);
  else
    dWorldStep(s.world, h);
  if (s.contacts) dJointGroupEmpty(s.contacts);
}

/// Kinetic (translation + rotation) plus gravity potential energy, in J.
double energy(const Sim& s) {
  double e = 0;
  for (dBodyID b : s.bodies) {
    dMass m;
    dBodyGetMass(b, &m);
    const dReal* v = dBodyGetLinearVel(b);
    const dReal* w = dBodyGetAngularVel(b);
    const dReal* p = dBodyGetPosition(b);
    dVector3 wb;  // ω in body axes, where m.I is the inertia
    dMultiply1_331(wb, dBodyGetRotation(b), w);
    dVector3 Iw;
    dMultiply0_331(Iw, m.I, wb);
    e += 0.5 * m.mass * dCalcVectorDot3(v, v) + 0.5 * dCalcVectorDot3(wb, Iw);
    e += m.mass * peers::kGravity * p[2];
  }
  return e;
}

/// The largest gap between a hinge's anchor as carried by body 1 and body 2.
double hingeError(const Sim& s) {
  double worst = 0;
  for (dJointID j : s.hinges) {
    dVector3 a1, a2;
    dJointGetHingeAnchor(j, a1);
    dJointGetHingeAnchor2(j, a2);
    worst = std::max(worst, double(dCalcPointsDistance3(a1, a2)));
  }
  return worst;
}

double largestSpeed(const Sim& s) {
  double worst = 0;
  for (dBodyID b : s.bodies) worst = std::max(worst, double(dCalcVectorLength3(dBodyGetLinearVel(b))));
  return worst;
}

double downhillDisplacement(const Sim& s, const dVector3 start) {
  const dReal a = peers::kInclineAngle;
  const dReal* p = dBodyGetPosition(s.bodies[0]);
  return (p[0] - start[0]) * std::cos(a) - (p[2] - start[2]) * std::sin(a);
}

/// Takes "quick" out of the argument list wherever it stands.
bool extractQuick(int& argc, char** argv) {
  bool quick = false;
  int out = 0;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strcmp(argv[i], "quick") == 0)
      quick = true;
    else
      argv[out++] = argv[i];
  }
  argc = out;
  return quick;
}

peers::Result run(Sim& s, const peers::Args& args) {
  const bool jointed = args.scene == "chain" || args.scene == "loop";
  peers::buildScene(
      args, [&](int n) { buildChain(s, n); }, [&](int n) { buildLoop(s, n); }, [&](int n) { buildPile(s, n); },
      [&](double mu) { buildIncline(s, mu); });
  dVector3 start;
  dCopyVector3(start, dBodyGetPosition(s.bodies[0]));
  const double e0 = jointed ? energy(s) : 0;

  peers::Result r;
  r.usPerStep = peers::timeSteps(args.steps, [&] { step(s, args.h); });

  if (jointed) {
    r.energyDrift = std::fabs(energy(s) - e0) / (args.n * 1.0 * peers::kGravity * 1.0);
    r.constraintError = hingeError(s);
    r.result = dBodyGetPosition(s.bodies.back())[2];
  } else if (args.scene == "pile") {
    r.result = largestSpeed(s);
  } else {
    r.result = downhillDisplacement(s, start);
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = extractQuick(argc, argv);
  const peers::Args args = peers::parseArgs(argc, argv);
  const bool needsLinks = args.scene == "loop" ? args.n >= 3 : args.n >= 1;
  if (!needsLinks) {
    std::fprintf(stderr, "N too small for scene %s\n", args.scene.c_str());
    return 2;
  }

  dInitODE2(0);
  dAllocateODEDataForThread(dAllocateMaskAll);  // collision needs per-thread data
  Sim s;
  s.quick = quick;
  s.world = dWorldCreate();
  dWorldSetGravity(s.world, 0, 0, -peers::kGravity);
  // Fixed explicitly rather than left to the defaults: ERP 0.2 (Baumgarte-like
  // drift correction per step) and a near-zero CFM, i.e. hard constraints.
  dWorldSetERP(s.world, 0.2);
  dWorldSetCFM(s.world, 1e-10);
  dWorldSetQuickStepNumIterations(s.world, kQuickIterations);

  const peers::Result r = run(s, args);
  peers::print(quick ? "ode-quick" : "ode", args, r);

  if (s.contacts) dJointGroupDestroy(s.contacts);
  if (s.space) dSpaceDestroy(s.space);
  dWorldDestroy(s.world);
  dCloseODE();
  return 0;
}
