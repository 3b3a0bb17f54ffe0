#include "sinew/fem/FemMaterial.h"

#include <cmath>
#include <sstream>

#include "sinew/Error.h"

namespace sinew {

namespace {
std::string str(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}
}  // namespace

double lameLambda(double E, double nu) { return E * nu / ((1 + nu) * (1 - 2 * nu)); }
double lameMu(double E, double nu) { return E / (2 * (1 + nu)); }

double checkYoungsModulus(double E) {
  if (!(std::isfinite(E) && E > 0)) throw ModelError("YoungsModulus must be positive and finite, got " + str(E));
  return E;
}

double checkPoissonsRatio(double nu) {
  // ν = 0.5 divides by zero in λ (§6.7.4) and ν = −1 in μ's companion.
  if (!(nu > -1 && nu < 0.5))
    throw ModelError("PoissonsRatio must lie strictly between -1 and 0.5, got " + str(nu));
  return nu;
}

double checkNonNegative(double v, const char* name) {
  if (!(std::isfinite(v) && v >= 0))
    throw ModelError(std::string(name) + " must be non-negative and finite, got " + str(v));
  return v;
}

double checkFinite(double v, const char* name) {
  if (!std::isfinite(v)) throw ModelError(std::string(name) + " must be finite, got " + str(v));
  return v;
}

SINEW_PROPERTIES(IsotropicMaterial, HasProperties) {
  list.add<IsotropicMaterial>("YoungsModulus", "Young's modulus E", &IsotropicMaterial::getYoungsModulus,
                              &IsotropicMaterial::setYoungsModulus)
      .setDefault(500000.0);
  list.add<IsotropicMaterial>("PoissonsRatio", "Poisson's ratio nu", &IsotropicMaterial::getPoissonsRatio,
                              &IsotropicMaterial::setPoissonsRatio)
      .setDefault(0.33);
}

IsotropicMaterial::IsotropicMaterial(double E, double nu)
    : myE(checkYoungsModulus(E)), myNu(checkPoissonsRatio(nu)) {}
void IsotropicMaterial::setYoungsModulus(double E) { myE = checkYoungsModulus(E); }
void IsotropicMaterial::setPoissonsRatio(double nu) { myNu = checkPoissonsRatio(nu); }

}  // namespace sinew
