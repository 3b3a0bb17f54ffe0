// A sparse Cholesky factorization LLᵀ of an SPD matrix whose rows come in
// groups with the same sparsity (supernodes): the rows of one joint, which
// all touch the same two bodies. The pattern is given once per structure as
// the groups' sizes and which groups are coupled; the groups are ordered
// (AMD on the group graph), the fill is found and every dense block of L
// gets a fixed place, together with the list of block updates the
// factorization makes. Each step then only refills values and runs that
// list with small dense kernels, instead of a scalar sparse factorization
// that looks up its pattern entry by entry.
#pragma once

#include <utility>
#include <vector>

namespace sinew {

class BlockCholesky {
 public:
  /// Analyses the pattern: group g has sizes[g] rows; `pairs` lists the
  /// coupled groups (any order, duplicates allowed). Values are zeroed.
  void analyze(const std::vector<int>& sizes, const std::vector<std::pair<int, int>>& pairs);

  /// The matrix: one place per entry of the lower triangle in the factor's
  /// order. position() gives where entry (r, c) of groups (g, h) lives;
  /// (r, c) of (g, h) and (c, r) of (h, g) share it. factor() overwrites
  /// it with L.
  std::vector<double>& values() { return myL; }
  int position(int g, int r, int h, int c) const;
  /// Where group g's rows start in the vectors solve() works on.
  int offset(int g) const { return myStart[myOrderOf[g]]; }
  int size() const { return myN; }

  /// Factors values() in place. False if a pivot is not positive.
  bool factor();
  /// Smallest pivot L_kk² of the last factorization relative to A_kk.
  double minPivotRatio() const { return myMinPivotRatio; }
  /// x ← A⁻¹ x, x laid out by offset().
  void solve(double* x) const;
  /// x ← L⁻¹ x, the first half of solve(): with it, B A⁻¹ Bᵀ = (L⁻¹Bᵀ)ᵀ(L⁻¹Bᵀ).
  void solveLower(double* x) const;
  /// X ← L⁻¹ X for k right-hand sides at once: X row-major, row r (in
  /// offset()'s layout) at X + r k. Each row operation then runs along k
  /// contiguous values, and L is read once instead of k times.
  void solveLowerRows(double* X, int k) const;

 private:
  /// One dense update T −= P Qᵀ of the factorization (diagonal T: lower
  /// triangle only). P is rows × inner, Q cols × inner, T rows × cols.
  struct Update {
    int t, p, q;
    int rows, cols, inner;
    bool diagonal;
  };
  /// Off-diagonal block L_IJ of column J: its group I and place.
  struct OffBlock {
    int group, pos;
  };
  int blockPosition(int I, int J) const;
  /// N > 0: every group has N rows (loops unroll); 0: sizes read at run time.
  template <int N>
  bool factorColumn(int J, double* L, double& minRatio) const;
  template <int N>
  void solveLowerWith(double* x) const;
  template <int N>
  void solveUpperWith(double* x) const;

  int myN = 0;
  int myUniformSize = 0;  ///< every group's size if they agree, else 0
  std::vector<int> myOrderOf;   ///< group → its place in the factor's order
  std::vector<int> mySize;      ///< rows of each group, in that order
  std::vector<int> myStart;     ///< first row of each group, in that order
  std::vector<int> myDiagPos;   ///< place of each diagonal block
  std::vector<std::vector<OffBlock>> myCol;  ///< below-diagonal blocks of each column, by row group
  std::vector<std::vector<Update>> myUpdates;  ///< updates made by each column
  std::vector<double> myL;
  std::vector<double> myDiag;  ///< A's diagonal, in the factor's row order, for the pivot ratios
  double myMinPivotRatio = 1;
};

}  // namespace sinew
