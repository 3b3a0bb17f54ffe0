// Stress and strain on demand (guide §6.10, Table 6.6): nodal and element
// von Mises, principal, MAP and max-shear values against closed forms for
// uniform stretches, the flags, the average over the elements around a
// node, and a NumericOutputProbe recording a node's vonMisesStress.
#include <gtest/gtest.h>

#include "FemTestUtil.h"
#include "TestModels.h"
#include "sinew/control/NumericProbes.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemModel3d.h"

namespace sinew {
namespace {

using namespace femtest;

/// A block of the given type with every node moved by x = F X.
std::unique_ptr<FemModel3d> stretchedBlock(FemElementType type, const FemMaterial& mat, const Matrix3d& F) {
  auto fem = std::make_unique<FemModel3d>("fem");
  FemFactory::createGrid(*fem, type, 1.0, 0.6, 0.4, 3, 2, 2);
  fem->setMaterial(mat);
  for (auto& n : fem->nodes()) n.setPosition(F * n.getRestPosition());
  return fem;
}

void enableAll(FemModel3d& fem) {
  fem.setComputeNodalStress(true);
  fem.setComputeNodalStrain(true);
  fem.setComputeElementStress(true);
  fem.setComputeElementStrain(true);
}

/// Expected measures of a uniform state.
struct Expected {
  double vonMisesStress, vonMisesStrain, MAPStress, maxShearStress;
  Vector3d principalStresses;
};

template <class T>
void expectMeasures(const T& c, const Expected& x, double tol, const std::string& what) {
  EXPECT_NEAR(c.getVonMisesStress(), x.vonMisesStress, tol * x.vonMisesStress) << what;
  EXPECT_NEAR(c.getVonMisesStrain(), x.vonMisesStrain, tol * x.vonMisesStrain) << what;
  EXPECT_NEAR(c.getMAPStress(), x.MAPStress, tol * std::abs(x.MAPStress)) << what;
  EXPECT_NEAR(c.getMaxShearStress(), x.maxShearStress, tol * x.maxShearStress) << what;
  EXPECT_LT((c.getPrincipalStresses() - x.principalStresses).norm(), tol * x.principalStresses.norm()) << what;
}

TEST(FemStressOutput, UniaxialStressOfALinearBlockAtEveryNodeAndElement) {
  // Small-strain linear elasticity, stretch e along x with the lateral
  // contraction −ν e: σ = diag(E e, 0, 0) exactly. So von Mises = MAP =
  // E e, principal (E e, 0, 0), max shear E e / 2; the strain
  // diag(e, −νe, −νe) has von Mises strain ⅔ (1 + ν) e.
  const double E = 20000, nu = 0.3, e = 0.01;
  const Matrix3d F = Vector3d(1 + e, 1 - nu * e, 1 - nu * e).asDiagonal();
  const Expected x{E * e, 2.0 / 3 * (1 + nu) * e, E * e, E * e / 2, Vector3d(E * e, 0, 0)};
  for (FemElementType type : {FemElementType::Hex, FemElementType::Tet, FemElementType::QuadTet,
                              FemElementType::Wedge, FemElementType::QuadHex}) {
    auto fem = stretchedBlock(type, LinearMaterial(E, nu, false), F);
    enableAll(*fem);
    const std::string name = ReferenceElement::get(type).getName();
    for (auto& n : fem->nodes()) expectMeasures(n, x, 1e-9, name + " node " + n.getPathName());
    for (auto& el : fem->elements()) expectMeasures(el, x, 1e-9, name + " element " + el.getPathName());
  }
}

TEST(FemStressOutput, NeoHookeanStretchWithABundleAddsTheStresses) {
  // F = diag(λ, 1, 1), J = λ: neo-Hookean σ11 = μ(λ² − 1)/J + λL ln J / J,
  // σ22 = σ33 = λL ln J / J. A bundle over all elements with the same
  // material doubles the stress. Green strain E11 = (λ² − 1)/2, whose
  // von Mises strain is ⅔ E11.
  const double Y = 2.5, nu = 0.25, l = 1.3;  // λL = μ = 1
  const double J = l, s22 = std::log(J) / J, s11 = (l * l - 1) / J + s22, E11 = 0.5 * (l * l - 1);
  const Matrix3d F = Vector3d(l, 1, 1).asDiagonal();
  for (int copies : {1, 2}) {
    auto fem = stretchedBlock(FemElementType::Hex, NeoHookeanMaterial(Y, nu), F);
    if (copies == 2) fem->addMaterialBundle(std::make_unique<MaterialBundle>("twice", NeoHookeanMaterial(Y, nu), true));
    enableAll(*fem);
    const double c = copies;
    const Expected x{c * (s11 - s22), 2.0 / 3 * E11, c * s11, c * (s11 - s22) / 2, c * Vector3d(s11, s22, s22)};
    for (auto& n : fem->nodes()) expectMeasures(n, x, 1e-10, "node " + n.getPathName());
    for (auto& el : fem->elements()) expectMeasures(el, x, 1e-10, "element " + el.getPathName());
    // The stored tensors are readable as properties (Voigt order).
    const Eigen::VectorXd sv = fem->getNode(0).getProperty("stress").getNumeric();
    EXPECT_NEAR(sv[0], c * s11, 1e-10 * s11);
    EXPECT_NEAR(sv[3], 0, 1e-10 * s11);
    EXPECT_NEAR(fem->getElement(0).getProperty("strain").getNumeric()[0], E11, 1e-12);
  }
}

TEST(FemStressOutput, NodalValuesAverageTheElementsAroundTheNode) {
  // Two hexes in a row with different moduli under the same uniform
  // stretch: the shared nodes get the mean of the two element stresses,
  // the others their own element's.
  const double e = 0.01;
  auto fem = std::make_unique<FemModel3d>("fem");
  FemFactory::createHexGrid(*fem, 2.0, 1.0, 1.0, 2, 1, 1);
  fem->setMaterial(LinearMaterial(1000, 0.0, false));
  for (auto& n : fem->nodes()) n.setPosition(Vector3d(1 + e, 1, 1).asDiagonal() * n.getRestPosition());
  fem->getElement(1).setMaterial(LinearMaterial(3000, 0.0, false));
  fem->setComputeNodalStress(true);
  for (auto& n : fem->nodes()) {
    const double x = n.getRestPosition().x();
    const double expected = x < -0.5 ? 1000 * e : x > 0.5 ? 3000 * e : 2000 * e;
    EXPECT_NEAR(n.getVonMisesStress(), expected, 1e-9 * expected) << n.getPathName();
  }
  EXPECT_EQ(fem->getElement(0).getVonMisesStress(), 0.0);  // element flags off
}

TEST(FemStressOutput, FlagsAreOffByDefaultAndValuesStayZero) {
  auto fem = stretchedBlock(FemElementType::Hex, LinearMaterial(), Vector3d(1.01, 1, 1).asDiagonal());
  EXPECT_FALSE(fem->getComputeNodalStress());
  EXPECT_FALSE(std::get<bool>(fem->getProperty("computeElementStrain").get()));
  fem->updateStressAndStrain();
  for (auto& n : fem->nodes()) EXPECT_EQ(n.getStress(), Matrix3d::Zero());
  fem->getProperty("computeNodalStrain").set(true);
  EXPECT_GT(fem->getNode(0).getVonMisesStrain(), 0);
  EXPECT_EQ(fem->getNode(0).getVonMisesStress(), 0);  // stress still off
}

TEST(FemStressOutput, ProbeRecordsANodesVonMisesStressDuringARun) {
  // A bar of length L hanging from its fixed top under gravity (ν = 0),
  // brought to static equilibrium: σ_zz(s) = ρ g (L − s) at depth s, which
  // linear hexes reproduce at every interior node (the mean of the two
  // constant element stresses around it). A probe on a mid node's
  // vonMisesStress records that value at every step of a run that stays
  // at equilibrium.
  const double L = 1, rho = 1000, g = 9.8, E = 1e7;
  test::TestRoot r(Vector3d(0, 0, -g));
  auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
  FemFactory::createHexGrid(fem, 0.1, 0.1, L, 1, 1, 10);
  fem.setDensity(rho);
  fem.setMaterial(LinearMaterial(E, 0.0, false));
  for (auto& n : fem.nodes())
    if (n.getRestPosition().z() > L / 2 - 1e-12) n.setDynamic(false);
  fem.setComputeNodalStress(true);
  FemNode3d* mid = fem.findNearestNode(Vector3d(0.05, 0.05, 0.1));  // depth s = 0.4
  const double expected = rho * g * (L - 0.4);
  auto& probe = r.root->addOutputProbe(
      std::make_unique<NumericOutputProbe>(fem, "nodes/" + std::to_string(mid->getNumber()) + ":vonMisesStress"));
  r.mech.solveStatic();
  EXPECT_NEAR(mid->getVonMisesStress(), expected, 1e-6 * expected);
  r.run(0.05, 0.01);
  const auto& knots = probe.getNumericList().knots();
  ASSERT_GE(knots.size(), 5u);
  for (const auto& k : knots) EXPECT_NEAR(k.v[0], expected, 1e-4 * expected) << "t = " << k.t;
}

}  // namespace
}  // namespace sinew
