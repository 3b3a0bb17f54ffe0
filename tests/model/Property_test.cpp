// Tests of the property system (guide §1.4; checklist FW-10..FW-13): typed
// properties declared per class, handles by name and by path, composite
// sub-properties, ranges and read-only checks, numeric access for probes, and
// inheritable properties with Explicit/Inherited modes (Fig. 1.1).
#include "sinew/model/Property.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "sinew/Error.h"
#include "sinew/model/Component.h"

using sinew::CompositeComponent;
using sinew::HasProperties;
using sinew::Inheritable;
using sinew::ModelError;
using sinew::Property;
using sinew::PropertyInfo;
using sinew::PropertyMode;
using sinew::PropertyValue;

namespace {
enum class Shading { Flat, Smooth, Metal };
}  // namespace

template <>
struct sinew::EnumNames<Shading> {
  static const std::vector<std::string>& get() {
    static const std::vector<std::string> names = {"FLAT", "SMOOTH", "METAL"};
    return names;
  }
};

namespace {

// A composite sub-object with a property list of its own.
class Material : public HasProperties {
  SINEW_DECLARE_PROPERTIES
 public:
  double getStiffness() const { return myStiffness; }
  void setStiffness(double k) { myStiffness = k; }
  double getDamping() const { return myDamping; }
  void setDamping(double d) { myDamping = d; }

 private:
  double myStiffness = 10;
  double myDamping = 0.5;
};

SINEW_PROPERTIES(Material, HasProperties) {
  list.add<Material>("stiffness", "spring constant", &Material::getStiffness,
                     &Material::setStiffness)
      .setRange(0, INFINITY);
  list.add<Material>("damping", "damping constant", &Material::getDamping, &Material::setDamping);
}

constexpr double kDefaultStiffness = 7.0;

// A component exposing one property of every kind.
class Gadget : public CompositeComponent {
  SINEW_DECLARE_PROPERTIES
 public:
  using CompositeComponent::CompositeComponent;

  double getLevel() const { return myLevel; }
  void setLevel(double v) { myLevel = v; }
  int getCount() const { return myCount; }
  void setCount(int n) { myCount = n; }
  bool getEnabled() const { return myEnabled; }
  void setEnabled(bool b) { myEnabled = b; }
  const std::string& getLabel() const { return myLabel; }
  void setLabel(const std::string& s) { myLabel = s; }
  const Eigen::Vector3d& getOffset() const { return myOffset; }
  void setOffset(const Eigen::Vector3d& v) { myOffset = v; }
  Shading getShading() const { return myShading; }
  void setShading(Shading s) { myShading = s; }
  double getVolume() const { return 42.0; }  // read-only
  Material* getMaterial() { return &myMaterial; }
  Material& material() { return myMaterial; }
  double getStiffness() const { return inherited("stiffness", myStiffness, kDefaultStiffness); }
  void setStiffness(double k) { setInheritable(myStiffness, k); }

 private:
  double myLevel = 0.5;
  int myCount = 3;
  bool myEnabled = false;
  std::string myLabel = "none";
  Eigen::Vector3d myOffset = Eigen::Vector3d::Zero();
  Shading myShading = Shading::Flat;
  Material myMaterial;
  Inheritable<double> myStiffness;
};

SINEW_PROPERTIES(Gadget, Component) {
  list.add<Gadget>("level", "a bounded level", &Gadget::getLevel, &Gadget::setLevel).setRange(0, 1);
  list.add<Gadget>("count", "an integer count", &Gadget::getCount, &Gadget::setCount).setRange(0, 100);
  list.add<Gadget>("enabled", "a flag", &Gadget::getEnabled, &Gadget::setEnabled);
  list.add<Gadget>("label", "a text label", &Gadget::getLabel, &Gadget::setLabel);
  list.add<Gadget>("offset", "a 3-vector", &Gadget::getOffset, &Gadget::setOffset);
  list.add<Gadget>("shading", "an enum", &Gadget::getShading, &Gadget::setShading);
  list.add<Gadget>("volume", "read-only value", &Gadget::getVolume);
  list.addComposite<Gadget>("material", "a composite sub-object", &Gadget::getMaterial);
  list.addInheritable<Gadget>("stiffness", "inheritable stiffness", &Gadget::myStiffness,
                              kDefaultStiffness)
      .setRange(0, INFINITY);
}

// A subclass that adds a property to the inherited list.
class SubGadget : public Gadget {
  SINEW_DECLARE_PROPERTIES
 public:
  using Gadget::Gadget;
  double getExtra() const { return myExtra; }
  void setExtra(double x) { myExtra = x; }

