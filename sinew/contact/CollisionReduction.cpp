// Constraint reduction (guide §8.6.1): of one pair's contacts, keep only
// those whose constraint rows are linearly independent of the rows kept,
// taking the deepest first. Redundant contact — more rows than the
// directions they block, as a box face resting on a face gives four rows
// for three — overconstrains bilateral rows and makes the unilateral
// problem degenerate; reduced, each blocked direction has one row.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "sinew/contact/CollisionManager.h"
#include "sinew/contact/ContactRow.h"

namespace sinew {

namespace {
/// A contact's row over the dofs it touches: (component, dof) → value.
using SparseRow = std::map<std::pair<const DynamicComponent*, int>, double>;

/// The row along the contact's normal, as the solver's row has it.
SparseRow normalRow(const ContactPoint& c) {
  SparseRow row;
  contact_detail::forEachRowEntry(c, c.normal, [&](const DynamicComponent& comp, const auto& g) {
    for (int k = 0; k < g.size(); ++k) row[{&comp, k}] += g[k];
  });
  return row;
}

double dot(const SparseRow& a, const SparseRow& b) {
  double s = 0;
  for (const auto& [key, v] : a) {
    const auto it = b.find(key);
    if (it != b.end()) s += v * it->second;
  }
  return s;
}
}  // namespace

void CollisionManager::reduceContacts(size_t first) {
  const size_t n = myContacts.size() - first;
  if (n < 2) return;
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), first);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return myContacts[a].depth > myContacts[b].depth; });
  // Gram–Schmidt (twice, for round-off) against the rows kept: a row keeps
  // its contact if more than 1e-6 of it lies outside their span.
  std::vector<SparseRow> basis;
  std::vector<char> keep(myContacts.size(), 0);
  for (size_t k : order) {
    SparseRow r = normalRow(myContacts[k]);
    const double norm0 = std::sqrt(dot(r, r));
    for (int pass = 0; pass < 2; ++pass)
      for (const SparseRow& q : basis) {
        const double a = dot(r, q);
        for (const auto& [key, v] : q) r[key] -= a * v;
      }
    const double norm = std::sqrt(dot(r, r));
    if (!(norm > 1e-6 * norm0)) continue;
    for (auto& [key, v] : r) v /= norm;
    basis.push_back(std::move(r));
    keep[k] = 1;
  }
  size_t kept = first;
  for (size_t k = first; k < myContacts.size(); ++k) {
    if (!keep[k]) continue;
    if (kept != k) myContacts[kept] = std::move(myContacts[k]);
    ++kept;
  }
  myContacts.resize(kept);
}

}  // namespace sinew
