#include "sinew/mech/AxialMaterial.h"

#include <cmath>
#include <limits>

namespace sinew {

namespace {
double checked(double v, const char* what, bool positive = false) {
  if (!std::isfinite(v) || v < 0 || (positive && v == 0))
    throw ModelError(std::string(what) + " must be finite and non-negative, got " + std::to_string(v));
  return v;
}
}  // namespace

double AxialMaterial::computeEnergy(double, double, double) const {
  return std::numeric_limits<double>::quiet_NaN();
}

SINEW_PROPERTIES(LinearAxialMaterial, HasProperties) {
  list.add<LinearAxialMaterial>("stiffness", "stiffness k", &LinearAxialMaterial::getStiffness,
                                &LinearAxialMaterial::setStiffness)
      .setRange(0, INFINITY);
  list.add<LinearAxialMaterial>("damping", "damping d", &LinearAxialMaterial::getDamping,
                                &LinearAxialMaterial::setDamping)
      .setRange(0, INFINITY);
}

LinearAxialMaterial::LinearAxialMaterial(double k, double d)
    : myK(checked(k, "stiffness")), myD(checked(d, "damping")) {}
void LinearAxialMaterial::setStiffness(double k) { myK = checked(k, "stiffness"); }
void LinearAxialMaterial::setDamping(double d) { myD = checked(d, "damping"); }
double LinearAxialMaterial::computeF(double l, double ldot, double l0, double) const {
  return myK * (l - l0) + myD * ldot;
}
double LinearAxialMaterial::computeEnergy(double l, double l0, double) const {
  return 0.5 * myK * (l - l0) * (l - l0);
}
std::unique_ptr<AxialMaterial> LinearAxialMaterial::clone() const {
  return std::make_unique<LinearAxialMaterial>(*this);
}

SINEW_PROPERTIES(SimpleAxialMuscle, LinearAxialMaterial) {
  list.add<SimpleAxialMuscle>("maxForce", "force at full excitation", &SimpleAxialMuscle::getMaxForce,
                              &SimpleAxialMuscle::setMaxForce)
      .setRange(0, INFINITY);
}

SimpleAxialMuscle::SimpleAxialMuscle(double k, double d, double fmax)
    : LinearAxialMaterial(k, d), myFmax(checked(fmax, "maxForce")) {}
void SimpleAxialMuscle::setMaxForce(double f) { myFmax = checked(f, "maxForce"); }
double SimpleAxialMuscle::computeF(double l, double ldot, double l0, double a) const {
  return LinearAxialMaterial::computeF(l, ldot, l0, a) + myFmax * a;
}
double SimpleAxialMuscle::computeEnergy(double l, double l0, double a) const {
  // The active term is a constant force, so its potential is fmax·a·l.
  return LinearAxialMaterial::computeEnergy(l, l0, a) + myFmax * a * l;
}
std::unique_ptr<AxialMaterial> SimpleAxialMuscle::clone() const {
  return std::make_unique<SimpleAxialMuscle>(*this);
}

}  // namespace sinew