 private:
  double myExtra = 1;
};

SINEW_PROPERTIES(SubGadget, Gadget) {
  list.add<SubGadget>("extra", "subclass-only property", &SubGadget::getExtra, &SubGadget::setExtra);
}

// A component that has no "stiffness" property at all.
class Plain : public CompositeComponent {
 public:
  using CompositeComponent::CompositeComponent;
};

Gadget& addGadget(CompositeComponent& parent, const std::string& name) {
  return static_cast<Gadget&>(parent.addComponent(std::make_unique<Gadget>(name)));
}

double asD(const PropertyValue& v) { return std::get<double>(v); }

}  // namespace

// ---------------------------------------------------------------------------
// declaration and get/set by name

TEST(ModelProperty, ClassListExtendsBaseList) {
  const auto& all = Gadget::staticPropertyInfo().all();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front().name, "name");  // from Component, first
  EXPECT_NE(Gadget::staticPropertyInfo().find("level"), nullptr);
  EXPECT_EQ(Gadget::staticPropertyInfo().find("extra"), nullptr);
  EXPECT_NE(SubGadget::staticPropertyInfo().find("extra"), nullptr);
  EXPECT_NE(SubGadget::staticPropertyInfo().find("level"), nullptr);
  EXPECT_NE(SubGadget::staticPropertyInfo().find("name"), nullptr);
  SubGadget s("s");
  EXPECT_EQ(&s.getAllPropertyInfo(), &SubGadget::staticPropertyInfo());
  EXPECT_EQ(s.getProperty("extra").getNumeric()[0], 1.0);
  EXPECT_EQ(asD(s.getProperty("level").get()), 0.5);
}

TEST(ModelProperty, KindsAndMetadata) {
  const auto& L = Gadget::staticPropertyInfo();
  EXPECT_EQ(L.find("level")->kind, PropertyInfo::Kind::Double);
  EXPECT_EQ(L.find("count")->kind, PropertyInfo::Kind::Int);
  EXPECT_EQ(L.find("enabled")->kind, PropertyInfo::Kind::Bool);
  EXPECT_EQ(L.find("label")->kind, PropertyInfo::Kind::String);
  EXPECT_EQ(L.find("offset")->kind, PropertyInfo::Kind::Vector);
  EXPECT_EQ(L.find("shading")->kind, PropertyInfo::Kind::Enum);
  EXPECT_EQ(L.find("material")->kind, PropertyInfo::Kind::Composite);
  EXPECT_TRUE(L.find("volume")->isReadOnly());
  EXPECT_FALSE(L.find("level")->isReadOnly());
  EXPECT_TRUE(L.find("stiffness")->inheritable);
  EXPECT_FALSE(L.find("level")->inheritable);
  EXPECT_EQ(L.find("level")->min, 0);
  EXPECT_EQ(L.find("level")->max, 1);
  EXPECT_EQ(L.find("shading")->enumNames, (std::vector<std::string>{"FLAT", "SMOOTH", "METAL"}));
  EXPECT_EQ(L.find("level")->description, "a bounded level");
}

