// Sparse direct solvers for the symmetric systems of a step: the SPD
// velocity-solve matrix S and the quasi-definite KKT matrix
// [S −Gᵀ; −G −R] (DESIGN §2, research/deps.md §3).
//
// One small interface so backends can be swapped and compared in bench/:
//  - EigenLDLT:  Eigen SimplicialLDLT; on a KKT matrix the constraint block
//                is regularized by −εI and the solution refined against the
//                exact matrix (no extra dependency, fastest on small and
//                rigid-body systems);
//  - Umfpack:    SuiteSparse UMFPACK LU on the exact matrix;
//  - Cholmod:    SuiteSparse CHOLMOD supernodal LLᵀ for SPD matrices; a KKT
//                matrix through the Schur complement of its rows over S's
//                factor (CholmodSchurSolver), LDLᵀ if S is indefinite;
//  - Mumps:      MUMPS's multifrontal LDLᵀ with pivoting (sequential) on
//                the matrix, a KKT matrix regularized and refined as for
//                EigenLDLT (MumpsSolver.h);
//  - PCG:        Jacobi-preconditioned conjugate gradients warm-started from
//                the caller's guess, SPD matrices only; linear cost per step
//                on mass-dominated systems (springs, particles), with a
//                direct LDLᵀ fallback when it does not converge;
//  - Auto:       per matrix — PCG for diagonally dominant SPD systems,
//                incomplete-Cholesky CG for SPD systems whose factorization
//                would be very large (100k-element meshes), CHOLMOD for
//                those whose factorization is large (3D FEM meshes),
//                EigenLDLT otherwise; for KKT matrices the
//                Schur complement over CHOLMOD when S is that large and the
//                rows few (contact on an FEM body), else Mumps when S is
//                that large, else EigenLDLT; an SPD matrix that large which
//                is not positive definite after all goes to Mumps too.
#pragma once

#include <Eigen/SparseCore>
#include <memory>
#include <string>
#include <vector>

namespace sinew {

using SparseMatrixd = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

/// Position of entry (r, c) in A's value array; the entry must be in A's
/// (compressed, sorted) pattern. Used to plan value-only refills.
int valuePosition(const SparseMatrixd& A, int r, int c);

enum class LinearSolverType { Auto, EigenLDLT, Umfpack, Cholmod, PCG, Mumps };
LinearSolverType parseLinearSolverType(const std::string& name);
std::string toString(LinearSolverType t);

class LinearSolver {
 public:
  virtual ~LinearSolver() = default;
  /// Factors A (symmetric, both triangles stored). The last `numConstraints`
  /// rows form the −R block of a KKT matrix (0 for an SPD matrix). When
  /// `patternChanged` is false the symbolic analysis of the previous call is
  /// reused. Returns false if the matrix is numerically singular.
  virtual bool factor(const SparseMatrixd& A, int numConstraints, bool patternChanged) = 0;
  /// Solves A x = b with the last factorization. Iterative backends start
  /// from x when it has the right size; direct ones ignore it.
  virtual void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) = 0;
  virtual std::string name() const = 0;

  /// Creates a backend; Auto picks from the measurements in docs/solvers.md.
  static std::unique_ptr<LinearSolver> create(LinearSolverType type, int size, int numConstraints);
  /// True if this build has the SuiteSparse backends.
  static bool hasSuiteSparse();
  /// True if this build has the MUMPS backend.
  static bool hasMumps();
};

}  // namespace sinew
