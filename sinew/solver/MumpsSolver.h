// The MUMPS backend of LinearSolver (internal; docs/solvers.md, "Sparse
// solver backends"; research/deps.md §3): MUMPS's sequential multifrontal
// LDLᵀ for symmetric matrices (SYM = 2), with the threshold pivoting that
// an indefinite matrix needs. Its fronts are dense BLAS blocks, as in
// CHOLMOD's supernodal LLᵀ, but it also factors what LLᵀ cannot: the KKT
// matrix of an FEM model whose constraint rows are many (hard
// incompressibility, attachments) or whose tangent stiffness is indefinite
// (a neo-Hookean body squeezed in contact), where the simplicial LDLᵀ of
// EigenLDLT is several times slower. KKT matrices get the same −εI on the
// constraint block as EigenLDLT (KKTRegularization: redundant rows would
// make the matrix singular) and solutions are refined against the exact
// matrix. The symbolic analysis is kept while the pattern stays.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "sinew/solver/KKTRegularization.h"
#include "sinew/solver/LinearSolver.h"

#ifdef SINEW_HAVE_MUMPS
namespace sinew {

class MumpsSolver : public LinearSolver {
 public:
  MumpsSolver();
  ~MumpsSolver() override;
  bool factor(const SparseMatrixd& A, int numConstraints, bool patternChanged) override;
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override;
  std::string name() const override { return "Mumps"; }

 private:
  struct Instance;  ///< MUMPS's own structure, kept out of this header
  /// Copies the lower triangle of M (1-based coordinates for a new
  /// pattern, the values always) into the arrays MUMPS reads.
  void gather(const SparseMatrixd& M, bool patternChanged);
  /// One solve with the factors, in place.
  void solveInPlace(Eigen::VectorXd& x);

  std::unique_ptr<Instance> myMumps;
  std::vector<int> myRows, myCols;
  std::vector<double> myValues;
  KKTRegularization myReg;
  const SparseMatrixd* myA = nullptr;
  Eigen::VectorXd myR, myDx;
  int myNc = 0;
  bool myAnalyzed = false;
};

}  // namespace sinew
#endif
