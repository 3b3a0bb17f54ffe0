// The `sinew` command: `sinew list` shows the demos, `sinew run [MODEL]`
// runs one headless and writes its results (README, docs/sinew-command.md).
#include <CLI/CLI.hpp>
#include <iostream>
#include <sstream>

#include "apps/RunCommand.h"
#include "demos/Demos.h"

int main(int argc, char** argv) {
  CLI::App app{"Sinew: simulate mechanical and biomechanical models"};
  app.require_subcommand(1);

  auto* list = app.add_subcommand("list", "list the available models");
  sinew::app::RunOptions opts;
  auto* run = app.add_subcommand("run", "run a model headless and write its outputs");
  run->add_option("model", opts.model, "model name (default: " + std::string(sinew::demos::defaultDemo()) + ")");
  run->add_option("--duration,-t", opts.duration, "simulated time in seconds (default: the probes' end, or 5)");
  auto* stepOpt = run->add_option("--step,-s", opts.step, "step size in seconds (default: the model's maxStepSize)");
  run->add_option("--integrator,-i", opts.integrator,
                  "ForwardEuler, SymplecticEuler, RungeKutta4, ConstrainedBackwardEuler, Trapezoidal, AlphaBeta or "
                  "Impulse (default: the model's)");
  run->add_option("--output,-o", opts.output, "output directory")->capture_default_str();
  run->add_option("--probe,-p", opts.probes, "record a property, e.g. models/mech/particles/p2:position")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  run->add_flag("--probe-format", opts.probeFormat, "also write probes in the guide's probe file format");
  run->add_flag("--quiet,-q", opts.quiet, "no progress or summary line");
  std::string buildArgs;
  run->add_option("--args", buildArgs, "arguments for the model's build(), e.g. --args=\"-numx 30 -numy 30\"");

  CLI11_PARSE(app, argc, argv);
  if (*list) {
    sinew::demos::registerDemos();
    for (auto& [name, entry] : sinew::ModelRegistry::instance().entries())
      std::cout << name << (name == sinew::demos::defaultDemo() ? " (default)" : "") << "\n    "
                << entry.description << "\n";
    return 0;
  }
  std::istringstream words(buildArgs);
  for (std::string w; words >> w;) opts.buildArgs.push_back(w);
  if (stepOpt->count() > 0 && !(opts.step > 0)) {
    std::cerr << "sinew: --step must be positive\n";
    return 2;
  }
  return sinew::app::runModel(opts);
}
