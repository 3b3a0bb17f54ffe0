// The frictional contact problem of the velocity solve (seed 000 eq. 1.6;
// guide §8.9) for rigid bodies and particles without bilateral rows, by
// projected Gauss–Seidel over the sparse Delassus operator W = J S⁻¹ Jᵀ + R,
// where J stacks the unilateral rows N and the box-friction rows D:
//
//   u = S⁻¹ (b_f + Nᵀθ + Dᵀφ),
//   0 ≤ θ ⟂ N u + R_n θ − b_n ≥ 0,   |φ_k| ≤ μ_k θ_normal(k).
//
// S must be block diagonal (the blocks of its bodies), so W is never
// formed: each row keeps its entries J_j and the response y_j = S⁻¹ J_jᵀ
// over the dofs of the bodies it touches, and a row update is one dot
// product and one axpy on u. Gauss–Seidel needs no factorization and is
// unaffected by redundant rows (a box face on a face gives eight contact
// rows for three free directions: u converges, the impulses share the
// load), and each update lowers the objective ½zᵀWz − (b − J S⁻¹ b_f)ᵀz for
// the bounds of the moment, so a stopped sweep never adds energy. It
// converges slowly where the load runs through many bodies (a stack); each
// sweep is therefore followed by a nonsmooth conjugate-gradient step (NNCG,
// Silcowitz, Niebe and Erleben 2010): along the last direction of travel,
// scaled by β = |Δz_k|²/|Δz_{k−1}|² (restarted when β > 1), projected on
// the bounds, while a load still runs through the rows (the change per
// sweep above 1e-4 of the velocity scale; below, redundant rows only trade
// impulse and the plain sweeps' stall rule watches). Such a step may raise
// the objective, so it is measured after each (½ΔuᵀSΔu + Σ(½rz² − cz), a
// fraction of a sweep), and a solve that stops short of the tolerance
// above the lowest iterate measured goes back to it. A 30-cube stack
// settles in half the time, swaying 7 times less. It is still
// slower than a factorization where the load runs through many bodies, so
// KKTSolver uses it as the fallback of its exact friction pass, started
// from the exact frictionless normal impulses (on redundant contacts that
// pass's held-active-set responses come from a nearly singular
// factorization, and a 100-box pile was flung apart by them), and alone,
// from the last step's impulses where the contacts are found again, for
// piles, where the exact path's pivoting cycles.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "sinew/solver/LinearSolver.h"

namespace sinew {

struct ConstraintRows;
struct FrictionRows;

class ContactLCP {
 public:
  /// Sweeps end when no row's velocity changes by more than `tolerance`
  /// times the problem's velocity scale, or after `maxSweeps`, or sooner
  /// when they cannot get there within `maxSweeps` (SweepStallCheck,
  /// lastStalled()).
  struct Settings {
    int maxSweeps = 2000;
    double tolerance = 1e-10;
    /// Each sweep followed by a step along the last direction of travel
    /// (NNCG, below); false: plain projected Gauss–Seidel.
    bool conjugateGradient = true;
  };
  Settings& settings() { return mySettings; }

  /// Solves the problem above for a block-diagonal S (both triangles
  /// stored, as SchurKKTSolver::findDiagonalBlocks accepts) and no
  /// bilateral rows. `D` may be null or empty (no friction); `phi` gets its
  /// impulses. With `fromTheta` the sweeps start from the normal impulses
  /// in theta (u is recomputed from them), else from zero; `phiStart`, if
  /// given with one value per friction row, starts the friction impulses
  /// (within their bounds). Returns false if a block of S is not positive
  /// definite.
  bool solve(const SparseMatrixd& S, bool sPatternChanged, const Eigen::VectorXd& bf, const ConstraintRows& N,
             const FrictionRows* D, Eigen::VectorXd& u, Eigen::VectorXd& theta, Eigen::VectorXd& phi,
             bool fromTheta = false, const Eigen::VectorXd* phiStart = nullptr);

  /// Sweeps of the last solve, whether it ended within the tolerance, and
  /// whether it stopped early because it could not (see Settings).
  int lastSweeps() const { return mySweeps; }
  bool lastConverged() const { return myConverged; }
  bool lastStalled() const { return myStalled; }

