// The model tree: components, composites and typed component lists, with
// names, numbers, path names and lookup (guide §1.1.1–1.1.3, §4.8).
//
// A component's number is fixed while it stays attached to its parent; its
// index is its position in the parent and shifts when earlier siblings are
// removed. Paths are Unix-like: "/models/mech/particles/p1", any segment a
// name or a number; "comp/path:prop.sub" names a property.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "sinew/model/Property.h"

namespace sinew {

class CompositeComponent;

/// Base of every model component.
class Component : public HasProperties {
  SINEW_DECLARE_PROPERTIES
 public:
  Component() = default;
  explicit Component(std::string name) { setName(std::move(name)); }
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;
  ~Component() override = default;

  const std::string& getName() const { return myName; }
  /// Sets the name; names may not contain '/', ':' or '.', nor be all digits.
  void setName(std::string name);
  int getNumber() const { return myNumber; }
  CompositeComponent* getParent() const { return myParent; }
  /// Position in the parent (0..n-1), or -1 when unattached.
  int getIndex() const;

  /// Absolute path from the root ("/models/mech/particles/p1"); unnamed
  /// components appear by number.
  std::string getPathName() const;
  /// Path relative to an ancestor `ref` (no leading '/').
  std::string getPathName(const Component* ref) const;
  /// The top of the tree this component belongs to.
  Component* getTopComponent();

  virtual int numComponents() const { return 0; }
  virtual Component* getComponent(int idx) const { (void)idx; return nullptr; }
  /// Child by name or number string; nullptr if none.
  virtual Component* getChild(const std::string& nameOrNumber) const { (void)nameOrNumber; return nullptr; }

  /// Finds a descendant by relative path, or by absolute path from the top.
  Component* findComponent(const std::string& path);
  template <class T>
  T* findComponent(const std::string& path) { return dynamic_cast<T*>(findComponent(path)); }
  /// Property by path "sub/path:prop.sub" relative to this component; throws
  /// ModelError naming the path if the component or property is unknown.
  Property getPropertyByPath(const std::string& propPath);

  HasProperties* getPropertyParent() const override;
  /// The path when attached to a tree, else the name (for messages).
  std::string describe() const override;

  /// Called on this component and every ancestor when the structure below
  /// changes (a child added or removed); models use it to recompile.
  virtual void componentStructureChanged() {}

 private:
  friend class CompositeComponent;
  std::string myName;
  int myNumber = -1;
  CompositeComponent* myParent = nullptr;
};

/// A component with children, which it owns.
class CompositeComponent : public Component {
 public:
  using Component::Component;
  int numComponents() const override { return static_cast<int>(myChildren.size()); }
  Component* getComponent(int idx) const override { return myChildren.at(idx).get(); }
  Component* getChild(const std::string& nameOrNumber) const override;
  Component* getByNumber(int num) const;
  Component* get(const std::string& name) const;

  /// Adds a child and gives it the next free number; returns it.
  Component& addComponent(std::unique_ptr<Component> c);
  /// Adds a child under a given number (file readers keep a file's
  /// numbering, guide §6.2.2); throws ModelError if the number is negative
  /// or taken. Later plain adds continue after the largest number.
  Component& addComponent(std::unique_ptr<Component> c, int number);
  /// Removes (and destroys) a child; returns false if it is not a child.
  bool removeComponent(Component& c);
  /// Detaches a child without destroying it.
  std::unique_ptr<Component> detachComponent(Component& c);
  void clearComponents();
  int indexOf(const Component& c) const;

 protected:
  void notifyStructureChanged();

 private:
  friend class Component;
  std::vector<std::unique_ptr<Component>> myChildren;
  std::unordered_map<std::string, Component*> myByName;
  Component& attach(std::unique_ptr<Component> c, int number);
  int myNextNumber = 0;
};

/// A composite holding children of one type T (guide §1.1.1 ComponentList).
template <class T>
class ComponentList : public CompositeComponent {
 public:
  explicit ComponentList(std::string name = {}) : CompositeComponent(std::move(name)) {}
  int size() const { return numComponents(); }
  T& get(int idx) const { return static_cast<T&>(*getComponent(idx)); }
  T* get(const std::string& name) const { return dynamic_cast<T*>(CompositeComponent::get(name)); }
  T& add(std::unique_ptr<T> c) { return static_cast<T&>(addComponent(std::move(c))); }
  T& add(std::unique_ptr<T> c, int number) { return static_cast<T&>(addComponent(std::move(c), number)); }
  template <class U, class... Args>
  U& addNew(Args&&... args) {
    return static_cast<U&>(addComponent(std::make_unique<U>(std::forward<Args>(args)...)));
  }
  bool remove(T& c) { return removeComponent(c); }
  void clear() { clearComponents(); }

  struct iterator {
    const ComponentList* list;
    int i;
    T& operator*() const { return list->get(i); }
    iterator& operator++() { ++i; return *this; }
    bool operator!=(const iterator& o) const { return i != o.i; }
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size()}; }
};

}  // namespace sinew
