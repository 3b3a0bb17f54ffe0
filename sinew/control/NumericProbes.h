// Numeric input and output probes: streams of interpolated numeric data
// bound to component properties (guide §5.4.1–5.4.5).
//
// An input probe sets its properties from its data at each step
// (interpolated at the probe-relative time (t − start)/scale); an output
// probe samples its properties every `updateInterval` seconds (default: the
// root's step size) and writes them in the §5.4.4 format or as CSV.
#pragma once

#include <string>
#include <vector>

#include "sinew/control/NumericList.h"
#include "sinew/control/ProbeFile.h"
#include "sinew/model/Model.h"

namespace sinew {

template <>
struct EnumNames<InterpolationOrder> {
  static const std::vector<std::string>& get();
};

/// Properties and data shared by numeric input and output probes.
class NumericProbeBase : public Probe {
  SINEW_DECLARE_PROPERTIES
 public:
  /// Binds the probe to the properties at `propPaths`, relative to `c`.
  NumericProbeBase(Component& c, const std::vector<std::string>& propPaths);
  int getVsize() const { return myVsize; }
  InterpolationOrder getInterpolationOrder() const { return myOrder; }
  void setInterpolationOrder(InterpolationOrder o) { myOrder = o; }
  const NumericList& getNumericList() const { return myData; }
  NumericList& getNumericList() { return myData; }
  /// Interpolated data at absolute time t.
  Eigen::VectorXd getData(double t) const;
  const std::vector<std::string>& getPropertyPaths() const { return myPaths; }
  /// Column names: one per scalar, e.g. "particles/p1:position[0]".
  std::vector<std::string> columnNames() const;

 protected:
  std::vector<Property> myProps;
  std::vector<std::string> myPaths;
  NumericList myData;
  int myVsize = 0;
  InterpolationOrder myOrder = InterpolationOrder::Linear;
};

class NumericInputProbe : public NumericProbeBase {
 public:
  /// Sentinel time step meaning "times are given explicitly" (§5.4.5).
  static constexpr double EXPLICIT_TIME = sinew::EXPLICIT_TIME;
  /// Loads data from a §5.4.4 file; the interval comes from the file.
  NumericInputProbe(Component& c, const std::string& propPath, const std::string& filePath);
  NumericInputProbe(Component& c, const std::vector<std::string>& propPaths, const std::string& filePath);
  /// An empty probe over [t0, t1] for in-line data (§5.4.5).
  NumericInputProbe(Component& c, const std::string& propPath, double t0, double t1);
  NumericInputProbe(Component& c, const std::vector<std::string>& propPaths, double t0, double t1);

  /// Adds knots in row-major order, with uniform times (timeStep) or
  /// explicit ones (EXPLICIT_TIME).
  void addData(const std::vector<double>& data, double timeStep);
  /// Reads a §5.4.4 file, replacing the data and the interval.
  void load(const std::string& filePath);
  void apply(double t) override;
  bool isInput() const override { return true; }
};

class NumericOutputProbe : public NumericProbeBase {
  SINEW_DECLARE_PROPERTIES
 public:
  /// Samples every `sample` seconds (≤ 0: every step); interval [0, 1].
  NumericOutputProbe(Component& c, const std::string& propPath, const std::string& filePath = {},
                     double sample = -1);
  NumericOutputProbe(Component& c, const std::vector<std::string>& propPaths,
                     const std::string& filePath = {}, double sample = -1);
  double getUpdateInterval() const { return myInterval; }
  void setUpdateInterval(double h) { myInterval = h; }

  void initialize(double t0) override;
  void apply(double t) override;
  bool isInput() const override { return false; }
  /// Writes the data to the attached file in the §5.4.4 format.
  void save() const;
  void save(const std::string& path) const;
  /// Writes "time,<column>..." CSV with absolute times.
  void saveCsv(const std::string& path) const;

 private:
  double myInterval = -1;
  double myNextSample = 0;
};

}  // namespace sinew