 private:
  /// One row of J: the blocks of S it touches (a contact: one or two
  /// bodies), each a contiguous segment of u that the sweeps read and
  /// update as such (fixed size for rigid bodies' 6), with its entries and
  /// response over those segments in order.
  struct Row {
    int first = 0;                     ///< its first value in myJ and myY
    int firstBlock = 0, numBlocks = 0;  ///< its blocks in myRowBlocks
    double a = 0;  ///< J S⁻¹ Jᵀ + R: the row's own Delassus entry
    double invA = 0;  ///< 1/a (a division in the sweeps' chain of dependent updates costs more than the rest of a row)
    double b = 0, r = 0;
    /// A row on one or two rigid bodies (blocks of 6): the first value of
    /// each in u (u1 = −1 for one), read without the block tables; −1: a
    /// row on other blocks.
    int u0 = -1, u1 = -1;
  };
  bool invertBlocks(const SparseMatrixd& S, bool sPatternChanged);
  /// Appends the rows, their entries listed in `lists` (kept from solve to
  /// solve, one for N and one for D, so that their vectors keep their
  /// capacity).
  void addRows(const ConstraintRows& rows, std::vector<std::vector<std::pair<int, double>>>& lists);
  /// The row's velocity w = J u + R z − b. Inline for the sweeps' common
  /// case, a contact between rigid bodies (a call costs as much as the
  /// row's arithmetic); other rows go through their block tables.
  [[gnu::always_inline]] double residual(const Row& row, const Eigen::VectorXd& u, double z) const {
    double w = row.r * z - row.b;
    if (row.u0 < 0) return residualBlocks(row, u, w);
    const double* j = myJ.data() + row.first;
    w += Vec6(j).dot(u.segment<6>(row.u0));
    if (row.u1 >= 0) w += Vec6(j + 6).dot(u.segment<6>(row.u1));
    return w;
  }
  /// u += dz S⁻¹ Jᵀ over the row's blocks.
  [[gnu::always_inline]] void apply(const Row& row, double dz, Eigen::VectorXd& u) const {
    if (row.u0 < 0) return applyBlocks(row, dz, u);
    const double* y = myY.data() + row.first;
    u.segment<6>(row.u0) += dz * Vec6(y);
    if (row.u1 >= 0) u.segment<6>(row.u1) += dz * Vec6(y + 6);
  }
  using Vec6 = Eigen::Map<const Eigen::Matrix<double, 6, 1>>;
  double residualBlocks(const Row& row, const Eigen::VectorXd& u, double w) const;
  void applyBlocks(const Row& row, double dz, Eigen::VectorXd& u) const;
  /// z ← target for one row, u following.
  void move(const Row& row, double& z, double target, Eigen::VectorXd& u) const;
  /// The objective ½zᵀWz − cᵀz at (u, z) (u = u_free + S⁻¹Jᵀz).
  double objective(const SparseMatrixd& S, const Eigen::VectorXd& u, const Eigen::VectorXd& theta,
                   const Eigen::VectorXd& phi) const;
  /// The NNCG step after a sweep that moved z from myZPrev: z += β d
  /// within the bounds, β = |Δz|²/|Δz_last|² (none when β > 1, or at a
  /// restart). Returns whether it moved.
  bool conjugateStep(int nn, int nd, const FrictionRows* D, Eigen::VectorXd& u, Eigen::VectorXd& theta,
                     Eigen::VectorXd& phi);

  Settings mySettings;
  std::vector<int> myStarts;      ///< first dof of each block of S, and S's size
  std::vector<int> myBlockOf;     ///< block of each dof
  std::vector<int> myInvOffset;   ///< each block's S⁻¹ in myInv (size² values)
  std::vector<double> myInv;
  std::vector<Row> myRows;        ///< N's rows, then D's
  std::vector<int> myRowBlocks;  ///< the blocks of each row, row after row
  std::vector<char> myOnItsBodies;  ///< per normal row: it and its friction rows act on the same two rigid bodies
  std::vector<double> myJ, myY;
  std::vector<std::vector<std::pair<int, double>>> myEntriesN, myEntriesD;  ///< entries of each row while building (ConstraintRows::EntryLists)
  int mySweeps = 0;
  bool myConverged = false, myStalled = false;
  // NNCG: z before the last sweep, the direction, the lowest iterate measured; |Δz|² of the last sweep.
  Eigen::VectorXd myZPrev, myDir, myZLowest;
  Eigen::VectorXd myUPrev, myDirU;  ///< u before the last sweep; u's change along myDir
  Eigen::VectorXd myUFree, myC, myR;  ///< S⁻¹b_f; c = b − J u_free and the compliance r of each row
  double myLastStep2 = 0;
  bool myHaveDir = false;
};

}  // namespace sinew
