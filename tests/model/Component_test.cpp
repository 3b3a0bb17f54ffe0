// Tests of the component tree (guide §1.1.1–1.1.3; checklist FW-01, FW-02,
// FW-05, FW-09): numbers vs. indices, names, path names, path lookup,
// ComponentList and the RootModel's lists.
#include "sinew/model/Component.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sinew/Error.h"
#include "sinew/model/RootModel.h"

using sinew::Component;
using sinew::ComponentList;
using sinew::CompositeComponent;
using sinew::ModelError;
using sinew::RootModel;

namespace {

// A leaf component type distinct from Component, for typed lists.
class Leaf : public Component {
 public:
  using Component::Component;
  int payload = 0;
};

// Adds a named (or unnamed, if name is empty) composite child and returns it.
CompositeComponent& addComposite(CompositeComponent& parent, const std::string& name = {}) {
  return static_cast<CompositeComponent&>(
      parent.addComponent(std::make_unique<CompositeComponent>(name)));
}

std::vector<int> numbersOf(const CompositeComponent& c) {
  std::vector<int> v;
  for (int i = 0; i < c.numComponents(); ++i) v.push_back(c.getComponent(i)->getNumber());
  return v;
}

std::vector<int> indicesOf(const CompositeComponent& c) {
  std::vector<int> v;
  for (int i = 0; i < c.numComponents(); ++i) v.push_back(c.getComponent(i)->getIndex());
  return v;
}

}  // namespace

// ---------------------------------------------------------------------------
// §1.1.1 numbers and indices

