// Tests of RootModel advancement (guide §1.1.4; checklist FW-03..FW-06):
// the order in which models and their agents are applied, probe intervals,
// inactive agents, run() stepping, per-model sub-stepping, state save and
// restore, and the model registry.
#include "sinew/model/RootModel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sinew/Error.h"

using sinew::Controller;
using sinew::Model;
using sinew::ModelError;
using sinew::ModelRegistry;
using sinew::Monitor;
using sinew::Probe;
using sinew::RootModel;
using sinew::StepAdjustment;

namespace {

using Log = std::vector<std::string>;

// A model that records its calls and keeps one number of state (its time).
class RecModel : public Model {
 public:
  RecModel(std::string name, Log* log) : Model(std::move(name)), myLog(log) {}
  void initialize(double t0) override { time = t0; }
  void preadvance(double, double) override { myLog->push_back(getName() + ".preadvance"); }
  StepAdjustment advance(double t0, double t1) override {
    myLog->push_back(getName() + ".advance");
    steps.emplace_back(t0, t1);
    time = t1;
    return StepAdjustment::none();
  }
  void getState(Eigen::VectorXd& s) const override {
    s.resize(2);
    s << time, counter;
  }
  void setState(const Eigen::VectorXd& s) override {
    time = s[0];
    counter = s[1];
  }
  double getEnergy() const override { return counter; }

  double time = 0;
  double counter = 0;
  std::vector<std::pair<double, double>> steps;

 private:
  Log* myLog;
};

class RecProbe : public Probe {
 public:
  RecProbe(std::string name, Log* log, bool input) : Probe(std::move(name)), myLog(log), myInput(input) {}
  void apply(double t) override {
    myLog->push_back(getName());
    times.push_back(t);
  }
  bool isInput() const override { return myInput; }
  std::vector<double> times;

 private:
  Log* myLog;
  bool myInput;
};

class RecController : public Controller {
 public:
  RecController(std::string name, Log* log) : Controller(std::move(name)), myLog(log) {}
  void apply(double t0, double t1) override {
    myLog->push_back(getName());
    steps.emplace_back(t0, t1);
  }
  std::vector<std::pair<double, double>> steps;

 private:
  Log* myLog;
};

class RecMonitor : public Monitor {
 public:
  RecMonitor(std::string name, Log* log) : Monitor(std::move(name)), myLog(log) {}
  void apply(double t0, double t1) override {
    myLog->push_back(getName());
    steps.emplace_back(t0, t1);
  }
  std::vector<std::pair<double, double>> steps;

 private:
  Log* myLog;
};

std::unique_ptr<RecProbe> inProbe(const std::string& n, Log* log) {
  return std::make_unique<RecProbe>(n, log, true);
}
std::unique_ptr<RecProbe> outProbe(const std::string& n, Log* log) {
  return std::make_unique<RecProbe>(n, log, false);
}

}  // namespace

// ---------------------------------------------------------------------------
// §1.1.4 order

