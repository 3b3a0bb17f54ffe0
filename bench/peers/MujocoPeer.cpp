// MuJoCo peer for the Sinew peer benchmarks (see PeerScene.h for the scenes
// and the output line). Built against MuJoCo 2.2.2 (Debian libmujoco-dev):
//   g++ -O2 -std=c++17 -I bench/peers bench/peers/MujocoPeer.cpp -lmujoco
//
// Each scene is written as MJCF text, compiled through MuJoCo's in-memory
// virtual file system, and stepped with mj_step. Solver settings are
// MuJoCo's defaults throughout: semi-implicit "Euler" integrator, Newton
// solver, pyramidal friction cone, 100 iterations, tolerance 1e-8, default
// solref/solimp (so contacts and the loop's connect constraint are soft).
// The default 100 iterations already bring the pile to rest, so none are
// raised. Energy (chain, loop) uses MuJoCo's own energy flag: d->energy =
// gravity potential + kinetic, refreshed by mj_forward.
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <sstream>
#include <vector>

#include "PeerScene.h"

namespace {

// Full precision, so the XML carries exactly the numbers of PeerScene.h.
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Box half sizes of a chain/loop link (1 x 0.1 x 0.1 m) and the principal
// inertia of a 1 kg solid box of those sides about its centre.
const char* kLinkHalf = "0.5 0.05 0.05";
const std::string kLinkInertia =
    num((0.01 + 0.01) / 12) + " " + num((1 + 0.01) / 12) + " " + num((1 + 0.01) / 12);

// MuJoCo quaternion (w x y z) of a rotation by `angle` about unit axis (ax, ay, az).
std::string quat(double angle, double ax, double ay, double az) {
  const double s = std::sin(angle / 2);
  return num(std::cos(angle / 2)) + " " + num(s * ax) + " " + num(s * ay) + " " + num(s * az);
}

// Header shared by all scenes; `extra` goes inside <option> (flags).
std::string header(const peers::Args& a, const std::string& extra) {
  std::ostringstream x;
  x << "<mujoco model='" << a.scene << "'>\n"
    << "<compiler angle='radian'/>\n"
    << "<option timestep='" << num(a.h) << "' gravity='0 0 -9.8' integrator='Euler'>" << extra << "</option>\n";
  return x.str();
}

// An MJCF scene: `links` are the openings of nested link bodies (each closed
// by one </body>), placed between `head` and `tail`.
struct Scene {
  std::string head, tail;
  std::vector<std::string> links;
};

// One link body: frame at its hinge end, box along local +x, free end at
// local (1, 0, 0). Contacts are off: only joints act on chain and loop links.
std::string link(int i, const std::string& pos, const std::string& q) {
  std::ostringstream x;
  x << "<body name='b" << i << "' pos='" << pos << "' quat='" << q << "'>\n"
    << "<joint type='hinge' axis='0 1 0' pos='0 0 0'/>\n"
    << "<inertial pos='0.5 0 0' mass='1' diaginertia='" << kLinkInertia << "'/>\n"
    << "<geom type='box' size='" << kLinkHalf << "' pos='0.5 0 0' contype='0' conaffinity='0'/>\n";
  return x.str();
}

Scene chainScene(const peers::Args& a) {
  Scene s{header(a, "<flag energy='enable'/>") + "<worldbody>\n", "</worldbody>\n</mujoco>\n", {}};
  for (int i = 0; i < a.n; ++i) s.links.push_back(link(i, i == 0 ? "0 0 0" : "1 0 0", quat(0, 0, 1, 0)));
  return s;
}

// The U: body 0 turned +90 deg about y (local x points down), bodies 1..N-2
// level, body N-1 turned so local x points up; its free end is closed to the
// ground at (N-2, 0, 0) by a connect equality.
Scene loopScene(const peers::Args& a) {
  Scene s = chainScene(a);
  for (int i = 0; i < a.n; ++i) {
    double turn = 0;
    if (i == 0) turn = M_PI / 2;
    if (i == 1 || i == a.n - 1) turn = -M_PI / 2;
    s.links[i] = link(i, i == 0 ? "0 0 0" : "1 0 0", quat(turn, 0, 1, 0));
  }
  s.tail = "</worldbody>\n<equality><connect body1='b" + std::to_string(a.n - 1) +
           "' anchor='1 0 0'/></equality>\n</mujoco>\n";
  return s;
}

// MuJoCo combines the friction of two geoms by taking the max, so the
// plane and the boxes carry the same coefficient.
std::string frictionOf(double mu) { return num(mu) + " 0.005 0.0001"; }

// MuJoCo 2.2 preallocates contacts (default 100, too few for a big pile):
// allow 8 per box on average (a face resting on a face gives 4) and 4 rows per contact
// (pyramidal cone, condim 3).
Scene pileScene(const peers::Args& a) {
  const std::string fr = frictionOf(0.5);
  const int contacts = 8 * (a.n + 1);
  std::ostringstream x;
  x << header(a, "") << "<size nconmax='" << contacts << "' njmax='" << 4 * contacts << "'/>\n<worldbody>\n"
    << "<geom type='plane' size='0 0 1' friction='" << fr << "'/>\n";
  const double r = 1 / std::sqrt(2.0);
  for (int k = 0; k < a.n; ++k) {
    const int i = k % 9;
    const double px = 1.5 * (i % 3 - 1), py = 1.5 * (i / 3 - 1), pz = 1 + 1.5 * (k / 9);
    x << "<body pos='" << num(px) << " " << num(py) << " " << num(pz) << "' quat='"
      << quat(0.05 * (k % 5 + 1), r, r, 0) << "'>\n<freejoint/>\n"
      << "<geom type='box' size='0.5 0.5 0.5' mass='1' friction='" << fr << "'/>\n</body>\n";
  }
  return {x.str(), "</worldbody>\n</mujoco>\n", {}};
}

// Plane turned by +30 deg about y: normal (sin30, 0, cos30), downhill
// (cos30, 0, -sin30). The cube shares the turn and sits 0.1 m along the normal.
Scene inclineScene(const peers::Args& a) {
  const double th = peers::kInclineAngle;
  const std::string fr = frictionOf(a.mu), q = quat(th, 0, 1, 0);
  std::ostringstream x;
  x << header(a, "") << "<worldbody>\n"
    << "<geom type='plane' size='0 0 1' quat='" << q << "' friction='" << fr << "'/>\n"
    << "<body pos='" << num(0.1 * std::sin(th)) << " 0 " << num(0.1 * std::cos(th)) << "' quat='" << q << "'>\n"
    << "<freejoint/>\n<geom type='box' size='0.1 0.1 0.1' mass='1' friction='" << fr << "'/>\n</body>\n";
  return {x.str(), "</worldbody>\n</mujoco>\n", {}};
}

// Adds a file with the given text to the virtual file system.
void addFile(mjVFS* vfs, const std::string& name, const std::string& text) {
  if (mj_makeEmptyFileVFS(vfs, name.c_str(), (int)text.size()) != 0) return;
  std::memcpy(vfs->filedata[mj_findFileVFS(vfs, name.c_str())], text.data(), text.size());
}

// MuJoCo's XML parser (tinyxml2) refuses elements nested ~100 deep, but
// each <include> is parsed as its own document. So a long chain is cut into
// files of kPerFile nested links, each including the next inside its
// innermost body; the compiled tree is the same single nested chain.
constexpr int kPerFile = 40;

std::string fileName(int part) { return "part" + std::to_string(part) + ".xml"; }

// Compiles the scene through the in-memory virtual file system (no temp files).
mjModel* compile(const Scene& s) {
  auto vfs = std::make_unique<mjVFS>();  // ~2 MB: keep it off the stack
  mj_defaultVFS(vfs.get());
  const int n = (int)s.links.size(), parts = std::max(1, (n + kPerFile - 1) / kPerFile);
  for (int p = 0; p < parts; ++p) {
    const int begin = p * kPerFile, end = std::min(n, begin + kPerFile);
    std::string text = p == 0 ? s.head : "<mujoco>\n";
    for (int i = begin; i < end; ++i) text += s.links[i];
    if (p + 1 < parts) text += "<include file='" + fileName(p + 1) + "'/>\n";
    for (int i = begin; i < end; ++i) text += "</body>\n";
    text += p == 0 ? s.tail : "</mujoco>\n";
    addFile(vfs.get(), fileName(p), text);
  }
  char err[1000] = "";
  mjModel* m = mj_loadXML(fileName(0).c_str(), vfs.get(), err, sizeof err);
  if (!m) std::fprintf(stderr, "mujoco: %s\n", err);
  mj_deleteVFS(vfs.get());
  return m;
}

double energy(const mjModel* m, mjData* d) {
  mj_forward(m, d);  // energy[] is filled by the forward pass
  return d->energy[0] + d->energy[1];
}

// World position of local point p of body b.
void worldPoint(const mjData* d, int b, const double p[3], double out[3]) {
  mju_rotVecMat(out, p, d->xmat + 9 * b);
  mju_addTo3(out, d->xpos + 3 * b);
}

double largestBoxSpeed(const mjModel* m, const mjData* d) {
  double best = 0;
  for (int j = 0; j < m->njnt; ++j) {
    if (m->jnt_type[j] != mjJNT_FREE) continue;
    best = std::fmax(best, mju_norm3(d->qvel + m->jnt_dofadr[j]));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const peers::Args a = peers::parseArgs(argc, argv);
  Scene scene;
  if (a.scene == "chain") scene = chainScene(a);
  else if (a.scene == "loop" && a.n >= 3) scene = loopScene(a);
  else if (a.scene == "pile") scene = pileScene(a);
  else if (a.scene == "incline") scene = inclineScene(a);
  else {
    std::fprintf(stderr, "unknown scene %s (loop needs N >= 3)\n", a.scene.c_str());
    return 2;
  }
  mjModel* m = compile(scene);
  if (!m) return 1;
  mjData* d = mj_makeData(m);
  const bool jointed = a.scene == "chain" || a.scene == "loop";
  const double e0 = energy(m, d);  // also fills xpos for the start position below
  const double start[3] = {d->xpos[3], d->xpos[4], d->xpos[5]};  // body 1 (incline's cube)

  peers::Result r;
  r.usPerStep = peers::timeSteps(a.steps, [&] { mj_step(m, d); });

  const int last = m->nbody - 1;
  if (jointed) {
    r.energyDrift = std::fabs(energy(m, d) - e0) / (a.n * 1.0 * peers::kGravity * 1.0);
    r.result = d->xipos[3 * last + 2];
    r.constraintError = 0;  // hinges are reduced coordinates
    if (a.scene == "loop") {
      const double end[3] = {1, 0, 0}, ground[3] = {double(a.n - 2), 0, 0};
      double w[3];
      worldPoint(d, last, end, w);
      r.constraintError = mju_dist3(w, ground);
    }
  } else if (a.scene == "pile") {
    r.result = largestBoxSpeed(m, d);
  } else {
    const double th = peers::kInclineAngle;
    r.result = (d->xpos[3] - start[0]) * std::cos(th) - (d->xpos[5] - start[2]) * std::sin(th);
  }
  peers::print("mujoco", a, r);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
