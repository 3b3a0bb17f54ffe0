// The velocity products Ġu of every joint type's rows (the rate at which a
// row's value G u changes at fixed body twists as the bodies move, which
// the velocity solve uses on curved constraints): they must equal the rows'
// own change, built at poses moved by ±ε along the twists, (G₊ − G₋) u / 2ε.
// The couplings that give their wrench rates (AxisCoupling: hinge, slider,
// cylindrical, slotted hinge, planar, planar translation, solid; the
// CustomJoint demo's) are held to that to 1e-8, with the poses 2e-3 off
// the constraints (the demo: on them), to a moving body and to ground,
// with free and locked coordinates; the forward difference of the others
// to its own error.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>

#include "TestModels.h"
#include "demos/CustomJoint.h"
#include "sinew/joints/CylindricalJoint.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/joints/LegacyJoints.h"
#include "sinew/joints/SliderJoint.h"
#include "sinew/joints/SphericalJoint.h"
#include "sinew/joints/UniversalJoint.h"

namespace sinew {
namespace {

/// The bilateral rows a joint builds: their rates and entries.
struct RowCapture : ConstraintBuilder {
  struct Row {
    double rate = 0;
    std::map<const DynamicComponent*, Eigen::RowVectorXd> entries;
  };
  std::vector<Row> rows;
  void beginRow(double, double, double, double rate) override { rows.push_back({rate, {}}); }
  void addEntry(const DynamicComponent& c, const Eigen::Ref<const Eigen::RowVectorXd>& g) override {
    rows.back().entries[&c] = g;
  }
  bool wantsVelocityProducts() const override { return true; }
  /// Row i's value at the bodies' current twists.
  double value(int i) const {
    double v = 0;
    for (const auto& [c, g] : rows[i].entries) v += g.dot(static_cast<const RigidBody*>(c)->getVelocity());
    return v;
  }
};

/// A joint between a and b (b null: ground) with D at T.
using MakeJoint = std::function<std::unique_ptr<JointBase>(RigidBody&, RigidBody*, const RigidTransform3d&)>;

template <class J>
MakeJoint between() {
  return [](RigidBody& a, RigidBody* b, const RigidTransform3d& T) { return std::make_unique<J>(a, b, T, "j"); };
}

struct RateCase {
  const char* name;
  MakeJoint make;
  double tol;  ///< relative to the rates' scale
  /// Checked 2e-3 off the constraints as well as on them. The CustomJoint
  /// demo takes θ̇ as AxisCoupling does, from C's x axis seen in D's x–y
  /// plane, which is the rate of its G on the constraints; off them its
  /// own projection (the guide's shortest turn of z) turns G differently,
  /// by the order of the error.
  bool offConstraints = true;
  /// A coordinate locked (its limit wrench becomes a bilateral row), -1:
  /// none. A translation's turns in G with the rotation about z.
  int locked = -1;
};

/// A pose moved for time t along twist v (world axes).
RigidTransform3d moved(const RigidTransform3d& T, const Twist& v, double t) {
  return {T.p + t * v.head<3>(), rotationExp(t * v.tail<3>()) * T.R};
}

TEST(JointRates, VelocityProductsAreTheRowsRateOfChange) {
  const std::vector<RateCase> cases = {
      {"Hinge", between<HingeJoint>(), 1e-8},
      {"Slider", between<SliderJoint>(), 1e-8},
      {"Cylindrical", between<CylindricalJoint>(), 1e-8},
      {"SlottedHinge", between<SlottedHingeJoint>(), 1e-8},
      {"Planar", between<PlanarJoint>(), 1e-8},
      {"PlanarTranslation", between<PlanarTranslationJoint>(), 1e-8},
      {"Solid", between<SolidJoint>(), 1e-8},
      {"Revolute", between<RevoluteJoint>(), 1e-8},
      {"SlottedHinge, x locked", between<SlottedHingeJoint>(), 1e-8, true, 0},
      {"Planar, y locked", between<PlanarJoint>(), 1e-8, true, 1},
      {"CustomJoint (demo)",
       [](RigidBody& a, RigidBody* b, const RigidTransform3d& T) {
         return std::make_unique<demos::CustomJoint>(a, b, T, "j");
       },
       1e-8, false},
      {"CustomJoint (demo), x locked",
       [](RigidBody& a, RigidBody* b, const RigidTransform3d& T) {
         return std::make_unique<demos::CustomJoint>(a, b, T, "j");
       },
       1e-8, false, 0},
      {"Spherical", between<SphericalJoint>(), 1e-4},
      {"Universal", between<UniversalJoint>(), 1e-4},
      {"Gimbal", between<GimbalJoint>(), 1e-4},
  };
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-1, 1);
  auto vec = [&](double s) -> Vector3d { return s * Vector3d(U(rng), U(rng), U(rng)); };
  for (const RateCase& rc : cases) {
    for (int trial = 0; trial < 4; ++trial) {
      SCOPED_TRACE(std::string(rc.name) + " trial " + std::to_string(trial));
      test::TestRoot r;
      auto& a = r.mech.addRigidBody(RigidBody::createBox("a", 0.3, 0.2, 0.1, 1000));
      auto& b = r.mech.addRigidBody(RigidBody::createBox("b", 0.2, 0.3, 0.1, 1000));
      a.setPose({vec(0.5), rotationExp(vec(1.5))});
      b.setPose({vec(0.5), rotationExp(vec(1.5))});
      const RigidTransform3d TDW(vec(0.3), rotationExp(vec(1.5)));
      // Trials 2 and 3 join a to ground.
      RigidBody* other = trial < 2 ? &b : nullptr;
      auto& joint = r.mech.addBodyConnector(rc.make(a, other, TDW));
      RowCapture unlocked;
      joint.getBilateralConstraints(unlocked);
      if (rc.locked >= 0) joint.setLocked(rc.locked, true);
      // A small error, so that G is the projection of C, and twists of a
      // few radians per second.
      const Twist error = (Twist() << vec(1), vec(1)).finished();
      if (rc.offConstraints) a.setPose(moved(a.getPose(), error, 2e-3));
      Twist ta, tb;
      ta << vec(1), vec(4);
      tb << vec(1), vec(4);
      if (!other) tb.setZero();
      a.setVelocity(ta);
      b.setVelocity(tb);
      const RigidTransform3d Ta = a.getPose(), Tb = b.getPose();
      RowCapture now;
      joint.getBilateralConstraints(now);
      const double eps = 1e-5;
      RowCapture ahead, behind;
      a.setPose(moved(Ta, ta, eps));
      b.setPose(moved(Tb, tb, eps));
      joint.getBilateralConstraints(ahead);
      a.setPose(moved(Ta, ta, -eps));
      b.setPose(moved(Tb, tb, -eps));
      joint.getBilateralConstraints(behind);
      ASSERT_EQ(now.rows.size(), ahead.rows.size());
      ASSERT_EQ(now.rows.size(), behind.rows.size());
      ASSERT_FALSE(now.rows.empty());
      // A lock adds a bilateral row along the coordinate's limit wrench.
      EXPECT_EQ(now.rows.size(), unlocked.rows.size() + (rc.locked >= 0 ? 1 : 0));
      double scale = 1;
      for (const auto& row : now.rows) scale = std::max(scale, std::abs(row.rate));
      for (size_t i = 0; i < now.rows.size(); ++i) {
        const double rate = (ahead.value(static_cast<int>(i)) - behind.value(static_cast<int>(i))) / (2 * eps);
        EXPECT_NEAR(now.rows[i].rate, rate, rc.tol * scale) << "row " << i;
      }
    }
  }
}

}  // namespace
}  // namespace sinew
