// Points and particles (guide §3.1, §3.1.3, §3.1.5).
//
// A Point is a 3-dof spatial point; a plain Point is massless and
// non-dynamic (parametric) unless attached. A Particle is a dynamic point
// with mass. Parametric points follow `targetPosition` when it is set (e.g.
// by an input probe or a controller, §5.3.2, §5.4.3).
#pragma once

#include "sinew/mech/DynamicComponent.h"
#include "sinew/mech/TransformableGeometry.h"
#include "sinew/model/Component.h"

namespace sinew {

class Point : public Component, public DynamicComponent, public TransformableGeometry {
  SINEW_DECLARE_PROPERTIES
 public:
  Point();
  explicit Point(std::string name, const Vector3d& pos = Vector3d::Zero());
  Point(double x, double y, double z) : Point(std::string(), Vector3d(x, y, z)) {}

  /// A point that an attachment of this one to a frame must carry too: a
  /// shell node's back node (guide §6.1.2.3), so that the frame holds the
  /// node's director as ArtiSynth's ShellNodeFrameAttachment does. Null for
  /// other points.
  virtual Point* getDirectorPoint() const { return nullptr; }

  const Vector3d& getPosition() const { return myPos; }
  void setPosition(const Vector3d& p);
  void setPosition(double x, double y, double z) { setPosition(Vector3d(x, y, z)); }
  const Vector3d& getVelocity() const { return myVel; }
  void setVelocity(const Vector3d& v);
  const Vector3d& getForce() const { return myForce; }
  /// Prescribed position for a parametric point; the solver moves the point
  /// there over the step with the matching velocity.
  const Vector3d& getTargetPosition() const { return myTarget; }
  void setTargetPosition(const Vector3d& p);
  bool hasTarget() const { return myHasTarget; }
  void clearTarget() { myHasTarget = false; }
  /// External force added every step (like an applied load).
  const Vector3d& getExternalForce() const { return myExtForce; }
  void setExternalForce(const Vector3d& f) { myExtForce = f; }

  double getPointDamping() const { return inherited("pointDamping", myPointDamping, 0.0); }
  void setPointDamping(double d) { setInheritable(myPointDamping, d); }

  void addForce(const Vector3d& f) { myForce += f; }

  // DynamicComponent
  int getVelStateSize() const override { return 3; }
  int getPosStateSize() const override { return 3; }
  void getPosState(double* q) const override;
  void setPosState(const double* q) override;
  void getVelState(double* u) const override;
  void setVelState(const double* u) override;
  void addPosImpulse(double* q, double h, const double* u) const override;
  void getMassBlock(Block& M) const override;
  double getMass() const override { return 0; }
  void zeroForces() override { myForce = myExtForce; }
  void getForce(double* f) const override;
  void addForce(const double* f) override;
  void applyGravity(const Vector3d& g) override { myForce += getMass() * g; }
  void applyDamping(Block* D) override;
  void updateParametricVelocity(double h) override;
  double getGravityPotential(const Vector3d& g) const override { return -getMass() * g.dot(myPos); }
  std::string componentPath() const override { return getPathName(); }

  /// Moves the position (and target) by X and turns the velocity (§4.7).
  void transformGeometry(const RigidTransform3d& X) override;

 protected:
  Vector3d myPos = Vector3d::Zero();
  Vector3d myVel = Vector3d::Zero();
  Vector3d myForce = Vector3d::Zero();
  Vector3d myExtForce = Vector3d::Zero();
  Vector3d myTarget = Vector3d::Zero();
  bool myHasTarget = false;
  Inheritable<double> myPointDamping;
};

/// A dynamic point with mass (guide §3.1.2).
class Particle : public Point {
  SINEW_DECLARE_PROPERTIES
 public:
  Particle() { setDynamic(true); }
  Particle(std::string name, double mass, double x, double y, double z);
  Particle(double mass, double x, double y, double z) : Particle(std::string(), mass, x, y, z) {}

  double getMass() const override { return myMass; }
  /// Sets the mass; negative or non-finite masses are rejected.
  void setMass(double m);

 private:
  double myMass = 1;
};

}  // namespace sinew
