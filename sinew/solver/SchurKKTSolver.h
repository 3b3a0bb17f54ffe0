// The equality KKT solve of KKTSolver for systems whose solve matrix S is
// block diagonal: rigid bodies and particles with no force effector that
// couples two of them (multibody chains and trees, joints, particle
// constraints). Eliminating u gives the Schur complement
//
//   A = G S⁻¹ Gᵀ + R,   A λ = b_g − G S⁻¹ b_f,   u = S⁻¹ (b_f + Gᵀ λ),
//
// which is symmetric positive definite, half the size of the KKT matrix and
// as sparse as the constraint graph (rows that share a body are coupled; a
// chain gives a block-tridiagonal A, a tree a fill-free one). The blocks of
// S are factored as small dense Cholesky factors; A is ordered once per
// structure (AMD over groups of rows with the same pattern, such as a
// joint's rows), assembled straight into that order and factored block by
// block (BlockCholesky) with the analysis reused. When rows are redundant
// A gets the KKT path's tiny regularization (so their impulses stay
// bounded), and the solution is refined against the exact KKT system, as
// the KKT path does.
//
// Unilateral rows outside the active set stay in A's pattern as decoupled
// unit rows (λ = 0), so changing the active set never redoes the analysis.
#pragma once

#include <vector>

#include "sinew/solver/BlockCholesky.h"
#include "sinew/solver/LinearSolver.h"

namespace sinew {

struct ConstraintRows;

class SchurKKTSolver {
 public:
  /// True if S (both triangles stored) is block diagonal with dense
  /// diagonal blocks; `starts` then holds each block's first dof and S's
  /// size at the end.
  static bool findDiagonalBlocks(const SparseMatrixd& S, std::vector<int>& starts);

  /// Solves [S −Gᵀ −N_aᵀ; G R_g 0; N_a 0 R_a][u; λ; θ_a] = [b_f; b_g; b_n]
  /// over the unilateral rows with active[i] set (θ_i = 0 for the others).
  /// `sPatternChanged` says whether S's pattern changed since the last call.
  /// Returns false, leaving the outputs unspecified, if S or A is not
  /// positive definite or the refined residual stays large (redundant
  /// rows); the caller then uses the general KKT path.
  bool solve(const SparseMatrixd& S, bool sPatternChanged, const Eigen::VectorXd& bf, const ConstraintRows& G,
             const ConstraintRows& N, const std::vector<char>& active, Eigen::VectorXd& u,
             Eigen::VectorXd& lambda, Eigen::VectorXd& theta);

  /// The response to an applied impulse: solves again with the factors of
  /// the last solve(), for a new b_f and zero constraint right-hand sides
  /// (the same S, rows and active set), without refinement. Returns false
  /// if there are no factors for rows of that number.
  bool solveResponse(const Eigen::VectorXd& bf, const ConstraintRows& G, const ConstraintRows& N,
                     Eigen::VectorXd& u, Eigen::VectorXd& lambda, Eigen::VectorXd& theta);
  /// W = J A⁻¹ Jᵀ for the rows `which` of `rows` (one (dof, value) list
  /// each), where A⁻¹ is the response of the last solve()'s system (its S,
  /// its mg bilateral and mn unilateral rows and active set): W(i, j) is
  /// what solveResponse() for row j's impulse gives row i's value, to
  /// round-off. From Y = L⁻¹ Jᵀ and P = Z Y it is YᵀY − Pᵀ C⁻¹ P (C the
  /// Schur complement of the rows held, factored as L_C L_Cᵀ), which
  /// touches only the blocks each row touches, where one response per row
  /// sweeps every block twice. False, leaving W unspecified, if there are
  /// no factors for rows of those numbers, or where the dense rank update
  /// would cost more than those responses (many rows held and many asked
  /// for): the caller then takes a response per row. The rows' dofs must
  /// be within S.
  bool delassus(const std::vector<std::vector<std::pair<int, double>>>& rows, const std::vector<int>& which,
                int mg, int mn, Eigen::MatrixXd& W);
  /// delassus() forms the held rows' coupling QᵀQ island by island (rows
  /// that share no body) above this many multiplications, nb²m/2, and
  /// whole at or below it, where finding the islands would cost more.
  static constexpr double kWholeCouplingProduct = 2048;
  /// Solves again with the factors of the last solve() and new right-hand
  /// sides b_f and b_g = G.rhs: a chord step, for a Newton iteration whose
  /// matrix has moved little since (position stabilization right after the
  /// velocity solve). Only for hard bilateral rows: returns false, leaving
  /// the outputs unspecified, if the last solve had unilateral or
  /// compliant rows or G's rows differ from its rows in number.
  bool solveAgain(const Eigen::VectorXd& bf, const ConstraintRows& G, Eigen::VectorXd& u, Eigen::VectorXd& lambda);
  /// Whether the last solve's factors are of hard bilateral rows only.
  bool factoredHard() const { return myValid && myFactoredHard; }

