// Tests of the §5.4.4 probe data file reader/writer and §5.4.5 in-line data.
#include "sinew/control/ProbeFile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sinew/Error.h"

using sinew::InterpolationOrder;
using sinew::NumericList;
using sinew::ProbeData;

namespace {

// The guide's §5.4.4 example, in its two forms (note the final "0.").
const char* kExplicitExample =
    "0 4.0 1.0\n"
    "Linear 3 explicit\n"
    "0.0  0.0 0.0 0.0\n"
    "1.0  0.5 0.0 0.5\n"
    "2.0  0.0 0.0 1.0\n"
    "3.0 -0.5 0.0 0.5\n"
    "4.0  0.0 0.0 0.\n";

const char* kImplicitExample =
    "0 4.0 1.0\n"
    "Linear 3 1.0\n"
    " 0.0 0.0 0.0\n"
    " 0.5 0.0 0.5\n"
    " 0.0 0.0 1.0\n"
    "-0.5 0.0 0.5\n"
    " 0.0 0.0 0.\n";

std::string tempPath(const std::string& name) { return testing::TempDir() + "sinew_probe_" + name; }

std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string path = tempPath(name);
  std::ofstream(path) << text;
  return path;
}

ProbeData parse(const std::string& text) {
  std::istringstream in(text);
  return sinew::parseProbeData(in, "test.txt");
}

Eigen::VectorXd vec3(double x, double y, double z) { return Eigen::Vector3d(x, y, z); }

void expectGuideExample(const ProbeData& pd) {
  EXPECT_EQ(pd.startTime, 0.0);
  EXPECT_EQ(pd.stopTime, 4.0);
  EXPECT_EQ(pd.scale, 1.0);
  EXPECT_EQ(pd.order, InterpolationOrder::Linear);
  EXPECT_EQ(pd.vsize, 3);
  EXPECT_EQ(pd.data.getVsize(), 3);
  const std::vector<Eigen::VectorXd> values = {vec3(0, 0, 0), vec3(0.5, 0, 0.5), vec3(0, 0, 1),
                                               vec3(-0.5, 0, 0.5), vec3(0, 0, 0)};
  ASSERT_EQ(pd.data.numKnots(), 5);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(pd.data.knot(i).t, static_cast<double>(i));
    EXPECT_EQ(pd.data.knot(i).v, values[i]) << "knot " << i;
  }
}

void expectSameKnots(const NumericList& a, const NumericList& b) {
  ASSERT_EQ(a.numKnots(), b.numKnots());
  ASSERT_EQ(a.getVsize(), b.getVsize());
  for (int i = 0; i < a.numKnots(); ++i) {
    EXPECT_EQ(a.knot(i).t, b.knot(i).t) << i;
    EXPECT_EQ(a.knot(i).v, b.knot(i).v) << i;
  }
}

// Data with values that need all 17 digits to survive a round trip.
ProbeData awkwardData() {
  ProbeData pd;
  pd.startTime = 0.1;
  pd.stopTime = 4.0;
  pd.scale = 1.0 / 3.0;
  pd.order = InterpolationOrder::Cubic;
  pd.vsize = 3;
  pd.data = NumericList(3);
  const double times[] = {0.0, 0.1, 1.0 / 3.0, 0.7, 2.0 / 7.0 + 1, 3.9};
  for (int i = 0; i < 6; ++i) {
    pd.data.add(times[i], vec3(std::sqrt(2.0) * i, -1e-300 * i, 6.02214076e23 / (i + 1)));
  }
  return pd;
}

}  // namespace

TEST(ProbeFile, ReadsTheGuideExampleInBothForms) {
  const ProbeData ex = sinew::readProbeFile(writeTemp("explicit.txt", kExplicitExample));
  const ProbeData im = sinew::readProbeFile(writeTemp("implicit.txt", kImplicitExample));
  expectGuideExample(ex);
  expectGuideExample(im);
  EXPECT_TRUE(ex.explicitTime);
  EXPECT_FALSE(im.explicitTime);
  EXPECT_EQ(im.timeStep, 1.0);
  expectSameKnots(ex.data, im.data);
}

