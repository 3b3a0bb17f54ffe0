// Contact force behaviours (guide §8.7.2) and elastic foundation contact
// (§8.7.3). A force behaviour replaces the hard contact of a collision
// behaviour by a force law along the normal, f = −F(d) − D(d) ḋ, with d the
// (negative) penetration: each contact becomes a compliant row whose
// compliance 1/F'(d) and offset reproduce F at the current depth, so the
// law is integrated implicitly with the rest of the system.
//
// LinearElasticContact is the guide's elastic foundation: the pressure of a
// layer of thickness h of a linear material (E, ν) pressed by d,
//   p = −K ln(1 + d/h)  (useLogDistance, linearized where 1 + d/h < r)
//   p = −K d/h          (otherwise),   K = (1 − ν)E / ((1 + ν)(1 − 2ν)),
// times the area of the penetrating vertex (a third of its faces' area).
#pragma once

#include <functional>
#include <memory>

#include "sinew/math/Spatial.h"

namespace sinew {

struct ContactPoint;

class ContactForceBehavior {
 public:
  /// `flags` bit: vertex penetrations are computed both ways, so a
  /// pressure law should halve its force (§8.7.2.1).
  static constexpr int TWO_WAY_CONTACT = 1;

  virtual ~ContactForceBehavior() = default;
  /// fres = {F(d) (negative in contact), compliance 1/F'(d), damping D(d)}.
  /// `dist` is d (negative when penetrating); `contactArea` is the
  /// penetration region's area over its penetrating vertices under the
  /// AJL_CONTOUR collider (vertex penetration), −1 otherwise.
  virtual void computeResponse(double fres[3], double dist, const ContactPoint& cpnt, const Vector3d& nrml,
                               double contactArea, int flags) const = 0;
  /// The area associated with the penetrating vertex: a third of the area
  /// of each face around it (vertex penetration, §8.7.2.1); −1 for a
  /// contact without one (a contour region's point), as in the guide.
  static double computeContactArea(const ContactPoint& cpnt);
};

class LinearElasticContact : public ContactForceBehavior {
 public:
  /// Damping f_d = −C ḋ (DIRECT) or −C |F(d)| ḋ (FORCE, as OpenSim's EFC).
  enum class DampingMethod { Direct, Force };

  LinearElasticContact(double E, double nu, double damping, double thickness);

  void computeResponse(double fres[3], double dist, const ContactPoint& cpnt, const Vector3d& nrml,
                       double contactArea, int flags) const override;
  /// The pressure law p(δ) ≥ 0 at penetration δ = −d ≥ 0, and its slope,
  /// at a point (E and h may be bound to fields).
  double pressure(double delta, const Vector3d& x, double* slope = nullptr) const;

  double getYoungsModulus() const { return myE; }
  void setYoungsModulus(double E);
  double getPoissonsRatio() const { return myNu; }
  void setPoissonsRatio(double nu);
  double getThickness() const { return myThickness; }
  void setThickness(double h);
  double getMinThicknessRatio() const { return myMinRatio; }
  void setMinThicknessRatio(double r);
  double getDampingFactor() const { return myDamping; }
  void setDampingFactor(double c);
  DampingMethod getDampingMethod() const { return myDampingMethod; }
  void setDampingMethod(DampingMethod m) { myDampingMethod = m; }
  bool getUseLogDistance() const { return myUseLog; }
  void setUseLogDistance(bool b) { myUseLog = b; }
  /// Which area turns pressure into force (§8.7.3): true (default) the
  /// vertex's own (computeContactArea; a contact without one, e.g. from a
  /// contour region, is a ModelError), false the `contactArea` the
  /// AJL_CONTOUR collider gives (any other collider: ModelError).
  bool getUseLocalContactArea() const { return myUseLocalArea; }
  void setUseLocalContactArea(bool b) { myUseLocalArea = b; }

  /// The hook of §8.7.5: Young's modulus and thickness as functions of the
  /// world position of the contact (null: the constant values).
  using ScalarField = std::function<double(const Vector3d&)>;
  void setYoungsModulusField(ScalarField f) { myEField = std::move(f); }
  void setThicknessField(ScalarField f) { myThicknessField = std::move(f); }

 private:
  double myE, myNu, myDamping, myThickness;
  double myMinRatio = 0.01;
  DampingMethod myDampingMethod = DampingMethod::Direct;
  bool myUseLog = true, myUseLocalArea = true;
  ScalarField myEField, myThicknessField;
};

}  // namespace sinew
