// The warm start of the velocity solve's contact rows (guide §8.9; used by
// the Gauss–Seidel path of a pile, KKTSolver/ContactLCP): a contact found
// again starts from the impulses it carried in the last solve. Those
// forces are state — the next step depends on them — so they travel with
// the saved state (AuxStateComponent), keyed by the collidables' places in
// detection's list of collidables and the penetrating vertex.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

#include "sinew/contact/CollisionManager.h"

namespace sinew {

void CollisionManager::keepWarm() {
  myWarm.clear();
  for (const ContactPoint& c : myReported)
    if (c.vertex >= 0 && (c.normalForce != 0 || !c.frictionForce.isZero()))
      myWarm.push_back({c.collidableA, c.collidableB, c.vertex, c.normalForce, c.frictionForce});
}

void CollisionManager::getWarmStart(double h, double* unilateral, double* friction) const {
  if (myWarm.empty()) return;
  using Key = std::tuple<const Component*, const Component*, int>;
  std::map<Key, const WarmContact*> last;
  for (const WarmContact& w : myWarm) last.emplace(Key(w.a, w.b, w.vertex), &w);
  auto find = [&](const ContactPoint& c) -> const WarmContact* {
    if (c.vertex < 0) return nullptr;  // contour-region points have no identity across steps
    const auto it = last.find(Key(c.collidableA, c.collidableB, c.vertex));
    return it == last.end() ? nullptr : it->second;
  };
  for (size_t r = 0; r < myRowContact.size(); ++r)
    if (const WarmContact* w = find(myContacts[myRowContact[r]])) unilateral[r] = std::max(w->normalForce, 0.0) * h;
  for (size_t r = 0; r < myFrictionContact.size(); ++r) {
    const ContactPoint& c = myContacts[myFrictionContact[r]];
    if (const WarmContact* w = find(c)) friction[r] = w->frictionForce.dot(c.frictionDirs[r % 2]) * h;
  }
}

void CollisionManager::getAuxState(double* x) const {
  x[0] = static_cast<double>(myWarm.size());
  if (myWarm.empty()) return;
  const std::vector<Collider> list = collidables();
  std::unordered_map<const Component*, double> numbers;
  for (size_t i = 0; i < list.size(); ++i) numbers.emplace(list[i].comp, static_cast<double>(i));
  auto number = [&](const Component* c) {
    const auto it = numbers.find(c);
    return it == numbers.end() ? -1.0 : it->second;
  };
  for (size_t k = 0; k < myWarm.size(); ++k) {
    const WarmContact& w = myWarm[k];
    double* v = x + 1 + kWarmValues * k;
    v[0] = number(w.a), v[1] = number(w.b), v[2] = w.vertex, v[3] = w.normalForce;
    v[4] = w.frictionForce.x(), v[5] = w.frictionForce.y(), v[6] = w.frictionForce.z();
  }
}

int CollisionManager::storedAuxStateSize(const double* x, int available) const {
  if (available < 1 || !(x[0] >= 0) || x[0] != std::floor(x[0])) return -1;
  const double size = 1 + kWarmValues * x[0];
  return size <= available ? static_cast<int>(size) : -1;
}

void CollisionManager::setAuxState(const double* x) {
  myWarm.clear();
  const int n = static_cast<int>(x[0]);
  if (n == 0) return;
  const std::vector<Collider> list = collidables();
  auto component = [&](double i) -> const Component* {
    return i >= 0 && i < static_cast<double>(list.size()) ? list[static_cast<size_t>(i)].comp : nullptr;
  };
  for (int k = 0; k < n; ++k) {
    const double* v = x + 1 + kWarmValues * k;
    const Component *a = component(v[0]), *b = component(v[1]);
    if (a && b) myWarm.push_back({a, b, static_cast<int>(v[2]), v[3], Vector3d(v[4], v[5], v[6])});
  }
}

}  // namespace sinew
