// The warm start of the velocity solve's contact rows (guide §8.9; used by
// the Gauss–Seidel path of a pile, KKTSolver/ContactLCP): a contact found
// again starts from the impulses it carried in the last solve. Those
// forces are state — the next step depends on them — and so are the
// bilateral contacts that pulled, which the next detection leaves out
// (§8.4.1.2). Both travel with the saved state (AuxStateComponent), keyed
// by the collidables' places in detection's list of collidables and the
// penetrating vertex.
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
  std::unordered_map<const Component*, double> numbers;
  if (!myWarm.empty() || !mySeparating.empty()) {
    const std::vector<Collider> list = collidables();
    for (size_t i = 0; i < list.size(); ++i) numbers.emplace(list[i].comp, static_cast<double>(i));
  }
  auto number = [&](const Component* c) {
    const auto it = numbers.find(c);
    return it == numbers.end() ? -1.0 : it->second;
  };
  *x++ = static_cast<double>(myWarm.size());
  for (const WarmContact& w : myWarm) {
    x[0] = number(w.a), x[1] = number(w.b), x[2] = w.vertex, x[3] = w.normalForce;
    x[4] = w.frictionForce.x(), x[5] = w.frictionForce.y(), x[6] = w.frictionForce.z();
    x += kWarmValues;
  }
  *x++ = static_cast<double>(mySeparating.size());
  for (const auto& [a, b, vertex] : mySeparating) {
    x[0] = number(a), x[1] = number(b), x[2] = vertex;
    x += 3;
  }
}

namespace {
/// Whether x[0] is a count of entries that are not negative and whole.
bool isCount(const double* x) { return x[0] >= 0 && x[0] == std::floor(x[0]); }
}  // namespace

int CollisionManager::storedAuxStateSize(const double* x, int available) const {
  if (available < 1 || !isCount(x)) return -1;
  const double warmEnd = 1 + kWarmValues * x[0];
  if (!(warmEnd + 1 <= available) || !isCount(x + static_cast<int>(warmEnd))) return -1;
  const double size = warmEnd + 1 + 3 * x[static_cast<int>(warmEnd)];
  return size <= available ? static_cast<int>(size) : -1;
}

void CollisionManager::setAuxState(const double* x) {
  myWarm.clear();
  mySeparating.clear();
  const int nWarm = static_cast<int>(x[0]), nSeparating = static_cast<int>(x[1 + kWarmValues * nWarm]);
  if (nWarm == 0 && nSeparating == 0) return;
  // Entries whose collidables are not in this model's list are dropped.
  const std::vector<Collider> list = collidables();
  auto component = [&](double i) -> const Component* {
    return i >= 0 && i < static_cast<double>(list.size()) ? list[static_cast<size_t>(i)].comp : nullptr;
  };
  const double* v = x + 1;
  for (int k = 0; k < nWarm; ++k, v += kWarmValues) {
    const Component *a = component(v[0]), *b = component(v[1]);
    if (a && b) myWarm.push_back({a, b, static_cast<int>(v[2]), v[3], Vector3d(v[4], v[5], v[6])});
  }
  ++v;  // the second count
  for (int k = 0; k < nSeparating; ++k, v += 3) {
    const Component *a = component(v[0]), *b = component(v[1]);
    if (a && b) mySeparating.emplace_back(a, b, static_cast<int>(v[2]));
  }
}

}  // namespace sinew
