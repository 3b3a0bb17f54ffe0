// The `sinew` command (apps/sinew.cpp, apps/RunCommand.cpp): `sinew list`
// and `sinew run`, run as a separate process into temporary directories.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "demos/Demos.h"
#include "sinew/control/ProbeFile.h"

#ifndef SINEW_CLI
#error "SINEW_CLI must name the sinew binary"
#endif

namespace sinew {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

std::string readFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

/// A temporary working directory for one test, removed afterwards.
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    myDir = fs::temp_directory_path() /
            ("sinew-cli-" + std::to_string(::getpid()) + "-" + info->name());
    fs::remove_all(myDir);
    fs::create_directories(myDir);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(myDir, ec);
  }

  struct Result {
    int code = -1;
    std::string out, err;
  };

  /// Runs `sinew ARGS` in the temp dir; returns its exit code and output.
  Result sinew(const std::string& args) {
    fs::path out = myDir / "stdout.txt", err = myDir / "stderr.txt";
    std::string cmd = "cd " + quote(myDir.string()) + " && " + quote(SINEW_CLI) + " " + args + " >" +
                      quote(out.string()) + " 2>" + quote(err.string());
    int status = std::system(cmd.c_str());
    Result r;
    r.code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
    r.out = readFile(out);
    r.err = readFile(err);
    return r;
  }

  fs::path dir(const std::string& sub) const { return myDir / sub; }

  fs::path myDir;
};

/// The raw JSON value of "key" in a flat summary.json: a quoted string with
/// its quotes, a number, or null; empty if the key is missing.
std::string jsonValue(const std::string& json, const std::string& key) {
  const std::string k = "\"" + key + "\":";
  size_t pos = json.find(k);
  if (pos == std::string::npos) return {};
  pos += k.size();
  while (pos < json.size() && (json[pos] == ' ' || json[pos] == '\t')) ++pos;
  if (pos < json.size() && json[pos] == '"') {
    size_t end = pos + 1;
    while (end < json.size() && json[end] != '"') end += json[end] == '\\' ? 2 : 1;
    return json.substr(pos, end + 1 - pos);
  }
  size_t end = json.find_first_of(",}\n", pos);
  std::string v = json.substr(pos, end - pos);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
  return v;
}

double jsonNumber(const std::string& json, const std::string& key) {
  std::string v = jsonValue(json, key);
  if (v.empty() || v == "null") return NAN;
  return std::strtod(v.c_str(), nullptr);
}

/// A CSV file: header fields and rows of numbers (NaN for an unreadable field).
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
  std::vector<std::string> rawRows;
};

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  for (std::string f; std::getline(ss, f, sep);) out.push_back(f);
  return out;
}

Csv readCsv(const fs::path& p) {
  Csv csv;
  std::ifstream in(p);
  std::string line;
  if (std::getline(in, line)) csv.header = split(line, ',');
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    csv.rawRows.push_back(line);
    std::vector<double> row;
    for (auto& f : split(line, ',')) {
      char* end = nullptr;
      double x = std::strtod(f.c_str(), &end);
      row.push_back(end != f.c_str() && *end == '\0' ? x : NAN);
    }
    csv.rows.push_back(row);
  }
  return csv;
}

// ------------------------------------------------------------------ list

TEST_F(CliTest, ListPrintsEveryDemo) {
  Result r = sinew("list");
  ASSERT_EQ(r.code, 0) << r.err;
  demos::registerDemos();
  ASSERT_FALSE(ModelRegistry::instance().entries().empty());
  for (auto& [name, entry] : ModelRegistry::instance().entries()) {
    EXPECT_TRUE(contains(r.out, name + "\n") || contains(r.out, name + " ")) << name << " missing from:\n" << r.out;
    EXPECT_TRUE(contains(r.out, entry.description)) << entry.description;
  }
  EXPECT_TRUE(contains(r.out, std::string(demos::defaultDemo()) + " (default)")) << r.out;
}