 private:
  /// Which rows of A touch a diagonal block of S, and where that block's
  /// slice of G (then of G L⁻ᵀ) lives in myZ.
  struct BlockRows {
    int start = 0, size = 0;  ///< dofs of the block
    int xOffset = 0;          ///< its inverse Cholesky factor in myLinv (size² values)
    int zOffset = 0;          ///< its rows × size slice of G in myZ
    int pairOffset = 0;       ///< positions of its A entries in myPairPos
    std::vector<int> rows;    ///< rows of A, ascending
  };

  bool structureMatches(const SparseMatrixd& S, const ConstraintRows& G, const ConstraintRows& N) const;
  /// delassus(): W −= QᵀQ for Q = myPJ after its solve, island by island
  /// (SchurKKTDelassus.cpp).
  void subtractCoupling(int nb, Eigen::MatrixXd& W);
  void buildPlan(const SparseMatrixd& S, const ConstraintRows& G, const ConstraintRows& N);
  /// A's row groups, their blocked factorization's pattern and every value's position.
  void buildMatrixPattern();
  /// Inverts the Cholesky factor of every block of S; false if one is not
  /// positive definite.
  bool factorBlocks(const SparseMatrixd& S);
  void fillConstraintBlocks(const ConstraintRows& G, const ConstraintRows& N, const std::vector<char>& active);
  /// A = Z Zᵀ + R (+ eps on the rows in use) into myChol.
  void assemble(const ConstraintRows& G, const ConstraintRows& N, const std::vector<char>& active, double eps);
  bool assembleAndFactor(const ConstraintRows& G, const ConstraintRows& N, const std::vector<char>& active);
  /// One elimination solve with the current factors: (b_f, c) → (u, μ),
  /// where c is the right-hand side of the constraint rows of A.
  void eliminate(const Eigen::VectorXd& bf, const Eigen::VectorXd& c, Eigen::VectorXd& u, Eigen::VectorXd& mu);
  /// Eliminates for (b_f, myC) and, if A was regularized, refines against
  /// the exact system until the residual is at round-off; false if it
  /// stays large.
  bool eliminateAndRefine(const SparseMatrixd& S, const ConstraintRows& G, const ConstraintRows& N,
                          const std::vector<char>& active, const Eigen::VectorXd& bf, Eigen::VectorXd& u);
  /// Residual of the exact system at (u, myMu): r_f = b_f − S u + Cᵀμ and
  /// r_c = c − C u − R μ over the rows in use, into myRf and myRc. Returns
  /// its max norm.
  double residual(const SparseMatrixd& S, const ConstraintRows& G, const ConstraintRows& N,
                  const std::vector<char>& active, const Eigen::VectorXd& bf, const Eigen::VectorXd& c,
                  const Eigen::VectorXd& u);

  // Plan: the structure it was built for and where every value goes.
  bool myValid = false;
  int myN = 0, myMg = 0, myMn = 0;
  Eigen::Index mySNnz = 0;
  std::vector<int> myEntryRows, myEntryCols;  ///< A row and dof of each G then N entry
  std::vector<int> myEntryDst;                ///< its slot in myZ
  bool myZCoveredOnce = false;                ///< every slot of myZ is some entry's, once
  std::vector<BlockRows> myBlocks;
  std::vector<int> myBlockOfDof;
  std::vector<int> myPairPos;  ///< A value position of each block's (i ≤ j) row pair
  std::vector<int> myDiagPos;  ///< A value position of each diagonal
  std::vector<int> myPerm;     ///< A row → its place in myChol's vectors

  // Numbers of one factorization.
  double myDiagScale = 1;  ///< max(1, largest |S_ii|), the regularization's scale
  bool myFactoredHard = false;  ///< the factors are of hard bilateral rows only
  bool myRegularized = false;   ///< A needed the regularization of redundant rows
  std::vector<double> myLinv, myZ;  ///< per block: L⁻¹ of S_b; G_b L⁻ᵀ
  BlockCholesky myChol;  ///< A and its factor
  Eigen::VectorXd myY, myC, myRhs, myMu, myRf, myRc, myDu, myDmu;
  Eigen::MatrixXd myYJ;  ///< delassus(): L⁻¹ Jᵀ
  /// delassus(): Z L⁻¹ Jᵀ, row-major for BlockCholesky::solveLowerRows.
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> myPJ;
  std::vector<std::vector<int>> myRowBlocks, myBlockRowsJ;  ///< delassus(): blocks of each row, rows of each block
  std::vector<int> myIslandScratch;
  std::vector<std::vector<int>> myIslandHeld, myIslandAsked;  ///< per island: held rows (myChol's order), rows asked for
  Eigen::MatrixXd myIslandQ;
};

}  // namespace sinew
