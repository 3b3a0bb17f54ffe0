// FemMaterial: the constitutive law of a volumetric element (guide §6.1.3).
// A material maps the local deformation at an integration point to the
// Cauchy stress σ and, optionally, the spatial tangent — the guide's
// computeStressAndTangent — and is a value: models copy the material they
// are given (§6.8), so every material is copyable and clonable.
//
// Conventions (see TensorUtils.h for Voigt): the tangent D is the 6×6 Voigt
// form of the spatial elasticity tensor c, the one that relates the
// Truesdell rate of σ to the rate of deformation d = sym(Ḟ F⁻¹):
//     σ̇ − Lσ − σLᵀ + tr(L)σ = c : d,   L = Ḟ F⁻¹.
// With it, the element stiffness is K = ∫ Bᵀ D B dv + ∫ (∇N_iᵀ σ ∇N_j) I dv.
// Small-strain ("linear") materials instead have σ linear in the strain
// ε = sym(RᵀF) − I and D = ∂σ/∂ε; elements integrate them over the rest
// volume without the initial-stress term (isLinear()).
#pragma once

#include <memory>

#include "sinew/math/Spatial.h"
#include "sinew/model/Property.h"

namespace sinew {

/// The deformation at one point: the deformation gradient F = ∂x/∂X, its
/// determinant J, and the rotation R that corotated materials remove (the
/// polar rotation of F at the element's warping point; identity otherwise).
struct DeformedPoint {
  Matrix3d F = Matrix3d::Identity();
  double J = 1;
  Matrix3d R = Matrix3d::Identity();

  DeformedPoint() = default;
  explicit DeformedPoint(const Matrix3d& F_, const Matrix3d& R_ = Matrix3d::Identity())
      : F(F_), J(F_.determinant()), R(R_) {}
};

class FemMaterial : public HasProperties {
 public:
  /// Cauchy stress sigma at def; if D is non-null, also the tangent.
  virtual void computeStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const = 0;
  Matrix3d computeStress(const DeformedPoint& def) const {
    Matrix3d sigma;
    computeStressAndTangent(sigma, nullptr, def);
    return sigma;
  }
  /// Strain energy per unit rest volume, W(F).
  virtual double computeStrainEnergyDensity(const DeformedPoint& def) const = 0;

  /// True for small-strain materials (see the file comment).
  virtual bool isLinear() const { return false; }
  /// True if the material uses DeformedPoint::R (corotated linear).
  virtual bool isCorotated() const { return false; }
  /// True if the element kernels should include the derivative of R in the
  /// tangent stiffness (exact, and not symmetric for elements with several
  /// integration points) instead of stiffness warping.
  virtual bool hasExactRotationTangent() const { return false; }
  /// True if the stress stays defined for inverted elements (J ≤ 0); elements
  /// with other materials report inversion as an error.
  virtual bool isInvertible() const { return false; }
  /// True for materials that split into a deviatoric part and a pressure
  /// p(J) (IncompressibleMaterial), for soft incompressibility (§6.7.3).
  virtual bool isIncompressible() const { return false; }

  virtual std::unique_ptr<FemMaterial> clone() const = 0;

  /// Multiplies every stress-like parameter (a modulus, in Pa =
  /// kg m⁻¹ s⁻²) by f: what scaling distance units by s (f = 1/s) or mass
  /// units by s (f = s) asks of a material (guide §4.2.1, Table 4.1).
  virtual void scaleModuli(double f) = 0;

 protected:
  FemMaterial() = default;
  FemMaterial(const FemMaterial&) = default;
  FemMaterial& operator=(const FemMaterial&) = default;
};

/// λ and μ from Young's modulus and Poisson's ratio (eq. 6.2).
double lameLambda(double E, double nu);
double lameMu(double E, double nu);

/// Base of the materials parametrised by Young's modulus E and Poisson's
/// ratio ν (LinearMaterial, StVenantKirchoffMaterial, NeoHookeanMaterial):
/// the two properties, their validation and the Lamé constants.
class IsotropicMaterial : public FemMaterial {
  SINEW_DECLARE_PROPERTIES
 public:
  double getYoungsModulus() const { return myE; }
  void setYoungsModulus(double E);
  double getPoissonsRatio() const { return myNu; }
  void setPoissonsRatio(double nu);
  double getLambda() const { return lameLambda(myE, myNu); }
  double getMu() const { return lameMu(myE, myNu); }
  void scaleModuli(double f) override { setYoungsModulus(f * myE); }

 protected:
  IsotropicMaterial(double E, double nu);

 private:
  double myE, myNu;
};

/// Validation of material parameters; each throws ModelError naming the
/// parameter and the offending value.
double checkYoungsModulus(double E);           ///< E > 0
double checkPoissonsRatio(double nu);          ///< −1 < ν < 0.5
double checkNonNegative(double v, const char* name);
double checkFinite(double v, const char* name);

}  // namespace sinew
