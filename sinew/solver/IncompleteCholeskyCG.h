// Conjugate gradients preconditioned by an incomplete Cholesky factor, for
// the SPD matrices of very large FEM models (internal; docs/solvers.md,
// "Very large models"). A direct factorization of a 3D mesh grows as the
// square of its unknowns: a 100k-element hex beam's factor is several GB
// and takes 28 s on this machine, while this takes its matrix in about
// 140 iterations and a third of the memory. Eigen's IncompleteCholesky
// keeps the pattern of A plus a few entries per column, with a diagonal
// shift where a pivot would fail (Lin and Moré), under an AMD ordering.
// Deterministic: one thread, the same iterations for the same matrix and
// starting guess.
#pragma once

#include <Eigen/IterativeLinearSolvers>

#include "sinew/solver/LinearSolver.h"

namespace sinew {

class IncompleteCholeskyCG {
 public:
  /// Forms the preconditioner (the analysis only when the pattern
  /// changed); false if it could not be formed.
  bool factor(const SparseMatrixd& A, bool patternChanged);
  /// Solves A x = b to a relative residual of 1e-12, starting from x when
  /// it has the right size; false if that was not reached within the
  /// iteration limit (x is then the last iterate).
  bool solve(const Eigen::VectorXd& b, Eigen::VectorXd& x);
  int lastIterations() const { return myIterations; }

 private:
  /// Past this many iterations the matrix is not one this method serves
  /// (strongly indefinite, or conditioned far worse than FEM at a step).
  static constexpr int kMaxIterations = 500;
  Eigen::ConjugateGradient<SparseMatrixd, Eigen::Lower | Eigen::Upper,
                           Eigen::IncompleteCholesky<double, Eigen::Lower, Eigen::AMDOrdering<int>>>
      myCG;
  bool myAnalyzed = false;
  int myIterations = 0;
};

}  // namespace sinew
