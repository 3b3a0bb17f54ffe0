// MaterialBundles (guide §6.8): an augmenting material's forces, stiffness
// and energy add to those of the elements' own materials, over the same
// Jacobian blocks; incompressible augmenting materials take their pressure
// per element like the model's; the element-set API and its errors.
#include <gtest/gtest.h>

#include "FemTestUtil.h"
#include "JacobianCheck.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemModel3d.h"

namespace sinew {
namespace {

using namespace femtest;

const std::vector<int> kSpine{0, 3, 5};  // the elements of the test bundles

TEST(MaterialBundle, ForcesAndEnergyAddToTheElementsOwn) {
  // Base B plus bundle A on some elements = (B alone) + (A alone on those
  // elements, NullMaterial elsewhere), for forces and strain energy.
  const LinearMaterial base(20000, 0.3);
  const NeoHookeanMaterial extra(90000, 0.4);
  auto both = deformedBlock(base);
  auto& bun = both->addMaterialBundle(std::make_unique<MaterialBundle>("spine", extra));
  for (int k : kSpine) bun.addElement(both->getElement(k));
  auto baseOnly = deformedBlock(base);
  auto extraOnly = deformedBlock(NullMaterial());
  for (int k : kSpine) extraOnly->getElement(k).setMaterial(extra);

  const Eigen::VectorXd f = nodeForces(*both), fsum = nodeForces(*baseOnly) + nodeForces(*extraOnly);
  EXPECT_GT(nodeForces(*extraOnly).norm(), 0.1 * fsum.norm());  // the bundle matters
  EXPECT_LT((f - fsum).norm(), 1e-12 * fsum.norm());
  const double E = both->getPotentialEnergy(), Esum = baseOnly->getPotentialEnergy() + extraOnly->getPotentialEnergy();
  EXPECT_NEAR(E, Esum, 1e-12 * Esum);
}

TEST(MaterialBundle, IncompressibleBundleOverAllElementsTakesElementPressures) {
  // useAllElements with an incompressible material under soft ELEMENT
  // incompressibility: its bulk pressure is evaluated per element from
  // V/V0, exactly as when it is the elements' own material.
  const NeoHookeanMaterial base(50000, 0.3);
  const MooneyRivlinMaterial extra(8000, 3000, 0, 1000, 0, 400000);
  auto both = deformedBlock(base);
  both->setSoftIncompMethod(IncompMethod::ELEMENT);
  both->addMaterialBundle(std::make_unique<MaterialBundle>("all", extra, true));
  auto baseOnly = deformedBlock(base);
  auto extraOnly = deformedBlock(extra);
  extraOnly->setSoftIncompMethod(IncompMethod::ELEMENT);
  auto extraFull = deformedBlock(extra);
  extraFull->setSoftIncompMethod(IncompMethod::FULL);

  const Eigen::VectorXd fsum = nodeForces(*baseOnly) + nodeForces(*extraOnly);
  EXPECT_LT((nodeForces(*both) - fsum).norm(), 1e-12 * fsum.norm());
  // … and not at the points (FULL), which differs on a non-uniform state.
  EXPECT_GT((nodeForces(*baseOnly) + nodeForces(*extraFull) - fsum).norm(), 1e-4 * fsum.norm());
  const double Esum = baseOnly->getPotentialEnergy() + extraOnly->getPotentialEnergy();
  EXPECT_NEAR(both->getPotentialEnergy(), Esum, 1e-12 * Esum);
}

TEST(MaterialBundle, TangentMatchesFiniteDifferencesOverTheSameBlocks) {
  // K = −∂f/∂x of the whole model, bundles included, against central
  // differences of the nodal forces (relative 1e-6), with the Jacobian
  // pattern of the model without bundles.
  auto plain = deformedBlock(NeoHookeanMaterial(50000, 0.3));
  test::DenseJacobian pattern(nodeList(*plain));
  plain->declareJacobianBlocks(pattern);

  auto fem = deformedBlock(NeoHookeanMaterial(50000, 0.3));
  fem->setSoftIncompMethod(IncompMethod::ELEMENT);
  auto& a = fem->addMaterialBundle(std::make_unique<MaterialBundle>("a", IncompNeoHookeanMaterial(20000, 200000)));
  for (int k : kSpine) a.addElement(fem->getElement(k));
  fem->addMaterialBundle(std::make_unique<MaterialBundle>("b", StVenantKirchoffMaterial(30000, 0.25), true));
  test::DenseJacobian withBundles(nodeList(*fem));
  fem->declareJacobianBlocks(withBundles);
  EXPECT_EQ(withBundles.myBlocks, pattern.myBlocks);

  nodeForces(*fem);  // the tangent of this state
  test::checkJacobians(*fem, nodeList(*fem), 1e-6);
}

TEST(MaterialBundle, MaterialIsCopiedAndChangesActThroughTheBundle) {
  NeoHookeanMaterial extra(90000, 0.4);
  auto fem = deformedBlock(NullMaterial());
  auto& bun = fem->addMaterialBundle(std::make_unique<MaterialBundle>("spine", extra, true));
  const Eigen::VectorXd f0 = nodeForces(*fem);
  extra.setYoungsModulus(1);  // the bundle holds a copy
  EXPECT_EQ(nodeForces(*fem), f0);
  // Changing the bundle's copy (here through its property) changes every
  // element of the bundle; neo-Hookean stress is linear in E at fixed ν.
  bun.getProperty("material.YoungsModulus").set(180000.0);
  EXPECT_LT((nodeForces(*fem) - 2 * f0).norm(), 1e-12 * f0.norm());
  // A bundle without a material adds nothing.
  auto empty = deformedBlock(NullMaterial());
  empty->addMaterialBundle(std::make_unique<MaterialBundle>("none", true));
  EXPECT_EQ(nodeForces(*empty).norm(), 0.0);
}

TEST(MaterialBundle, ElementSetFollowsTheGuide) {
  auto fem = deformedBlock(NullMaterial());
  auto& bun = fem->addMaterialBundle(std::make_unique<MaterialBundle>("spine", NeoHookeanMaterial()));
  EXPECT_EQ(bun.getFemModel(), fem.get());
  EXPECT_EQ(&fem->materials().get(0), &bun);
  bun.addElement(fem->getElement(1));
  bun.addElement(fem->getElement(4));
  EXPECT_EQ(bun.numElements(), 2);
  EXPECT_EQ(&bun.getElement(1), &fem->getElement(4));
  EXPECT_TRUE(bun.removeElement(fem->getElement(1)));
  EXPECT_FALSE(bun.removeElement(fem->getElement(1)));
  EXPECT_EQ(bun.numElements(), 1);
  // Only elements 4's nodes feel the bundle.
  const Eigen::VectorXd f = nodeForces(*fem);
  for (int i = 0; i < fem->numNodes(); ++i) {
    const auto& nodes = fem->getElement(4).getNodes();
    const bool inElement = std::find(nodes.begin(), nodes.end(), &fem->getNode(i)) != nodes.end();
    EXPECT_EQ(f.segment<3>(3 * i).norm() > 0, inElement) << "node " << i;
  }
  bun.clearElements();
  EXPECT_EQ(bun.numElements(), 0);
  // useAllElements clears the list and forbids addElement.
  bun.addElement(fem->getElement(2));
  bun.setUseAllElements(true);
  EXPECT_EQ(bun.numElements(), 0);
  EXPECT_TRUE(std::get<bool>(bun.getProperty("useAllElements").get()));
  EXPECT_THROW(bun.addElement(fem->getElement(2)), ModelError);
  EXPECT_TRUE(fem->removeMaterialBundle(bun));
  EXPECT_EQ(fem->numMaterialBundles(), 0);
}

TEST(MaterialBundle, BadElementsGiveErrorsNamingTheBundle) {
  auto fem = deformedBlock(LinearMaterial());
  auto other = deformedBlock(LinearMaterial());
  auto& bun = fem->addMaterialBundle(std::make_unique<MaterialBundle>("spine", NeoHookeanMaterial()));
  auto expectError = [](auto fn, const std::string& part) {
    try {
      fn();
      ADD_FAILURE() << "no error";
    } catch (const ModelError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expectError([&] { bun.addElement(other->getElement(0)); }, "materials/spine");
  bun.addElement(fem->getElement(0));
  expectError([&] { bun.addElement(fem->getElement(0)); }, "already in the bundle");
  expectError([&] { bun.getElement(3); }, "out of range");
  // A bundle built before it is added is checked when it is added.
  auto loose = std::make_unique<MaterialBundle>("loose", NeoHookeanMaterial());
  loose->addElement(other->getElement(1));
  expectError([&] { fem->addMaterialBundle(std::move(loose)); }, "loose");
  // An element removed from the model while a bundle holds it.
  nodeForces(*fem);
  fem->elements().remove(fem->getElement(0));
  expectError([&] { nodeForces(*fem); }, "materials/spine");
}

}  // namespace
}  // namespace sinew
