#include "sinew/contact/ContactForceBehavior.h"

#include <cmath>
#include <limits>
#include <string>

#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"

namespace sinew {

double ContactForceBehavior::computeContactArea(const ContactPoint& cpnt) {
  // A contour region's point, even one at a mesh vertex, has no vertex area
  // (§8.7.2.1: vertex penetration only).
  return cpnt.vertex >= 0 && cpnt.vertexArea > 0 ? cpnt.vertexArea : -1.0;
}

namespace {
double checked(double v, bool ok, const char* what) {
  if (!ok || !std::isfinite(v)) throw ModelError(std::string("LinearElasticContact: invalid ") + what + " " + std::to_string(v));
  return v;
}
}  // namespace

LinearElasticContact::LinearElasticContact(double E, double nu, double damping, double thickness) {
  setYoungsModulus(E);
  setPoissonsRatio(nu);
  setDampingFactor(damping);
  setThickness(thickness);
}

void LinearElasticContact::setYoungsModulus(double E) { myE = checked(E, E > 0, "Young's modulus"); }
void LinearElasticContact::setPoissonsRatio(double nu) { myNu = checked(nu, nu > -1 && nu < 0.5, "Poisson's ratio"); }
void LinearElasticContact::setThickness(double h) { myThickness = checked(h, h > 0, "thickness"); }
void LinearElasticContact::setMinThicknessRatio(double r) { myMinRatio = checked(r, r > 0 && r < 1, "minThicknessRatio"); }
void LinearElasticContact::setDampingFactor(double c) { myDamping = checked(c, c >= 0, "damping factor"); }

double LinearElasticContact::pressure(double delta, const Vector3d& x, double* slope) const {
  const double E = myEField ? myEField(x) : myE, h = myThicknessField ? myThicknessField(x) : myThickness;
  const double K = (1 - myNu) * E / ((1 + myNu) * (1 - 2 * myNu));
  double p, dp;
  if (!myUseLog) {
    p = K * delta / h;
    dp = K / h;
  } else if (1 - delta / h > myMinRatio) {
    p = -K * std::log(1 - delta / h);
    dp = K / (h - delta);
  } else {
    // Beyond (1 − r) h the logarithm is continued by its tangent, so that a
    // contact through the layer still has a finite, steep pressure.
    const double d0 = h * (1 - myMinRatio);
    dp = K / (h * myMinRatio);
    p = -K * std::log(myMinRatio) + dp * (delta - d0);
  }
  if (slope) *slope = dp;
  return p;
}

void LinearElasticContact::computeResponse(double fres[3], double dist, const ContactPoint& cpnt, const Vector3d&,
                                           double contactArea, int flags) const {
  // Option A (the default) is the vertex's own area, option B the AJL
  // region's share; ArtiSynth's errors when the chosen one is undefined.
  double A;
  if (myUseLocalArea) {
    A = computeContactArea(cpnt);
    if (!(A > 0))
      throw ModelError("the contact has no vertex area (it is not a vertex-penetration contact): set the method to "
                       "VERTEX_PENETRATION, or useLocalContactArea false under the AJL_CONTOUR collider");
  } else {
    if (!(contactArea >= 0))
      throw ModelError("useLocalContactArea is false, but the contact area is defined only by the AJL_CONTOUR "
                       "collider: set colliderType to AJL_CONTOUR");
    A = contactArea;
  }
  if (flags & TWO_WAY_CONTACT) A *= 0.5;
  const double delta = std::max(-dist, 0.0);
  double slope;
  const double F = -A * pressure(delta, cpnt.position, &slope);
  const double stiffness = A * slope;
  fres[0] = F;
  fres[1] = stiffness > 0 ? 1 / stiffness : std::numeric_limits<double>::infinity();
  fres[2] = myDampingMethod == DampingMethod::Direct ? myDamping : myDamping * std::abs(F);
}

}  // namespace sinew
