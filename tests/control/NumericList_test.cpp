// Tests of NumericList: knot storage, the §5.4.1 interpolation orders and the
// §5.4.6 smoothing filters.
#include "sinew/control/NumericList.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "sinew/Error.h"

using sinew::InterpolationOrder;
using sinew::NumericList;

namespace {

Eigen::VectorXd vec1(double x) { return Eigen::VectorXd::Constant(1, x); }

Eigen::VectorXd vec2(double x, double y) {
  Eigen::VectorXd v(2);
  v << x, y;
  return v;
}

// A scalar list sampling f at the given times.
NumericList sample(const std::vector<double>& times, const std::function<double(double)>& f) {
  NumericList list(1);
  for (double t : times) list.add(t, vec1(f(t)));
  return list;
}

double at(const NumericList& list, double t, InterpolationOrder order) {
  return list.interpolate(t, order)(0);
}

const std::vector<double> kUneven = {0.0, 0.3, 1.0, 1.2, 2.5, 3.0, 4.7};

constexpr InterpolationOrder kAllOrders[] = {InterpolationOrder::Step, InterpolationOrder::Linear,
                                             InterpolationOrder::Parabolic,
                                             InterpolationOrder::Cubic,
                                             InterpolationOrder::CubicStep};

}  // namespace

TEST(Interpolation, NamesRoundTripAndParseIgnoringCase) {
  for (InterpolationOrder order : kAllOrders) {
    EXPECT_EQ(sinew::parseInterpolationOrder(sinew::toString(order)), order);
  }
  EXPECT_STREQ(sinew::toString(InterpolationOrder::Linear), "Linear");
  EXPECT_EQ(sinew::parseInterpolationOrder("linear"), InterpolationOrder::Linear);
  EXPECT_EQ(sinew::parseInterpolationOrder("CUBIC"), InterpolationOrder::Cubic);
  EXPECT_EQ(sinew::parseInterpolationOrder("step"), InterpolationOrder::Step);
  EXPECT_FALSE(sinew::tryParseInterpolationOrder("Quadratic"));
  EXPECT_FALSE(sinew::tryParseInterpolationOrder("Line"));
  EXPECT_THROW(sinew::parseInterpolationOrder(""), sinew::Error);
}

TEST(NumericList, KeepsKnotsSortedAndReplacesEqualTimes) {
  NumericList list(2);
  list.add(2.0, vec2(2, 20));
  list.add(0.0, vec2(0, 0));
  list.add(1.0, vec2(1, 10));
  list.add(1.0, vec2(5, 50));  // replaces the knot at t = 1
  ASSERT_EQ(list.numKnots(), 3);
  EXPECT_EQ(list.getVsize(), 2);
  EXPECT_EQ(list.knot(0).t, 0.0);
  EXPECT_EQ(list.knot(1).t, 1.0);
  EXPECT_EQ(list.knot(1).v, vec2(5, 50));
  EXPECT_EQ(list.knot(2).t, 2.0);
  EXPECT_THROW(list.knot(3), sinew::Error);
  EXPECT_THROW(list.knot(-1), sinew::Error);
  list.clear();
  EXPECT_EQ(list.numKnots(), 0);
  EXPECT_TRUE(list.empty());
}

TEST(NumericList, RejectsBadKnots) {
  NumericList list(2);
  EXPECT_THROW(list.add(0, vec1(1)), sinew::Error);
  EXPECT_THROW(list.add(std::nan(""), vec2(1, 2)), sinew::Error);
  NumericList unsized;
  EXPECT_THROW(unsized.add(0, vec1(1)), sinew::Error);
  unsized.setVsize(1);
  unsized.add(0, vec1(1));
  EXPECT_THROW(unsized.setVsize(2), sinew::Error);
  EXPECT_THROW(NumericList(-1), sinew::Error);
  EXPECT_THROW(NumericList(1).interpolate(0, InterpolationOrder::Linear), sinew::Error);
  EXPECT_THROW(unsized.interpolate(std::nan(""), InterpolationOrder::Linear), sinew::Error);
}

