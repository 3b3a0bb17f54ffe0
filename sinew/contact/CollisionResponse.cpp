#include "sinew/contact/CollisionResponse.h"

#include <algorithm>

#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"

namespace sinew {

namespace {
/// c, or a part of it (an FEM model's surface or embedded mesh).
bool isOrWithin(const Component* part, const Component* c) {
  for (const Component* p = part; p; p = p->getParent())
    if (p == c) return true;
  return false;
}
}  // namespace

bool CollisionResponse::matches(const Component* x, const Component* y, bool& flipped) const {
  auto other = [&](const Component* c) { return myB ? isOrWithin(c, myB) : myManager->inGroup(*c, myGroup); };
  if (isOrWithin(x, myA) && other(y)) {
    flipped = false;
    return true;
  }
  if (isOrWithin(y, myA) && other(x)) {
    flipped = true;
    return true;
  }
  return false;
}

bool CollisionResponse::matches(const ContactPoint& c, bool& flipped) const {
  return matches(c.collidableA, c.collidableB, flipped);
}

ContactData CollisionResponse::toData(const ContactPoint& c, bool flipped) const {
  // c.position is A's vertex, inside B by c.depth along the normal (B → A):
  // B's surface point is depth further along it.
  ContactData d;
  const Vector3d onB = c.position + c.depth * c.normal;
  const double s = flipped ? -1 : 1;
  d.collidable0 = flipped ? c.collidableB : c.collidableA;
  d.collidable1 = flipped ? c.collidableA : c.collidableB;
  d.position0 = flipped ? onB : c.position;
  d.position1 = flipped ? c.position : onB;
  d.normal = s * c.normal;
  d.depth = c.depth;
  d.contactForce = s * c.normalForce * c.normal;
  d.frictionForce = s * c.frictionForce;
  d.pressure = c.pressure;
  (flipped ? d.vertex1 : d.vertex0) = std::max(c.vertex, -1);  // contour contacts have no vertex
  return d;
}

bool CollisionResponse::reports(const ContactPoint& c, bool& flipped) const {
  // Watched points just outside, carrying no force, are not contacts yet.
  return (c.depth > 0 || c.normalForce != 0) && matches(c, flipped);
}

bool CollisionResponse::inContact() const {
  if (!myManager) return false;
  bool flipped;
  const auto& all = myManager->getContacts();
  return std::any_of(all.begin(), all.end(), [&](const ContactPoint& c) { return reports(c, flipped); });
}

std::vector<ContactData> CollisionResponse::getContactData() const {
  std::vector<ContactData> out;
  if (!myManager) return out;
  bool flipped;
  for (const ContactPoint& c : myManager->getContacts())
    if (reports(c, flipped)) out.push_back(toData(c, flipped));
  return out;
}

void CollisionResponse::requireIndex(int cidx) const {
  if (cidx != 0 && cidx != 1) throw ModelError("collidable index must be 0 or 1", describe());
}

std::map<int, Vector3d> CollisionResponse::getContactForces(int cidx) const {
  requireIndex(cidx);
  std::map<int, Vector3d> forces;
  for (const ContactData& d : getContactData()) {
    const int v = cidx == 0 ? d.vertex0 : d.vertex1;
    if (v < 0) continue;
    // The data is collidable 0's side; collidable 1 takes the opposite.
    const Vector3d f = d.contactForce + d.frictionForce;
    auto [it, fresh] = forces.try_emplace(v, Vector3d::Zero());
    it->second += cidx == 0 ? f : Vector3d(-f);
  }
  return forces;
}

std::map<int, double> CollisionResponse::getContactPressures(int cidx) const {
  requireIndex(cidx);
  std::map<int, double> pressures;
  for (const ContactData& d : getContactData()) {
    const int v = cidx == 0 ? d.vertex0 : d.vertex1;
    if (v >= 0) pressures[v] += d.pressure;
  }
  return pressures;
}

std::vector<PenetrationRegion> CollisionResponse::getPenetrationRegions(int cidx) const {
  requireIndex(cidx);
  std::vector<PenetrationRegion> out;
  if (!myManager) return out;
  bool flipped;
  for (const PenetrationRegion& r : myManager->getPenetrationRegions())
    if (matches(r.collidable, r.other, flipped) && flipped == (cidx == 1)) out.push_back(r);
  return out;
}

std::vector<CollisionHandler> CollisionResponse::getHandlers() const {
  std::vector<CollisionHandler> out;
  if (!myManager) return out;
  bool flipped;
  for (const ContactPoint& c : myManager->getContacts()) {
    if (!reports(c, flipped)) continue;
    ContactData d = toData(c, flipped);
    auto h = std::find_if(out.begin(), out.end(), [&](const CollisionHandler& x) {
      return x.collidable0 == d.collidable0 && x.collidable1 == d.collidable1;
    });
    if (h == out.end()) {
      h = out.insert(out.end(), CollisionHandler{});
      h->collidable0 = d.collidable0;
      h->collidable1 = d.collidable1;
      h->behavior = c.behavior;
    }
    h->contacts.push_back(std::move(d));
  }
  for (const PenetrationRegion& r : myManager->getPenetrationRegions())
    for (CollisionHandler& h : out) {
      if (r.collidable == h.collidable0 && r.other == h.collidable1) h.regions0.push_back(r);
      if (r.collidable == h.collidable1 && r.other == h.collidable0) h.regions1.push_back(r);
    }
  return out;
}

// ------------------------------------------------ the manager's responses

CollisionResponse* CollisionManager::findResponse(const Component& a, const Component* b, Collidable::Group g) const {
  for (int i = 0; i < myResponses->size(); ++i) {
    CollisionResponse& r = myResponses->get(i);
    if (r.myA == &a && r.myB == b && (b || r.myGroup == g)) return &r;
  }
  return nullptr;
}

CollisionResponse& CollisionManager::addResponse(Component& a, Component* b, Collidable::Group g,
                                                 std::unique_ptr<CollisionResponse> resp) {
  // The first collidable must be a body: a response reports from its side.
  requireCollidable(a);
  if (b) requireCollidable(*b);
  if (!resp) throw ModelError("null collision response", describe());
  if (CollisionResponse* old = findResponse(a, b, g)) myResponses->remove(*old);
  resp->myManager = this;
  resp->myA = &a;
  resp->myB = b;
  resp->myGroup = g;
  return myResponses->add(std::move(resp));
}

CollisionResponse& CollisionManager::setResponse(Component& a, Component& b, std::unique_ptr<CollisionResponse> resp) {
  return addResponse(a, &b, Collidable::Group::All, std::move(resp));
}

CollisionResponse& CollisionManager::setResponse(Component& a, Collidable::Group g,
                                                 std::unique_ptr<CollisionResponse> resp) {
  return addResponse(a, nullptr, g, std::move(resp));
}

CollisionResponse* CollisionManager::getResponse(Component& a, Component& b) const { return findResponse(a, &b, {}); }

CollisionResponse* CollisionManager::getResponse(Component& a, Collidable::Group g) const {
  return findResponse(a, nullptr, g);
}

bool CollisionManager::clearResponse(Component& a, Component& b) {
  CollisionResponse* r = findResponse(a, &b, {});
  return r && myResponses->remove(*r);
}

bool CollisionManager::clearResponse(Component& a, Collidable::Group g) {
  CollisionResponse* r = findResponse(a, nullptr, g);
  return r && myResponses->remove(*r);
}

void CollisionManager::clearResponses() { myResponses->clear(); }

}  // namespace sinew
