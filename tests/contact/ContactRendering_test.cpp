// Contact rendering settings and data (guide §8.5; ContactRendering.h):
// the manager's settings hold for every pair until a behaviour sets its
// own; a pair's colour map takes its values on its rendering collidable;
// colour-map ranges follow those values as their `updating` says.
#include <gtest/gtest.h>

#include "ContactScenes.h"
#include "TestModels.h"
#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"

namespace sinew {
namespace {

TEST(ContactRendering, BehavioursTakeTheManagersSettingsUntilTheySetTheirOwn) {
  test::BoxOnPlate s(0, 0);
  CollisionManager& cm = s.r.mech.getCollisionManager();
  CollisionBehavior& behav = s.r.mech.getDefaultCollisionBehavior(Collidable::Group::Rigid, Collidable::Group::Rigid);
  // The guide's defaults.
  const ContactRenderSettings d = cm.renderSettings(behav);
  EXPECT_EQ(d.renderingCollidable, 0);
  EXPECT_FALSE(d.drawContactNormals || d.drawContactForces || d.drawFrictionForces || d.drawIntersectionContours ||
               d.drawIntersectionPoints);
  EXPECT_EQ(d.colorMapInterpolation, ColorInterpolation::HSV);
  EXPECT_EQ(cm.colorMapRange().updating, ScalarRange::Updating::AutoFit);
  EXPECT_EQ(cm.getContactForceLenScale(), 1.0);
  EXPECT_DOUBLE_EQ(cm.getContactNormalLen(), 1e3 * s.r.mech.getPenetrationTol());
  // Set on the manager (by property, as a control panel would): every pair.
  cm.getProperty("drawContactNormals").set(true);
  cm.getProperty("renderingCollidable").set(1);
  EXPECT_TRUE(cm.renderSettings(behav).drawContactNormals);
  EXPECT_EQ(cm.renderSettings(behav).renderingCollidable, 1);
  // Set on the behaviour: that pair, whatever the manager says.
  behav.setDrawContactNormals(false);
  behav.getProperty("renderingCollidable").set(0);
  behav.setColorMapInterpolation(ColorInterpolation::RGB);
  EXPECT_FALSE(cm.renderSettings(behav).drawContactNormals);
  EXPECT_EQ(cm.renderSettings(behav).renderingCollidable, 0);
  EXPECT_EQ(cm.renderSettings(behav).colorMapInterpolation, ColorInterpolation::RGB);
  EXPECT_TRUE(cm.renderSettings().drawContactNormals);
  // A copy keeps them (the guide's `new CollisionBehavior(behav)`).
  EXPECT_FALSE(cm.renderSettings(CollisionBehavior(behav)).drawContactNormals);
  cm.setContactNormalLen(0.05);
  EXPECT_EQ(cm.getContactNormalLen(), 0.05);
  // Bad values name the component.
  EXPECT_THROW(behav.setRenderingCollidable(2), ModelError);
  EXPECT_THROW(cm.getProperty("renderingCollidable").set(-1), ModelError);
  EXPECT_THROW(cm.setContactForceLenScale(-1), ModelError);
}

TEST(ContactRendering, APressureMapLiesOnTheRenderingCollidableAndItsRangeFollows) {
  // A neo-Hookean block resting on a fixed plate on its nine bottom
  // vertices (one-way vertex penetration: only the block's vertices
  // penetrate). Its CONTACT_PRESSURE map has a value per contact vertex,
  // and pressure times vertex area sums to the block's weight; drawn on
  // the plate (renderingCollidable 1) it has none.
  const double g = 9.8;
  test::TestRoot r(Vector3d(0, 0, -g));
  RigidBody& plate = r.mech.addRigidBody(RigidBody::createBox("plate", 2, 2, 0.2, 1000));
  plate.setPose(RigidTransform3d(0, 0, -0.1));
  plate.setDynamic(false);
  FemModel3d& block = test::addBlock(r.mech, "block", 0.4, 0.2, 2, 0.1 + 1e-3);
  // The map is the manager's: the pair's behaviour sets none.
  r.mech.getCollisionManager().getProperty("drawColorMap").set(std::string("CONTACT_PRESSURE"));
  CollisionBehavior& pair = r.mech.setCollisionBehavior(block, plate, std::make_unique<CollisionBehavior>(true, 0));
  r.run(2.0, 0.01);
  CollisionManager& cm = r.mech.getCollisionManager();
  const auto values = cm.colorMapValues(block, plate);
  ASSERT_EQ(values.size(), cm.getContacts().size());
  ASSERT_EQ(values.size(), 9u);
  double weight = 0, lo = INFINITY, hi = -INFINITY;
  for (const auto& [vertex, p] : values) {
    for (const ContactPoint& c : cm.getContacts())
      if (c.vertex == vertex) weight += p * c.vertexArea;
    lo = std::min(lo, p), hi = std::max(hi, p);
  }
  EXPECT_NEAR(weight, 1000 * 0.4 * 0.4 * 0.2 * g, 1e-3 * weight);
  // The shared range (AUTO_FIT) takes the values; a pair's own FIXED range
  // keeps its interval and leaves the shared one alone.
  cm.updateColorMapRanges();
  EXPECT_EQ(cm.colorMapRange().min, lo);
  EXPECT_EQ(cm.colorMapRange().max, hi);
  pair.setColorMapRange(ScalarRange{0, 15000, ScalarRange::Updating::Fixed});
  cm.colorMapRange() = ScalarRange{};
  cm.updateColorMapRanges();
  EXPECT_EQ(cm.colorMapRange(pair).max, 15000);
  EXPECT_EQ(cm.colorMapRange().max, 0) << "the pair has its own range";
  // AUTO_EXPAND grows from its interval to hold the values.
  pair.setColorMapRange(ScalarRange{0, 0.5 * hi, ScalarRange::Updating::AutoExpand});
  cm.updateColorMapRanges();
  EXPECT_EQ(cm.colorMapRange(pair).min, 0);
  EXPECT_EQ(cm.colorMapRange(pair).max, hi);
  // On the plate: no penetrating vertex there.
  pair.setRenderingCollidable(1);
  EXPECT_TRUE(cm.colorMapValues(block, plate).empty());
  EXPECT_TRUE(cm.colorMapValues(plate, block).empty()) << "the pair's order is the behaviour's, not the call's";
  // The behaviour's own NONE turns the manager's map off for the pair.
  pair.setRenderingCollidable(0);
  ASSERT_FALSE(cm.colorMapValues(block, plate).empty());
  pair.setDrawColorMap(CollisionBehavior::ColorMapType::None);
  EXPECT_TRUE(cm.colorMapValues(block, plate).empty());
}

}  // namespace
}  // namespace sinew