TEST_F(CliTest, NoSubcommandIsAnError) {
  Result r = sinew("");
  EXPECT_NE(r.code, 0);
}

// ------------------------------------------------------------------ run

TEST_F(CliTest, RunWithoutModelRunsTheDefaultDemo) {
  Result r = sinew("run --quiet --output out");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string js = readFile(dir("out/summary.json"));
  ASSERT_FALSE(js.empty()) << "no summary.json";
  EXPECT_EQ(jsonValue(js, "model"), "\"SimpleMuscleWithProbes\"");
  EXPECT_EQ(jsonValue(js, "error"), "null");
  // The default duration is the probes' end: the output probe stops at 10 s.
  const double duration = jsonNumber(js, "requestedTime");
  EXPECT_EQ(duration, 10.0);
  EXPECT_EQ(jsonNumber(js, "simulatedTime"), duration);
  EXPECT_EQ(jsonNumber(js, "steps"), 1000);
  EXPECT_EQ(jsonNumber(js, "stepSize"), 0.01);
  EXPECT_GE(jsonNumber(js, "wallTime"), 0.0);
  EXPECT_TRUE(std::isfinite(jsonNumber(js, "finalEnergy"))) << jsonValue(js, "finalEnergy");

  ASSERT_TRUE(fs::exists(dir("out/FrameMarkerVelocity.csv")));
  Csv csv = readCsv(dir("out/FrameMarkerVelocity.csv"));
  ASSERT_EQ(csv.header.size(), 4u);
  EXPECT_EQ(csv.header[0], "time");
  EXPECT_TRUE(contains(csv.header[1], "velocity")) << csv.header[1];
  const size_t expectedRows = 1 + static_cast<size_t>(std::lround(duration / 0.01));
  ASSERT_EQ(csv.rows.size(), expectedRows);
  for (size_t k = 0; k < csv.rows.size(); ++k) {
    ASSERT_EQ(csv.rows[k].size(), 4u) << csv.rawRows[k];
    EXPECT_NEAR(csv.rows[k][0], 0.01 * k, 1e-9) << "row " << k;
    for (double x : csv.rows[k]) EXPECT_TRUE(std::isfinite(x)) << csv.rawRows[k];
  }
}

TEST_F(CliTest, RunWithProbeAndProbeFormat) {
  Result r = sinew(
      "run ParticleSpring --duration 1 --step 0.001 --integrator RungeKutta4 "
      "--probe models/mech/particles/p2:position --probe-format --quiet --output out");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string js = readFile(dir("out/summary.json"));
  EXPECT_EQ(jsonValue(js, "model"), "\"ParticleSpring\"");
  EXPECT_TRUE(contains(js, "\"steps\": 1000")) << js;
  EXPECT_EQ(jsonNumber(js, "simulatedTime"), 1.0);
  EXPECT_EQ(jsonNumber(js, "stepSize"), 0.001);
  EXPECT_EQ(jsonValue(js, "error"), "null");
  // A spring model has an energy.
  EXPECT_TRUE(std::isfinite(jsonNumber(js, "finalEnergy"))) << jsonValue(js, "finalEnergy");

  const std::string base = "models_mech_particles_p2_position";
  const fs::path csvPath = dir("out/" + base + ".csv"), txtPath = dir("out/" + base + ".txt");
  ASSERT_TRUE(fs::exists(csvPath)) << "outputs: " << jsonValue(js, "outputs");
  ASSERT_TRUE(fs::exists(txtPath));
  Csv csv = readCsv(csvPath);
  ASSERT_EQ(csv.header.size(), 4u);
  EXPECT_EQ(csv.header[0], "time");
  EXPECT_TRUE(contains(csv.header[1], "p2")) << csv.header[1];
  ASSERT_EQ(csv.rows.size(), 1001u) << "t = 0 and every step";

  ProbeData pd = readProbeFile(txtPath.string());
  EXPECT_EQ(pd.vsize, 3);
  ASSERT_EQ(pd.data.numKnots(), static_cast<int>(csv.rows.size()));
  EXPECT_EQ(pd.startTime, 0.0);
  EXPECT_EQ(pd.stopTime, 1.0);
  for (int k = 0; k < pd.data.numKnots(); ++k) {
    const auto& knot = pd.data.knot(k);
    ASSERT_EQ(csv.rows[k].size(), 4u);
    EXPECT_EQ(knot.t, csv.rows[k][0]) << "knot " << k;
    for (int i = 0; i < 3; ++i) EXPECT_EQ(knot.v[i], csv.rows[k][1 + i]) << "knot " << k;
  }
  // p2 starts at (1, 0, 0) and falls.
  EXPECT_EQ(csv.rows.front()[1], 1.0);
  EXPECT_EQ(csv.rows.front()[3], 0.0);
  EXPECT_LT(csv.rows.back()[3], 0.0);
}

