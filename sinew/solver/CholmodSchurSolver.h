// A KKT backend of LinearSolver (internal; DESIGN §2, research/deps.md §3)
// for the matrices of deformable bodies in contact: K = [S Bᵀ; B −R] with
// S a 3D FEM mesh's matrix (a large factorization, SPD) and only a few
// constraint rows (contacts, attachments). CHOLMOD's supernodal LLᵀ cannot
// factor K itself, and Eigen's simplicial LDLᵀ of the whole of K takes
// twice as long as the supernodal factor of S (a 4,017-tet ball: 46 against
// 24 ms). So S is factored alone and the rows are eliminated through their
// dense Schur complement C = B S⁻¹ Bᵀ + R:
//
//   C y = B S⁻¹ f − g,   x = S⁻¹ f − (S⁻¹ Bᵀ) y.
//
// S must be positive definite: a Neo-Hookean body squeezed in contact
// can have an indefinite tangent, and then LLᵀ fails and the caller (Auto)
// goes back to the LDLᵀ of the whole of K.
// S's factor is kept while S's values stay: the active-set passes of a
// contact solve change only the rows. C gets the same relative −εI-style
// regularization as EigenLDLT's constraint block (redundant contact rows
// make it singular), and solutions are refined against the exact K.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "sinew/solver/LinearSolver.h"

#ifdef SINEW_HAVE_SUITESPARSE
#include <Eigen/CholmodSupport>

namespace sinew {

class CholmodSchurSolver : public LinearSolver {
 public:
  CholmodSchurSolver();
  /// Takes S out of K (K must outlive the factorization and the solves);
  /// returns true if S's pattern differs from the last matrix's, so the
  /// caller may decide again whether this backend pays.
  bool split(const SparseMatrixd& K, int numConstraints);
  /// S of the last split().
  const SparseMatrixd& stiffness() const { return myS; }
  /// Factors the last split() matrix: S (unless its values are those of
  /// the last factorization) and the rows' complement.
  bool factorSplit();
  bool factor(const SparseMatrixd& K, int numConstraints, bool patternChanged) override;
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override;
  std::string name() const override { return "CholmodSchur"; }

 private:
  Eigen::CholmodSupernodalLLT<SparseMatrixd, Eigen::Lower> myLLT;
  const SparseMatrixd* myK = nullptr;
  SparseMatrixd myS;
  Eigen::VectorXd mySValues;        ///< S's values at its last factorization
  bool mySFactored = false, mySPatternChanged = true;
  Eigen::MatrixXd myBt, myY;        ///< Bᵀ and S⁻¹Bᵀ (n × m)
  Eigen::MatrixXd myD;              ///< K's lower-right block (−R)
  Eigen::LDLT<Eigen::MatrixXd> myC;
  Eigen::VectorXd myX1, myR, myDx;
  int myN = 0, myM = 0;
};

}  // namespace sinew
#endif
