// Axial materials: the force law f(l, l̇, l0, a) of a two-point spring or
// muscle, tension positive, with its derivatives for the implicit
// integrators (guide §3.1.1, §3.1.4, §4.5.1).
#pragma once

#include <memory>

#include "sinew/model/Property.h"

namespace sinew {

class AxialMaterial : public HasProperties {
 public:
  /// Tension for length l, lengthening speed ldot, rest length l0 and
  /// excitation a in [0, 1].
  virtual double computeF(double l, double ldot, double l0, double a) const = 0;
  virtual double computeDFdl(double l, double ldot, double l0, double a) const = 0;
  virtual double computeDFdldot(double l, double ldot, double l0, double a) const = 0;
  virtual bool isDFdldotZero() const { return false; }
  /// Elastic energy stored at length l (NaN if the law has no potential).
  virtual double computeEnergy(double l, double l0, double a) const;
  virtual std::unique_ptr<AxialMaterial> clone() const = 0;
};

/// f = k(l − l0) + d·l̇ (guide §3.1.1).
class LinearAxialMaterial : public AxialMaterial {
  SINEW_DECLARE_PROPERTIES
 public:
  LinearAxialMaterial(double stiffness = 1, double damping = 0);
  double getStiffness() const { return myK; }
  void setStiffness(double k);
  double getDamping() const { return myD; }
  void setDamping(double d);
  double computeF(double l, double ldot, double l0, double a) const override;
  double computeDFdl(double, double, double, double) const override { return myK; }
  double computeDFdldot(double, double, double, double) const override { return myD; }
  bool isDFdldotZero() const override { return myD == 0; }
  double computeEnergy(double l, double l0, double a) const override;
  std::unique_ptr<AxialMaterial> clone() const override;

 private:
  double myK, myD;
};

/// f = k(l − l0) + d·l̇ + fmax·a (guide §4.5.1.1, the default muscle
/// material): a linear material plus an excitation-driven force.
class SimpleAxialMuscle : public LinearAxialMaterial {
  SINEW_DECLARE_PROPERTIES
 public:
  SimpleAxialMuscle(double stiffness = 0, double damping = 0, double maxForce = 1);
  double getMaxForce() const { return myFmax; }
  void setMaxForce(double f);
  double computeF(double l, double ldot, double l0, double a) const override;
  double computeEnergy(double l, double l0, double a) const override;
  std::unique_ptr<AxialMaterial> clone() const override;

 private:
  double myFmax;
};

}  // namespace sinew
