#include "sinew/model/Component.h"

#include <algorithm>
#include <cctype>

namespace sinew {

SINEW_PROPERTIES(Component, HasProperties) {
  list.add<Component>("name", "name of the component", &Component::getName);
}

namespace {
bool allDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}
}  // namespace

void Component::setName(std::string name) {
  if (name.find_first_of("/:.") != std::string::npos || allDigits(name))
    throw ModelError("invalid component name '" + name + "' (no '/', ':' or '.', not all digits)");
  if (myParent && name != myName) {
    // Keep the parent's name index in step; number and index are unchanged.
    auto& byName = myParent->myByName;
    if (!name.empty() && byName.count(name))
      throw ModelError("a child named '" + name + "' already exists", myParent->getPathName());
    if (!myName.empty()) byName.erase(myName);
    if (!name.empty()) byName[name] = this;
  }
  myName = std::move(name);
}

int Component::getIndex() const { return myParent ? myParent->indexOf(*this) : -1; }

std::string Component::getPathName() const {
  if (!myParent) return "/";
  std::string seg = myName.empty() ? std::to_string(myNumber) : myName;
  std::string up = myParent->getPathName();
  return up == "/" ? "/" + seg : up + "/" + seg;
}

std::string Component::getPathName(const Component* ref) const {
  std::string path;
  for (const Component* c = this; c && c != ref; c = c->myParent) {
    if (!c->myParent) return getPathName();  // ref is not an ancestor
    std::string seg = c->myName.empty() ? std::to_string(c->myNumber) : c->myName;
    path = path.empty() ? seg : seg + "/" + path;
  }
  return path;
}

Component* Component::getTopComponent() {
  Component* c = this;
  while (c->myParent) c = c->myParent;
  return c;
}

Component* Component::findComponent(const std::string& path) {
  Component* c = this;
  size_t pos = 0;
  if (!path.empty() && path[0] == '/') {
    c = getTopComponent();
    pos = 1;
  }
  while (c && pos < path.size()) {
    size_t end = path.find('/', pos);
    std::string seg = path.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (!seg.empty()) c = c->getChild(seg);
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return c;
}

Property Component::getPropertyByPath(const std::string& propPath) {
  auto colon = propPath.rfind(':');
  Component* c = this;
  std::string name = propPath;
  if (colon != std::string::npos) {
    c = findComponent(propPath.substr(0, colon));
    if (!c) throw ModelError("no component '" + propPath.substr(0, colon) + "'", getPathName());
    name = propPath.substr(colon + 1);
  }
  return c->getProperty(name);
}

HasProperties* Component::getPropertyParent() const { return myParent; }

std::string Component::describe() const {
  if (myParent || myName.empty()) return getPathName();
  return myName;
}

Component* CompositeComponent::getChild(const std::string& s) const {
  if (allDigits(s)) return getByNumber(std::stoi(s));
  return get(s);
}

Component* CompositeComponent::getByNumber(int num) const {
  // Numbers equal indices until something is removed; try that first.
  if (num >= 0 && num < numComponents() && myChildren[num]->myNumber == num) return myChildren[num].get();
  for (auto& c : myChildren)
    if (c->myNumber == num) return c.get();
  return nullptr;
}

Component* CompositeComponent::get(const std::string& name) const {
  auto it = myByName.find(name);
  return it == myByName.end() ? nullptr : it->second;
}

Component& CompositeComponent::addComponent(std::unique_ptr<Component> c) { return attach(std::move(c), myNextNumber); }

Component& CompositeComponent::addComponent(std::unique_ptr<Component> c, int number) {
  if (number < 0) throw ModelError("component number " + std::to_string(number) + " is negative", getPathName());
  // Every number at or above myNextNumber is free; below it, look.
  if (number < myNextNumber && getByNumber(number))
    throw ModelError("component number " + std::to_string(number) + " is already taken", getPathName());
  return attach(std::move(c), number);
}

Component& CompositeComponent::attach(std::unique_ptr<Component> c, int number) {
  if (!c) throw ModelError("cannot add a null component", getPathName());
  if (c->myParent) throw ModelError("component already has a parent", c->getPathName());
  if (!c->myName.empty()) {
    if (myByName.count(c->myName))
      throw ModelError("a child named '" + c->myName + "' already exists", getPathName());
    myByName[c->myName] = c.get();
  }
  c->myParent = this;
  c->myNumber = number;
  myNextNumber = std::max(myNextNumber, number + 1);
  myChildren.push_back(std::move(c));
  notifyStructureChanged();
  return *myChildren.back();
}

int CompositeComponent::indexOf(const Component& c) const {
  for (size_t i = 0; i < myChildren.size(); ++i)
    if (myChildren[i].get() == &c) return static_cast<int>(i);
  return -1;
}

std::unique_ptr<Component> CompositeComponent::detachComponent(Component& c) {
  int idx = indexOf(c);
  if (idx < 0) return nullptr;
  std::unique_ptr<Component> up = std::move(myChildren[idx]);
  myChildren.erase(myChildren.begin() + idx);
  if (!up->myName.empty()) myByName.erase(up->myName);
  up->myParent = nullptr;
  up->myNumber = -1;
  // Reuse numbers only when the list is emptied, so numbers stay stable.
  if (myChildren.empty()) myNextNumber = 0;
  notifyStructureChanged();
  return up;
}

bool CompositeComponent::removeComponent(Component& c) { return detachComponent(c) != nullptr; }

void CompositeComponent::clearComponents() {
  myChildren.clear();
  myByName.clear();
  myNextNumber = 0;
  notifyStructureChanged();
}

void CompositeComponent::notifyStructureChanged() {
  bumpPropertyEpoch();
  for (Component* c = this; c; c = c->getParent()) c->componentStructureChanged();
}

}  // namespace sinew
