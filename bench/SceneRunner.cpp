// Scenario runner: builds one scene, runs N steps, and prints µs per step
// and the process's peak resident memory. One scene per process, so the
// peak memory belongs to that scene alone.
//   sinew_scene net N [steps]      NetDemo with (N+1)² balls
//   sinew_scene chain N [steps]    N-body spring chain (SPD)
//   sinew_scene hinge N [steps]    N-link hinge chain, h = 1 ms; also prints
//                                  the energy drift, the largest joint error
//                                  and the time split into assembly, solve
//                                  and the rest
//   sinew_scene ball N [steps]     the same chain with ball joints (SphericalJoint)
//   sinew_scene loop N [steps]     the chain closed into an N-link loop with
//                                  both ends hinged to ground, h = 1 ms
//   sinew_scene femhex N [steps]   neo-Hookean hex beam of about N elements,
//   sinew_scene femtet N [steps]   or tet beam, clamped, under gravity,
//                                  h = 10 ms; also prints the time split into
//                                  assembly, solve and the rest, and (femhex,
//                                  femtet) the time of one numeric sparse
//                                  factorization of the last step's matrix
//   sinew_scene femhexinc N [steps]  the hex beam hard-incompressible per element,
//   sinew_scene femtetinc N [steps]  the tet beam per node (§6.7: a volume row each)
//   sinew_scene femball D [steps]  a TetGen ball (icosahedral divisions D; 3 gives
//                                  4017 tets) bouncing on a plate, h = 10 ms;
//                                  also prints the time split and the contacts
//   sinew_scene stack N [steps]    N 0.2 m cubes stacked on a plate, μ = 0.5,
//   sinew_scene pile N [steps]     or N unit boxes dropped into a pile,
//                                  h = 1 ms; also prints the contact count
//                                  and the largest box speed at the end
// A fourth argument names the integrator (default ConstrainedBackwardEuler),
// e.g. `sinew_scene hinge 100 2000 Impulse`, AlphaBeta:A for AlphaBeta
// with α = β = A, or Impulse:W for Impulse with impulseRelaxation W;
// under Impulse the runner also
// prints the joint corrections per second and the processor's clock.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "Scenes.h"
#include "sinew/Error.h"
#include "sinew/solver/LinearSolver.h"

namespace {
long peakRssKiB() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}
/// The processor's model name and current clock, as /proc/cpuinfo gives them.
std::string cpuClock() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model, mhz;
  while (std::getline(in, line) && (model.empty() || mhz.empty())) {
    auto value = [&] { return line.substr(line.find(':') + 2); };
    if (line.rfind("model name", 0) == 0) model = value();
    if (line.rfind("cpu MHz", 0) == 0) mhz = value() + " MHz";
  }
  return model + (mhz.empty() ? "" : ", " + mhz);
}
/// The yardstick for an FEM step: one numeric factorization of the
/// same matrix, S = M − h D − h² K of the last step, by the direct SPD
/// backend (CHOLMOD; Eigen's LDLᵀ without SuiteSparse), its symbolic
/// analysis done beforehand and left out, as a step reuses it; the least of
/// a few repeats.
void reportOneFactorization(const sinew::MechModel& mech, double h, double stepMs, double assemblyMs) {
  sinew::SparseMatrixd S;
  mech.solver().system().formMatrix(1.0, -h, -h * h, S);
  const auto type = sinew::LinearSolver::hasSuiteSparse() ? sinew::LinearSolverType::Cholmod
                                                          : sinew::LinearSolverType::EigenLDLT;
  auto direct = sinew::LinearSolver::create(type, static_cast<int>(S.rows()), 0);
  if (!direct->factor(S, 0, true)) {
    std::printf("one factorization: %s found the matrix singular\n", direct->name().c_str());
    return;
  }
  // The least of up to five (while they take under 2 s in all): a single
  // sub-millisecond factorization varies by ±30 % on this machine.
  double ms = INFINITY, total = 0;
  for (int k = 0; k < 5 && total < 2000; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    direct->factor(S, 0, false);
    const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ms = std::min(ms, t);
    total += t;
  }
  std::printf("one factorization (%s, %ld unknowns): %.3g ms; step / factorization %.2f, assembly / factorization %.2f\n",
              direct->name().c_str(), static_cast<long>(S.rows()), ms, stepMs / ms, assemblyMs / ms);
}

}  // namespace

