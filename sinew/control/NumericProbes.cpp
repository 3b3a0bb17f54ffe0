#include "sinew/control/NumericProbes.h"

#include <cmath>
#include <cstdio>
#include <fstream>

namespace sinew {

const std::vector<std::string>& EnumNames<InterpolationOrder>::get() {
  static const std::vector<std::string> n{"Step", "Linear", "Parabolic", "Cubic", "CubicStep"};
  return n;
}

// ------------------------------------------------------------------ base

SINEW_PROPERTIES(NumericProbeBase, Probe) {
  list.add<NumericProbeBase>("interpolationOrder", "interpolation between knots",
                             &NumericProbeBase::getInterpolationOrder,
                             &NumericProbeBase::setInterpolationOrder);
  list.add<NumericProbeBase>("vsize", "size of the data vector", &NumericProbeBase::getVsize);
}

NumericProbeBase::NumericProbeBase(Component& c, const std::vector<std::string>& paths) : myPaths(paths) {
  if (paths.empty()) throw ModelError("a numeric probe needs at least one property", c.getPathName());
  for (auto& p : paths) {
    Property prop = c.getPropertyByPath(p);
    if (!prop.info().isNumeric())
      throw ModelError("property '" + p + "' is not numeric", c.getPathName());
    myVsize += prop.numericSize();
    myProps.push_back(prop);
  }
  myData.setVsize(myVsize);
}

Eigen::VectorXd NumericProbeBase::getData(double t) const {
  return myData.interpolate((t - getStartTime()) / getScale(), myOrder);
}

std::vector<std::string> NumericProbeBase::columnNames() const {
  std::vector<std::string> names;
  for (size_t k = 0; k < myProps.size(); ++k) {
    int n = myProps[k].numericSize();
    for (int i = 0; i < n; ++i) names.push_back(n == 1 ? myPaths[k] : myPaths[k] + "[" + std::to_string(i) + "]");
  }
  return names;
}

// ------------------------------------------------------------------ input

NumericInputProbe::NumericInputProbe(Component& c, const std::string& path, const std::string& file)
    : NumericInputProbe(c, std::vector<std::string>{path}, file) {}

NumericInputProbe::NumericInputProbe(Component& c, const std::vector<std::string>& paths,
                                     const std::string& file)
    : NumericProbeBase(c, paths) {
  load(file);
}

NumericInputProbe::NumericInputProbe(Component& c, const std::string& path, double t0, double t1)
    : NumericInputProbe(c, std::vector<std::string>{path}, t0, t1) {}

NumericInputProbe::NumericInputProbe(Component& c, const std::vector<std::string>& paths, double t0, double t1)
    : NumericProbeBase(c, paths) {
  setInterval(t0, t1);
}

void NumericInputProbe::addData(const std::vector<double>& data, double timeStep) {
  addInlineData(myData, myVsize, data, timeStep);
}

void NumericInputProbe::load(const std::string& file) {
  ProbeData pd = readProbeFile(file);
  if (pd.vsize != myVsize)
    throw ParseError(file, 2,
                     "vector size " + std::to_string(pd.vsize) + " does not match the " +
                         std::to_string(myVsize) + " values of the probe's properties");
  setInterval(pd.startTime, pd.stopTime);
  setScale(pd.scale);
  myOrder = pd.order;
  myData = pd.data;
  setAttachedFileName(file);
}

void NumericInputProbe::apply(double t) {
  if (myData.empty()) return;
  Eigen::VectorXd v = getData(t);
  int k = 0;
  for (auto& p : myProps) {
    int n = p.numericSize();
    p.setNumeric(v.segment(k, n));
    k += n;
  }
}

// ------------------------------------------------------------------ output

SINEW_PROPERTIES(NumericOutputProbe, NumericProbeBase) {
  list.add<NumericOutputProbe>("updateInterval", "sampling interval (<= 0: every step)",
                               &NumericOutputProbe::getUpdateInterval, &NumericOutputProbe::setUpdateInterval);
}

NumericOutputProbe::NumericOutputProbe(Component& c, const std::string& path, const std::string& file,
                                       double sample)
    : NumericOutputProbe(c, std::vector<std::string>{path}, file, sample) {}

NumericOutputProbe::NumericOutputProbe(Component& c, const std::vector<std::string>& paths,
                                       const std::string& file, double sample)
    : NumericProbeBase(c, paths), myInterval(sample) {
  setAttachedFileName(file);
}

void NumericOutputProbe::initialize(double t0) {
  myData.clear();
  myNextSample = std::max(t0, getStartTime());
}

void NumericOutputProbe::apply(double t) {
  const double eps = 1e-9 * std::max(1.0, std::abs(t));
  if (myInterval > 0 && t < myNextSample - eps) return;
  Eigen::VectorXd v(myVsize);
  int k = 0;
  for (auto& p : myProps) {
    Eigen::VectorXd x = p.getNumeric();
    v.segment(k, x.size()) = x;
    k += static_cast<int>(x.size());
  }
  myData.add((t - getStartTime()) / getScale(), v);
  if (myInterval > 0) {
    // Next sample on the grid start + k·interval, so round-off never drifts.
    double n = std::floor((t - getStartTime()) / myInterval + 1e-6) + 1;
    myNextSample = getStartTime() + n * myInterval;
  }
}

void NumericOutputProbe::save() const {
  if (getAttachedFileName().empty()) throw ModelError("output probe has no attached file", getPathName());
  save(getAttachedFileName());
}

void NumericOutputProbe::save(const std::string& path) const {
  ProbeData pd;
  pd.startTime = getStartTime();
  pd.stopTime = getStopTime();
  pd.scale = getScale();
  pd.order = myOrder;
  pd.vsize = myVsize;
  pd.explicitTime = true;
  pd.data = myData;
  writeProbeFile(path, pd, true);
}

void NumericOutputProbe::saveCsv(const std::string& path) const {
  std::ofstream out(path);
  if (!out) throw Error("cannot write " + path);
  out << "time";
  for (auto& n : columnNames()) out << ',' << n;
  out << '\n';
  char buf[32];
  for (auto& k : myData.knots()) {
    std::snprintf(buf, sizeof buf, "%.17g", getStartTime() + k.t * getScale());
    out << buf;
    for (Eigen::Index i = 0; i < k.v.size(); ++i) {
      std::snprintf(buf, sizeof buf, "%.17g", k.v[i]);
      out << ',' << buf;
    }
    out << '\n';
  }
  if (!out) throw Error("error writing " + path);
}

}  // namespace sinew