TEST(ModelRootModel, AdvanceOrderMatchesGuide) {
  Log log;
  RootModel root("root");
  RecModel& m1 = root.addModel(std::make_unique<RecModel>("m1", &log));
  RecModel& m2 = root.addModel(std::make_unique<RecModel>("m2", &log));

  // Agents are added interleaved so that the order must come from the model
  // association, not from list position. Ties use both the addXxx(..., model)
  // overloads and setModel() after adding.
  root.addInputProbe(inProbe("in_m2", &log), &m2);
  root.addInputProbe(inProbe("in_free", &log));
  root.addInputProbe(inProbe("in_m1", &log)).setModel(&m1);
  root.addController(std::make_unique<RecController>("ctl_m1", &log), &m1);
  root.addController(std::make_unique<RecController>("ctl_free", &log));
  root.addController(std::make_unique<RecController>("ctl_m2", &log)).setModel(&m2);
  root.addController("ctl_fn", [&](double, double) { log.push_back("ctl_fn"); });
  root.addMonitor(std::make_unique<RecMonitor>("mon_m2", &log), &m2);
  root.addMonitor(std::make_unique<RecMonitor>("mon_free", &log));
  root.addMonitor(std::make_unique<RecMonitor>("mon_m1", &log)).setModel(&m1);
  root.addMonitor("mon_fn", [&](double, double) { log.push_back("mon_fn"); });
  root.addOutputProbe(outProbe("out_free", &log));
  root.addOutputProbe(outProbe("out_m1", &log), &m1);
  root.addOutputProbe(outProbe("out_m2", &log)).setModel(&m2);

  root.initialize(0);
  log.clear();  // initialize() may sample output probes at t0
  root.advance(0, 0.01);

  const Log expected = {
      // agents tied to no model, before all models
      "in_free", "ctl_free", "ctl_fn",
      // model m1 surrounded by its agents
      "m1.preadvance", "in_m1", "ctl_m1", "m1.advance", "mon_m1", "out_m1",
      // model m2 surrounded by its agents
      "m2.preadvance", "in_m2", "ctl_m2", "m2.advance", "mon_m2", "out_m2",
      // agents tied to no model, after all models
      "mon_free", "mon_fn", "out_free"};
  EXPECT_EQ(log, expected);
  EXPECT_EQ(root.getTime(), 0.01);
}

TEST(ModelRootModel, AgentsReceiveStepTimes) {
  Log log;
  RootModel root;
  RecModel& m = root.addModel(std::make_unique<RecModel>("m", &log));
  auto& ip = root.addInputProbe(inProbe("ip", &log), &m);
  auto& c = root.addController(std::make_unique<RecController>("c", &log), &m);
  auto& mon = root.addMonitor(std::make_unique<RecMonitor>("mon", &log));
  auto& op = root.addOutputProbe(outProbe("op", &log));
  root.initialize(0);
  op.times.clear();
  root.advance(0.25, 0.5);
  // Probes are applied at t1, controllers and monitors get (t0, t1).
  EXPECT_EQ(ip.times, (std::vector<double>{0.5}));
  EXPECT_EQ(op.times, (std::vector<double>{0.5}));
  EXPECT_EQ(c.steps, (std::vector<std::pair<double, double>>{{0.25, 0.5}}));
  EXPECT_EQ(mon.steps, (std::vector<std::pair<double, double>>{{0.25, 0.5}}));
  EXPECT_EQ(m.steps, (std::vector<std::pair<double, double>>{{0.25, 0.5}}));
}

TEST(ModelRootModel, ControllerRunsBeforeAdvanceAndSeesItsEffect) {
  // A controller changes model state that advance() then uses (the
  // EquilibriumMuscleDemo pattern); a monitor sees the result.
  Log log;
  RootModel root;
  RecModel& m = root.addModel(std::make_unique<RecModel>("m", &log));
  double seenByMonitor = -1;
  root.addController("setter", [&](double, double t1) { m.counter = 100 * t1; });
  root.addMonitor("reader", [&](double, double) { seenByMonitor = m.counter; });
  root.initialize(0);
  root.advance(0, 0.5);
  EXPECT_EQ(seenByMonitor, 50.0);
}

// ---------------------------------------------------------------------------
// probe intervals and inactive agents

TEST(ModelRootModel, ProbesApplyOnlyWithinTheirInterval) {
  Log log;
  RootModel root;
  root.setMaxStepSize(0.1);
  root.addModel(std::make_unique<RecModel>("m", &log));
  auto& ip = root.addInputProbe(inProbe("ip", &log));
  auto& op = root.addOutputProbe(outProbe("op", &log));
  ip.setInterval(0.3, 0.5);
  op.setStartTime(0.2);
  op.setStopTime(0.4);
  EXPECT_EQ(op.getStartTime(), 0.2);
  EXPECT_EQ(op.getStopTime(), 0.4);
  root.initialize(0);
  root.run(1.0);
  ASSERT_EQ(ip.times.size(), 3u);
  EXPECT_NEAR(ip.times[0], 0.3, 1e-12);
  EXPECT_NEAR(ip.times[1], 0.4, 1e-12);
  EXPECT_NEAR(ip.times[2], 0.5, 1e-12);
  ASSERT_EQ(op.times.size(), 3u);  // t = 0.2, 0.3, 0.4 (0 is outside [0.2, 0.4])
  EXPECT_NEAR(op.times[0], 0.2, 1e-12);
  EXPECT_NEAR(op.times[2], 0.4, 1e-12);
  for (double t : ip.times) EXPECT_TRUE(ip.isInInterval(t));
  EXPECT_FALSE(ip.isInInterval(0.29));
  EXPECT_FALSE(ip.isInInterval(0.51));
}

