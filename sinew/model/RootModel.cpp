#include "sinew/model/RootModel.h"

#include <cmath>

namespace sinew {

SINEW_PROPERTIES(RootModel, Component) {
  list.add<RootModel>("maxStepSize", "simulation step size", &RootModel::getMaxStepSize,
                      &RootModel::setMaxStepSize)
      .setRange(0, INFINITY)
      .setDefault(0.01);
  list.add<RootModel>("adaptiveStepping", "redo steps with a smaller size when a model asks",
                      &RootModel::getAdaptiveStepping, &RootModel::setAdaptiveStepping)
      .setDefault(false);
  list.add<RootModel>("time", "current simulation time", &RootModel::getTime);
}

RootModel::RootModel(std::string name) : CompositeComponent(std::move(name)) {
  myModels = &static_cast<ComponentList<Model>&>(
      addComponent(std::make_unique<ComponentList<Model>>("models")));
  myInputProbes = &static_cast<ComponentList<Probe>&>(
      addComponent(std::make_unique<ComponentList<Probe>>("inputProbes")));
  myControllers = &static_cast<ComponentList<Controller>&>(
      addComponent(std::make_unique<ComponentList<Controller>>("controllers")));
  myMonitors = &static_cast<ComponentList<Monitor>&>(
      addComponent(std::make_unique<ComponentList<Monitor>>("monitors")));
  myOutputProbes = &static_cast<ComponentList<Probe>&>(
      addComponent(std::make_unique<ComponentList<Probe>>("outputProbes")));
}

void RootModel::setMaxStepSize(double h) {
  if (!(h > 0)) throw ModelError("maxStepSize must be positive", getPathName());
  myMaxStepSize = h;
}

Controller& RootModel::addController(const std::string& name, std::function<void(double, double)> fn) {
  return addController(std::make_unique<FunctionController>(name, std::move(fn)));
}

Monitor& RootModel::addMonitor(const std::string& name, std::function<void(double, double)> fn) {
  return addMonitor(std::make_unique<FunctionMonitor>(name, std::move(fn)));
}

void RootModel::initialize(double t0) {
  myTime = t0;
  for (auto& m : *myModels) m.initialize(t0);
  for (auto& p : *myInputProbes) p.initialize(t0);
  for (auto& c : *myControllers) c.initialize(t0);
  for (auto& m : *myMonitors) m.initialize(t0);
  for (auto& p : *myOutputProbes) p.initialize(t0);
  // Output probes record the initial state (ArtiSynth samples at t0 too).
  for (auto& p : *myOutputProbes)
    if (p.isActive() && p.isInInterval(t0)) p.apply(t0);
}

template <class L, class F>
void RootModel::applyAgents(L& list, const Model* m, F&& f) {
  for (auto& a : list)
    if (a.isActive() && a.getModel() == m) f(a);
}

void RootModel::advanceModel(Model& m, double t0, double t1) {
  // A model may ask for a smaller step than the root's (§4.1.1).
  double hmax = m.getMaxStepSize();
  int n = (hmax > 0 && t1 - t0 > hmax) ? static_cast<int>(std::ceil((t1 - t0) / hmax - 1e-9)) : 1;
  Eigen::VectorXd saved;
  for (int k = 0; k < n; ++k) {
    double ta = t0 + (t1 - t0) * k / n;
    double tb = (k == n - 1) ? t1 : t0 + (t1 - t0) * (k + 1) / n;
    if (myAdaptive) m.getState(saved);
    StepAdjustment adj = m.advance(ta, tb);
    if (adj.requestsReduction() && myAdaptive && (tb - ta) > 1e-6 * myMaxStepSize) {
      // Roll back and redo this sub-step as two halves.
      m.setState(saved);
      double tm = 0.5 * (ta + tb);
      advanceModel(m, ta, tm);
      advanceModel(m, tm, tb);
    }
  }
}

void RootModel::advance(double t0, double t1) {
  auto inputs = [&](const Model* m) {
    applyAgents(*myInputProbes, m, [&](Probe& p) { if (p.isInInterval(t1)) p.apply(t1); });
    applyAgents(*myControllers, m, [&](Controller& c) { c.apply(t0, t1); });
  };
  auto outputs = [&](const Model* m) {
    applyAgents(*myMonitors, m, [&](Monitor& mon) { mon.apply(t0, t1); });
    applyAgents(*myOutputProbes, m, [&](Probe& p) { if (p.isInInterval(t1)) p.apply(t1); });
  };
  inputs(nullptr);
  for (auto& m : *myModels) {
    m.preadvance(t0, t1);
    inputs(&m);
    advanceModel(m, t0, t1);
    outputs(&m);
  }
  outputs(nullptr);
  myTime = t1;
}

void RootModel::run(double tEnd, const std::function<void(double)>& progress) {
  // Step count from the total so that round-off never adds a sliver step.
  const double t0 = myTime;
  long n = std::lround(std::ceil((tEnd - t0) / myMaxStepSize - 1e-9));
  for (long k = 0; k < n; ++k) {
    double ta = t0 + k * myMaxStepSize;
    double tb = (k == n - 1) ? tEnd : t0 + (k + 1) * myMaxStepSize;
    advance(ta, tb);
    if (progress) progress(tb);
  }
}

void RootModel::getState(Eigen::VectorXd& state) const {
  std::vector<Eigen::VectorXd> parts;
  Eigen::Index total = 1;
  for (auto& m : *myModels) {
    parts.emplace_back();
    m.getState(parts.back());
    total += parts.back().size() + 1;
  }
  state.resize(total);
  Eigen::Index k = 0;
  state[k++] = myTime;
  for (auto& p : parts) {
    state[k++] = static_cast<double>(p.size());
    state.segment(k, p.size()) = p;
    k += p.size();
  }
}

void RootModel::setState(const Eigen::VectorXd& state) {
  auto bad = [&] { return ModelError("state vector does not match the models", getPathName()); };
  Eigen::Index k = 0;
  if (state.size() < 1) throw bad();
  myTime = state[k++];
  for (auto& m : *myModels) {
    if (k >= state.size()) throw bad();
    auto n = static_cast<Eigen::Index>(state[k++]);
    if (n < 0 || k + n > state.size()) throw bad();
    m.setState(state.segment(k, n));
    k += n;
  }
}

double RootModel::getEnergy() const {
  double e = 0;
  for (auto& m : *myModels) e += m.getEnergy();
  return e;
}

ModelRegistry& ModelRegistry::instance() {
  static ModelRegistry reg;
  return reg;
}

void ModelRegistry::add(const std::string& name, Factory f, const std::string& description) {
  myEntries[name] = {std::move(f), description};
}

std::unique_ptr<RootModel> ModelRegistry::create(const std::string& name,
                                                 const std::vector<std::string>& args) const {
  auto it = myEntries.find(name);
  if (it == myEntries.end()) throw ModelError("unknown model '" + name + "' (see 'sinew list')");
  auto root = it->second.create();
  root->setName(name);
  root->build(args);
  return root;
}

}  // namespace sinew
