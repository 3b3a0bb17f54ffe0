// OgdenMaterial (guide Table 6.3): the deviatoric energy in the principal
// stretches λ̄_a = J^(−1/3) λ_a (the FEBio convention ArtiSynth follows),
//   W̄ = Σ_i μ_i/α_i² (λ̄1^α_i + λ̄2^α_i + λ̄3^α_i − 3),  i = 1..6,
// plus the bulk potential U(J) of IncompressibleMaterial. Terms with μ_i = 0
// are skipped; the small-strain shear modulus is G = ½ Σ μ_i, and α = 2
// reproduces the incompressible neo-Hookean law with G = μ/2.
#pragma once

#include <array>
#include <vector>

#include "sinew/fem/IncompressibleMaterial.h"

namespace sinew {

class OgdenMaterial : public IncompressibleMaterial {
  SINEW_DECLARE_PROPERTIES
 public:
  static constexpr int kNumTerms = 6;
  /// Defaults: μ1 = 300000, the other μ 0, every α 2, κ = 100000.
  OgdenMaterial();
  /// Up to six μ and α (missing μ are 0, missing α are 2).
  OgdenMaterial(const std::vector<double>& mu, const std::vector<double>& alpha, double kappa);

  /// Term i in 0..5 (the properties Mu1..Mu6, Alpha1..Alpha6).
  double getMu(int i) const { return myMu.at(i); }
  void setMu(int i, double mu);
  double getAlpha(int i) const { return myAlpha.at(i); }
  void setAlpha(int i, double alpha);
  void scaleModuli(double f) override {
    IncompressibleMaterial::scaleModuli(f);
    for (double& mu : myMu) mu *= f;
  }

  void computeDevStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const override;
  double computeDevStrainEnergyDensity(const DeformedPoint& def) const override;
  std::unique_ptr<FemMaterial> clone() const override;

 private:
  std::array<double, kNumTerms> myMu, myAlpha;
};

/// The Cauchy stress and spatial tangent of an isotropic energy given in
/// principal form: the principal Kirchhoff stresses tau[a] = ∂W/∂ln λ_a,
/// their derivatives dtau(a, b) = ∂tau[a]/∂ln λ_b, the squared stretches
/// lam2[a] and unit principal directions (columns of n). Equal stretches
/// take the limit of the shear terms.
void computePrincipalStressAndTangent(Matrix3d& sigma, Matrix6d* D, const Vector3d& tau, const Matrix3d& dtau,
                                      const Vector3d& lam2, const Matrix3d& n, double J);

}  // namespace sinew
