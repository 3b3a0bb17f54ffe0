// The regularized KKT matrix that the LDLᵀ backends factor (internal;
// docs/solvers.md, "Sparse solver backends"): A with −ε_i added to the
// diagonal of each constraint row i, so every pivot is non-zero even when
// rows are redundant (a closed loop of joints, a box face on a face);
// iterative refinement against the exact A then removes the change
// (IterativeRefinement.h).
#pragma once

#include <vector>

#include "sinew/solver/LinearSolver.h"

namespace sinew {

class KKTRegularization {
 public:
  /// A − diag(0, ε) for the last `numConstraints` rows of A, reusing the
  /// last pattern unless it changed. ε_i is 1e-12 of the row's own scale,
  /// the Jacobi estimate Σ_j g_ij² / S_jj of its Schur complement
  /// G S⁻¹ Gᵀ: rows with small gradients against a stiff S (an FEM
  /// element's volume row) would see a uniform ε as a sizeable change, and
  /// refinement would crawl. The result lives until the next call.
  const SparseMatrixd& apply(const SparseMatrixd& A, int numConstraints, bool patternChanged);

 private:
  SparseMatrixd myReg;
  std::vector<int> myDiag;  ///< position of each constraint row's diagonal in myReg
  std::vector<double> myScale;
  int myNc = -1;
};

}  // namespace sinew