TEST(ModelRootModel, InactiveAgentsAreSkipped) {
  Log log;
  RootModel root;
  RecModel& m = root.addModel(std::make_unique<RecModel>("m", &log));
  root.addInputProbe(inProbe("ip", &log), &m).setActive(false);
  root.addController(std::make_unique<RecController>("c", &log)).setActive(false);
  auto& mon = root.addMonitor(std::make_unique<RecMonitor>("mon", &log), &m);
  mon.getProperty("active").set(false);  // through the property too
  EXPECT_FALSE(mon.isActive());
  root.addOutputProbe(outProbe("op", &log)).setActive(false);
  root.addController(std::make_unique<RecController>("c_on", &log));
  root.initialize(0);
  log.clear();
  root.advance(0, 0.01);
  EXPECT_EQ(log, (Log{"c_on", "m.preadvance", "m.advance"}));
  // Re-activating brings the agent back.
  mon.setActive(true);
  log.clear();
  root.advance(0.01, 0.02);
  EXPECT_EQ(log, (Log{"c_on", "m.preadvance", "m.advance", "mon"}));
}

TEST(ModelRootModel, InitializeSamplesActiveOutputProbesAtStartTime) {
  Log log;
  RootModel root;
  root.addModel(std::make_unique<RecModel>("m", &log));
  auto& op = root.addOutputProbe(outProbe("op", &log));
  auto& late = root.addOutputProbe(outProbe("late", &log));
  late.setInterval(0.5, 1.0);
  root.initialize(0);
  EXPECT_EQ(op.times, (std::vector<double>{0.0}));
  EXPECT_TRUE(late.times.empty());
}

// ---------------------------------------------------------------------------
// stepping

TEST(ModelRootModel, RunTakesCeilStepsEndingExactlyAtTEnd) {
  Log log;
  RootModel root;
  root.setMaxStepSize(0.3);
  RecModel& m = root.addModel(std::make_unique<RecModel>("m", &log));
  std::vector<double> progress;
  root.initialize(0);
  root.run(1.0, [&](double t) { progress.push_back(t); });
  // ceil(1.0 / 0.3) = 4 steps: 0.3, 0.6, 0.9 and a short last one to 1.0.
  ASSERT_EQ(m.steps.size(), 4u);
  ASSERT_EQ(progress.size(), 4u);
  EXPECT_EQ(m.steps.front().first, 0.0);
  EXPECT_EQ(m.steps.back().second, 1.0);  // exactly
  EXPECT_EQ(progress.back(), 1.0);
  EXPECT_EQ(root.getTime(), 1.0);
  for (size_t k = 0; k < m.steps.size(); ++k) {
    EXPECT_NEAR(m.steps[k].first, 0.3 * k, 1e-12);
    if (k + 1 < m.steps.size()) {
      EXPECT_EQ(m.steps[k].second, m.steps[k + 1].first);  // contiguous
    }
    EXPECT_LE(m.steps[k].second - m.steps[k].first, 0.3 + 1e-12);
  }
}

