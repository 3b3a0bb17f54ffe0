// The peer benchmarks (bench/peers/README.md): one program per engine runs
// one scene per call, defined identically in every engine, and prints one
// result line that bench/peers/run.sh gathers into the comparison table.
//
//   peer_<engine> SCENE N H STEPS [MU]
//
// Scenes (gravity (0, 0, −9.8) m/s², SI units, everything at rest at t = 0):
//   chain    N links, each a 1 × 0.1 × 0.1 m box (x × y × z) of 1 kg with
//            the inertia of a solid box, centred at (i + 0.5, 0, 0); hinge i
//            about the world y axis at (i, 0, 0) joins link i − 1 (ground
//            for i = 0) to link i. Released horizontal.
//   loop     N links in a U: link 0 hangs from a ground hinge at (0, 0, 0)
//            (centre (0, 0, −0.5), long axis vertical), links 1 … N − 2 lie
//            level at z = −1 (centres (i − 0.5, 0, −1)), link N − 1 hangs from
//            a second ground hinge at (N − 2, 0, 0); hinges about y at every
//            link end (N + 1 in all): a closed loop with redundant rows.
//   pile     N boxes of 1 × 1 × 1 m and 1 kg over a fixed plane z = 0, dropped
//            from a 3 × 3 grid per layer: box k at (1.5 (i mod 3 − 1),
//            1.5 (⌊i/3⌋ − 1), 1 + 1.5 ⌊k/9⌋), i = k mod 9, turned by
//            0.05 (k mod 5 + 1) rad about the axis (1, 1, 0)/√2; μ = 0.5.
//   incline  a 0.2 m cube of 1 kg resting on a fixed plane through the
//            origin tilted 30° about y (downhill (cos 30°, 0, −sin 30°)),
//            friction μ (argument MU); result = its displacement downhill.
//
// Output, one line, space separated:
//   engine scene N h steps us_per_step energy_drift constraint_error result
// us_per_step: wall time of the STEPS steps alone (not the set-up) / STEPS.
// energy_drift: |E(end) − E(0)| / (N · 1 kg · 9.8 · 1 m) for chain and
//   loop (kinetic + gravity potential), "nan" where not measured.
// constraint_error: the largest distance between a hinge's point as carried
//   by its two bodies at the end, in m (0 for reduced coordinates), "nan"
//   for scenes without joints.
// result: incline: displacement downhill at the end (m); pile: the largest
//   box speed at the end (m/s); chain/loop: the last link's centre z (m).
#pragma once

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace peers {

struct Args {
  std::string scene;
  int n = 1;
  double h = 1e-3;
  int steps = 1000;
  double mu = 0.5;
};

inline Args parseArgs(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s chain|loop|pile|incline N H STEPS [MU]\n", argv[0]);
    std::exit(2);
  }
  Args a;
  a.scene = argv[1];
  a.n = std::atoi(argv[2]);
  a.h = std::atof(argv[3]);
  a.steps = std::atoi(argv[4]);
  if (argc > 5) a.mu = std::atof(argv[5]);
  return a;
}

struct Result {
  double usPerStep = NAN;
  double energyDrift = NAN;
  double constraintError = NAN;
  double result = NAN;
};

/// Runs `step()` `steps` times and returns the wall time per step in µs.
template <class Step>
double timeSteps(int steps, Step&& step) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < steps; ++k) step();
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / steps;
}

inline void print(const char* engine, const Args& a, const Result& r) {
  std::printf("%s %s %d %g %d %.4g %.3g %.3g %.6g\n", engine, a.scene.c_str(), a.n, a.h, a.steps, r.usPerStep,
              r.energyDrift, r.constraintError, r.result);
}

/// Builds the scene `a` names with the engine's builder for it; an
/// unknown scene ends the program with status 2.
template <class Chain, class Loop, class Pile, class Incline>
void buildScene(const Args& a, Chain&& chain, Loop&& loop, Pile&& pile, Incline&& incline) {
  if (a.scene == "chain") chain(a.n);
  else if (a.scene == "loop") loop(a.n);
  else if (a.scene == "pile") pile(a.n);
  else if (a.scene == "incline") incline(a.mu);
  else {
    std::fprintf(stderr, "unknown scene %s\n", a.scene.c_str());
    std::exit(2);
  }
}

constexpr double kGravity = 9.8;
constexpr double kInclineAngle = M_PI / 6;

}  // namespace peers
