// A time series of vector-valued knots, interpolated and smoothed as the
// data of a numeric probe (guide §5.4.1 interpolation, §5.4.6 smoothing).
//
// Every knot holds a time t_k and a vector of the list's fixed size
// (getVsize()). Knots stay sorted by time. interpolate() evaluates the series
// at any time with one of the InterpolationOrder schemes; before the first
// knot and after the last it holds the end values.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "sinew/control/Interpolation.h"

namespace sinew {

/// One knot of a NumericList: a time and a value vector.
struct NumericKnot {
  double t = 0;
  Eigen::VectorXd v;
};

class NumericList {
 public:
  /// A list whose knots have vectors of size vsize. A default list has
  /// vsize 0 and must be given a size (setVsize) before knots are added.
  explicit NumericList(int vsize = 0);

  int getVsize() const { return myVsize; }
  /// Changes the vector size; allowed only while the list is empty.
  void setVsize(int vsize);

  /// Inserts a knot in time order; a knot at an existing time replaces that
  /// knot's value. Throws sinew::Error for a wrong vector size or a
  /// non-finite time.
  void add(double t, const Eigen::VectorXd& value);

  int numKnots() const { return static_cast<int>(myKnots.size()); }
  const NumericKnot& knot(int i) const;
  const std::vector<NumericKnot>& knots() const { return myKnots; }
  bool empty() const { return myKnots.empty(); }
  void clear() { myKnots.clear(); }

  /// The value at time t (guide §5.4.1). Throws sinew::Error on an empty list.
  Eigen::VectorXd interpolate(double t, InterpolationOrder order) const;

  /// Mean filter over a centred window of winSize knots (odd, >= 1). Near the
  /// ends the window shrinks to stay symmetric; the end knots are unchanged.
  void smoothWithMovingAverage(int winSize);

  /// Savitzky-Golay smoothing (guide §5.4.6): fits a polynomial of degree deg
  /// to each window of winSize knots (odd, > deg, <= numKnots()) and replaces
  /// the centre value by the fit. The first and last winSize/2 values come
  /// from the polynomials of the first and last windows.
  void smoothWithSavitzkyGolay(int winSize, int deg);

 private:
  /// Index k of the segment [t_k, t_{k+1}] containing t, for t strictly
  /// inside the knot range.
  int segmentIndex(double t) const;

  int myVsize = 0;
  std::vector<NumericKnot> myKnots;
};

}  // namespace sinew
