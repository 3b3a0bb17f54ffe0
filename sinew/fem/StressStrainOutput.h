// Stress and strain held by FEM nodes and elements for output (guide §6.10,
// Table 6.6): the Cauchy stress and the strain that FemModel3d computes
// after each step when its computeNodalStress / computeNodalStrain /
// computeElementStress / computeElementStrain flags are set, and the scalar
// measures of Table 6.6 read from them as read-only properties (so a
// NumericOutputProbe can record "nodes/12:vonMisesStress").
#pragma once

#include "sinew/fem/StressMeasures.h"
#include "sinew/fem/TensorUtils.h"
#include "sinew/model/Property.h"

namespace sinew {

/// A mixin of FemNode3d and FemElement3d: the stored stress and strain and
/// their measures. Zero until the model computes them.
class HasStressStrain {
 public:
  const Matrix3d& getStress() const { return myStress; }
  const Matrix3d& getStrain() const { return myStrain; }
  double getVonMisesStress() const { return vonMises(myStress); }
  double getVonMisesStrain() const { return vonMisesStrain(myStrain); }
  /// The principal value of largest magnitude, with its sign (MAPStress).
  double getMAPStress() const { return maxAbsPrincipalValue(myStress); }
  double getMAPStrain() const { return maxAbsPrincipalValue(myStrain); }
  double getMaxShearStress() const { return maxShear(myStress); }
  double getMaxShearStrain() const { return maxShear(myStrain); }
  /// Principal values, largest first.
  Vector3d getPrincipalStresses() const { return principalValues(myStress); }
  Vector3d getPrincipalStrains() const { return principalValues(myStrain); }

  /// Written by the model (FemModel3d::updateStressAndStrain).
  void setStress(const Matrix3d& s) { myStress = s; }
  void setStrain(const Matrix3d& e) { myStrain = e; }
  void addScaledStress(double w, const Matrix3d& s) { myStress += w * s; }
  void addScaledStrain(double w, const Matrix3d& e) { myStrain += w * e; }

 private:
  Matrix3d myStress = Matrix3d::Zero();
  Matrix3d myStrain = Matrix3d::Zero();
};

/// Declares the read-only properties of HasStressStrain on class C: stress
/// and strain as Voigt 6-vectors (xx, yy, zz, xy, yz, xz; tensor shears),
/// vonMisesStress, vonMisesStrain, MAPStress, MAPStrain, maxShearStress,
/// maxShearStrain, principalStresses and principalStrains.
template <class C>
void addStressStrainProperties(PropertyList& list) {
  list.add<C>("stress", "Cauchy stress (Voigt xx yy zz xy yz xz)", [](const C& c) { return toVoigt(c.getStress()); });
  list.add<C>("strain", "strain (Voigt xx yy zz xy yz xz, tensor shears)",
              [](const C& c) { return toVoigt(c.getStrain()); });
  list.add<C>("vonMisesStress", "von Mises stress √(3 J₂)", &C::getVonMisesStress);
  list.add<C>("vonMisesStrain", "von Mises strain √(4/3 J₂)", &C::getVonMisesStrain);
  list.add<C>("MAPStress", "principal stress of largest magnitude", &C::getMAPStress);
  list.add<C>("MAPStrain", "principal strain of largest magnitude", &C::getMAPStrain);
  list.add<C>("maxShearStress", "maximum shear stress", &C::getMaxShearStress);
  list.add<C>("maxShearStrain", "maximum shear strain", &C::getMaxShearStrain);
  list.add<C>("principalStresses", "principal stresses, largest first", &C::getPrincipalStresses);
  list.add<C>("principalStrains", "principal strains, largest first", &C::getPrincipalStrains);
}

}  // namespace sinew