TEST(ModelProperty, GetAndSetByName) {
  Gadget g("g");
  g.getProperty("level").set(0.25);
  EXPECT_EQ(g.getLevel(), 0.25);
  EXPECT_EQ(asD(g.getProperty("level").get()), 0.25);

  g.getProperty("count").set(7);
  EXPECT_EQ(g.getCount(), 7);
  EXPECT_EQ(std::get<int>(g.getProperty("count").get()), 7);

  g.getProperty("enabled").set(true);
  EXPECT_TRUE(g.getEnabled());
  EXPECT_EQ(std::get<bool>(g.getProperty("enabled").get()), true);

  g.getProperty("label").set(std::string("hello"));
  EXPECT_EQ(g.getLabel(), "hello");
  EXPECT_EQ(std::get<std::string>(g.getProperty("label").get()), "hello");

  Eigen::VectorXd v(3);
  v << 1, -2, 3.5;
  g.getProperty("offset").set(v);
  EXPECT_EQ(g.getOffset(), Eigen::Vector3d(1, -2, 3.5));
  EXPECT_EQ(std::get<Eigen::VectorXd>(g.getProperty("offset").get()), v);

  // The C++ accessors and the handle see the same value.
  g.setLevel(0.75);
  EXPECT_EQ(asD(g.getProperty("level").get()), 0.75);
  EXPECT_EQ(g.getProperty("level").getName(), "level");
  EXPECT_EQ(g.getProperty("level").host(), &g);
}

TEST(ModelProperty, WrongVectorSizeOrIntegerIsRejected) {
  Gadget g("g");
  EXPECT_THROW(g.getProperty("offset").set(Eigen::VectorXd::Zero(2)), ModelError);
  EXPECT_EQ(g.getOffset(), Eigen::Vector3d::Zero());
  EXPECT_THROW(g.getProperty("count").set(2.5), ModelError);
  EXPECT_EQ(g.getCount(), 3);
  EXPECT_NO_THROW(g.getProperty("count").set(4.0));  // integral double is fine
  EXPECT_EQ(g.getCount(), 4);
  Eigen::VectorXd bad(3);
  bad << 1, std::numeric_limits<double>::infinity(), 0;
  EXPECT_THROW(g.getProperty("offset").set(bad), ModelError);
  EXPECT_THROW(g.getProperty("level").set(std::string("abc")), ModelError);
}

TEST(ModelProperty, SetByComponentPath) {
  CompositeComponent top("top");
  Gadget& child = addGadget(top, "child");
  Gadget& grandchild = addGadget(child, "grandchild");
  top.getPropertyByPath("child/grandchild:level").set(0.125);
  EXPECT_EQ(grandchild.getLevel(), 0.125);
  EXPECT_EQ(child.getLevel(), 0.5);
  EXPECT_EQ(top.getPropertyByPath("child/grandchild:level").host(), &grandchild);
  // Relative to the child, and by number.
  EXPECT_EQ(asD(child.getPropertyByPath("grandchild:level").get()), 0.125);
  EXPECT_EQ(asD(top.getPropertyByPath("0/0:level").get()), 0.125);
  // Absolute path from anywhere in the tree.
  EXPECT_EQ(grandchild.getPropertyByPath("/child:count").host(), &child);
  // No colon: a property of this component.
  EXPECT_EQ(child.getPropertyByPath("level").host(), &child);
}

TEST(ModelProperty, CompositeSubPropertyWithDots) {
  CompositeComponent top("top");
  Gadget& g = addGadget(top, "g");
  Property k = g.getProperty("material.stiffness");
  EXPECT_EQ(k.host(), g.getMaterial());
  EXPECT_EQ(asD(k.get()), 10.0);
  k.set(25.0);
  EXPECT_EQ(g.material().getStiffness(), 25.0);
  // And through a component path.
  top.getPropertyByPath("g:material.damping").set(0.9);
  EXPECT_EQ(g.material().getDamping(), 0.9);
  // A composite is not numeric.
  Property m = g.getProperty("material");
  EXPECT_FALSE(m.info().isNumeric());
  EXPECT_EQ(m.numericSize(), 0);
  // Sub-property range checks apply.
  EXPECT_THROW(g.getProperty("material.stiffness").set(-1.0), ModelError);
  EXPECT_EQ(g.material().getStiffness(), 25.0);
  // Unknown sub-property, and dots into a non-composite.
  EXPECT_THROW(g.getProperty("material.nothing"), ModelError);
  EXPECT_THROW(g.getProperty("level.sub"), ModelError);
  EXPECT_FALSE(g.findProperty("material.nothing"));
}

// ---------------------------------------------------------------------------
// checks on set