TEST(ModelRootModel, RunWithExactMultipleHasNoSliverStep) {
  Log log;
  RootModel root;
  root.setMaxStepSize(0.01);
  RecModel& m = root.addModel(std::make_unique<RecModel>("m", &log));
  root.initialize(0);
  root.run(1.0);  // 1.0 / 0.01 is not exact in binary; still 100 steps
  EXPECT_EQ(m.steps.size(), 100u);
  EXPECT_EQ(m.steps.back().second, 1.0);
  // Continuing from the current time.
  root.run(1.5);
  EXPECT_EQ(m.steps.size(), 150u);
  EXPECT_EQ(root.getTime(), 1.5);
  EXPECT_EQ(m.steps[100].first, 1.0);
}

TEST(ModelRootModel, MaxStepSizeMustBePositive) {
  RootModel root;
  EXPECT_THROW(root.setMaxStepSize(0), ModelError);
  EXPECT_THROW(root.setMaxStepSize(-0.1), ModelError);
  EXPECT_EQ(root.getMaxStepSize(), 0.01);  // default unchanged
  root.getProperty("maxStepSize").set(0.02);
  EXPECT_EQ(root.getMaxStepSize(), 0.02);
  EXPECT_THROW(root.getProperty("maxStepSize").set(-1.0), ModelError);
  EXPECT_TRUE(root.getProperty("time").info().isReadOnly());
}

TEST(ModelRootModel, ModelMaxStepSizeSubdividesRootSteps) {
  Log log;
  RootModel root;
  root.setMaxStepSize(0.1);
  RecModel& fine = root.addModel(std::make_unique<RecModel>("fine", &log));
  RecModel& coarse = root.addModel(std::make_unique<RecModel>("coarse", &log));
  RecModel& big = root.addModel(std::make_unique<RecModel>("big", &log));
  fine.setMaxStepSize(0.03);  // ceil(0.1 / 0.03) = 4 equal sub-steps of 0.025
  big.setMaxStepSize(0.5);    // larger than the root's: no subdivision
  auto& c = root.addController(std::make_unique<RecController>("c", &log), &fine);
  root.initialize(0);
  log.clear();
  root.advance(0.2, 0.3);

  ASSERT_EQ(fine.steps.size(), 4u);
  for (int k = 0; k < 4; ++k) {
    EXPECT_NEAR(fine.steps[k].first, 0.2 + 0.025 * k, 1e-14) << k;
    EXPECT_NEAR(fine.steps[k].second, 0.2 + 0.025 * (k + 1), 1e-14) << k;
    EXPECT_NEAR(fine.steps[k].second - fine.steps[k].first, 0.025, 1e-14) << k;
  }
  EXPECT_EQ(fine.steps.front().first, 0.2);
  EXPECT_EQ(fine.steps.back().second, 0.3);  // exactly the root's t1
  EXPECT_EQ(coarse.steps, (std::vector<std::pair<double, double>>{{0.2, 0.3}}));
  EXPECT_EQ(big.steps, (std::vector<std::pair<double, double>>{{0.2, 0.3}}));
  // The model's agents and preadvance still run once per root step.
  EXPECT_EQ(c.steps, (std::vector<std::pair<double, double>>{{0.2, 0.3}}));
  EXPECT_EQ(std::count(log.begin(), log.end(), "fine.preadvance"), 1);
  EXPECT_EQ(std::count(log.begin(), log.end(), "fine.advance"), 4);

  // A model step size that divides the root's exactly gives exactly that many.
  fine.steps.clear();
  fine.setMaxStepSize(0.05);
  root.advance(0.3, 0.4);
  EXPECT_EQ(fine.steps.size(), 2u);
}

