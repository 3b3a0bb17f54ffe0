// RootModel: the top of the tree, holding the models and the agents that
// drive and observe them, and advancing them in the order of guide §1.1.4.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sinew/model/Model.h"

namespace sinew {

class RootModel : public CompositeComponent {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit RootModel(std::string name = {});

  /// Builds the model; application models override it (guide §1.5.1).
  virtual void build(const std::vector<std::string>& args) { (void)args; }

  ComponentList<Model>& models() { return *myModels; }
  ComponentList<Probe>& inputProbes() { return *myInputProbes; }
  ComponentList<Controller>& controllers() { return *myControllers; }
  ComponentList<Monitor>& monitors() { return *myMonitors; }
  ComponentList<Probe>& outputProbes() { return *myOutputProbes; }

  template <class M>
  M& addModel(std::unique_ptr<M> m) { return static_cast<M&>(myModels->add(std::move(m))); }
  /// Adds an agent; `model` ties it to a model (nullptr keeps the agent's own).
  template <class C>
  C& addController(std::unique_ptr<C> c, Model* model = nullptr);
  template <class C>
  C& addMonitor(std::unique_ptr<C> c, Model* model = nullptr);
  template <class P>
  P& addInputProbe(std::unique_ptr<P> p, Model* model = nullptr);
  template <class P>
  P& addOutputProbe(std::unique_ptr<P> p, Model* model = nullptr);
  /// A controller or monitor from a function (t0, t1).
  Controller& addController(const std::string& name, std::function<void(double, double)> fn);
  Monitor& addMonitor(const std::string& name, std::function<void(double, double)> fn);

  double getMaxStepSize() const { return myMaxStepSize; }
  void setMaxStepSize(double h);
  bool getAdaptiveStepping() const { return myAdaptive; }
  void setAdaptiveStepping(bool on) { myAdaptive = on; }
  double getTime() const { return myTime; }

  /// Resets agents and models to time t0 (default 0).
  void initialize(double t0 = 0);
  /// One root step from t0 to t1, in the order of §1.1.4. Each model is
  /// stepped with at most its own maxStepSize.
  void advance(double t0, double t1);
  /// Advances from the current time to tEnd in steps of maxStepSize.
  /// `progress`, if given, is called after every step with the time.
  void run(double tEnd, const std::function<void(double)>& progress = {});

  /// State of every model plus the time (for save/restore).
  void getState(Eigen::VectorXd& state) const;
  void setState(const Eigen::VectorXd& state);

  /// Sum of model energies (NaN if any model does not define it).
  double getEnergy() const;

 private:
  void advanceModel(Model& m, double t0, double t1);
  template <class L, class F>
  void applyAgents(L& list, const Model* m, F&& f);

  ComponentList<Model>* myModels;
  ComponentList<Probe>* myInputProbes;
  ComponentList<Controller>* myControllers;
  ComponentList<Monitor>* myMonitors;
  ComponentList<Probe>* myOutputProbes;
  double myMaxStepSize = 0.01;
  bool myAdaptive = false;
  double myTime = 0;
};

template <class C>
C& RootModel::addController(std::unique_ptr<C> c, Model* model) {
  if (model) c->setModel(model);
  return static_cast<C&>(myControllers->add(std::move(c)));
}
template <class C>
C& RootModel::addMonitor(std::unique_ptr<C> c, Model* model) {
  if (model) c->setModel(model);
  return static_cast<C&>(myMonitors->add(std::move(c)));
}
template <class P>
P& RootModel::addInputProbe(std::unique_ptr<P> p, Model* model) {
  if (model) p->setModel(model);
  return static_cast<P&>(myInputProbes->add(std::move(p)));
}
template <class P>
P& RootModel::addOutputProbe(std::unique_ptr<P> p, Model* model) {
  if (model) p->setModel(model);
  return static_cast<P&>(myOutputProbes->add(std::move(p)));
}

/// Registry of application models by name, for `sinew list` and `sinew run`
/// (guide §1.5.2).
class ModelRegistry {
 public:
  using Factory = std::function<std::unique_ptr<RootModel>()>;
  struct Entry {
    Factory create;
    std::string description;
  };
  static ModelRegistry& instance();
  void add(const std::string& name, Factory f, const std::string& description = {});
  /// Builds the named model with the given build() arguments; throws
  /// ModelError if the name is unknown.
  std::unique_ptr<RootModel> create(const std::string& name,
                                    const std::vector<std::string>& args = {}) const;
  const std::map<std::string, Entry>& entries() const { return myEntries; }

 private:
  std::map<std::string, Entry> myEntries;
};

}  // namespace sinew