TEST(ProbeFile, GuideExampleInterpolates) {
  const ProbeData pd = parse(kExplicitExample);
  EXPECT_EQ(pd.data.interpolate(0.5, pd.order), vec3(0.25, 0, 0.25));
  EXPECT_EQ(pd.data.interpolate(2.5, pd.order), vec3(-0.25, 0, 0.75));
  EXPECT_EQ(pd.data.interpolate(3.5, InterpolationOrder::Step), vec3(-0.5, 0, 0.5));
  EXPECT_EQ(pd.data.interpolate(6.0, pd.order), vec3(0, 0, 0));  // held after t = 4
}

TEST(ProbeFile, ToleratesBlankLinesCommentsAndOddSpacing) {
  const ProbeData pd = parse(
      "\n# a probe\n  0.   4.0\t1.0   \r\n\n"
      "linear 3 EXPLICIT  # lower case order, upper case keyword\n"
      "0.0 0.0 0.0 0.0\n\n"
      "+1.0 .5 0 5e-1   \r\n"
      "2 0.0 0.0 1.0\n");
  EXPECT_EQ(pd.order, InterpolationOrder::Linear);
  ASSERT_EQ(pd.data.numKnots(), 3);
  EXPECT_EQ(pd.data.knot(1).t, 1.0);
  EXPECT_EQ(pd.data.knot(1).v, vec3(0.5, 0, 0.5));
  EXPECT_EQ(pd.data.knot(2).t, 2.0);
}

TEST(ProbeFile, AcceptsHeaderOnlyFiles) {
  const ProbeData pd = parse("0.5 2.5 2\nCubic 2 0.25\n");
  EXPECT_EQ(pd.startTime, 0.5);
  EXPECT_EQ(pd.stopTime, 2.5);
  EXPECT_EQ(pd.scale, 2.0);
  EXPECT_EQ(pd.order, InterpolationOrder::Cubic);
  EXPECT_EQ(pd.data.numKnots(), 0);
  EXPECT_EQ(pd.data.getVsize(), 2);
}

TEST(ProbeFile, ImplicitTimesAreExactMultiplesOfTheStep) {
  std::string text = "0 10.0 1\nStep 1 0.1\n";
  for (int i = 0; i < 50; ++i) text += std::to_string(i) + "\n";
  const ProbeData pd = parse(text);
  ASSERT_EQ(pd.data.numKnots(), 50);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(pd.data.knot(i).t, i * 0.1);
}

TEST(ProbeFile, ExplicitRoundTripIsBitIdentical) {
  const ProbeData pd = awkwardData();
  const std::string path = tempPath("roundtrip.txt");
  sinew::writeProbeFile(path, pd);
  const ProbeData back = sinew::readProbeFile(path);
  EXPECT_EQ(back.startTime, pd.startTime);
  EXPECT_EQ(back.stopTime, pd.stopTime);
  EXPECT_EQ(back.scale, pd.scale);
  EXPECT_EQ(back.order, pd.order);
  EXPECT_EQ(back.vsize, pd.vsize);
  EXPECT_TRUE(back.explicitTime);
  expectSameKnots(back.data, pd.data);
}

TEST(ProbeFile, ImplicitRoundTripIsBitIdentical) {
  ProbeData pd = parse(kExplicitExample);
  const std::string path = tempPath("roundtrip_implicit.txt");
  sinew::writeProbeFile(path, pd, false);
  const ProbeData back = sinew::readProbeFile(path);
  EXPECT_FALSE(back.explicitTime);
  EXPECT_EQ(back.timeStep, 1.0);
  expectSameKnots(back.data, pd.data);

  // Steps like 0.1 survive too: both sides compute i * step.
  ProbeData fine;
  fine.vsize = 1;
  fine.timeStep = 0.1;
  fine.data = NumericList(1);
  for (int i = 0; i < 30; ++i) fine.data.add(i * 0.1, Eigen::VectorXd::Constant(1, i / 7.0));
  std::stringstream text;
  sinew::writeProbeData(text, fine, false);
  expectSameKnots(sinew::parseProbeData(text, "fine").data, fine.data);
}

