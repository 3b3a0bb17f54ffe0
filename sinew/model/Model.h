// Models and the agents around them: Model (a composite that advances in
// time), StepAdjustment, and the agent bases Controller, Monitor, Probe
// (guide §1.1.1, §1.1.4, §4.1.1, §5.3, §5.4).
#pragma once

#include <functional>
#include <string>

#include "sinew/model/Component.h"

namespace sinew {

/// Returned by Model::advance: a request to redo the step with a smaller h.
struct StepAdjustment {
  double scaling = 1.0;  ///< suggested factor on the step size; < 1 asks for a smaller step
  std::string message;
  bool requestsReduction() const { return scaling < 1.0; }
  static StepAdjustment none() { return {}; }
};

/// A composite with state that advances through time (guide §1.1.1).
class Model : public CompositeComponent {
  SINEW_DECLARE_PROPERTIES
 public:
  using CompositeComponent::CompositeComponent;
  virtual void initialize(double t0) { (void)t0; }
  virtual void preadvance(double t0, double t1) { (void)t0; (void)t1; }
  virtual StepAdjustment advance(double t0, double t1) = 0;

  /// Largest step this model accepts; ≤ 0 means "use the root's" (§4.1.1).
  double getMaxStepSize() const { return myMaxStepSize; }
  void setMaxStepSize(double h) { myMaxStepSize = h; }

  /// Full simulation state (positions, velocities, auxiliary state), so that
  /// save → step → restore → step is bit-identical (DESIGN §1 "State").
  virtual void getState(Eigen::VectorXd& state) const { state.resize(0); }
  virtual void setState(const Eigen::VectorXd& state) { (void)state; }
  /// Total energy where defined (kinetic + potential), else NaN.
  virtual double getEnergy() const;

 private:
  double myMaxStepSize = -1;
};

/// Common base of controllers, monitors and probes (guide §5.3, §5.4).
class ModelAgent : public Component {
  SINEW_DECLARE_PROPERTIES
 public:
  using Component::Component;
  bool isActive() const { return myActive; }
  void setActive(bool a) { myActive = a; }
  /// The top-level model this agent is tied to, or nullptr (§1.1.4).
  Model* getModel() const { return myModel; }
  void setModel(Model* m) { myModel = m; }
  /// Called when the simulation is (re)started at time t0.
  virtual void initialize(double t0) { (void)t0; }

 private:
  bool myActive = true;
  Model* myModel = nullptr;
};

/// Applied before the model advances (guide §5.3).
class Controller : public ModelAgent {
 public:
  using ModelAgent::ModelAgent;
  virtual void apply(double t0, double t1) = 0;
};

/// Applied after the model advances (guide §5.3).
class Monitor : public ModelAgent {
 public:
  using ModelAgent::ModelAgent;
  virtual void apply(double t0, double t1) = 0;
};

/// A controller or monitor defined by a function, for short inline agents.
template <class Base>
class FunctionAgent : public Base {
 public:
  using Fn = std::function<void(double, double)>;
  FunctionAgent(std::string name, Fn fn) : Base(std::move(name)), myFn(std::move(fn)) {}
  void apply(double t0, double t1) override { myFn(t0, t1); }

 private:
  Fn myFn;
};
using FunctionController = FunctionAgent<Controller>;
using FunctionMonitor = FunctionAgent<Monitor>;

/// A stream of data tied to a time interval (guide §5.4).
class Probe : public ModelAgent {
  SINEW_DECLARE_PROPERTIES
 public:
  using ModelAgent::ModelAgent;
  double getStartTime() const { return myStartTime; }
  double getStopTime() const { return myStopTime; }
  double getScale() const { return myScale; }
  void setStartTime(double t) { myStartTime = t; }
  void setStopTime(double t) { myStopTime = t; }
  void setScale(double s) { myScale = s; }
  void setInterval(double t0, double t1) { myStartTime = t0; myStopTime = t1; }
  const std::string& getAttachedFileName() const { return myFile; }
  void setAttachedFileName(const std::string& f) { myFile = f; }
  /// True if time t lies in [start, stop] (with a tolerance for round-off).
  bool isInInterval(double t) const;
  /// Applies the probe at time t.
  virtual void apply(double t) = 0;
  virtual bool isInput() const = 0;

 private:
  double myStartTime = 0;
  double myStopTime = 1;
  double myScale = 1;
  std::string myFile;
};

}  // namespace sinew