TEST(NumericList, StepTakesLastKnotAtOrBeforeT) {
  NumericList list = sample({0, 1, 2, 3}, [](double t) { return 10 * t; });
  const auto step = InterpolationOrder::Step;
  EXPECT_EQ(at(list, 0.0, step), 0.0);
  EXPECT_EQ(at(list, 0.999, step), 0.0);
  EXPECT_EQ(at(list, 1.0, step), 10.0);
  EXPECT_EQ(at(list, 2.5, step), 20.0);
  EXPECT_EQ(at(list, 3.0, step), 30.0);
}

TEST(NumericList, LinearIsExactAtMidpoints) {
  NumericList list(2);
  list.add(0, vec2(0, 1));
  list.add(1, vec2(0.5, -1));
  list.add(3, vec2(1.5, 2));
  EXPECT_EQ(list.interpolate(0.5, InterpolationOrder::Linear), vec2(0.25, 0));
  EXPECT_EQ(list.interpolate(2.0, InterpolationOrder::Linear), vec2(1.0, 0.5));
  EXPECT_EQ(list.interpolate(1.0, InterpolationOrder::Linear), vec2(0.5, -1));
  EXPECT_NEAR(list.interpolate(1.5, InterpolationOrder::Linear)(0), 0.75, 1e-15);
}

TEST(NumericList, HoldsEndValuesOutsideTheKnots) {
  NumericList list = sample(kUneven, [](double t) { return std::sin(t) + 2; });
  for (InterpolationOrder order : kAllOrders) {
    EXPECT_EQ(at(list, -5.0, order), list.knot(0).v(0)) << sinew::toString(order);
    EXPECT_EQ(at(list, 0.0, order), list.knot(0).v(0)) << sinew::toString(order);
    EXPECT_EQ(at(list, 4.7, order), list.knot(6).v(0)) << sinew::toString(order);
    EXPECT_EQ(at(list, 99.0, order), list.knot(6).v(0)) << sinew::toString(order);
  }
  NumericList single = sample({1.0}, [](double) { return 7.0; });
  for (InterpolationOrder order : kAllOrders) {
    EXPECT_EQ(at(single, 0.0, order), 7.0);
    EXPECT_EQ(at(single, 2.0, order), 7.0);
  }
}

TEST(NumericList, AllOrdersPassThroughTheKnots) {
  NumericList list = sample(kUneven, [](double t) { return std::cos(3 * t); });
  for (InterpolationOrder order : kAllOrders) {
    for (const auto& k : list.knots()) {
      EXPECT_NEAR(at(list, k.t, order), k.v(0), 1e-15) << sinew::toString(order) << " t=" << k.t;
    }
  }
}

TEST(NumericList, ParabolicReproducesAQuadraticOnUnevenKnots) {
  auto f = [](double t) { return 2 * t * t - 3 * t + 1; };
  NumericList list = sample(kUneven, f);
  for (double t = 0; t <= 4.7; t += 0.05) {
    EXPECT_NEAR(at(list, t, InterpolationOrder::Parabolic), f(t), 1e-12) << "t=" << t;
  }
}

TEST(NumericList, ParabolicUsesKnotsKMinus1ToKPlus1) {
  // Knots 0..2 lie on t^2, knot 3 does not. Segments [0,1] (start rule) and
  // [1,2] (knots 0,1,2) must follow t^2; [2,3] uses knots 1,2,3.
  NumericList list(1);
  for (double t : {0.0, 1.0, 2.0}) list.add(t, vec1(t * t));
  list.add(3.0, vec1(100));
  EXPECT_NEAR(at(list, 0.5, InterpolationOrder::Parabolic), 0.25, 1e-14);
  EXPECT_NEAR(at(list, 1.5, InterpolationOrder::Parabolic), 2.25, 1e-14);
  // Quadratic through (1,1), (2,4), (3,100) at 2.5: Lagrange weights -1/8, 3/4, 3/8.
  EXPECT_NEAR(at(list, 2.5, InterpolationOrder::Parabolic), -0.125 + 3.0 + 37.5, 1e-12);
}

