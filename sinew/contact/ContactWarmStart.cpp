// The warm start of the velocity solve's contact rows (guide §8.9; used by
// the Gauss–Seidel path of a pile, KKTSolver/ContactLCP): a contact found
// again starts from the impulses it carried in the last solve: a vertex
// contact by its vertex, a contour region's point (no mesh vertex, and
// numbered afresh by each detection) by where it is. Those
// forces are state — the next step depends on them — and so are the
// bilateral contacts that pulled, which the next detection leaves out
// (§8.4.1.2). Both travel with the saved state (AuxStateComponent), keyed
// by the collidables' places in detection's list of collidables and the
// penetrating vertex or the point.
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
    if (c.normalForce != 0 || !c.frictionForce.isZero())
      myWarm.push_back({c.collidableA, c.collidableB, c.vertex, c.normalForce, c.frictionForce, c.position, c.normal});
}

std::vector<const CollisionManager::WarmContact*> CollisionManager::matchRegionPoints() const {
  // Region points are no vertex (vertex < 0). Each new one of a pair may
  // continue one of the pair's last region points that it is nearer than
  // half the distance from that point to the pair's next one (its own
  // neighbourhood, where no other old point is nearer), or than
  // rigidPointTol (closer than that, hull points count as one); closest
  // pairs first, each old point once. A hull corner where the contour
  // crosses an edge slides along it as the body tilts, by more than
  // rigidPointTol in a step: within that alone, 4 in 10 of a swaying
  // 30-cube stack's region points started from zero each step, and it
  // swayed at 9 mm/s after 1 s instead of 3. A lone old point of a pair
  // has no neighbourhood beyond rigidPointTol, and an old point facing
  // more than about 25° away (another region of the pair) is none's: a
  // point with no old one near starts from zero.
  using Pair = std::pair<const Component*, const Component*>;
  struct Old {
    const WarmContact* warm;
    double reach = 0;  ///< half the distance to the pair's nearest other old point
  };
  std::map<Pair, std::vector<Old>> last;
  for (const WarmContact& w : myWarm)
    if (w.vertex < 0) last[Pair(w.a, w.b)].push_back({&w});
  std::vector<const WarmContact*> match(myContacts.size(), nullptr);
  if (last.empty()) return match;
  for (auto& [pair, olds] : last)
    for (Old& o : olds) {
      double nearest = INFINITY;
      for (const Old& p : olds)
        if (p.warm != o.warm) nearest = std::min(nearest, (p.warm->position - o.warm->position).norm());
      o.reach = std::isfinite(nearest) ? 0.5 * nearest : 0.0;
    }
  struct Candidate {
    double distance;
    size_t contact;
    const WarmContact* warm;
  };
  std::vector<Candidate> candidates;
  for (size_t k = 0; k < myContacts.size(); ++k) {
    const ContactPoint& c = myContacts[k];
    if (c.vertex >= 0 || !c.behavior) continue;
    const auto it = last.find(Pair(c.collidableA, c.collidableB));
    if (it == last.end()) continue;
    const double tol = rigidPointTol(*c.behavior);
    for (const Old& o : it->second) {
      const double d = (o.warm->position - c.position).norm();
      if (d <= std::max(tol, o.reach) && o.warm->normal.dot(c.normal) > 0.9) candidates.push_back({d, k, o.warm});
    }
  }
  // Ties in distance go by the contact's and the old point's order, so
  // that a restored state matches as the run did.
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
    return std::tie(x.distance, x.contact, x.warm) < std::tie(y.distance, y.contact, y.warm);
  });
  std::vector<char> used(myWarm.size(), 0);
  for (const Candidate& k : candidates) {
    char& taken = used[k.warm - myWarm.data()];
    if (!match[k.contact] && !taken) match[k.contact] = k.warm, taken = 1;
  }
  return match;
}

void CollisionManager::getWarmStart(double h, double* unilateral, double* friction) const {
  if (myWarm.empty()) return;
  using Key = std::tuple<const Component*, const Component*, int>;
  std::map<Key, const WarmContact*> last;
  for (const WarmContact& w : myWarm)
    if (w.vertex >= 0) last.emplace(Key(w.a, w.b, w.vertex), &w);
  const std::vector<const WarmContact*> regionMatch = matchRegionPoints();
  auto find = [&](int k) -> const WarmContact* {  // contact k of myContacts
    const ContactPoint& c = myContacts[k];
    if (c.vertex < 0) return regionMatch[k];
    const auto it = last.find(Key(c.collidableA, c.collidableB, c.vertex));
    return it == last.end() ? nullptr : it->second;
  };
  for (size_t r = 0; r < myRowContact.size(); ++r)
    if (const WarmContact* w = find(myRowContact[r])) unilateral[r] = std::max(w->normalForce, 0.0) * h;
  for (size_t r = 0; r < myFrictionContact.size(); ++r)
    if (const WarmContact* w = find(myFrictionContact[r]))
      friction[r] = w->frictionForce.dot(myContacts[myFrictionContact[r]].frictionDirs[r % 2]) * h;
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
    x[7] = w.position.x(), x[8] = w.position.y(), x[9] = w.position.z();
    x[10] = w.normal.x(), x[11] = w.normal.y(), x[12] = w.normal.z();
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
    if (a && b)
      myWarm.push_back({a, b, static_cast<int>(v[2]), v[3], Vector3d(v[4], v[5], v[6]), Vector3d(v[7], v[8], v[9]),
                        Vector3d(v[10], v[11], v[12])});
  }
  ++v;  // the second count
  for (int k = 0; k < nSeparating; ++k, v += 3) {
    const Component *a = component(v[0]), *b = component(v[1]);
    if (a && b) mySeparating.emplace_back(a, b, static_cast<int>(v[2]));
  }
}

}  // namespace sinew