TEST(ModelComponent, GuideNumberIndexExample) {
  CompositeComponent parent("parent");
  std::vector<Component*> kids;
  for (int i = 0; i < 6; ++i)
    kids.push_back(&parent.addComponent(std::make_unique<Leaf>()));
  EXPECT_EQ(numbersOf(parent), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(indicesOf(parent), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  for (Component* k : kids) EXPECT_EQ(k->getParent(), &parent);

  // Remove the components numbered 2 and 4.
  ASSERT_TRUE(parent.removeComponent(*parent.getByNumber(2)));
  ASSERT_TRUE(parent.removeComponent(*parent.getByNumber(4)));

  EXPECT_EQ(parent.numComponents(), 4);
  EXPECT_EQ(numbersOf(parent), (std::vector<int>{0, 1, 3, 5}));
  EXPECT_EQ(indicesOf(parent), (std::vector<int>{0, 1, 2, 3}));
  // The survivors are the very same objects, found again by number.
  EXPECT_EQ(parent.getByNumber(0), kids[0]);
  EXPECT_EQ(parent.getByNumber(1), kids[1]);
  EXPECT_EQ(parent.getByNumber(3), kids[3]);
  EXPECT_EQ(parent.getByNumber(5), kids[5]);
  EXPECT_EQ(parent.getByNumber(2), nullptr);
  EXPECT_EQ(parent.getByNumber(4), nullptr);
  // Index of the component numbered 5 is now 3.
  EXPECT_EQ(kids[5]->getIndex(), 3);
  EXPECT_EQ(parent.indexOf(*kids[3]), 2);
}

TEST(ModelComponent, NewChildGetsNextNumberNotAReusedOne) {
  CompositeComponent parent;
  for (int i = 0; i < 3; ++i) parent.addComponent(std::make_unique<Leaf>());
  parent.removeComponent(*parent.getByNumber(1));
  Component& added = parent.addComponent(std::make_unique<Leaf>());
  // Numbers must stay unique within the parent: 1 is gone, 0 and 2 remain.
  EXPECT_EQ(added.getNumber(), 3);
  EXPECT_EQ(added.getIndex(), 2);
  EXPECT_EQ(numbersOf(parent), (std::vector<int>{0, 2, 3}));
}

TEST(ModelComponent, UnattachedComponentHasNoParentIndexOrNumber) {
  Leaf c("loose");
  EXPECT_EQ(c.getParent(), nullptr);
  EXPECT_EQ(c.getIndex(), -1);
  EXPECT_EQ(c.getNumber(), -1);

  CompositeComponent parent;
  parent.addComponent(std::make_unique<Leaf>("a"));
  Component& b = parent.addComponent(std::make_unique<Leaf>("b"));
  std::unique_ptr<Component> detached = parent.detachComponent(b);
  ASSERT_EQ(detached.get(), &b);
  EXPECT_EQ(b.getParent(), nullptr);
  EXPECT_EQ(b.getIndex(), -1);
  EXPECT_EQ(parent.get("b"), nullptr);
  EXPECT_EQ(parent.numComponents(), 1);
}

TEST(ModelComponent, RemoveNonChildReturnsFalse) {
  CompositeComponent a, b;
  Component& child = b.addComponent(std::make_unique<Leaf>("x"));
  EXPECT_FALSE(a.removeComponent(child));
  EXPECT_EQ(child.getParent(), &b);
  EXPECT_EQ(a.detachComponent(child), nullptr);
}

TEST(ModelComponent, AddingNullComponentIsRejected) {
  CompositeComponent a("a");
  EXPECT_THROW(a.addComponent(nullptr), ModelError);
  EXPECT_EQ(a.numComponents(), 0);
}

// ---------------------------------------------------------------------------
// names

TEST(ModelComponent, InvalidNamesAreRejected) {
  for (const char* bad : {"a/b", "/", "a:b", ":", "a.b", ".", "0", "123", "007"}) {
    EXPECT_THROW({ Leaf tmp(bad); }, ModelError) << "constructor accepted '" << bad << "'";
    Leaf c;
    EXPECT_THROW(c.setName(bad), ModelError) << "setName accepted '" << bad << "'";
    EXPECT_EQ(c.getName(), "") << "a rejected name must not be stored";
  }
  // Digits mixed with other characters are fine, as are '_' and '-'.
  for (const char* good : {"p1", "1p", "a_b", "a-b", "lad", "x0y"}) {
    Leaf c;
    EXPECT_NO_THROW(c.setName(good)) << good;
    EXPECT_EQ(c.getName(), good);
  }
}

TEST(ModelComponent, DuplicateSiblingNamesAreRejected) {
  CompositeComponent parent("parent");
  parent.addComponent(std::make_unique<Leaf>("a"));
  Component& b = parent.addComponent(std::make_unique<Leaf>("b"));
  EXPECT_THROW(parent.addComponent(std::make_unique<Leaf>("a")), ModelError);
  EXPECT_EQ(parent.numComponents(), 2);
  // Renaming onto a sibling's name is rejected too and leaves the name as is.
  EXPECT_THROW(b.setName("a"), ModelError);
  EXPECT_EQ(b.getName(), "b");
  EXPECT_EQ(parent.get("b"), &b);
  // Renaming to its own name is not a clash.
  EXPECT_NO_THROW(b.setName("b"));
  // Unnamed siblings never clash.
  parent.addComponent(std::make_unique<Leaf>());
  EXPECT_NO_THROW(parent.addComponent(std::make_unique<Leaf>()));
  EXPECT_EQ(parent.numComponents(), 4);
  // The same name under a different parent is fine.
  CompositeComponent& sub = addComposite(parent, "sub");
  EXPECT_NO_THROW(sub.addComponent(std::make_unique<Leaf>("a")));
}

TEST(ModelComponent, DuplicateNameErrorNamesTheParentPath) {
  RootModel root;
  CompositeComponent& mech = addComposite(root.models(), "mech");
  mech.addComponent(std::make_unique<Leaf>("p"));
  try {
    mech.addComponent(std::make_unique<Leaf>("p"));
    FAIL() << "duplicate accepted";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.path(), "/models/mech");
  }
}

TEST(ModelComponent, RenamingKeepsNumberAndIndexAndUpdatesLookup) {
  CompositeComponent parent;
  parent.addComponent(std::make_unique<Leaf>("a"));
  Component& b = parent.addComponent(std::make_unique<Leaf>("b"));
  parent.addComponent(std::make_unique<Leaf>("c"));
  parent.removeComponent(*parent.get("a"));
  const int num = b.getNumber(), idx = b.getIndex();
  ASSERT_EQ(num, 1);
  ASSERT_EQ(idx, 0);

  b.setName("renamed");
  EXPECT_EQ(b.getNumber(), num);
  EXPECT_EQ(b.getIndex(), idx);
  EXPECT_EQ(parent.get("renamed"), &b);
  EXPECT_EQ(parent.get("b"), nullptr);
  EXPECT_EQ(parent.findComponent("renamed"), &b);
  EXPECT_EQ(parent.findComponent("b"), nullptr);
  // The old name is free again.
  EXPECT_NO_THROW(parent.addComponent(std::make_unique<Leaf>("b")));

  // Clearing the name removes it from the lookup; the number still works.
  b.setName("");
  EXPECT_EQ(parent.get("renamed"), nullptr);
  EXPECT_EQ(parent.findComponent("1"), &b);
  EXPECT_EQ(b.getPathName(), "/1");
}

TEST(ModelComponent, NameIsAReadOnlyProperty) {
  Leaf c("leafy");
  sinew::Property p = c.getProperty("name");
  EXPECT_EQ(std::get<std::string>(p.get()), "leafy");
  EXPECT_TRUE(p.info().isReadOnly());
  EXPECT_THROW(p.set(std::string("other")), ModelError);
  EXPECT_EQ(c.getName(), "leafy");
}

// ---------------------------------------------------------------------------
// §1.1.3 path names and lookup

namespace {
// root / models(0) / jaw(0) / {frames(0), axialSprings(1)} ; axialSprings has
// six springs numbered 0..5, the last named "lad".
struct JawTree {
  RootModel root{"JawRoot"};
  CompositeComponent* jaw;
  CompositeComponent* springs;
  Component* lad;
  Component* unnamed;
  JawTree() {
    jaw = &addComposite(root.models(), "JawHyoidModel");
    addComposite(*jaw, "frames");
    springs = &addComposite(*jaw, "axialSprings");
    for (int i = 0; i < 5; ++i) springs->addComponent(std::make_unique<Leaf>());
    lad = &springs->addComponent(std::make_unique<Leaf>("lad"));
    unnamed = springs->getComponent(2);
  }
};
}  // namespace

TEST(ModelComponent, AbsolutePathNamesUseNamesAndNumbersForUnnamed) {
  JawTree t;
  EXPECT_EQ(t.root.getPathName(), "/");
  EXPECT_EQ(t.root.models().getPathName(), "/models");
  EXPECT_EQ(t.lad->getPathName(), "/models/JawHyoidModel/axialSprings/lad");
  EXPECT_EQ(t.unnamed->getPathName(), "/models/JawHyoidModel/axialSprings/2");
  EXPECT_EQ(t.lad->describe(), t.lad->getPathName());
}

TEST(ModelComponent, RelativePathNames) {
  JawTree t;
  EXPECT_EQ(t.lad->getPathName(t.jaw), "axialSprings/lad");
  EXPECT_EQ(t.lad->getPathName(&t.root), "models/JawHyoidModel/axialSprings/lad");
  EXPECT_EQ(t.unnamed->getPathName(t.springs), "2");
  EXPECT_EQ(t.lad->getPathName(t.lad), "");
  // The relative path resolves back to the component from the reference.
  EXPECT_EQ(t.jaw->findComponent(t.lad->getPathName(t.jaw)), t.lad);
  EXPECT_EQ(t.springs->findComponent(t.unnamed->getPathName(t.springs)), t.unnamed);
}

TEST(ModelComponent, FindComponentByRelativePath) {
  JawTree t;
  EXPECT_EQ(t.root.findComponent("models/JawHyoidModel"), t.jaw);
  EXPECT_EQ(t.jaw->findComponent("axialSprings/lad"), t.lad);
  EXPECT_EQ(t.jaw->findComponent("axialSprings/2"), t.unnamed);
  EXPECT_EQ(t.springs->findComponent("lad"), t.lad);
  // Typed lookup.
  EXPECT_EQ(t.jaw->findComponent<Leaf>("axialSprings/lad"), t.lad);
  EXPECT_EQ(t.jaw->findComponent<CompositeComponent>("axialSprings/lad"), nullptr);
}

TEST(ModelComponent, FindComponentByAbsolutePathFromAnyDescendant) {
  JawTree t;
  const std::string path = "/models/JawHyoidModel/axialSprings/lad";
  for (Component* from : std::vector<Component*>{&t.root, &t.root.models(), t.jaw, t.springs,
                                                 t.unnamed, t.lad}) {
    EXPECT_EQ(from->findComponent(path), t.lad) << "from " << from->getPathName();
    EXPECT_EQ(from->findComponent("/"), &t.root);
  }
}

TEST(ModelComponent, FindComponentByNumberSegments) {
  JawTree t;
  // Guide: /models/JawHyoidModel/axialSprings/lad == /0/0/1/5.
  EXPECT_EQ(t.root.findComponent("/0/0/1/5"), t.lad);
  EXPECT_EQ(t.unnamed->findComponent("/0/0/1/5"), t.lad);
  EXPECT_EQ(t.root.findComponent("/0/0/1"), t.springs);
  EXPECT_EQ(t.root.findComponent("/0/1"), nullptr);  // models holds only #0
  EXPECT_EQ(t.root.findComponent("/1"), &t.root.inputProbes());
  EXPECT_EQ(t.root.findComponent("/0/0"), t.jaw);
  // Names and numbers may be mixed.
  EXPECT_EQ(t.root.findComponent("/models/0/1/lad"), t.lad);
  EXPECT_EQ(t.root.findComponent("0/JawHyoidModel/axialSprings/5"), t.lad);
  // Numbers, not indices: after removing spring #1, "5" still finds lad and
  // "1" finds nothing even though index 1 exists.
  t.springs->removeComponent(*t.springs->getByNumber(1));
  EXPECT_EQ(t.root.findComponent("/0/0/1/5"), t.lad);
  EXPECT_EQ(t.root.findComponent("/0/0/1/1"), nullptr);
  EXPECT_EQ(t.lad->getIndex(), 4);
}

TEST(ModelComponent, UnknownPathGivesNull) {
  JawTree t;
  EXPECT_EQ(t.root.findComponent("models/nothing"), nullptr);
  EXPECT_EQ(t.root.findComponent("/models/JawHyoidModel/axialSprings/lad/deeper"), nullptr);
  EXPECT_EQ(t.root.findComponent("/9"), nullptr);
  EXPECT_EQ(t.lad->findComponent("anything"), nullptr);
  EXPECT_EQ(t.jaw->findComponent("/models/JawHyoidModel/axialSprings/99"), nullptr);
}

// ---------------------------------------------------------------------------
// ComponentList

TEST(ModelComponent, ComponentListTypedGetAndIteration) {
  ComponentList<Leaf> list("leaves");
  Leaf& a = list.add(std::make_unique<Leaf>("a"));
  Leaf& b = list.addNew<Leaf>("b");
  Leaf& c = list.addNew<Leaf>();
  a.payload = 1;
  b.payload = 2;
  c.payload = 3;
  EXPECT_EQ(list.size(), 3);
  EXPECT_EQ(&list.get(0), &a);
  EXPECT_EQ(&list.get(2), &c);
  EXPECT_EQ(list.get("b"), &b);
  EXPECT_EQ(list.get("missing"), nullptr);
  EXPECT_EQ(list.get("b")->payload, 2);  // typed: payload is reachable

  std::vector<int> seen;
  for (Leaf& l : list) seen.push_back(l.payload);
  EXPECT_EQ(seen, (std::vector<int>{1, 2, 3}));

  EXPECT_TRUE(list.remove(b));
  seen.clear();
  for (Leaf& l : list) seen.push_back(l.payload);
  EXPECT_EQ(seen, (std::vector<int>{1, 3}));
  EXPECT_EQ(list.get(1).getNumber(), 2);
  EXPECT_EQ(list.get(1).getIndex(), 1);

  list.clear();
  EXPECT_EQ(list.size(), 0);
  int count = 0;
  for (Leaf& l : list) (void)l, ++count;
  EXPECT_EQ(count, 0);
}

TEST(ModelComponent, StructureChangeNotifiesAncestors) {
  struct Watch : CompositeComponent {
    using CompositeComponent::CompositeComponent;
    int changes = 0;
    void componentStructureChanged() override { ++changes; }
  };
  Watch top("top");
  auto& mid = static_cast<Watch&>(top.addComponent(std::make_unique<Watch>("mid")));
  const int before = top.changes;
  Component& leaf = mid.addComponent(std::make_unique<Leaf>("leaf"));
  EXPECT_EQ(mid.changes, 1);
  EXPECT_EQ(top.changes, before + 1);
  mid.removeComponent(leaf);
  EXPECT_EQ(mid.changes, 2);
  EXPECT_EQ(top.changes, before + 2);
}

// ---------------------------------------------------------------------------
// §1.1.2 RootModel lists

TEST(ModelComponent, RootModelHasTheFiveGuideLists) {
  RootModel root("root");
  const std::vector<std::string> names = {"models", "inputProbes", "controllers", "monitors",
                                          "outputProbes"};
  ASSERT_EQ(root.numComponents(), 5);
  for (int i = 0; i < 5; ++i) {
    Component* c = root.getComponent(i);
    EXPECT_EQ(c->getName(), names[i]);
    EXPECT_EQ(c->getNumber(), i);
    EXPECT_EQ(root.get(names[i]), c);
    EXPECT_EQ(c->getPathName(), "/" + names[i]);
  }
  EXPECT_EQ(root.get("models"), &root.models());
  EXPECT_EQ(root.get("inputProbes"), &root.inputProbes());
  EXPECT_EQ(root.get("controllers"), &root.controllers());
  EXPECT_EQ(root.get("monitors"), &root.monitors());
  EXPECT_EQ(root.get("outputProbes"), &root.outputProbes());
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(static_cast<CompositeComponent*>(root.getComponent(i))->numComponents(), 0);
}
