#include "sinew/control/NumericList.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <string>

#include "sinew/Error.h"

namespace sinew {

namespace {

// Local fit of a polynomial around a window's centre time. Times are shifted
// and scaled to [-1, 1] so the Vandermonde matrix stays well conditioned
// however large the absolute times are.
struct LocalPolynomial {
  double centre = 0;
  double scale = 1;
  Eigen::MatrixXd coeffs;  // (deg+1) x vsize, lowest power first

  Eigen::VectorXd eval(double t) const {
    const double x = (t - centre) / scale;
    Eigen::VectorXd v = coeffs.row(coeffs.rows() - 1).transpose();
    for (Eigen::Index p = coeffs.rows() - 2; p >= 0; --p) {
      v = v * x + coeffs.row(p).transpose();
    }
    return v;
  }
};

LocalPolynomial fitWindow(const std::vector<NumericKnot>& knots, int first, int size,
                          int deg) {
  LocalPolynomial poly;
  poly.centre = knots[first + size / 2].t;
  double span = 0;
  for (int j = 0; j < size; ++j) {
    span = std::max(span, std::abs(knots[first + j].t - poly.centre));
  }
  poly.scale = span > 0 ? span : 1.0;

  const int vsize = static_cast<int>(knots[first].v.size());
  Eigen::MatrixXd A(size, deg + 1);
  Eigen::MatrixXd B(size, vsize);
  for (int j = 0; j < size; ++j) {
    const double x = (knots[first + j].t - poly.centre) / poly.scale;
    double xp = 1;
    for (int p = 0; p <= deg; ++p, xp *= x) A(j, p) = xp;
    B.row(j) = knots[first + j].v.transpose();
  }
  // Least squares; with size == deg+1 this is plain interpolation.
  poly.coeffs = A.colPivHouseholderQr().solve(B);
  return poly;
}

// Catmull-Rom tangent at knot i, in value per unit time. End indices are
// clamped, i.e. the end knots are duplicated, which makes the end tangents
// the one-sided differences.
Eigen::VectorXd catmullRomTangent(const std::vector<NumericKnot>& knots, int i) {
  const int last = static_cast<int>(knots.size()) - 1;
  const int lo = std::max(i - 1, 0);
  const int hi = std::min(i + 1, last);
  return (knots[hi].v - knots[lo].v) / (knots[hi].t - knots[lo].t);
}

}  // namespace

NumericList::NumericList(int vsize) { setVsize(vsize); }

void NumericList::setVsize(int vsize) {
  if (vsize < 0) throw Error("NumericList: negative vector size " + std::to_string(vsize));
  if (!myKnots.empty() && vsize != myVsize) {
    throw Error("NumericList: cannot change the vector size of a list that has knots");
  }
  myVsize = vsize;
}

void NumericList::add(double t, const Eigen::VectorXd& value) {
  if (myVsize == 0) throw Error("NumericList: vector size not set before adding knots");
  if (value.size() != myVsize) {
    throw Error("NumericList: knot value has size " + std::to_string(value.size()) +
                ", expected " + std::to_string(myVsize));
  }
  // A NaN time would break the sort order every search relies on.
  if (!std::isfinite(t)) throw Error("NumericList: knot time is not finite");

  auto it = std::lower_bound(myKnots.begin(), myKnots.end(), t,
                             [](const NumericKnot& k, double time) { return k.t < time; });
  if (it != myKnots.end() && it->t == t) {
    it->v = value;
  } else {
    myKnots.insert(it, NumericKnot{t, value});
  }
}

const NumericKnot& NumericList::knot(int i) const {
  if (i < 0 || i >= numKnots()) {
    throw Error("NumericList: knot index " + std::to_string(i) + " out of range [0, " +
                std::to_string(numKnots()) + ")");
  }
  return myKnots[i];
}

int NumericList::segmentIndex(double t) const {
  auto it = std::upper_bound(myKnots.begin(), myKnots.end(), t,
                             [](double time, const NumericKnot& k) { return time < k.t; });
  return static_cast<int>(it - myKnots.begin()) - 1;
}

Eigen::VectorXd NumericList::interpolate(double t, InterpolationOrder order) const {
  if (myKnots.empty()) throw Error("NumericList: cannot interpolate an empty list");
  if (std::isnan(t)) throw Error("NumericList: cannot interpolate at a NaN time");
  // Outside the knot range the end values are held.
  if (t <= myKnots.front().t) return myKnots.front().v;
  if (t >= myKnots.back().t) return myKnots.back().v;

  const int n = numKnots();
  const int k = segmentIndex(t);  // t_k <= t < t_{k+1}, 0 <= k <= n-2
  const NumericKnot& a = myKnots[k];
  const NumericKnot& b = myKnots[k + 1];
  const double h = b.t - a.t;
  const double s = (t - a.t) / h;

  switch (order) {
    case InterpolationOrder::Step:
      return a.v;

    case InterpolationOrder::Linear:
      return (1 - s) * a.v + s * b.v;

    case InterpolationOrder::Parabolic: {
      if (n < 3) return (1 - s) * a.v + s * b.v;
      // Quadratic through (k-1, k, k+1); the first segment has no k-1 and
      // uses (0, 1, 2) instead. Lagrange form handles uneven spacing.
      const int j = std::clamp(k - 1, 0, n - 3);
      const double t0 = myKnots[j].t, t1 = myKnots[j + 1].t, t2 = myKnots[j + 2].t;
      const double l0 = (t - t1) * (t - t2) / ((t0 - t1) * (t0 - t2));
      const double l1 = (t - t0) * (t - t2) / ((t1 - t0) * (t1 - t2));
      const double l2 = (t - t0) * (t - t1) / ((t2 - t0) * (t2 - t1));
      return l0 * myKnots[j].v + l1 * myKnots[j + 1].v + l2 * myKnots[j + 2].v;
    }

    case InterpolationOrder::Cubic: {
      // Catmull-Rom in its cubic Hermite form, finite-difference variant for
      // uneven knots: tangent m_i = (p_{i+1} - p_{i-1}) / (t_{i+1} - t_{i-1})
      // in value per unit time, scaled by the segment length h. On even knots
      // this is the classic Catmull-Rom spline. At the ends the end knot is
      // duplicated at its own time, so the end tangent is the one-sided
      // difference; the spline then reproduces linear data exactly on every
      // segment (a duplicate one spacing further out would halve that slope).
      const Eigen::VectorXd ma = catmullRomTangent(myKnots, k) * h;
      const Eigen::VectorXd mb = catmullRomTangent(myKnots, k + 1) * h;
      const double s2 = s * s, s3 = s2 * s;
      return (2 * s3 - 3 * s2 + 1) * a.v + (s3 - 2 * s2 + s) * ma + (3 * s2 - 2 * s3) * b.v +
             (s3 - s2) * mb;
    }

    case InterpolationOrder::CubicStep: {
      // Smooth step: Hermite between k and k+1 with zero slopes at both ends.
      const double w = s * s * (3 - 2 * s);
      return (1 - w) * a.v + w * b.v;
    }
  }
  throw Error("NumericList: unknown interpolation order");
}

void NumericList::smoothWithMovingAverage(int winSize) {
  if (winSize < 1 || winSize % 2 == 0) {
    throw Error("moving average: window size must be odd and positive, got " +
                std::to_string(winSize));
  }
  const int n = numKnots();
  std::vector<Eigen::VectorXd> smoothed(n);
  // Interior knots only: the end knots keep their values.
  for (int i = 1; i < n - 1; ++i) {
    const int half = std::min({winSize / 2, i, n - 1 - i});
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(myVsize);
    for (int j = i - half; j <= i + half; ++j) sum += myKnots[j].v;
    smoothed[i] = sum / (2 * half + 1);
  }
  for (int i = 1; i < n - 1; ++i) myKnots[i].v = smoothed[i];
}

void NumericList::smoothWithSavitzkyGolay(int winSize, int deg) {
  if (winSize < 1 || winSize % 2 == 0) {
    throw Error("Savitzky-Golay: window size must be odd and positive, got " +
                std::to_string(winSize));
  }
  if (deg < 0) throw Error("Savitzky-Golay: negative polynomial degree " + std::to_string(deg));
  if (winSize <= deg) {
    throw Error("Savitzky-Golay: window size " + std::to_string(winSize) +
                " must be larger than the degree " + std::to_string(deg));
  }
  const int n = numKnots();
  if (n == 0) return;
  if (n < winSize) {
    throw Error("Savitzky-Golay: window size " + std::to_string(winSize) + " exceeds the " +
                std::to_string(n) + " knots");
  }
  // The fit is in time, not knot index, so unevenly spaced knots are handled
  // too; on even spacing this is the classic Savitzky-Golay filter.
  const int half = winSize / 2;
  std::vector<Eigen::VectorXd> smoothed(n);
  const LocalPolynomial head = fitWindow(myKnots, 0, winSize, deg);
  for (int i = 0; i < half; ++i) smoothed[i] = head.eval(myKnots[i].t);
  for (int i = half; i < n - half; ++i) {
    smoothed[i] = fitWindow(myKnots, i - half, winSize, deg).eval(myKnots[i].t);
  }
  const LocalPolynomial tail = fitWindow(myKnots, n - winSize, winSize, deg);
  for (int i = n - half; i < n; ++i) smoothed[i] = tail.eval(myKnots[i].t);
  for (int i = 0; i < n; ++i) myKnots[i].v = smoothed[i];
}

}  // namespace sinew