int runScene(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: sinew_scene net|chain|hinge|ball|loop|femhex|femtet|femhexinc|femtetinc|femball|stack|pile N "
                 "[steps [integrator]]\n");
    return 2;
  }
  std::string scene = argv[1];
  int n = std::stoi(argv[2]);
  int steps = argc > 3 ? std::stoi(argv[3]) : 100;
  const bool loop = scene == "loop", balls = scene == "ball", hinge = scene == "hinge" || loop || balls;
  const bool ball = scene == "femball";
  const bool incomp = scene == "femhexinc" || scene == "femtetinc";
  const bool tets = scene == "femtet" || scene == "femtetinc";
  const bool fem = scene == "femhex" || tets || incomp || ball;
  const bool boxes = scene == "stack" || scene == "pile";
  sinew::FemModel3d* femModel = nullptr;
  const double h = hinge || boxes ? 1e-3 : 0.01;
  auto root = ball           ? sinew::bench::makeFemBall(n, femModel)
              : fem          ? sinew::bench::makeFemBeam(tets, n, femModel,
                                                      !incomp ? sinew::IncompMethod::OFF
                                                      : tets  ? sinew::IncompMethod::NODAL
                                                              : sinew::IncompMethod::ELEMENT)
              : boxes        ? sinew::bench::makeBoxes(n, scene == "pile", h)
              : scene == "net" ? sinew::bench::makeNet(n)
              : loop         ? sinew::bench::makeHingeLoop(n, h)
              : balls        ? sinew::bench::makeBallChain(n, h)
              : hinge        ? sinew::bench::makeHingeChain(n, h)
                             : sinew::bench::makeChain(n, false, sinew::LinearSolverType::Auto);
  root->setMaxStepSize(h);
  auto& mechModel = static_cast<sinew::MechModel&>(root->models().get(0));
  if (argc > 4) {
    // "AlphaBeta:0.5" sets α = β = 0.5 (seed 003's energy-keeping choice),
    // "Impulse:1.5" the over-relaxation ω = 1.5.
    const std::string integ = argv[4];
    const size_t colon = integ.find(':');
    mechModel.getProperty("integrator").set(integ.substr(0, colon));
    if (colon != std::string::npos) {
      const double x = std::stod(integ.substr(colon + 1));
      if (mechModel.getIntegrator() == sinew::Integrator::Impulse) {
        mechModel.getProperty("impulseRelaxation").set(x);
      } else {
        mechModel.getProperty("alpha").set(x);
        mechModel.getProperty("beta").set(x);
      }
    }
  }
  const bool impulse = mechModel.getIntegrator() == sinew::Integrator::Impulse;
  long corrections = 0;
  double loopSeconds = 0;  // in the correction loops alone
  root->initialize(0);
  const double E0 = root->getEnergy();
  // The joint error is checked after every step, outside the timing: the
  // peers' figures do not include such a check either.
  double maxErr = 0, checkSeconds = 0;
  if (hinge)
    root->addMonitor("err", [&](double, double) {
      const auto c0 = std::chrono::steady_clock::now();
      maxErr = std::max(maxErr, sinew::bench::maxJointError(*root));
      checkSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
    });
  root->run(2 * h);  // structure compile and first factorization outside the timing
  const auto& mech = static_cast<sinew::MechModel&>(root->models().get(0));
  const sinew::StepTimings before = mech.solver().timings();
  double t = root->getTime();
  checkSeconds = 0;
  if (impulse)
    root->addMonitor("corrections", [&](double, double) {
      corrections += mechModel.getImpulseReport().corrections;
      loopSeconds += mechModel.getImpulseReport().correctionSeconds;
    });
  auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < steps; ++k, t += h) root->advance(t, t + h);
  const double us =
      (std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() - 1e6 * checkSeconds) /
      steps;
  int particles = scene == "net" ? (n + 1) * (n + 1) : fem ? femModel->numNodes() : n;
  // The timed steps' split, in µs per step: assembly, solve, the rest.
  const sinew::StepTimings& after = mech.solver().timings();
  const double perStep = 1e6 / (after.steps - before.steps);
  const double assemblyUs = perStep * (after.assembly - before.assembly), solveUs = perStep * (after.solve - before.solve),
               restUs = perStep * (after.finish - before.finish);
  if (fem) {
    std::printf("%s: %d elements, %d nodes, %.3g ms/step: assembly %.3g ms, solve %.3g ms (%s), rest %.3g ms; "
                "step / solve %.2f\n",
                scene.c_str(), femModel->numElements(), femModel->numNodes(), us / 1e3, assemblyUs / 1e3,
                solveUs / 1e3, mech.solver().kktSolver().backendName().c_str(), restUs / 1e3, us / solveUs);
    if (!incomp && !ball) reportOneFactorization(mech, h, us / 1e3, assemblyUs / 1e3);
  }
  if (ball) {
    const auto& cm = const_cast<sinew::MechModel&>(mech).getCollisionManager();
    double zmin = INFINITY;
    for (auto& node : femModel->nodes()) zmin = std::min(zmin, node.getPosition().z());
    std::printf("femball: after %.2f s %zu contacts, lowest node at z = %.4g m\n", root->getTime(),
                cm.getContacts().size(), zmin);
  }
  if (boxes) {
    auto& m = static_cast<sinew::MechModel&>(root->models().get(0));
    double vmax = 0;
    for (int i = 0; i < m.rigidBodies().size(); ++i) vmax = std::max(vmax, m.rigidBodies().get(i).getVelocity().head<3>().norm());
    std::printf("%s %d: after %.3f s %zu contacts, largest box speed %.3g m/s\n", scene.c_str(), n, root->getTime(),
                m.getCollisionManager().getContacts().size(), vmax);
  }
  // Impulse and Articulated make no velocity solve to split.
  if (hinge && after.steps > before.steps)
    std::printf("%s %d: assembly %.3g us, solve %.3g us, position update and stabilization %.3g us per step\n",
                scene.c_str(), n, assemblyUs, solveUs, restUs);
  if (hinge)
    std::printf("%s %d: after %.3f s energy change %.4g J (of m g L scale %.4g J), max joint error %.3g\n", scene.c_str(), n,
                root->getTime(), root->getEnergy() - E0, 9.8 * n * n / 2.0, maxErr);
  if (impulse)
    std::printf("%s %d: %.1f joint corrections/step, %.3g corrections per second of the whole step, %.3g in the "
                "correction loops (%s)\n",
                scene.c_str(), n, double(corrections) / steps, corrections / (us * steps * 1e-6),
                loopSeconds > 0 ? corrections / loopSeconds : 0.0, cpuClock().c_str());
  std::printf("%s %d: %d components, %.1f us/step, %.3f us/step/component, peak RSS %ld KiB\n", scene.c_str(), n,
              particles, us, us / particles, peakRssKiB());
  return 0;
}

int main(int argc, char** argv) {
  // A model error or a diverging step (an explicit integrator on a stiff
  // scene) ends the run with its message, not an abort.
  try {
    return runScene(argc, argv);
  } catch (const sinew::Error& e) {
    std::fprintf(stderr, "sinew_scene: %s\n", e.what());
    return 1;
  }
}
