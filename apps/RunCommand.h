// `sinew run`: builds a model, runs it headless, and writes every output
// probe and a summary into an output directory.
#pragma once

#include <string>
#include <vector>

namespace sinew::app {

struct RunOptions {
  std::string model;                  ///< registered model name (empty: the default demo)
  std::vector<std::string> buildArgs; ///< arguments passed to build()
  double duration = -1;               ///< < 0: from the probes, else 5 s
  double step = -1;                   ///< < 0: the model's maxStepSize
  std::string integrator;             ///< empty: the model's
  std::string output = "sinew-out";
  std::vector<std::string> probes;    ///< extra output probes: "path:prop" from the root
  bool probeFormat = false;           ///< also write the guide's probe format
  bool quiet = false;
};

/// Runs the model; returns the process exit code (0 ok, 1 failed step,
/// 2 bad input). Messages go to stderr, the summary path to stdout.
int runModel(const RunOptions& opts);

}  // namespace sinew::app
