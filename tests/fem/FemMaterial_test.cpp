// FEM materials (guide §6.1.3, Table 6.3, §6.7.3): tangents against
// finite differences, the small-strain limit, analytic stresses, the bulk
// potentials, defaults and parameter validation.
#include <gtest/gtest.h>

#include <cmath>

#include "FemTestUtil.h"
#include "sinew/Error.h"
#include "sinew/fem/StressMeasures.h"
#include "Verification.h"

namespace sinew {
namespace {

using namespace femtest;

/// Deformation gradients from mild to large, including equal principal
/// stretches (the Ogden tangent's limit case) and pure rotation.
std::vector<Matrix3d> testDeformations() {
  Noise noise(9);
  Matrix3d Q = axisRotation(0, 0.7) * axisRotation(2, -0.4);
  std::vector<Matrix3d> Fs{Matrix3d::Identity(),
                           Matrix3d::Identity() + 0.05 * noise.mat(),
                           Matrix3d::Identity() + 0.3 * noise.mat(),
                           Q * Vector3d(1.3, 0.8, 0.8).asDiagonal() * Q.transpose(),
                           Q * Vector3d(1.1, 0.95, 1.25).asDiagonal(),
                           Q};
  return Fs;
}

TEST(FemMaterial, TangentMatchesFiniteDifferenceOfStress) {
  Matrix3d R = axisRotation(1, 0.6);
  for (const NamedMaterial& m : allMaterials())
    for (const Matrix3d& F : testDeformations()) {
      SCOPED_TRACE(m.name);
      expectTangentMatchesStress(*m.mat, F);
      if (m.mat->isCorotated()) expectTangentMatchesStress(*m.mat, R * F, R);
    }
}

TEST(FemMaterial, StressIsTheGradientOfTheEnergy) {
  // σ = (1/J) ∂W/∂F Fᵀ: W by the material, differentiated here.
  const double h = 1e-6;
  for (const NamedMaterial& m : allMaterials()) {
    if (m.mat->isLinear()) continue;  // small strain: σ = ∂W/∂ε instead
    for (const Matrix3d& F : testDeformations()) {
      Matrix3d P;
      for (int i = 0; i < 9; ++i) {
        Matrix3d dF = Matrix3d::Zero();
        dF.data()[i] = h;
        P.data()[i] = (m.mat->computeStrainEnergyDensity(DeformedPoint(F + dF)) -
                       m.mat->computeStrainEnergyDensity(DeformedPoint(F - dF))) /
                      (2 * h);
      }
      Matrix3d sigma;
      Matrix6d D;
      m.mat->computeStressAndTangent(sigma, &D, DeformedPoint(F));
      Matrix3d expected = P * F.transpose() / F.determinant();
      // Rounding in W is relative to the moduli, so the difference quotient
      // carries an error of order ε·‖D‖/h.
      double scale = 1 + sigma.norm() + D.norm();
      EXPECT_LT((sigma - expected).norm(), 1e-8 * scale) << m.name << "\n" << sigma << "\n" << expected;
      EXPECT_LT((sigma - sigma.transpose()).norm(), 1e-9 * (1 + sigma.norm())) << m.name;
    }
  }
}

TEST(FemMaterial, TangentAtRestIsTheLinearElasticityMatrix) {
  // Every hyperelastic material with E, ν — or the equivalent G = μ and
  // κ = λ + ⅔μ — has eq. (6.2)'s D as its tangent in the rest state.
  const double E = 300000, nu = 0.3;
  double lambda = lameLambda(E, nu), mu = lameMu(E, nu), kappa = lambda + 2 * mu / 3;
  Matrix6d Dlin = isotropicElasticity(lambda, mu);
  std::vector<NamedMaterial> equivalents{
      {"Linear", std::make_shared<LinearMaterial>(E, nu)},
      {"StVenantKirchoff", std::make_shared<StVenantKirchoffMaterial>(E, nu)},
      {"NeoHookean", std::make_shared<NeoHookeanMaterial>(E, nu)},
      {"IncompNeoHookean", std::make_shared<IncompNeoHookeanMaterial>(mu, kappa)},
      {"IncompNeoHookeanLog", withLogPotential(std::make_shared<IncompNeoHookeanMaterial>(mu, kappa))},
      // G = 2(C10 + C01); the higher terms are of second order in the strain.
      {"MooneyRivlin", std::make_shared<MooneyRivlinMaterial>(0.3 * mu, 0.2 * mu, 5e4, 7e4, 2e4, kappa)},
      // G = ½ Σ μ_i whatever the exponents.
      {"Ogden", std::make_shared<OgdenMaterial>(std::vector<double>{1.5 * mu, 0.7 * mu, -0.2 * mu},
                                                std::vector<double>{3, -2, 6}, kappa)},
  };
  Noise noise(4);
  Matrix3d A = noise.mat();
  const double eps = 1e-7;
  Matrix3d strain = 0.5 * eps * (A + A.transpose());
  // σ = D ε in Voigt form, with engineering shears in ε.
  Vector6d ev = toVoigt(strain);
  ev.tail<3>() *= 2;
  Matrix3d linear = fromVoigt(Dlin * ev);
  for (const NamedMaterial& m : equivalents) {
    Matrix3d sigma;
    Matrix6d D;
    m.mat->computeStressAndTangent(sigma, &D, DeformedPoint(Matrix3d::Identity()));
    EXPECT_LT((D - Dlin).norm(), 1e-12 * Dlin.norm()) << m.name << "\n" << D;
    EXPECT_LT(sigma.norm(), 1e-12 * E) << m.name;
    // A tiny strain gives the linear stress to second order in the strain.
    Matrix3d small = m.mat->computeStress(DeformedPoint(Matrix3d::Identity() + eps * A));
    EXPECT_LT((small - linear).norm(), 10 * eps * linear.norm()) << m.name << "\n" << small << "\n" << linear;
  }
}

TEST(FemMaterial, NeoHookeanUniaxialStretch) {
  // E = 2.5, ν = 0.25 give λ = μ = 1. For F = diag(2, 1, 1), J = 2:
  // σ11 = μ(λ1² − 1)/J + λ ln J / J = 3/2 + ln2/2, σ22 = σ33 = ln2/2.
  NeoHookeanMaterial mat(2.5, 0.25);
  Matrix3d sigma = mat.computeStress(DeformedPoint(Vector3d(2, 1, 1).asDiagonal()));
  Matrix3d expected = Vector3d(1.5 + 0.5 * std::log(2.0), 0.5 * std::log(2.0), 0.5 * std::log(2.0)).asDiagonal();
  EXPECT_LT((sigma - expected).norm(), 1e-15);
  VERIFY_NEAR("hyperelastic: NeoHookean σ11 at uniaxial stretch 2 (λ = μ = 1)", "σ11 = μ(λ1² − 1)/J + λ ln J / J",
              sigma(0, 0), expected(0, 0), 1e-15);
}

TEST(FemMaterial, IncompressibleNeoHookeanUniaxialStretch) {
  // Isochoric stretch λ = 2 (J = 1, so p = 0): σ = G dev(b), i.e.
  // σ11 = ⅔G(λ² − 1/λ), σ22 = σ33 = −⅓G(λ² − 1/λ).
  const double G = 1000, l = 2;
  Matrix3d F = Vector3d(l, 1 / std::sqrt(l), 1 / std::sqrt(l)).asDiagonal();
  for (BulkPotential bp : {BulkPotential::QUADRATIC, BulkPotential::LOGARITHMIC}) {
    IncompNeoHookeanMaterial mat(G, 5000);
    mat.setBulkPotential(bp);
    double d = G * (l * l - 1 / l);
    Matrix3d sigma = mat.computeStress(DeformedPoint(F));
    VERIFY_NEAR(std::string("hyperelastic: IncompNeoHookean σ11 at isochoric stretch 2, ") +
                    (bp == BulkPotential::QUADRATIC ? "quadratic" : "logarithmic") + " bulk potential",
                "σ11 = ⅔ G (λ² − 1/λ)", sigma(0, 0), 2 * d / 3, 1e-10 * G);
    EXPECT_LT((sigma - Vector3d(2 * d / 3, -d / 3, -d / 3).asDiagonal().toDenseMatrix()).norm(), 1e-10 * G);
  }
}

TEST(FemMaterial, StVenantKirchoffUniaxialStretch) {
  // F = diag(λ, 1, 1): E11 = ½(λ² − 1), S11 = (λL + 2μ)E11, S22 = λL E11;
  // σ = F S Fᵀ / J gives σ11 = λ S11, σ22 = S22 / λ.
  const double E = 1000, nu = 0.3, l = 1.4;
  StVenantKirchoffMaterial mat(E, nu);
  double lam = lameLambda(E, nu), mu = lameMu(E, nu), E11 = 0.5 * (l * l - 1);
  Matrix3d sigma = mat.computeStress(DeformedPoint(Vector3d(l, 1, 1).asDiagonal()));
  Vector3d expected(l * (lam + 2 * mu) * E11, lam * E11 / l, lam * E11 / l);
  VERIFY_NEAR("hyperelastic: StVenantKirchoff σ11 at uniaxial stretch 1.4", "σ11 = λ (λ_L + 2μ) (λ² − 1)/2",
              sigma(0, 0), expected[0], 1e-12 * E);
  EXPECT_LT((sigma - expected.asDiagonal().toDenseMatrix()).norm(), 1e-12 * E);
}

TEST(FemMaterial, HydrostaticPressureOfTheBulkPotentials) {
  // Under F = s I the deviatoric part vanishes and σ = p I with p from
  // eq. (6.6) or (6.7).
  const double kappa = 2000, s = 1.1, J = s * s * s;
  std::vector<std::shared_ptr<IncompressibleMaterial>> mats{
      std::make_shared<IncompNeoHookeanMaterial>(700, kappa),
      std::make_shared<MooneyRivlinMaterial>(300, 200, 100, 50, 40, kappa),
      std::make_shared<OgdenMaterial>(std::vector<double>{500, 300}, std::vector<double>{3, -1}, kappa)};
  for (auto& m : mats) {
    for (BulkPotential bp : {BulkPotential::QUADRATIC, BulkPotential::LOGARITHMIC}) {
      m->setBulkPotential(bp);
      double p = bp == BulkPotential::QUADRATIC ? kappa * (J - 1) : kappa * std::log(J) / J;
      EXPECT_NEAR(m->computePressure(J), p, 1e-12 * kappa);
      Matrix3d sigma = m->computeStress(DeformedPoint(s * Matrix3d::Identity()));
      EXPECT_LT((sigma - p * Matrix3d::Identity()).norm(), 1e-10 * kappa);
      Matrix3d dev;
      m->computeDevStressAndTangent(dev, nullptr, DeformedPoint(s * Matrix3d::Identity()));
      EXPECT_LT(dev.norm(), 1e-10 * kappa);
      // p = dU/dJ and its derivative, by central differences.
      const double h = 1e-6;
      EXPECT_NEAR((m->computeBulkEnergyDensity(J + h) - m->computeBulkEnergyDensity(J - h)) / (2 * h), p,
                  1e-6 * kappa);
      EXPECT_NEAR((m->computePressure(J + h) - m->computePressure(J - h)) / (2 * h),
                  m->computePressureDerivative(J), 1e-6 * kappa);
    }
  }
}

TEST(FemMaterial, DeviatoricPartIsTracelessAndPressureAddsBack) {
  Noise noise(12);
  Matrix3d F = Matrix3d::Identity() + 0.25 * noise.mat();
  DeformedPoint def(F);
  MooneyRivlinMaterial mat(4000, 1500, 800, 600, 300, 20000);
  Matrix3d dev, full;
  Matrix6d Ddev, Dfull;
  mat.computeDevStressAndTangent(dev, &Ddev, def);
  mat.computeStressAndTangent(full, &Dfull, def);
  EXPECT_NEAR(dev.trace(), 0, 1e-10 * dev.norm());
  double p = mat.computePressure(def.J);
  IncompressibleMaterial::addPressureStressAndTangent(dev, &Ddev, p);
  Ddev += def.J * mat.computePressureDerivative(def.J) * voigtIdentityOuter();
  EXPECT_LT((dev - full).norm(), 1e-12 * full.norm());
  EXPECT_LT((Ddev - Dfull).norm(), 1e-12 * Dfull.norm());
}

TEST(FemMaterial, SpecialCasesAgree) {
  // Ogden with α = 2 and μ = 2G, and Mooney-Rivlin with C10 = G/2, are the
  // incompressible neo-Hookean material with shear modulus G.
  const double G = 800, kappa = 9000;
  IncompNeoHookeanMaterial neo(G, kappa);
  OgdenMaterial ogden({2 * G}, {2}, kappa);
  MooneyRivlinMaterial mr(G / 2, 0, 0, 0, 0, kappa);
  for (const Matrix3d& F : testDeformations()) {
    Matrix3d s0, s1, s2;
    Matrix6d D0, D1, D2;
    neo.computeStressAndTangent(s0, &D0, DeformedPoint(F));
    ogden.computeStressAndTangent(s1, &D1, DeformedPoint(F));
    mr.computeStressAndTangent(s2, &D2, DeformedPoint(F));
    EXPECT_LT((s1 - s0).norm(), 1e-10 * kappa);
    EXPECT_LT((s2 - s0).norm(), 1e-10 * kappa);
    EXPECT_LT((D1 - D0).norm(), 1e-10 * kappa);
    EXPECT_LT((D2 - D0).norm(), 1e-10 * kappa);
  }
}

TEST(FemMaterial, RotatedDeformationRotatesTheStress) {
  Noise noise(13);
  Matrix3d F = Matrix3d::Identity() + 0.2 * noise.mat();
  Matrix3d Q = axisRotation(1, 1.1) * axisRotation(0, 0.3);
  for (const NamedMaterial& m : allMaterials()) {
    // Corotated linear removes the rotation it is given, so give it the
    // rotated one; plain small-strain linear is not objective.
    if (m.mat->isLinear() && !m.mat->isCorotated()) continue;
    Matrix3d R = polarRotation(F);
    Matrix3d s = m.mat->computeStress(DeformedPoint(F, R));
    Matrix3d sq = m.mat->computeStress(DeformedPoint(Q * F, Q * R));
    EXPECT_LT((sq - Q * s * Q.transpose()).norm(), 1e-9 * (1 + s.norm())) << m.name;
  }
}

TEST(FemMaterial, DefaultsAndPropertiesAsTheGuideNamesThem) {
  LinearMaterial lin;
  EXPECT_EQ(lin.getYoungsModulus(), 500000);
  EXPECT_EQ(lin.getPoissonsRatio(), 0.33);
  EXPECT_TRUE(lin.getCorotated());
  EXPECT_EQ(StVenantKirchoffMaterial().getYoungsModulus(), 500000);
  EXPECT_EQ(NeoHookeanMaterial().getPoissonsRatio(), 0.33);
  IncompNeoHookeanMaterial inh;
  EXPECT_EQ(inh.getShearModulus(), 150000);
  EXPECT_EQ(inh.getBulkModulus(), 100000);
  EXPECT_EQ(inh.getBulkPotential(), BulkPotential::QUADRATIC);
  MooneyRivlinMaterial mr;
  EXPECT_EQ(mr.getC10(), 150000);
  EXPECT_EQ(mr.getC01() + mr.getC11() + mr.getC20() + mr.getC02(), 0);
  EXPECT_EQ(mr.getBulkModulus(), 100000);
  MooneyRivlinMaterial beams(1000, 0, 0, 400, 0, 100000);  // FemMuscleBeams' call
  EXPECT_EQ(beams.getC20(), 400);
  OgdenMaterial og;
  EXPECT_EQ(og.getMu(0), 300000);
  for (int i = 1; i < 6; ++i) EXPECT_EQ(og.getMu(i), 0);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(og.getAlpha(i), 2);
  EXPECT_EQ(og.getBulkModulus(), 100000);

  // Parameters are properties under the guide's names.
  EXPECT_EQ(std::get<double>(lin.getProperty("YoungsModulus").get()), 500000);
  lin.getProperty("corotated").set(false);
  EXPECT_FALSE(lin.isCorotated());
  inh.getProperty("bulkPotential").set(std::string("LOGARITHMIC"));
  EXPECT_EQ(inh.getBulkPotential(), BulkPotential::LOGARITHMIC);
  og.getProperty("Alpha3").set(4.0);
  EXPECT_EQ(og.getAlpha(2), 4);
  mr.getProperty("C11").set(7.0);
  EXPECT_EQ(mr.getC11(), 7);
  EXPECT_EQ(std::get<double>(inh.getProperty("shearModulus").get()), 150000);
}

TEST(FemMaterial, MaterialsAreValues) {
  LinearMaterial a(1000, 0.2);
  std::unique_ptr<FemMaterial> b = a.clone();
  a.setYoungsModulus(2000);
  EXPECT_EQ(static_cast<LinearMaterial&>(*b).getYoungsModulus(), 1000);
  OgdenMaterial o;
  OgdenMaterial copy = o;
  o.setMu(1, 5);
  EXPECT_EQ(copy.getMu(1), 0);
}

TEST(FemMaterial, InvalidParametersThrow) {
  EXPECT_THROW(LinearMaterial(0, 0.3), ModelError);
  EXPECT_THROW(LinearMaterial(-1, 0.3), ModelError);
  EXPECT_THROW(LinearMaterial(1000, 0.5), ModelError);
  EXPECT_THROW(LinearMaterial(1000, -1), ModelError);
  EXPECT_THROW(NeoHookeanMaterial(1000, 0.7), ModelError);
  EXPECT_THROW(StVenantKirchoffMaterial(NAN, 0.3), ModelError);
  EXPECT_THROW(IncompNeoHookeanMaterial(-1, 1000), ModelError);
  EXPECT_THROW(IncompNeoHookeanMaterial(1000, -1), ModelError);
  EXPECT_THROW(MooneyRivlinMaterial(1, 0, 0, 0, 0, -5), ModelError);
  EXPECT_THROW(OgdenMaterial({1000}, {0}, 1000), ModelError);
  EXPECT_THROW(OgdenMaterial({1, 2, 3, 4, 5, 6, 7}, {}, 1000), ModelError);
  LinearMaterial lin;
  EXPECT_THROW(lin.setPoissonsRatio(0.6), ModelError);
  EXPECT_THROW(lin.getProperty("YoungsModulus").set(-3.0), ModelError);
  EXPECT_EQ(lin.getYoungsModulus(), 500000);  // unchanged by the failed set
  try {
    NeoHookeanMaterial bad(1000, 0.5);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("PoissonsRatio"), std::string::npos) << e.what();
  }
}

TEST(StressMeasures, VonMisesPrincipalValuesAndMaxShear) {
  // Uniaxial stress s: von Mises s, principal (s, 0, 0), max shear s/2.
  Matrix3d Q = axisRotation(2, 0.5) * axisRotation(0, 0.2);
  Matrix3d uni = Q * Vector3d(0, 7, 0).asDiagonal() * Q.transpose();
  EXPECT_NEAR(vonMises(uni), 7, 1e-13);
  EXPECT_LT((principalValues(uni) - Vector3d(7, 0, 0)).norm(), 1e-13);
  EXPECT_NEAR(maxShear(uni), 3.5, 1e-13);
  // Pure shear τ: von Mises √3 τ; hydrostatic stress: zero.
  Matrix3d shear = Matrix3d::Zero();
  shear(0, 1) = shear(1, 0) = 2;
  EXPECT_NEAR(vonMises(shear), 2 * std::sqrt(3.0), 1e-13);
  EXPECT_NEAR(vonMises(5 * Matrix3d::Identity()), 0, 1e-13);
  // Equivalent strain of an isochoric uniaxial strain (e, −e/2, −e/2) is e.
  EXPECT_NEAR(vonMisesStrain(Vector3d(0.02, -0.01, -0.01).asDiagonal()), 0.02, 1e-15);
}

}  // namespace
}  // namespace sinew