TEST(ModelProperty, RangeViolationNamesThePath) {
  CompositeComponent top("top");
  Gadget& child = addGadget(top, "child");
  Gadget& gc = addGadget(child, "gc");
  try {
    top.getPropertyByPath("child/gc:level").set(1.5);
    FAIL() << "out-of-range value accepted";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.path(), "/child/gc:level");
    EXPECT_NE(std::string(e.what()).find("/child/gc:level"), std::string::npos) << e.what();
  }
  EXPECT_EQ(gc.getLevel(), 0.5);
  // Range ends are inclusive.
  EXPECT_NO_THROW(gc.getProperty("level").set(0.0));
  EXPECT_NO_THROW(gc.getProperty("level").set(1.0));
  EXPECT_EQ(gc.getLevel(), 1.0);
  EXPECT_THROW(gc.getProperty("level").set(-1e-9), ModelError);
  // Int ranges too.
  EXPECT_THROW(gc.getProperty("count").set(101), ModelError);
  EXPECT_THROW(gc.getProperty("count").set(-1), ModelError);
  EXPECT_EQ(gc.getCount(), 3);
}

TEST(ModelProperty, NaNIsRejected) {
  Gadget g("g");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(g.getProperty("level").set(nan), ModelError);
  EXPECT_EQ(g.getLevel(), 0.5);
  EXPECT_THROW(g.getProperty("stiffness").set(nan), ModelError);
  EXPECT_EQ(g.getStiffness(), kDefaultStiffness);
  EXPECT_THROW(g.getProperty("material.damping").set(nan), ModelError);  // no range, still NaN
  EXPECT_EQ(g.material().getDamping(), 0.5);
  EXPECT_THROW(g.getProperty("offset").set(Eigen::VectorXd::Constant(3, nan)), ModelError);
  EXPECT_THROW(g.getProperty("level").setNumeric(Eigen::VectorXd::Constant(1, nan)), ModelError);
}

TEST(ModelProperty, ReadOnlySetIsRejected) {
  CompositeComponent top("top");
  Gadget& g = addGadget(top, "g");
  Property p = g.getProperty("volume");
  EXPECT_EQ(asD(p.get()), 42.0);
  try {
    p.set(1.0);
    FAIL() << "read-only property was set";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.path(), "/g:volume");
  }
  EXPECT_THROW(p.setNumeric(Eigen::VectorXd::Constant(1, 2.0)), ModelError);
  EXPECT_EQ(asD(p.get()), 42.0);
}

TEST(ModelProperty, UnknownPropertyOrPathIsAnError) {
  CompositeComponent top("top");
  addGadget(top, "g");
  EXPECT_THROW(top.getProperty("nothing"), ModelError);
  EXPECT_FALSE(top.findProperty("nothing"));
  EXPECT_THROW(top.getPropertyByPath("g:nothing"), ModelError);
  try {
    top.getPropertyByPath("missing/child:level");
    FAIL() << "unknown component path accepted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("missing/child"), std::string::npos) << e.what();
  }
  try {
    top.getPropertyByPath("g:nothing");
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_EQ(e.path(), "/g");
    EXPECT_NE(std::string(e.what()).find("nothing"), std::string::npos);
  }
}

TEST(ModelProperty, EnumByNameAndByIndex) {
  Gadget g("g");
  Property p = g.getProperty("shading");
  EXPECT_EQ(std::get<std::string>(p.get()), "FLAT");
  p.set(std::string("METAL"));
  EXPECT_EQ(g.getShading(), Shading::Metal);
  EXPECT_EQ(std::get<std::string>(p.get()), "METAL");
  p.set(1);
  EXPECT_EQ(g.getShading(), Shading::Smooth);
  EXPECT_EQ(std::get<std::string>(p.get()), "SMOOTH");
  EXPECT_THROW(p.set(std::string("SHINY")), ModelError);
  EXPECT_THROW(p.set(3), ModelError);
  EXPECT_THROW(p.set(-1), ModelError);
  EXPECT_EQ(g.getShading(), Shading::Smooth);
}

// ---------------------------------------------------------------------------
// numeric access (for probes)

