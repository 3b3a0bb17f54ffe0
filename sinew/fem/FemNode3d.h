// FemNode3d (guide §6.1.2.1): a node of a finite-element model. It is a
// Particle — usable anywhere a point is (springs, markers, attachments) and
// a dynamic component of the same system as bodies — with a rest position,
// against which its elements measure strain. Its mass is lumped from the
// elements around it by the owning FemModel3d. Its stress and strain
// (§6.10: vonMisesStress, MAPStress, …) are the averages over the elements
// around it, kept by the model when computeNodalStress/Strain is set.
//
// A node of a regular shell element carries a director (§6.1.2.3): the
// vector from its back node (a BackNode3d, a dynamic point of the model's
// `backNodes` list at x − d) to the node. Its rest value is, unless set,
// d = Σ A_i n_i normalised and scaled by the mean defaultThickness of the
// regular shells around the node (n_i their normals, A_i their areas).
#pragma once

#include "sinew/fem/StressStrainOutput.h"
#include "sinew/mech/Point.h"

namespace sinew {

class BackNode3d;

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

  // Directors (§6.1.2.3): zero vectors for a node without one.
  bool hasDirector() const { return myBackNode != nullptr; }
  /// Current director x − x_back.
  Vector3d getDirector() const;
  Vector3d getRestDirector() const;
  /// Director velocity v − v_back.
  Vector3d getDirectorVel() const;
  /// Sets the current director (moves the back node); ModelError if the node
  /// belongs to no regular shell.
  void setDirector(const Vector3d& d);
  /// Sets the rest director, which then stays as set (it is no longer
  /// computed from the shells around the node).
  void setRestDirector(const Vector3d& d);
  bool isRestDirectorExplicit() const { return myRestDirectorExplicit; }
  /// The back node, or nullptr without a director.
  BackNode3d* getBackNode() const;
  /// The back node, which a frame attachment of this node carries too.
  Point* getDirectorPoint() const override;

 private:
  friend class FemModel3d;
  /// Sets the rest director from the regular shells around the node (unless
  /// set by hand); the current director is initialised to it, or scaled with
  /// it once initialised.
  void refreshDirector();

  Vector3d myRest = Vector3d::Zero();
  BackNode3d* myBackNode = nullptr;
  bool myRestDirectorExplicit = false;
  bool myDirectorInitialized = false;
  // The regular shells around the node: Σ vector areas, Σ thicknesses, count.
  Vector3d myShellArea = Vector3d::Zero();
  double myShellThickness = 0;
  int myNumShells = 0;
};

/// The back node of a shell node (§6.1.2.3): a dynamic point at x − d that
/// carries half of the node's shell mass. It is dynamic exactly when its node
/// is, so fixing a node clamps its director too.
class BackNode3d : public Particle {
 public:
  explicit BackNode3d(FemNode3d& node);
  FemNode3d& getNode() const { return *myNode; }
  const Vector3d& getRestPosition() const { return myRest; }
  void setRestPosition(const Vector3d& p) { myRest = p; }
  bool isDynamic() const override { return myNode->isDynamic(); }
  /// Moves position and rest position.
  void transformGeometry(const RigidTransform3d& X) override;

 private:
  FemNode3d* myNode;
  Vector3d myRest = Vector3d::Zero();
};

}  // namespace sinew