TEST(NumericList, ParabolicWithTwoKnotsIsLinear) {
  NumericList list = sample({0, 2}, [](double t) { return 3 * t; });
  EXPECT_EQ(at(list, 1.0, InterpolationOrder::Parabolic), 3.0);
}

TEST(NumericList, CubicReproducesALinearFunctionOnUnevenKnots) {
  auto f = [](double t) { return -1.5 * t + 0.25; };
  NumericList list = sample(kUneven, f);
  for (double t = 0; t <= 4.7; t += 0.01) {
    EXPECT_NEAR(at(list, t, InterpolationOrder::Cubic), f(t), 1e-13) << "t=" << t;
  }
}

TEST(NumericList, CubicIsClassicCatmullRomOnEvenKnots) {
  const std::vector<double> p = {0.0, 1.0, 3.0, 2.0, -1.0};
  NumericList list(1);
  for (size_t i = 0; i < p.size(); ++i) list.add(0.5 * static_cast<double>(i), vec1(p[i]));
  // Uniform Catmull-Rom on segment 1..2 (knots p0..p3), parameter s in [0, 1].
  auto catmullRom = [](double p0, double p1, double p2, double p3, double s) {
    return 0.5 * (2 * p1 + (-p0 + p2) * s + (2 * p0 - 5 * p1 + 4 * p2 - p3) * s * s +
                  (-p0 + 3 * p1 - 3 * p2 + p3) * s * s * s);
  };
  for (double s : {0.1, 0.25, 0.5, 0.9}) {
    EXPECT_NEAR(at(list, 0.5 + 0.5 * s, InterpolationOrder::Cubic),
                catmullRom(p[0], p[1], p[2], p[3], s), 1e-13);
  }
}

TEST(NumericList, CubicStepHasZeroSlopeAtKnots) {
  NumericList list = sample({0, 1, 3}, [](double t) { return t * t; });
  const auto order = InterpolationOrder::CubicStep;
  EXPECT_EQ(at(list, 0.5, order), 0.5);
  EXPECT_EQ(at(list, 2.0, order), 5.0);
  const double eps = 1e-6;
  EXPECT_NEAR((at(list, 1 + eps, order) - at(list, 1, order)) / eps, 0.0, 1e-4);
  EXPECT_NEAR((at(list, 1, order) - at(list, 1 - eps, order)) / eps, 0.0, 1e-4);
}

TEST(NumericList, MovingAverageKeepsConstantsAndLines) {
  NumericList constant = sample(kUneven, [](double) { return 4.2; });
  constant.smoothWithMovingAverage(5);
  for (const auto& k : constant.knots()) EXPECT_NEAR(k.v(0), 4.2, 1e-14);

  // Knot values on a line in the knot index: symmetric windows keep them.
  NumericList line(2);
  for (int i = 0; i < 9; ++i) line.add(0.1 * i, vec2(3 * i - 2, -i));
  line.smoothWithMovingAverage(5);
  for (int i = 0; i < 9; ++i) {
    EXPECT_NEAR(line.knot(i).v(0), 3 * i - 2, 1e-13) << i;
    EXPECT_NEAR(line.knot(i).v(1), -i, 1e-13) << i;
  }
}

