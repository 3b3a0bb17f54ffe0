// The computed data of contact rendering (guide §8.5; ContactRendering.h):
// which collidable of a pair a viewer draws on, the values of a pair's
// colour map there, and the colour-map ranges that follow those values.
#include <algorithm>
#include <map>

#include "sinew/contact/CollisionManager.h"
#include "sinew/contact/CollisionResponse.h"

namespace sinew {

const Component* CollisionManager::firstCollidable(const Component& a, const Component& b,
                                                   std::vector<Collider>& list) const {
  for (const auto& p : myPairs)
    if (p.b && ((p.a == &a && p.b == &b) || (p.a == &b && p.b == &a))) return p.a;
  if (list.empty()) list = collidables();
  for (const Collider& c : list)
    if (c.comp == &a || c.comp == &b) return c.comp;
  return &a;
}

std::vector<std::pair<int, double>> CollisionManager::colorMapValues(Component& a, Component& b) const {
  const CollisionBehavior* behav = getActingBehavior(a, b);
  std::vector<Collider> list;
  return behav ? colorMapValues(a, b, *behav, list) : std::vector<std::pair<int, double>>{};
}

std::vector<std::pair<int, double>> CollisionManager::colorMapValues(const Component& a, const Component& b,
                                                                     const CollisionBehavior& behav,
                                                                     std::vector<Collider>& list) const {
  std::vector<std::pair<int, double>> values;
  const CollisionBehavior::ColorMapType map = colorMapOf(behav);
  if (map == CollisionBehavior::ColorMapType::None) return values;
  const Component* first = firstCollidable(a, b, list);
  const Component* on = renderSettings(behav).renderingCollidable == 0 ? first : (first == &a ? &b : &a);
  const Component* other = on == &a ? &b : &a;
  if (map == CollisionBehavior::ColorMapType::ContactPressure) {
    // The pressures of the contacts whose penetrating vertex is on it.
    for (const ContactPoint& c : myReported)
      if (c.collidableA == on && c.collidableB == other && c.vertex >= 0) values.emplace_back(c.vertex, c.pressure);
  } else {
    for (const PenetrationRegion& r : myRegions)
      if (r.collidable == on && r.other == other)
        for (size_t k = 0; k < r.vertices.size(); ++k) values.emplace_back(r.vertices[k], r.depths[k]);
  }
  return values;
}

void CollisionManager::updateColorMapRanges() {
  // Every pair with contacts or penetration regions, once.
  std::vector<std::pair<Component*, Component*>> pairs;
  auto note = [&](Component* x, Component* y) {
    if (!x || !y) return;
    for (const auto& [p, q] : pairs)
      if ((p == x && q == y) || (p == y && q == x)) return;
    pairs.emplace_back(x, y);
  };
  for (const ContactPoint& c : myReported) note(c.collidableA, c.collidableB);
  for (const PenetrationRegion& r : myRegions) note(r.collidable, r.other);
  // The values' extent per range: the pair's own, or the shared one. The
  // collidables are listed once, for all pairs under default behaviours.
  std::map<ScalarRange*, std::pair<double, double>> extent;
  std::vector<Collider> list;
  for (const auto& [x, y] : pairs) {
    const CollisionBehavior* behav = getActingBehavior(*x, *y);
    if (!behav) continue;
    const std::vector<std::pair<int, double>> values = colorMapValues(*x, *y, *behav, list);
    if (values.empty()) continue;
    ScalarRange* range = behav->renderOverrides().colorMapRange ? &*behav->renderOverrides().colorMapRange
                                                                 : &myColorMapRange;
    auto [it, fresh] = extent.try_emplace(range, INFINITY, -INFINITY);
    for (const auto& [vertex, v] : values) {
      it->second.first = std::min(it->second.first, v);
      it->second.second = std::max(it->second.second, v);
    }
  }
  for (auto& [range, lohi] : extent) range->update(lohi.first, lohi.second);
}

}  // namespace sinew
