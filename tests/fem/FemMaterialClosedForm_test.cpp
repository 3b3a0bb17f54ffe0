// Every material of Table 6.3 against closed-form Cauchy stresses in
// simple shear and uniaxial stretch, and objectivity of those states
// (guide §6.1.3). The tangents are checked against finite differences of
// the stress in FemMaterial_test and of the element forces in
// ElementKernels_test.
//
// Simple shear F = I + γ e₁⊗e₂ is isochoric (J = 1), with
//   b = F Fᵀ = [[1+γ², γ, 0], [γ, 1, 0], [0, 0, 1]],  Ī₁ = Ī₂ = 3 + γ²,
// principal stretches λ± = (√(4+γ²) ± γ)/2 and λ₃ = 1, and the polar
// rotation R of angle −atan(γ/2) about z, with U = (C + I)/√(4+γ²).
#include <gtest/gtest.h>

#include <cmath>

#include "FemTestUtil.h"
#include "Verification.h"

namespace sinew {
namespace {

using namespace femtest;

const double kGamma = 0.4;

Matrix3d simpleShear(double g) {
  Matrix3d F = Matrix3d::Identity();
  F(0, 1) = g;
  return F;
}

/// A symmetric tensor from its xx, yy, zz and xy entries.
Matrix3d planeTensor(double xx, double yy, double zz, double xy) {
  Matrix3d A = Vector3d(xx, yy, zz).asDiagonal();
  A(0, 1) = A(1, 0) = xy;
  return A;
}

Matrix3d dev(const Matrix3d& A) { return A - A.trace() / 3 * Matrix3d::Identity(); }

/// σ of mat at F (with rotation R for corotated materials) equals the
/// closed form, and, objectivity, σ(QF, QR) = Q σ Qᵀ for a rotation Q.
void expectStress(const FemMaterial& mat, const Matrix3d& F, const Matrix3d& R, const Matrix3d& expected,
                  const std::string& what) {
  const Matrix3d sigma = mat.computeStress(DeformedPoint(F, R));
  const double scale = 1 + expected.norm();
  VERIFY_BELOW("material closed form: |σ − σ_exact| / (1 + |σ_exact|), " + what, "closed-form Cauchy stress",
               (sigma - expected).norm() / scale, 1e-12);
  const Matrix3d Q = axisRotation(0, 0.9) * axisRotation(2, -1.3);
  if (mat.isLinear() && !mat.isCorotated()) return;  // small-strain theory is not objective
  const Matrix3d rotated = mat.computeStress(DeformedPoint(Q * F, Q * R));
  EXPECT_LT((rotated - Q * expected * Q.transpose()).norm(), 1e-12 * scale) << what << " rotated";
}

TEST(FemMaterialClosedForm, LinearInSimpleShear) {
  // Small strain ε = sym(F) − I: engineering shear γ, so σ12 = μγ and no
  // normal stress.
  const double E = 1000, nu = 0.3, mu = lameMu(E, nu), lam = lameLambda(E, nu), g = kGamma;
  expectStress(LinearMaterial(E, nu, false), simpleShear(g), Matrix3d::Identity(), planeTensor(0, 0, 0, mu * g),
               "Linear");
  // Corotated: ε' = U − I in the element frame, σ = R (λ tr ε' I + 2μ ε') Rᵀ,
  // with U = [[2, γ], [γ, 2+γ²]]/s and R = [[2, γ], [−γ, 2]]/s, s = √(4+γ²).
  const double s = std::sqrt(4 + g * g);
  const Matrix3d U = planeTensor(2 / s, (2 + g * g) / s, 1, g / s);
  Matrix3d R = Matrix3d::Identity();
  R.topLeftCorner<2, 2>() << 2 / s, g / s, -g / s, 2 / s;
  ASSERT_LT((R * U - simpleShear(g)).norm(), 1e-15);  // the closed-form polar decomposition
  const Matrix3d eps = U - Matrix3d::Identity();
  const Matrix3d local = lam * eps.trace() * Matrix3d::Identity() + 2 * mu * eps;
  expectStress(LinearMaterial(E, nu, true), simpleShear(g), R, R * local * R.transpose(), "LinearCorotated");
}

TEST(FemMaterialClosedForm, StVenantKirchoffInSimpleShear) {
  // E = ½(C − I) = ½[[0, γ], [γ, γ²]], tr E = γ²/2; S = λ tr E I + 2μE:
  // S11 = S33 = λγ²/2, S22 = λγ²/2 + μγ², S12 = μγ. σ = F S Fᵀ:
  // σ11 = S11 + 2γ S12 + γ² S22, σ12 = S12 + γ S22, σ22 = S22, σ33 = S33.
  const double E = 1000, nu = 0.3, mu = lameMu(E, nu), lam = lameLambda(E, nu), g = kGamma;
  const double S11 = lam * g * g / 2, S22 = S11 + mu * g * g, S12 = mu * g;
  expectStress(StVenantKirchoffMaterial(E, nu), simpleShear(g), Matrix3d::Identity(),
               planeTensor(S11 + 2 * g * S12 + g * g * S22, S22, S11, S12 + g * S22), "StVenantKirchoff");
}

TEST(FemMaterialClosedForm, NeoHookeanInSimpleShear) {
  // σ = μ(b − I)/J + λ ln J / J I with J = 1: σ11 = μγ², σ12 = μγ, the
  // other normal stresses zero.
  const double E = 1000, nu = 0.3, mu = lameMu(E, nu), g = kGamma;
  expectStress(NeoHookeanMaterial(E, nu), simpleShear(g), Matrix3d::Identity(), planeTensor(mu * g * g, 0, 0, mu * g),
               "NeoHookean");
}

TEST(FemMaterialClosedForm, IncompNeoHookeanInSimpleShear) {
  // σ = G dev b̄ / J + p I; J = 1 so p = 0 for either bulk potential and
  // b̄ = b: σ11 = ⅔Gγ², σ22 = σ33 = −⅓Gγ², σ12 = Gγ.
  const double G = 700, g = kGamma;
  for (BulkPotential bp : {BulkPotential::QUADRATIC, BulkPotential::LOGARITHMIC}) {
    IncompNeoHookeanMaterial mat(G, 5000);
    mat.setBulkPotential(bp);
    expectStress(mat, simpleShear(g), Matrix3d::Identity(),
                 planeTensor(2 * G * g * g / 3, -G * g * g / 3, -G * g * g / 3, G * g), "IncompNeoHookean");
  }
}

/// Mooney-Rivlin at an isochoric F: σ = 2 dev[(W1 + Ī₁W2) b − W2 b²] with
/// W1 = ∂W/∂Ī₁ = C10 + C11(Ī₂−3) + 2C20(Ī₁−3), W2 = C01 + C11(Ī₁−3) + 2C02(Ī₂−3).
Matrix3d mooneyRivlinIsochoric(const MooneyRivlinMaterial& m, const Matrix3d& b) {
  const double I1 = b.trace(), I2 = 0.5 * (I1 * I1 - (b * b).trace());
  const double W1 = m.getC10() + m.getC11() * (I2 - 3) + 2 * m.getC20() * (I1 - 3);
  const double W2 = m.getC01() + m.getC11() * (I1 - 3) + 2 * m.getC02() * (I2 - 3);
  return 2 * dev((W1 + I1 * W2) * b - W2 * b * b);
}

TEST(FemMaterialClosedForm, MooneyRivlinInSimpleShearAndUniaxialStretch) {
  const MooneyRivlinMaterial mat(300, 120, 40, 60, 25, 9000);
  const double g = kGamma;
  // Simple shear: σ12 = 2γ(W1 + W2), W1 = C10 + (C11 + 2C20)γ²,
  // W2 = C01 + (C11 + 2C02)γ² (Ī₁ = Ī₂ = 3 + γ²).
  const double W1 = 300 + (40 + 2 * 60) * g * g, W2 = 120 + (40 + 2 * 25) * g * g;
  const Matrix3d b = simpleShear(g) * simpleShear(g).transpose();
  const Matrix3d shear = mooneyRivlinIsochoric(mat, b);
  EXPECT_NEAR(shear(0, 1), 2 * g * (W1 + W2), 1e-12 * W1);
  expectStress(mat, simpleShear(g), Matrix3d::Identity(), shear, "MooneyRivlin shear");
  // Isochoric uniaxial stretch diag(λ, λ^−½, λ^−½): Ī₁ = λ² + 2/λ,
  // Ī₂ = 2λ + 1/λ², σ11 − σ22 = 2(λ² − 1/λ)(W1 + W2/λ), traceless.
  const double l = 1.35, I1 = l * l + 2 / l, I2 = 2 * l + 1 / (l * l);
  const double V1 = 300 + 40 * (I2 - 3) + 120 * (I1 - 3), V2 = 120 + 40 * (I1 - 3) + 50 * (I2 - 3);
  const double d = 2 * (l * l - 1 / l) * (V1 + V2 / l);
  const Matrix3d F = Vector3d(l, 1 / std::sqrt(l), 1 / std::sqrt(l)).asDiagonal();
  expectStress(mat, F, Matrix3d::Identity(), planeTensor(2 * d / 3, -d / 3, -d / 3, 0), "MooneyRivlin uniaxial");
}

/// Ogden at an isochoric state with principal stretches λ_a along the
/// orthonormal directions n_a: τ_a = Σᵢ (μᵢ/αᵢ) λ_a^αᵢ (W = Σ μᵢ/αᵢ² Σ_a (λ̄_a^αᵢ − 1)),
/// σ = Σ_a (τ_a − ⅓ Σ_b τ_b) n_a n_aᵀ.
Matrix3d ogdenIsochoric(const std::vector<double>& mu, const std::vector<double>& alpha, const Vector3d& stretch,
                        const Matrix3d& dirs) {
  Vector3d tau = Vector3d::Zero();
  for (size_t i = 0; i < mu.size(); ++i)
    for (int a = 0; a < 3; ++a) tau[a] += mu[i] / alpha[i] * std::pow(stretch[a], alpha[i]);
  tau.array() -= tau.sum() / 3;
  return dirs * tau.asDiagonal() * dirs.transpose();
}

TEST(FemMaterialClosedForm, OgdenInSimpleShearAndUniaxialStretch) {
  const std::vector<double> mu{500, -60, 12}, alpha{2.5, -2, 5};
  const OgdenMaterial mat(mu, alpha, 9000);
  const double g = kGamma, s = std::sqrt(4 + g * g);
  // Simple shear: λ± = (s ± γ)/2, each along (λ² − 1, γ) (an eigenvector
  // of b's upper 2 × 2 block), and λ₃ = 1 along z.
  const double lp = (s + g) / 2, lm = (s - g) / 2;
  Matrix3d dirs = Matrix3d::Identity();
  dirs.col(0).head<2>() = Eigen::Vector2d(lp * lp - 1, g).normalized();
  dirs.col(1).head<2>() = Eigen::Vector2d(lm * lm - 1, g).normalized();
  expectStress(mat, simpleShear(g), Matrix3d::Identity(), ogdenIsochoric(mu, alpha, Vector3d(lp, lm, 1), dirs),
               "Ogden shear");
  // Isochoric uniaxial stretch: σ11 − σ22 = Σ μᵢ/αᵢ (λ^αᵢ − λ^(−αᵢ/2)).
  const double l = 1.35;
  double d = 0;
  for (size_t i = 0; i < mu.size(); ++i) d += mu[i] / alpha[i] * (std::pow(l, alpha[i]) - std::pow(l, -alpha[i] / 2));
  const Matrix3d F = Vector3d(l, 1 / std::sqrt(l), 1 / std::sqrt(l)).asDiagonal();
  expectStress(mat, F, Matrix3d::Identity(), planeTensor(2 * d / 3, -d / 3, -d / 3, 0), "Ogden uniaxial");
}

TEST(FemMaterialClosedForm, LinearInUniaxialStretch) {
  // F = diag(λ, 1, 1) (no rotation, so corotated or not): ε11 = λ − 1,
  // σ11 = (λL + 2μ)(λ − 1), σ22 = σ33 = λL(λ − 1).
  const double E = 1000, nu = 0.3, mu = lameMu(E, nu), lam = lameLambda(E, nu), l = 1.02;
  for (bool corotated : {false, true})
    expectStress(LinearMaterial(E, nu, corotated), Vector3d(l, 1, 1).asDiagonal(), Matrix3d::Identity(),
                 planeTensor((lam + 2 * mu) * (l - 1), lam * (l - 1), lam * (l - 1), 0), "Linear uniaxial");
}

TEST(FemMaterialClosedForm, NullMaterialHasNoStress) {
  expectStress(NullMaterial(), simpleShear(kGamma), Matrix3d::Identity(), Matrix3d::Zero(), "Null");
}

}  // namespace
}  // namespace sinew