TEST_F(CliTest, UnknownModelExitsWith2) {
  Result r = sinew("run NoSuchModel --quiet --output out");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "NoSuchModel")) << r.err;
}

TEST_F(CliTest, UnknownProbePathExitsWith2) {
  Result r = sinew("run ParticleSpring --probe models/mech/particles/nope:position --quiet --output out");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "particles/nope")) << r.err;
}

TEST_F(CliTest, UnknownIntegratorExitsWith2) {
  Result r = sinew("run ParticleSpring --integrator Leapfrog --quiet --output out");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "Leapfrog")) << r.err;
}

TEST_F(CliTest, DivergingRunExitsWith1AndKeepsOutputs) {
  Result r = sinew(
      "run ParticleSpring --integrator ForwardEuler --step 1 --duration 5000 "
      "--probe models/mech/particles/p2:position --quiet --output out");
  EXPECT_EQ(r.code, 1) << r.err;
  const std::string js = readFile(dir("out/summary.json"));
  ASSERT_FALSE(js.empty()) << "no summary.json";
  const std::string error = jsonValue(js, "error");
  ASSERT_NE(error, "null");
  ASSERT_FALSE(error.empty()) << js;
  EXPECT_EQ(error.front(), '"');
  EXPECT_TRUE(contains(error, "t=")) << error;
  EXPECT_TRUE(contains(error, "/models/mech/particles/p2")) << error;
  const double simulated = jsonNumber(js, "simulatedTime");
  ASSERT_TRUE(std::isfinite(simulated));
  EXPECT_GT(simulated, 0.0);
  EXPECT_LT(simulated, 5000.0);
  EXPECT_EQ(jsonNumber(js, "steps"), simulated) << "one step per second";
  // The time in the message is the failed step's end, one step after the last good one.
  char tbuf[64];
  std::snprintf(tbuf, sizeof tbuf, "t=%f", simulated + 1);
  EXPECT_TRUE(contains(error, tbuf)) << error << " (expected " << tbuf << ")";

  const fs::path csvPath = dir("out/models_mech_particles_p2_position.csv");
  ASSERT_TRUE(fs::exists(csvPath));
  Csv csv = readCsv(csvPath);
  ASSERT_GT(csv.rows.size(), 1u) << "outputs gathered before the failure are kept";
  EXPECT_EQ(csv.rows.size(), static_cast<size_t>(simulated) + 1) << "t = 0 and every good step";
  for (size_t k = 0; k < csv.rows.size(); ++k) {
    ASSERT_EQ(csv.rows[k].size(), 4u) << csv.rawRows[k];
    for (double x : csv.rows[k]) ASSERT_TRUE(std::isfinite(x)) << "row " << k << ": " << csv.rawRows[k];
  }
  EXPECT_EQ(csv.rows.back()[0], simulated);
}

}  // namespace
}  // namespace sinew