TEST(ModelProperty, NumericAccessForEachNumericKind) {
  Gadget g("g");
  // double
  Property level = g.getProperty("level");
  EXPECT_EQ(level.numericSize(), 1);
  EXPECT_EQ(level.getNumeric(), Eigen::VectorXd::Constant(1, 0.5));
  level.setNumeric(Eigen::VectorXd::Constant(1, 0.3));
  EXPECT_EQ(g.getLevel(), 0.3);
  EXPECT_THROW(level.setNumeric(Eigen::VectorXd::Constant(1, 3.0)), ModelError);  // range
  // int
  Property count = g.getProperty("count");
  EXPECT_EQ(count.numericSize(), 1);
  EXPECT_EQ(count.getNumeric()[0], 3.0);
  count.setNumeric(Eigen::VectorXd::Constant(1, 9.0));
  EXPECT_EQ(g.getCount(), 9);
  // bool
  Property enabled = g.getProperty("enabled");
  EXPECT_EQ(enabled.numericSize(), 1);
  EXPECT_EQ(enabled.getNumeric()[0], 0.0);
  enabled.setNumeric(Eigen::VectorXd::Constant(1, 1.0));
  EXPECT_TRUE(g.getEnabled());
  EXPECT_EQ(enabled.getNumeric()[0], 1.0);
  enabled.setNumeric(Eigen::VectorXd::Constant(1, 0.0));
  EXPECT_FALSE(g.getEnabled());
  // enum: its index
  Property shading = g.getProperty("shading");
  EXPECT_EQ(shading.numericSize(), 1);
  EXPECT_EQ(shading.getNumeric()[0], 0.0);
  shading.setNumeric(Eigen::VectorXd::Constant(1, 2.0));
  EXPECT_EQ(g.getShading(), Shading::Metal);
  EXPECT_EQ(shading.getNumeric()[0], 2.0);
  // vector
  Property offset = g.getProperty("offset");
  EXPECT_EQ(offset.numericSize(), 3);
  Eigen::VectorXd v(3);
  v << 0.1, 0.2, 0.3;
  offset.setNumeric(v);
  EXPECT_EQ(g.getOffset(), Eigen::Vector3d(0.1, 0.2, 0.3));
  EXPECT_EQ(offset.getNumeric(), v);
  EXPECT_THROW(offset.setNumeric(Eigen::VectorXd::Zero(4)), ModelError);
  // inheritable double and composite sub-property
  Property stiff = g.getProperty("stiffness");
  EXPECT_EQ(stiff.numericSize(), 1);
  EXPECT_EQ(stiff.getNumeric()[0], kDefaultStiffness);
  stiff.setNumeric(Eigen::VectorXd::Constant(1, 11.0));
  EXPECT_EQ(g.getStiffness(), 11.0);
  EXPECT_EQ(stiff.getMode(), PropertyMode::Explicit);
  Property mk = g.getProperty("material.stiffness");
  EXPECT_EQ(mk.numericSize(), 1);
  mk.setNumeric(Eigen::VectorXd::Constant(1, 4.0));
  EXPECT_EQ(g.material().getStiffness(), 4.0);
}

TEST(ModelProperty, StringPropertyIsNotNumeric) {
  Gadget g("g");
  Property label = g.getProperty("label");
  EXPECT_FALSE(label.info().isNumeric());
  EXPECT_EQ(label.numericSize(), 0);
  EXPECT_THROW(label.getNumeric(), ModelError);
  EXPECT_TRUE(g.getProperty("level").info().isNumeric());
  EXPECT_TRUE(g.getProperty("shading").info().isNumeric());
  EXPECT_TRUE(g.getProperty("enabled").info().isNumeric());
}

TEST(ModelProperty, ToStringFormatsValues) {
  EXPECT_EQ(sinew::toString(PropertyValue(true)), "true");
  EXPECT_EQ(sinew::toString(PropertyValue(7)), "7");
  EXPECT_EQ(sinew::toString(PropertyValue(0.25)), "0.25");
  EXPECT_EQ(sinew::toString(PropertyValue(std::string("abc"))), "abc");
  Eigen::VectorXd v(3);
  v << 1, 2.5, -3;
  EXPECT_EQ(sinew::toString(PropertyValue(v)), "1 2.5 -3");
}

