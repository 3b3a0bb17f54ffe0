// Holds particles on a plane, or (unilateral) above it: one constraint row
// per particle, G = nᵀ, φ = n·(x − p0). The simplest Constrainer, it drives
// the KKT/MLCP machinery of the solver (seed 000 eqs. 1.5–1.8; compliance
// and damping as guide §3.3.8).
#pragma once

#include <vector>

#include "sinew/mech/DynamicComponent.h"
#include "sinew/mech/Point.h"
#include "sinew/mech/TransformableGeometry.h"

namespace sinew {

class ParticlePlaneConstraint : public Component, public Constrainer, public TransformableGeometry {
  SINEW_DECLARE_PROPERTIES
 public:
  /// Plane through `point` with normal `normal` (unit after construction).
  ParticlePlaneConstraint(std::string name, const Vector3d& normal, const Vector3d& point);
  void addParticle(Point& p);
  int numParticles() const { return static_cast<int>(myPoints.size()); }

  bool isUnilateral() const { return myUnilateral; }
  void setUnilateral(bool u) { myUnilateral = u; }
  double getCompliance() const { return myCompliance; }
  void setCompliance(double c);
  double getDamping() const { return myDamping; }
  void setDamping(double d);
  const Vector3d& getNormal() const { return myNormal; }
  /// Signed distance of particle i from the plane.
  double getDistance(int i) const;
  /// Constraint force (along the normal) on particle i from the last solve.
  double getForce(int i) const { return myForces.at(i); }

  void getBilateralConstraints(ConstraintBuilder& G) override;
  void getUnilateralConstraints(ConstraintBuilder& N) override;
  void setConstraintForces(const double* bilateral, const double* unilateral) override;
  /// The plane moves with the model (§4.7).
  void transformGeometry(const RigidTransform3d& X) override;

 private:
  void addRows(ConstraintBuilder& b, bool unilateralRows);
  Vector3d myNormal, myPoint;
  std::vector<Point*> myPoints;
  std::vector<double> myForces;
  std::vector<int> myEngaged;  ///< particle indices of the last unilateral rows
  bool myUnilateral = false;
  double myCompliance = 0, myDamping = 0;
};

}  // namespace sinew