TEST(ModelRootModel, AdaptiveSteppingRedoesRejectedSteps) {
  // A model that rejects any step longer than 0.03 (asks for a smaller one).
  struct Picky : Model {
    using Model::Model;
    double x = 0;
    std::vector<std::pair<double, double>> accepted;
    StepAdjustment advance(double t0, double t1) override {
      x += 1;  // state change that must be rolled back on rejection
      if (t1 - t0 > 0.03) return {0.5, "too big"};
      accepted.emplace_back(t0, t1);
      return {};
    }
    void getState(Eigen::VectorXd& s) const override { s = Eigen::VectorXd::Constant(1, x); }
    void setState(const Eigen::VectorXd& s) override { x = s[0]; }
  };
  RootModel root;
  root.setMaxStepSize(0.1);
  root.setAdaptiveStepping(true);
  Picky& m = root.addModel(std::make_unique<Picky>("picky"));
  root.initialize(0);
  root.advance(0, 0.1);
  // 0.1 → halves 0.05 → quarters 0.025: four accepted steps covering [0, 0.1].
  ASSERT_EQ(m.accepted.size(), 4u);
  EXPECT_EQ(m.accepted.front().first, 0.0);
  EXPECT_EQ(m.accepted.back().second, 0.1);
  for (size_t k = 0; k + 1 < m.accepted.size(); ++k)
    EXPECT_EQ(m.accepted[k].second, m.accepted[k + 1].first);
  // Rejected attempts were rolled back: x counts only the accepted steps.
  EXPECT_EQ(m.x, 4.0);
}

// ---------------------------------------------------------------------------
// state

TEST(ModelRootModel, GetStateSetStateRoundTripRestoresTime) {
  Log log;
  RootModel root;
  root.setMaxStepSize(0.1);
  RecModel& a = root.addModel(std::make_unique<RecModel>("a", &log));
  RecModel& b = root.addModel(std::make_unique<RecModel>("b", &log));
  root.initialize(0);
  root.run(0.3);
  a.counter = 7;
  b.counter = -2;
  Eigen::VectorXd saved;
  root.getState(saved);
  EXPECT_NEAR(saved[0], 0.3, 1e-15);  // the time comes first

  root.run(0.7);
  a.counter = 100;
  b.counter = 200;
  EXPECT_EQ(root.getTime(), 0.7);

  root.setState(saved);
  EXPECT_EQ(root.getTime(), saved[0]);
  EXPECT_EQ(a.counter, 7);
  EXPECT_EQ(b.counter, -2);
  EXPECT_EQ(a.time, b.time);
  EXPECT_NEAR(a.time, 0.3, 1e-15);
  Eigen::VectorXd again;
  root.getState(again);
  EXPECT_EQ(again, saved);  // bit-identical
  EXPECT_EQ(root.getEnergy(), 5.0);

  // Running on from the restored state resumes at the saved time.
  a.steps.clear();
  root.run(0.5);
  ASSERT_EQ(a.steps.size(), 2u);
  EXPECT_NEAR(a.steps.front().first, 0.3, 1e-15);
  EXPECT_EQ(a.steps.back().second, 0.5);
}

TEST(ModelRootModel, EnergyIsNaNWhenAModelDoesNotDefineIt) {
  struct NoEnergy : Model {
    using Model::Model;
    StepAdjustment advance(double, double) override { return {}; }
  };
  RootModel root;
  root.addModel(std::make_unique<NoEnergy>("n"));
  EXPECT_TRUE(std::isnan(root.getEnergy()));
  EXPECT_EQ(RootModel().getEnergy(), 0.0);
}

// ---------------------------------------------------------------------------
// registry

TEST(ModelRootModel, RegistryCreatesByNameAndRejectsUnknown) {
  ModelRegistry reg;  // a private registry, not the global one
  std::vector<std::string> seenArgs;
  struct Built : RootModel {
    std::vector<std::string>* seen = nullptr;
    void build(const std::vector<std::string>& args) override { *seen = args; }
  };
  reg.add("Demo", [&] {
    auto r = std::make_unique<Built>();
    r->seen = &seenArgs;
    return r;
  }, "a test model");
  ASSERT_EQ(reg.entries().count("Demo"), 1u);
  EXPECT_EQ(reg.entries().at("Demo").description, "a test model");

  std::unique_ptr<RootModel> r = reg.create("Demo", {"-size", "50"});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->getName(), "Demo");
  EXPECT_EQ(seenArgs, (std::vector<std::string>{"-size", "50"}));

  EXPECT_THROW(reg.create("NoSuchModel"), ModelError);
  EXPECT_THROW(ModelRegistry::instance().create("NoSuchModel_7f3a"), ModelError);
}