TEST(ModelProperty, AxisAngleTraitsUseDegrees) {
  using Tr = sinew::PropertyTraits<sinew::AxisAngle>;
  sinew::AxisAngle a(Eigen::Vector3d(0, 0, 2), M_PI / 2);
  Eigen::VectorXd x = std::get<Eigen::VectorXd>(Tr::to(a));
  ASSERT_EQ(x.size(), 4);
  EXPECT_NEAR(x[2], 1.0, 1e-15);  // unit axis
  EXPECT_NEAR(x[3], 90.0, 1e-12);
  sinew::AxisAngle b = Tr::from(x);
  EXPECT_NEAR(b.angle, M_PI / 2, 1e-15);
  EXPECT_THROW(Tr::from(PropertyValue(Eigen::VectorXd::Zero(4))), ModelError);
}

// ---------------------------------------------------------------------------
// §1.4.3 inheritable properties, Fig. 1.1

namespace {
// Fig. 1.1: A is the root with children B and C; B has child D; C has
// children E and F. stiffness is Explicit in A, C and E.
struct Fig11 {
  std::unique_ptr<Gadget> rootOwner = std::make_unique<Gadget>("A");
  Gadget& A = *rootOwner;
  Gadget& B = addGadget(A, "B");
  Gadget& C = addGadget(A, "C");
  Gadget& D = addGadget(B, "D");
  Gadget& E = addGadget(C, "E");
  Gadget& F = addGadget(C, "F");
  Fig11() {
    A.getProperty("stiffness").set(1.0);
    C.getProperty("stiffness").set(2.0);
    E.getProperty("stiffness").set(3.0);
  }
};

double stiff(Gadget& g) { return asD(g.getProperty("stiffness").get()); }
PropertyMode mode(Gadget& g) { return g.getProperty("stiffness").getMode(); }
}  // namespace

TEST(ModelProperty, InheritanceFigure11) {
  Fig11 f;
  EXPECT_EQ(mode(f.A), PropertyMode::Explicit);
  EXPECT_EQ(mode(f.C), PropertyMode::Explicit);
  EXPECT_EQ(mode(f.E), PropertyMode::Explicit);
  EXPECT_EQ(mode(f.B), PropertyMode::Inherited);
  EXPECT_EQ(mode(f.D), PropertyMode::Inherited);
  EXPECT_EQ(mode(f.F), PropertyMode::Inherited);

  EXPECT_EQ(stiff(f.A), 1.0);
  EXPECT_EQ(stiff(f.B), 1.0);  // from A
  EXPECT_EQ(stiff(f.C), 2.0);
  EXPECT_EQ(stiff(f.D), 1.0);  // from A (through B)
  EXPECT_EQ(stiff(f.E), 3.0);
  EXPECT_EQ(stiff(f.F), 2.0);  // from C
  // The C++ accessor agrees with the handle.
  EXPECT_EQ(f.D.getStiffness(), 1.0);
  EXPECT_EQ(f.F.getStiffness(), 2.0);
}

TEST(ModelProperty, ChangingAncestorPropagatesOnlyToInheritors) {
  Fig11 f;
  // Read once so that any caches are warm before the change.
  EXPECT_EQ(stiff(f.D), 1.0);
  EXPECT_EQ(stiff(f.F), 2.0);
  f.A.getProperty("stiffness").set(10.0);
  EXPECT_EQ(stiff(f.A), 10.0);
  EXPECT_EQ(stiff(f.B), 10.0);
  EXPECT_EQ(stiff(f.D), 10.0);
  EXPECT_EQ(stiff(f.C), 2.0);
  EXPECT_EQ(stiff(f.E), 3.0);
  EXPECT_EQ(stiff(f.F), 2.0);
  // Through the C++ setter as well.
  f.A.setStiffness(20.0);
  EXPECT_EQ(f.D.getStiffness(), 20.0);
  EXPECT_EQ(f.F.getStiffness(), 2.0);
  f.C.setStiffness(5.0);
  EXPECT_EQ(f.F.getStiffness(), 5.0);
  EXPECT_EQ(f.E.getStiffness(), 3.0);
}

