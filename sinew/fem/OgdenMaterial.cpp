#include "sinew/fem/OgdenMaterial.h"

#include <Eigen/Eigenvalues>
#include <cmath>

#include "sinew/Error.h"
#include "sinew/fem/TensorUtils.h"

namespace sinew {

SINEW_PROPERTIES(OgdenMaterial, IncompressibleMaterial) {
  for (int i = 0; i < kNumTerms; ++i) {
    std::string k = std::to_string(i + 1);
    list.add<OgdenMaterial>(
            "Mu" + k, "coefficient mu" + k, [i](const OgdenMaterial& m) { return m.getMu(i); },
            [i](OgdenMaterial& m, double v) { m.setMu(i, v); })
        .setDefault(i == 0 ? 300000.0 : 0.0);
    list.add<OgdenMaterial>(
            "Alpha" + k, "exponent alpha" + k, [i](const OgdenMaterial& m) { return m.getAlpha(i); },
            [i](OgdenMaterial& m, double v) { m.setAlpha(i, v); })
        .setDefault(2.0);
  }
}

OgdenMaterial::OgdenMaterial() : OgdenMaterial({300000}, {}, 100000) {}

OgdenMaterial::OgdenMaterial(const std::vector<double>& mu, const std::vector<double>& alpha, double kappa)
    : IncompressibleMaterial(kappa) {
  if (mu.size() > kNumTerms || alpha.size() > kNumTerms)
    throw ModelError("OgdenMaterial takes at most 6 mu and 6 alpha values");
  myMu.fill(0);
  myAlpha.fill(2);
  for (size_t i = 0; i < mu.size(); ++i) setMu(static_cast<int>(i), mu[i]);
  for (size_t i = 0; i < alpha.size(); ++i) setAlpha(static_cast<int>(i), alpha[i]);
}

void OgdenMaterial::setMu(int i, double mu) { myMu.at(i) = checkFinite(mu, "Ogden mu"); }

void OgdenMaterial::setAlpha(int i, double alpha) {
  // W̄ divides by α².
  if (checkFinite(alpha, "Ogden alpha") == 0) throw ModelError("Ogden alpha must be non-zero");
  myAlpha.at(i) = alpha;
}

void OgdenMaterial::computeDevStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const {
  Eigen::SelfAdjointEigenSolver<Matrix3d> eig(def.F * def.F.transpose());
  const Vector3d& lam2 = eig.eigenvalues();
  // Isochoric stretches λ̄_a = J^(−1/3) λ_a; with ∂λ̄_c/∂ln λ_b = λ̄_c(δ_cb − ⅓):
  //   τ_a = Σ_i (μ_i/α_i)(λ̄_a^α − ⅓ S),  S = Σ_c λ̄_c^α,
  //   ∂τ_a/∂ln λ_b = Σ_i μ_i (λ̄_a^α(δ_ab − ⅓) − ⅓ λ̄_b^α + S/9).
  Vector3d lbar = (lam2.array().sqrt() * std::pow(def.J, -1.0 / 3.0)).matrix();
  Vector3d tau = Vector3d::Zero();
  Matrix3d dtau = Matrix3d::Zero();
  for (int i = 0; i < kNumTerms; ++i) {
    if (myMu[i] == 0) continue;
    Vector3d p = lbar.array().pow(myAlpha[i]).matrix();
    double S = p.sum();
    tau += (myMu[i] / myAlpha[i]) * (p - Vector3d::Constant(S / 3));
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        dtau(a, b) += myMu[i] * (p[a] * ((a == b) - 1.0 / 3) - p[b] / 3 + S / 9);
  }
  computePrincipalStressAndTangent(sigma, D, tau, dtau, lam2, eig.eigenvectors(), def.J);
}

double OgdenMaterial::computeDevStrainEnergyDensity(const DeformedPoint& def) const {
  Eigen::SelfAdjointEigenSolver<Matrix3d> eig(def.F * def.F.transpose(), Eigen::EigenvaluesOnly);
  Vector3d lbar = (eig.eigenvalues().array().sqrt() * std::pow(def.J, -1.0 / 3.0)).matrix();
  double W = 0;
  for (int i = 0; i < kNumTerms; ++i)
    if (myMu[i] != 0) W += myMu[i] / (myAlpha[i] * myAlpha[i]) * (lbar.array().pow(myAlpha[i]).sum() - 3);
  return W;
}

std::unique_ptr<FemMaterial> OgdenMaterial::clone() const { return std::make_unique<OgdenMaterial>(*this); }

void computePrincipalStressAndTangent(Matrix3d& sigma, Matrix6d* D, const Vector3d& tau, const Matrix3d& dtau,
                                      const Vector3d& lam2, const Matrix3d& n, double J) {
  Vector6d N[3];
  for (int a = 0; a < 3; ++a) N[a] = toVoigt(n.col(a) * n.col(a).transpose());
  sigma = n * tau.asDiagonal() * n.transpose() / J;
  if (!D) return;
  // J c = Σ_ab (∂τ_a/∂ln λ_b − 2τ_a δ_ab) N_a⊗N_b + Σ_{a<b} γ_ab S_ab⊗S_ab with
  // S_ab = n_a n_bᵀ + n_b n_aᵀ and γ_ab = (τ_a λ_b² − τ_b λ_a²)/(λ_a² − λ_b²).
  Matrix6d c = Matrix6d::Zero();
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) c += (dtau(a, b) - 2 * tau[a] * (a == b)) * N[a] * N[b].transpose();
  for (int a = 0; a < 3; ++a)
    for (int b = a + 1; b < 3; ++b) {
      double diff = lam2[a] - lam2[b];
      // Near equal stretches the quotient cancels badly; its limit is exact
      // there and within O(diff) of it nearby.
      double gamma = std::abs(diff) > 1e-8 * (lam2[a] + lam2[b])
                         ? (tau[a] * lam2[b] - tau[b] * lam2[a]) / diff
                         : 0.5 * (dtau(a, a) - dtau(a, b)) - tau[a];
      Vector6d S = toVoigt(n.col(a) * n.col(b).transpose() + n.col(b) * n.col(a).transpose());
      c += gamma * S * S.transpose();
    }
  *D = c / J;
}

}  // namespace sinew