TEST(NumericList, MovingAverageShrinksWindowAndKeepsEnds) {
  NumericList list(1);
  const std::vector<double> y = {9, 3, 0, 3, 0, 6};
  for (size_t i = 0; i < y.size(); ++i) list.add(static_cast<double>(i), vec1(y[i]));
  list.smoothWithMovingAverage(5);
  EXPECT_EQ(list.knot(0).v(0), 9);                         // end, unchanged
  EXPECT_DOUBLE_EQ(list.knot(1).v(0), (9 + 3 + 0) / 3.0);  // window shrunk to 3
  EXPECT_DOUBLE_EQ(list.knot(2).v(0), (9 + 3 + 0 + 3 + 0) / 5.0);
  EXPECT_DOUBLE_EQ(list.knot(3).v(0), (3 + 0 + 3 + 0 + 6) / 5.0);
  EXPECT_DOUBLE_EQ(list.knot(4).v(0), (3 + 0 + 6) / 3.0);  // window shrunk to 3
  EXPECT_EQ(list.knot(5).v(0), 6);                         // end, unchanged
}

TEST(NumericList, MovingAverageValidatesWindow) {
  NumericList list = sample(kUneven, [](double t) { return t; });
  EXPECT_THROW(list.smoothWithMovingAverage(4), sinew::Error);
  EXPECT_THROW(list.smoothWithMovingAverage(0), sinew::Error);
  EXPECT_THROW(list.smoothWithMovingAverage(-3), sinew::Error);
  list.smoothWithMovingAverage(1);  // identity
  EXPECT_EQ(list.knot(3).v(0), kUneven[3]);
  list.smoothWithMovingAverage(99);  // wider than the list: still fine
}

TEST(NumericList, SavitzkyGolayIsExactForPolynomialsUpToItsDegree) {
  const std::function<double(double)> polys[] = {
      [](double) { return 1.5; },
      [](double t) { return 2 - t; },
      [](double t) { return t * t - 4 * t + 1; },
      [](double t) { return 0.5 * t * t * t - t * t + 2; },
  };
  std::vector<double> times;
  for (int i = 0; i < 15; ++i) times.push_back(0.2 * i + 0.01 * (i % 3));  // uneven
  for (int deg = 0; deg <= 3; ++deg) {
    for (int p = 0; p <= deg; ++p) {
      NumericList list = sample(times, polys[p]);
      list.smoothWithSavitzkyGolay(7, deg);
      for (const auto& k : list.knots()) {
        EXPECT_NEAR(k.v(0), polys[p](k.t), 1e-11) << "deg " << deg << " poly " << p;
      }
    }
  }
}

TEST(NumericList, SavitzkyGolayMatchesClassicCoefficients) {
  // Window 5, degree 2, even spacing: centre weights (-3, 12, 17, 12, -3)/35.
  const std::vector<double> y = {1, 4, 2, 8, 5, 7, 3};
  NumericList list(1);
  for (size_t i = 0; i < y.size(); ++i) list.add(static_cast<double>(i), vec1(y[i]));
  list.smoothWithSavitzkyGolay(5, 2);
  for (int i = 2; i < 5; ++i) {
    const double expect =
        (-3 * y[i - 2] + 12 * y[i - 1] + 17 * y[i] + 12 * y[i + 1] - 3 * y[i + 2]) / 35.0;
    EXPECT_NEAR(list.knot(i).v(0), expect, 1e-12) << i;
  }
  // First value from the first window's fit: weights (31, 9, -3, -5, 3)/35.
  EXPECT_NEAR(list.knot(0).v(0), (31 * y[0] + 9 * y[1] - 3 * y[2] - 5 * y[3] + 3 * y[4]) / 35.0,
              1e-12);
}

TEST(NumericList, SavitzkyGolayValidatesArguments) {
  NumericList list = sample(kUneven, [](double t) { return t; });
  EXPECT_THROW(list.smoothWithSavitzkyGolay(4, 2), sinew::Error);  // even window
  EXPECT_THROW(list.smoothWithSavitzkyGolay(3, 3), sinew::Error);  // window not > degree
  EXPECT_THROW(list.smoothWithSavitzkyGolay(5, -1), sinew::Error);
  EXPECT_THROW(list.smoothWithSavitzkyGolay(9, 2), sinew::Error);  // more than 7 knots
  NumericList empty(1);
  EXPECT_NO_THROW(empty.smoothWithSavitzkyGolay(5, 2));
}
