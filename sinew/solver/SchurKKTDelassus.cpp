// SchurKKTSolver::delassus's coupling term: the dense Delassus matrix
// W = J A⁻¹ Jᵀ of contact and friction rows (the exact friction pass and
// the dense fallbacks of guide §8.9.4) loses Pᵀ C⁻¹ P to the held rows,
// formed island by island where the rows fall into independent groups of
// bodies.
#include "sinew/math/UnionFind.h"
#include "sinew/solver/SchurKKTSolver.h"

namespace sinew {

void SchurKKTSolver::subtractCoupling(int nb, Eigen::MatrixXd& W) {
  // Q = L_C⁻¹ P has its column j nonzero only on the held rows of j's
  // island: the bodies that the rows of A and the rows asked for join
  // (C's factor fills in only within such a group, and P's column j lies
  // on the rows of j's bodies). A's inactive unilateral rows, unit rows
  // that couple nothing, join their bodies too: the islands may be
  // coarser than they need be, never wrong. QᵀQ is then one block per
  // island: a pile whose boxes rest apart costs the sum of its islands'
  // small products, where the whole product cost nb²m/2 (the 10-box pile
  // at rest, nine islands: 75.5 → 58.7 µs a step).
  const int m = myMg + myMn, numBlocks = static_cast<int>(myBlocks.size());
  auto whole = [&] { W.selfadjointView<Eigen::Lower>().rankUpdate(myPJ.transpose(), -1.0); };
  // A small product (a box on a plate: a dozen rows on four) costs less
  // than finding the islands.
  if (0.5 * nb * nb * m <= kWholeCouplingProduct) return whole();
  UnionFind islands(numBlocks);
  std::vector<int>& blockOfRow = myIslandScratch;  // a block each row of A touches (−1: none)
  blockOfRow.assign(m, -1);
  for (int b = 0; b < numBlocks; ++b)
    for (int r : myBlocks[b].rows) {
      if (blockOfRow[r] < 0) blockOfRow[r] = b;
      else islands.join(b, blockOfRow[r]);
    }
  for (int j = 0; j < nb; ++j)
    for (size_t k = 1; k < myRowBlocks[j].size(); ++k) islands.join(myRowBlocks[j][k], myRowBlocks[j][0]);
  // Compact island numbers; the held rows (in myChol's order) and the
  // rows asked for of each.
  std::vector<int> number(numBlocks, -1);
  int count = 0;
  auto islandOf = [&](int block) {
    int& n = number[islands.find(block)];
    if (n < 0) n = count++;
    return n;
  };
  std::vector<std::vector<int>>& heldOf = myIslandHeld;
  std::vector<std::vector<int>>& askedOf = myIslandAsked;
  for (int j = 0; j < nb; ++j)
    if (!myRowBlocks[j].empty()) islandOf(myRowBlocks[j][0]);
  heldOf.resize(count);
  askedOf.resize(count);
  for (int c = 0; c < count; ++c) heldOf[c].clear(), askedOf[c].clear();
  for (int j = 0; j < nb; ++j)
    if (!myRowBlocks[j].empty()) askedOf[islandOf(myRowBlocks[j][0])].push_back(j);
  int heldInIslands = 0;
  for (int r = 0; r < m; ++r) {
    if (blockOfRow[r] < 0) continue;
    const int c = number[islands.find(blockOfRow[r])];
    if (c >= 0) heldOf[c].push_back(myPerm[r]), ++heldInIslands;  // an island with rows asked for
  }
  if (count == 1 && heldInIslands == m) return whole();  // one island holds everything (a stack, a chain)
  Eigen::MatrixXd& Q = myIslandQ;
  for (int c = 0; c < count; ++c) {
    const std::vector<int>&held = heldOf[c], &asked = askedOf[c];
    const int mc = static_cast<int>(held.size()), nc = static_cast<int>(asked.size());
    if (mc == 0) continue;
    Q.resize(mc, nc);
    for (int k = 0; k < mc; ++k)  // along myPJ's rows (row-major)
      for (int x = 0; x < nc; ++x) Q(k, x) = myPJ(held[k], asked[x]);
    // asked is ascending (filled in row order): (asked[x], asked[z]) for
    // z ≤ x is in W's lower triangle.
    for (int x = 0; x < nc; ++x)
      for (int z = 0; z <= x; ++z) W(asked[x], asked[z]) -= Q.col(x).dot(Q.col(z));
  }
}

}  // namespace sinew
