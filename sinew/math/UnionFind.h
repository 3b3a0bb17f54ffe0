// Disjoint sets with path compression: the grouping of contact contours
// and crossings into regions (guide §8.4.1.1, §8.4.2), and of contact rows
// into islands of bodies (SchurKKTSolver::delassus, guide §8.9.4).
#pragma once

#include <numeric>
#include <vector>

namespace sinew {

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(int n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int i) { return parent[i] == i ? i : parent[i] = find(parent[i]); }
  void join(int i, int j) { parent[find(i)] = find(j); }
};

}  // namespace sinew