TEST(ModelProperty, ExplicitThenBackToInherited) {
  Fig11 f;
  Property pb = f.B.getProperty("stiffness");
  pb.set(5.0);  // setting a value makes it Explicit
  EXPECT_EQ(pb.getMode(), PropertyMode::Explicit);
  EXPECT_EQ(stiff(f.B), 5.0);
  EXPECT_EQ(stiff(f.D), 5.0);  // D now inherits from B, its nearest explicit ancestor
  EXPECT_EQ(stiff(f.A), 1.0);

  pb.setMode(PropertyMode::Inherited);
  EXPECT_EQ(pb.getMode(), PropertyMode::Inherited);
  EXPECT_EQ(stiff(f.B), 1.0);
  EXPECT_EQ(stiff(f.D), 1.0);

  f.A.getProperty("stiffness").set(4.0);
  EXPECT_EQ(stiff(f.B), 4.0);
  EXPECT_EQ(stiff(f.D), 4.0);

  // E back to Inherited takes C's value.
  f.E.getProperty("stiffness").setMode(PropertyMode::Inherited);
  EXPECT_EQ(stiff(f.E), 2.0);
}

TEST(ModelProperty, SetModeOnNonInheritablePropertyIsAnError) {
  Gadget g("g");
  EXPECT_EQ(g.getProperty("level").getMode(), PropertyMode::Explicit);
  EXPECT_THROW(g.getProperty("level").setMode(PropertyMode::Inherited), ModelError);
}

TEST(ModelProperty, MovingComponentChangesInheritedValue) {
  Fig11 f;
  EXPECT_EQ(stiff(f.D), 1.0);
  // Move D from under B (inherits A = 1) to under C (explicit 2).
  std::unique_ptr<sinew::Component> d = f.B.detachComponent(f.D);
  ASSERT_TRUE(d);
  Gadget& D = static_cast<Gadget&>(*d);
  EXPECT_EQ(stiff(D), kDefaultStiffness);  // no ancestor at all: the default
  f.C.addComponent(std::move(d));
  EXPECT_EQ(stiff(D), 2.0);
  // And under E (explicit 3).
  std::unique_ptr<sinew::Component> d2 = f.C.detachComponent(D);
  f.E.addComponent(std::move(d2));
  EXPECT_EQ(stiff(D), 3.0);
}

TEST(ModelProperty, InheritsThroughComponentsWithoutTheProperty) {
  Gadget top("top");
  top.setStiffness(6.0);
  auto& mid = static_cast<Plain&>(top.addComponent(std::make_unique<Plain>("list")));
  Gadget& leaf = addGadget(mid, "leaf");
  EXPECT_EQ(stiff(leaf), 6.0);
}

TEST(ModelProperty, DefaultValueWhenNoAncestorSetsIt) {
  Gadget lone("lone");
  EXPECT_EQ(mode(lone), PropertyMode::Inherited);
  EXPECT_EQ(stiff(lone), kDefaultStiffness);
  EXPECT_EQ(lone.getStiffness(), kDefaultStiffness);

  // A whole tree with nothing explicit: everyone gets the default.
  Gadget top("top");
  Gadget& a = addGadget(top, "a");
  Gadget& b = addGadget(a, "b");
  EXPECT_EQ(stiff(top), kDefaultStiffness);
  EXPECT_EQ(stiff(b), kDefaultStiffness);
  // The info records the default.
  EXPECT_EQ(asD(Gadget::staticPropertyInfo().find("stiffness")->defaultValue), kDefaultStiffness);
  // Setting the top then reverting it restores the default below.
  top.setStiffness(1.5);
  EXPECT_EQ(stiff(b), 1.5);
  top.getProperty("stiffness").setMode(PropertyMode::Inherited);
  EXPECT_EQ(stiff(b), kDefaultStiffness);
}

TEST(ModelProperty, InheritableRangeIsChecked) {
  Fig11 f;
  EXPECT_THROW(f.B.getProperty("stiffness").set(-2.0), ModelError);
  EXPECT_EQ(mode(f.B), PropertyMode::Inherited);  // a rejected set changes nothing
  EXPECT_EQ(stiff(f.B), 1.0);
}
