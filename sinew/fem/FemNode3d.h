// FemNode3d (guide §6.1.2.1): a node of a finite-element model. It is a
// Particle — usable anywhere a point is (springs, markers, attachments) and
// a dynamic component of the same system as bodies — with a rest position,
// against which its elements measure strain. Its mass is lumped from the
// elements around it by the owning FemModel3d. Its stress and strain
// (§6.10: vonMisesStress, MAPStress, …) are the averages over the elements
// around it, kept by the model when computeNodalStress/Strain is set.
#pragma once

#include "sinew/fem/StressStrainOutput.h"
#include "sinew/mech/Point.h"

namespace sinew {

class FemNode3d : public Particle, public HasStressStrain {
  SINEW_DECLARE_PROPERTIES
 public:
  FemNode3d();
  /// A node at rest at pos.
  explicit FemNode3d(const Vector3d& pos);
  FemNode3d(double x, double y, double z) : FemNode3d(Vector3d(x, y, z)) {}

  const Vector3d& getRestPosition() const { return myRest; }
  /// Sets the rest position; the model's stress and stiffness follow it at
  /// the next step (§6.1.2.1).
  void setRestPosition(const Vector3d& p);

  /// Moves position and rest position (a rigid move of the whole model
  /// keeps it unstrained, §4.7).
  void transformGeometry(const RigidTransform3d& X) override;

 private:
  Vector3d myRest = Vector3d::Zero();
};

}  // namespace sinew
