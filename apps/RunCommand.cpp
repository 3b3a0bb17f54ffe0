#include "apps/RunCommand.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "demos/Demos.h"
#include "sinew/control/NumericProbes.h"
#include "sinew/mech/MechModel.h"

namespace sinew::app {

namespace fs = std::filesystem;

namespace {

std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') { out += "\\n"; continue; }
    out += c;
  }
  return out + "\"";
}

std::string jsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

/// Applies --integrator to every MechModel of the root.
void setIntegrator(RootModel& root, const std::string& name) {
  if (name.empty()) return;
  for (auto& m : root.models())
    if (auto* mech = dynamic_cast<MechModel*>(&m)) mech->getProperty("integrator").set(name);
}

double defaultDuration(RootModel& root) {
  double t = 0;
  for (auto& p : root.inputProbes()) t = std::max(t, p.getStopTime());
  for (auto& p : root.outputProbes()) t = std::max(t, p.getStopTime());
  return t > 0 ? t : 5.0;
}

/// A file name from a probe's name or number.
std::string probeFileName(const Probe& p) {
  std::string n = p.getName().empty() ? "outputProbe" + std::to_string(p.getNumber()) : p.getName();
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  return n;
}

void writeOutputs(RootModel& root, const fs::path& dir, bool probeFormat, std::vector<std::string>& written) {
  for (auto& p : root.outputProbes()) {
    auto* np = dynamic_cast<NumericOutputProbe*>(&p);
    if (!np) continue;
    fs::path csv = dir / (probeFileName(p) + ".csv");
    np->saveCsv(csv.string());
    written.push_back(csv.string());
    if (probeFormat) {
      fs::path txt = dir / (probeFileName(p) + ".txt");
      np->save(txt.string());
      written.push_back(txt.string());
    }
  }
}

}  // namespace

int runModel(const RunOptions& opts) {
  std::string name = opts.model.empty() ? demos::defaultDemo() : opts.model;
  std::unique_ptr<RootModel> root;
  double duration = 0;
  try {
    root = demos::createDemo(name, opts.buildArgs);
    if (opts.step > 0) root->setMaxStepSize(opts.step);
    setIntegrator(*root, opts.integrator);
    duration = opts.duration >= 0 ? opts.duration : defaultDuration(*root);
    for (auto& path : opts.probes) {
      auto probe = std::make_unique<NumericOutputProbe>(*root, path);
      std::string pname = path;
      for (char& c : pname)
        if (c == '/' || c == ':' || c == '.') c = '_';
      probe->setName(pname);
      probe->setInterval(0, duration);
      root->addOutputProbe(std::move(probe));
    }
    fs::create_directories(opts.output);
  } catch (const std::exception& e) {
    std::cerr << "sinew: " << e.what() << "\n";
    return 2;
  }

  const bool tty = !opts.quiet && isatty(fileno(stderr));
  const double h = root->getMaxStepSize();
  long steps = 0;
  std::string error;
  auto wall0 = std::chrono::steady_clock::now();
  try {
    root->initialize(0);
    root->run(duration, [&](double t) {
      ++steps;
      if (tty && steps % 50 == 0)
        std::fprintf(stderr, "\r%s: t = %.3f / %.3f s", name.c_str(), t, duration);
    });
  } catch (const std::exception& e) {
    error = e.what();
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  if (tty) std::fprintf(stderr, "\r%*s\r", 60, "");

  // Outputs gathered so far are written even when a step failed.
  std::vector<std::string> written;
  fs::path dir(opts.output);
  try {
    writeOutputs(*root, dir, opts.probeFormat, written);
  } catch (const std::exception& e) {
    std::cerr << "sinew: cannot write outputs: " << e.what() << "\n";
    return 2;
  }
  fs::path summary = dir / "summary.json";
  std::ofstream js(summary);
  js << "{\n  \"model\": " << jsonString(name) << ",\n  \"steps\": " << steps
     << ",\n  \"stepSize\": " << jsonNumber(h) << ",\n  \"simulatedTime\": " << jsonNumber(root->getTime())
     << ",\n  \"requestedTime\": " << jsonNumber(duration) << ",\n  \"wallTime\": " << jsonNumber(wall)
     << ",\n  \"finalEnergy\": " << jsonNumber(root->getEnergy()) << ",\n  \"outputs\": [";
  for (size_t i = 0; i < written.size(); ++i) js << (i ? ", " : "") << jsonString(written[i]);
  js << "],\n  \"error\": " << (error.empty() ? "null" : jsonString(error)) << "\n}\n";
  js.close();

  if (!error.empty()) {
    std::cerr << "sinew: simulation failed: " << error << "\n";
    std::cerr << "sinew: outputs up to t = " << root->getTime() << " written to " << dir.string() << "\n";
    return 1;
  }
  if (!opts.quiet)
    std::cerr << name << ": " << steps << " steps, " << root->getTime() << " s simulated in " << wall
              << " s wall\n";
  std::cout << "results written to " << dir.string() << " (" << summary.string() << ")\n";
  return 0;
}

}  // namespace sinew::app
