// Two-point springs and muscles (guide §3.1.1, §3.1.2, §4.5.1, §4.5.2).
//
// An AxialSpring pulls its two points together with tension f(l, l̇) from its
// AxialMaterial (default LinearAxialMaterial). A Muscle is an AxialSpring
// with an `excitation` in [0, 1] and SimpleAxialMuscle as default material.
#pragma once

#include <memory>
#include <type_traits>

#include "sinew/mech/AxialMaterial.h"
#include "sinew/mech/DynamicComponent.h"
#include "sinew/mech/Point.h"

namespace sinew {

class AxialSpring : public Component, public ForceEffector {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit AxialSpring(std::string name = {}, double restLength = 0);
  /// Creates a LinearAxialMaterial(k, d).
  AxialSpring(std::string name, double k, double d, double restLength);

  void setPoints(Point& p0, Point& p1);
  Point* getFirstPoint() const { return myP0; }
  Point* getSecondPoint() const { return myP1; }

  double getRestLength() const { return myRestLength; }
  void setRestLength(double l0);
  /// Sets the rest length to the current length.
  void setRestLengthFromPoints() { setRestLength(getLength()); }
  AxialMaterial* getMaterial() const { return myMaterial.get(); }
  void setMaterial(std::unique_ptr<AxialMaterial> mat);
  template <class M>
    requires std::is_base_of_v<AxialMaterial, M>
  M& setMaterial(const M& mat) {
    setMaterial(std::make_unique<M>(mat));
    return static_cast<M&>(*myMaterial);
  }

  double getLength() const;
  double getLengthDot() const;
  /// Tension at the current state (positive when pulling).
  double getForceNorm() const;
  /// Excitation passed to the material (0 for plain springs).
  virtual double getNetExcitation() const { return 0; }

  // ForceEffector
  void applyForces(double t) override;
  void declareJacobianBlocks(JacobianPattern& pat) override;
  void addPosJacobian(JacobianMatrix& K, double s) override;
  void addVelJacobian(JacobianMatrix& D, double s) override;
  double getPotentialEnergy() const override;

 protected:
  AxialSpring(std::string name, double restLength, std::unique_ptr<AxialMaterial> mat);

 private:
  /// Unit direction p0→p1 and length; u = 0 when the points coincide.
  void computeDirection(Vector3d& u, double& l) const;
  Point* myP0 = nullptr;
  Point* myP1 = nullptr;
  double myRestLength = 0;
  std::unique_ptr<AxialMaterial> myMaterial;
  int myBlk[4] = {-1, -1, -1, -1};  ///< Jacobian handles 00, 01, 10, 11
};

/// A spring whose material is driven by an excitation (guide §4.5).
class Muscle : public AxialSpring {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit Muscle(std::string name = {}, double restLength = 0);
  double getExcitation() const { return myExcitation; }
  void setExcitation(double a);
  double getNetExcitation() const override { return myExcitation; }

 private:
  double myExcitation = 0;
};

}  // namespace sinew