TEST(ProbeFile, WriterMarksTimesAsSecondsAndUsesTheGuideLayout) {
  ProbeData pd = parse(kExplicitExample);
  std::ostringstream out;
  sinew::writeProbeData(out, pd);
  std::istringstream lines(out.str());
  std::string first, second, third;
  std::getline(lines, first);
  std::getline(lines, second);
  std::getline(lines, third);
  EXPECT_EQ(first, "0.0 4.0 1");  // integer start/stop would read as nanoseconds
  EXPECT_EQ(second, "Linear 3 explicit");
  EXPECT_EQ(third, "0 0 0 0");

  std::ostringstream fixed;
  sinew::writeProbeData(fixed, pd, false, "%.3f");
  EXPECT_EQ(fixed.str(),
            "0.000 4.000 1.000\n"
            "Linear 3 1.000\n"
            "0.000 0.000 0.000\n"
            "0.500 0.000 0.500\n"
            "0.000 0.000 1.000\n"
            "-0.500 0.000 0.500\n"
            "0.000 0.000 0.000\n");
}

TEST(ProbeFile, WriterRejectsWhatItCannotWrite) {
  ProbeData pd = parse(kExplicitExample);
  std::ostringstream out;
  EXPECT_THROW(sinew::writeProbeData(out, pd, true, "%d"), sinew::Error);
  EXPECT_THROW(sinew::writeProbeData(out, pd, true, "t=%g"), sinew::Error);
  EXPECT_THROW(sinew::writeProbeData(out, pd, true, "%g %g"), sinew::Error);
  pd.data.add(4.5, vec3(1, 1, 1));  // no longer uniform
  EXPECT_THROW(sinew::writeProbeData(out, pd, false), sinew::Error);
  pd.vsize = 2;
  EXPECT_THROW(sinew::writeProbeData(out, pd), sinew::Error);
  EXPECT_THROW(sinew::writeProbeFile("/nonexistent_dir/x.txt", parse(kExplicitExample)),
               sinew::Error);
}

TEST(ProbeFile, MissingFileIsAnErrorButNotAParseError) {
  try {
    sinew::readProbeFile(tempPath("does_not_exist.txt"));
    FAIL() << "expected an exception";
  } catch (const sinew::ParseError&) {
    FAIL() << "a missing file is not a malformed one";
  } catch (const sinew::Error&) {
  }
}

TEST(ProbeFile, ParseErrorNamesTheFile) {
  const std::string path = writeTemp("bad.txt", "0 4.0 1.0\nLinear 3 explicit\n0 1 2\n");
  try {
    sinew::readProbeFile(path);
    FAIL() << "expected a ParseError";
  } catch (const sinew::ParseError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(std::string(e.what()).find(path + ":3:"), std::string::npos) << e.what();
  }
}

namespace {

struct BadFile {
  const char* label;
  const char* text;
  int line;
  const char* message;  // a fragment the error must contain
};

const BadFile kBadFiles[] = {
    {"empty", "", 1, "missing header"},
    {"only blank lines", "\n\n  \n", 4, "missing header"},
    {"no scale", "0 4.0\nLinear 3 explicit\n", 1, "missing scale"},
    {"extra header field", "0 4.0 1.0 2.0\nLinear 3 explicit\n", 1, "extra field '2.0'"},
    {"no second header", "0 4.0 1.0\n", 2, "missing header"},
    {"no time step", "0 4.0 1.0\nLinear 3\n", 2, "missing explicit|timeStep"},
    {"no vsize", "0 4.0 1.0\n\nLinear\n", 3, "missing vsize"},
    {"bad start", "zero 4.0 1.0\nLinear 3 explicit\n", 1, "got 'zero'"},
    {"bad scale", "0 4.0 1.0x\nLinear 3 explicit\n", 1, "'1.0x'"},
    {"zero scale", "0 4.0 0.0\nLinear 3 explicit\n", 1, "scale must be positive"},
    {"stop before start", "2.0 1.0 1.0\nLinear 3 explicit\n", 1, "before"},
    {"integer stop", "0 4 1.0\nLinear 3 explicit\n", 1, "nanoseconds"},
    {"unknown order", "0 4.0 1.0\nQuadratic 3 explicit\n", 2, "'Quadratic'"},
    {"zero vsize", "0 4.0 1.0\nLinear 0 explicit\n", 2, "vsize must be positive"},
    {"negative vsize", "0 4.0 1.0\nLinear -3 explicit\n", 2, "vsize must be positive"},
    {"fractional vsize", "0 4.0 1.0\nLinear 2.5 explicit\n", 2, "integer for vsize"},
    {"zero step", "0 4.0 1.0\nLinear 3 0\n", 2, "timeStep must be positive"},
    {"negative step", "0 4.0 1.0\nLinear 3 -0.5\n", 2, "timeStep must be positive"},
    {"bad step word", "0 4.0 1.0\nLinear 3 implicit\n", 2, "'implicit'"},
    {"short explicit knot", "0 4.0 1.0\nLinear 3 explicit\n0 0 0 0\n1 0.5 0\n", 4,
     "expected 4 numbers (time and 3 values) on a knot line, got 3"},
    {"long implicit knot", "0 4.0 1.0\nLinear 3 1.0\n0 0 0\n0 0 0 0\n", 4,
     "expected 3 numbers on a knot line, got 4"},
    {"bad value after blanks", "0 4.0 1.0\n\n# c\nLinear 3 explicit\n\n0 1 x 3\n", 6, "got 'x'"},
    {"nan value", "0 4.0 1.0\nLinear 1 1.0\n1\nnan\n", 4, "not finite"},
    {"repeated time", "0 4.0 1.0\nLinear 1 explicit\n0 0\n1 1\n1 2\n", 5, "does not increase"},
    {"decreasing time", "0 4.0 1.0\nLinear 1 explicit\n0 0\n2 1\n\n1.5 2\n", 6,
     "does not increase"},
};

}  // namespace

