// Declared property defaults and resetToDefault (guide §1.4, §5.2).
#include <gtest/gtest.h>

#include "TestModels.h"

namespace sinew {
namespace {

TEST(PropertyDefault, MechModelDefaultsMatchANewModel) {
  MechModel fresh("fresh");
  for (const char* name : {"gravity", "integrator", "stabilization", "linearSolver", "maxStepSize"}) {
    Property p = fresh.getProperty(name);
    ASSERT_TRUE(p.info().hasDefault) << name;
    EXPECT_EQ(toString(p.get()), toString(p.info().defaultValue)) << name;
  }
}

TEST(PropertyDefault, ResetRestoresTheDefault) {
  test::TestRoot r;
  Property g = r.mech.getProperty("gravity");
  EXPECT_EQ(toString(g.get()), "0 0 0");  // the test root sets zero gravity
  g.resetToDefault();
  EXPECT_EQ(r.mech.getGravity(), Vector3d(0, 0, -9.8));
  r.mech.getProperty("integrator").set(std::string("Trapezoidal"));
  r.mech.getProperty("integrator").resetToDefault();
  EXPECT_EQ(r.mech.getIntegrator(), Integrator::ConstrainedBackwardEuler);
}

TEST(PropertyDefault, InheritableResetGoesBackToInheriting) {
  test::TestRoot r;
  r.mech.setPointDamping(3.0);
  auto& p = r.mech.addParticle("p", 1, 0, 0, 0);
  p.setPointDamping(1.0);
  EXPECT_EQ(p.getPointDamping(), 1.0);
  p.getProperty("pointDamping").resetToDefault();
  EXPECT_EQ(p.getProperty("pointDamping").getMode(), PropertyMode::Inherited);
  EXPECT_EQ(p.getPointDamping(), 3.0);
}

TEST(PropertyDefault, NoDeclaredDefaultIsAnError) {
  test::TestRoot r;
  auto& p = r.mech.addParticle("p", 1, 0, 0, 0);
  EXPECT_THROW(p.getProperty("position").resetToDefault(), ModelError);
}

}  // namespace
}  // namespace sinew