TEST(ProbeFile, MalformedInputGivesParseErrorWithLine) {
  for (const BadFile& bad : kBadFiles) {
    try {
      parse(bad.text);
      ADD_FAILURE() << bad.label << ": no ParseError";
    } catch (const sinew::ParseError& e) {
      EXPECT_EQ(e.line(), bad.line) << bad.label << ": " << e.what();
      EXPECT_EQ(e.file(), "test.txt") << bad.label;
      EXPECT_NE(std::string(e.what()).find(bad.message), std::string::npos)
          << bad.label << ": " << e.what();
    }
  }
}

TEST(ProbeFile, InlineDataExplicitAndUniformMatchTheFile) {
  const ProbeData file = parse(kExplicitExample);
  NumericList ex(3);
  sinew::addInlineData(ex, 3,
                       {0.0, 0.0, 0.0, 0.0,   //
                        1.0, 0.5, 0.0, 0.5,   //
                        2.0, 0.0, 0.0, 1.0,   //
                        3.0, -0.5, 0.0, 0.5,  //
                        4.0, 0.0, 0.0, 0.0},
                       sinew::EXPLICIT_TIME);
  expectSameKnots(ex, file.data);

  NumericList im;  // unsized: takes vsize from the call
  sinew::addInlineData(im, 3,
                       {0.0, 0.0, 0.0, 0.5, 0.0, 0.5, 0.0, 0.0, 1.0, -0.5, 0.0, 0.5, 0.0, 0.0, 0.0},
                       1.0);
  expectSameKnots(im, file.data);

  NumericList half(1);
  sinew::addInlineData(half, 1, {3, 4, 5}, 0.5);
  ASSERT_EQ(half.numKnots(), 3);
  EXPECT_EQ(half.knot(2).t, 1.0);
  EXPECT_EQ(half.knot(2).v(0), 5.0);
}

TEST(ProbeFile, InlineDataValidatesItsSize) {
  NumericList list(3);
  EXPECT_THROW(sinew::addInlineData(list, 3, {0, 1, 2, 3, 4}, sinew::EXPLICIT_TIME), sinew::Error);
  EXPECT_THROW(sinew::addInlineData(list, 3, {0, 1, 2, 3}, 1.0), sinew::Error);
  EXPECT_THROW(sinew::addInlineData(list, 3, {0, 1, 2}, 0.0), sinew::Error);
  EXPECT_THROW(sinew::addInlineData(list, 3, {0, 1, 2}, -2.0), sinew::Error);
  EXPECT_THROW(sinew::addInlineData(list, 2, {0, 1}, 1.0), sinew::Error);
  EXPECT_THROW(sinew::addInlineData(list, 0, {}, 1.0), sinew::Error);
  EXPECT_EQ(list.numKnots(), 0);  // failed calls leave the list alone
  sinew::addInlineData(list, 3, {}, 1.0);
  EXPECT_EQ(list.numKnots(), 0);
}
