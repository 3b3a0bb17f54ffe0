// The velocity (and position-correction) solve of seed 000 eq. (1.6): a KKT
// system in u and the constraint impulses, with bilateral rows as
// equalities, unilateral rows as complementarity conditions, and per-row
// compliance filling the lower-right block (guide §3.3.8; seed 003):
//
//   S u − Gᵀλ − Nᵀθ = b_f
//   G u + R_g λ      = b_g
//   w = N u + R_n θ − b_n,   0 ≤ θ ⟂ w ≥ 0
//
// With no constraint rows the SPD matrix S is factored directly. When S is
// block diagonal (rigid bodies and particles without coupling effectors)
// and the backend is Auto, the Schur complement G S⁻¹ Gᵀ + R is factored
// instead (SchurKKTSolver), falling back to the full KKT matrix if that
// fails. Unilateral rows are resolved by block principal pivoting over the
// active set, each pass one sparse KKT solve. Friction follows in a second
// pass (solveFriction). Where redundant contact rows defeat this exact path
// — the pivoting cycles, or the friction pass would add kinetic energy —
// the unilateral and friction rows are solved together by projected
// Gauss–Seidel over their Delassus operator instead: ContactLCP's sparse
// one for rigid bodies in contact alone, else a dense one formed with the
// bilateral rows held (solveByDelassus).
#pragma once

#include <algorithm>
#include <Eigen/SparseCore>
#include <memory>
#include <vector>

#include "sinew/solver/ContactLCP.h"
#include "sinew/solver/LinearSolver.h"
#include "sinew/solver/SchurKKTSolver.h"

namespace sinew {

/// Constraint rows over the active velocity dofs.
struct ConstraintRows {
  std::vector<Eigen::Triplet<double>> entries;  ///< (row, dof, value)
  std::vector<double> rhs;                       ///< b for each row
  std::vector<double> compliance;                ///< R diagonal for each row
  int numRows() const { return static_cast<int>(rhs.size()); }
  void clear() { entries.clear(); rhs.clear(); compliance.clear(); }
  /// One (dof, value) list per row.
  using EntryLists = std::vector<std::vector<std::pair<int, double>>>;
  /// Fills lists[first + i] with row i's entries, sizing `lists` to first +
  /// numRows() (the lists kept keep their storage).
  void entryLists(EntryLists& lists, size_t first = 0) const;
  /// The rows' values at v (G v, one per row).
  Eigen::VectorXd times(const Eigen::VectorXd& v) const;
};

/// start + a row's value at v (Σ value · v[dof] over its entry list).
inline double rowTimes(const std::vector<std::pair<int, double>>& row, const Eigen::VectorXd& v, double start = 0) {
  for (auto [col, value] : row) start += value * v[col];
  return start;
}

/// Box-friction rows (guide §8.9.4): D u = b_d with impulses φ bounded by
/// |φ_k| ≤ mu_k · θ[normalRow_k], the normal impulses of the solve without
/// friction.
struct FrictionRows {
  ConstraintRows rows;
  std::vector<int> normalRow;  ///< unilateral row (of N) bounding each row
  std::vector<double> mu;
  int numRows() const { return rows.numRows(); }
  void clear() { rows.clear(); normalRow.clear(); mu.clear(); }
};

class KKTSolver {
 public:
  explicit KKTSolver(LinearSolverType type = LinearSolverType::Auto) : myType(type) {}
  void setSolverType(LinearSolverType t) {
    myType = t;
    mySolver.reset();
    myKKTSolver.reset();
    myBlocksKnown = false;
  }
  LinearSolverType getSolverType() const { return myType; }
  /// Name of the backend used for the last solve.
  std::string backendName() const;

  /// Solves the system above. `sPatternChanged` tells whether S's sparsity
  /// changed since the last call. Returns false if a factorization failed.
  /// With friction rows set, a second pass adds them: the friction
  /// impulses within their bounds that take the most kinetic energy (a
  /// box-constrained convex QP over the contacts' Delassus matrix, by
  /// projected Gauss–Seidel), then the normal problem again under them.
  bool solve(const SparseMatrixd& S, bool sPatternChanged, const Eigen::VectorXd& bf,
             const ConstraintRows& G, const ConstraintRows& N, Eigen::VectorXd& u,
             Eigen::VectorXd& lambda, Eigen::VectorXd& theta);
  /// A chord step: solves again with the factors of the last solve, for
  /// new right-hand sides b_f and G.rhs (see SchurKKTSolver::solveAgain).
  /// Only after a Schur solve of hard bilateral rows and no unilateral or
  /// friction rows; returns false, doing nothing, otherwise.
  bool solveAgain(const Eigen::VectorXd& bf, const ConstraintRows& G, const ConstraintRows& N, Eigen::VectorXd& u,
                  Eigen::VectorXd& lambda, Eigen::VectorXd& theta);
  /// Whether solveAgain can use the last solve's factors (for rows of the same number).
  bool canSolveAgain() const { return myUsedSchur && myPhi.size() == 0 && mySchur.factoredHard(); }
  /// The Gauss–Seidel contact solver for contact without bilateral rows
  /// over a block-diagonal S: it takes over when pivoting cycles or the
  /// exact friction pass fails, and serves piles of 200 friction rows or
  /// more directly (see ContactLCP; backendName() says when it ran).
  /// Each solve sets its settings' maxSweeps (contactSweeps on the pile
  /// path, ContactLCP's default elsewhere).
  ContactLCP& contactSolver() { return myContact; }
  const ContactLCP& contactSolver() const { return myContact; }
  /// How many solves discarded their direct friction pass (energy check).
  long frictionFallbacks() const { return myFrictionFallbacks; }
  /// How many solves found pivoting cycle on the unilateral rows, or run
  /// to its pass limit, and solved them (with friction) by Gauss–Seidel
  /// instead.
  long lcpFallbacks() const { return myLCPFallbacks; }
  /// Block principal pivoting passes on the unilateral rows before a solve
  /// goes to Gauss–Seidel (default kMaxPivotPasses), where that fallback
  /// can take the problem: at most maxDenseRows() unilateral and friction
  /// rows (a dense Delassus matrix), or no bilateral rows on a
  /// block-diagonal S under Auto (rigid bodies and particles: the sparse
  /// ContactLCP). Other problems keep the pivoting's own limit of 2 rows + 5.
  void setMaxPivotPasses(int n) { myMaxPivotPasses = std::max(n, 1); }
  int maxPivotPasses() const { return myMaxPivotPasses; }
  /// Unilateral and friction rows past which the dense Delassus fallback
  /// costs more than it is worth (default kMaxDenseRows): the exact
  /// path's result then stands.
  void setMaxDenseRows(int n) { myMaxDenseRows = std::max(n, 0); }
  int maxDenseRows() const { return myMaxDenseRows; }
  /// Friction rows for the following solves (null: none).
  void setFriction(const FrictionRows* D) { myFriction = D; }
  /// Passes of the exact friction pass that take each sliding row's bound
  /// afresh from the push it produces. At 1,
  /// the default, friction is bounded by μ times the frictionless pushes
  /// and accepted while within μ times the final ones, so a sliding row
  /// whose push friction raises slides with less than μθ (8–12 % less for
  /// a ball on one contact, docs/contact.md). Above 1, a row at its bound
  /// must be within a relative 10⁻⁶ of μ times its final push (from
  /// below), in at most this many
  /// passes (and no fewer than the three always allowed); friction is then
  /// clamped to the final bounds, and the check that discards a pass that
  /// adds energy allows the work of compliant contacts on their change of
  /// push. (ArtiSynth's frictionIters is analogous, not the same: a fixed
  /// number of outer passes.)
  int getFrictionIterations() const { return myFrictionIterations; }
  void setFrictionIterations(int n) { myFrictionIterations = n; }
  /// The most Gauss–Seidel sweeps a step's contact solve takes where it
  /// serves a pile directly, or a cycled pivoting's fallback on a problem
  /// of the same kind (friction, no bilateral rows, a block-diagonal S;
  /// warm started from the last step's impulses; default 100; at least
  /// 1). The other fallbacks keep ContactLCP's own limit (2000 sweeps, or
  /// fewer by its stall rule).
  int getContactSweeps() const { return myContactSweeps; }
  void setContactSweeps(int n) { myContactSweeps = std::max(n, 1); }
  /// Starting impulses for the next solves' contact rows (one per
  /// unilateral row and one per friction row; null: none), e.g. the last
  /// step's. Only the Gauss–Seidel path of a pile (ContactLCP alone), and
  /// a cycled pivoting's fallback on a problem of that kind, use them; the
  /// exact path needs no start. They must outlive the solves.
  void setWarmStart(const Eigen::VectorXd* theta, const Eigen::VectorXd* phi) {
    myWarmTheta = theta;
    myWarmPhi = phi;
  }
  /// The friction impulses of the last solve, one per friction row.
  const Eigen::VectorXd& frictionImpulses() const { return myPhi; }

  /// The Delassus matrix W = J A⁻¹ Jᵀ of the rows `which` of `rows`
  /// (one (dof, value) list each) in the system of the last solve (S, G and
  /// N as given to it): A⁻¹ maps an impulse to the velocities with G's
  /// rows and N's active rows held, as in the solve, their compliance
  /// included. Through the Schur path's factors where it solved and that
  /// pays, else one response per row. False if that solve left no factors
  /// or a dof is out of range.
  bool delassusMatrix(const SparseMatrixd& S, const ConstraintRows& G, const ConstraintRows& N,
                      const ConstraintRows::EntryLists& rows, const std::vector<int>& which, Eigen::MatrixXd& W);

 private:
  /// True if the Schur complement path applies: Auto backend and a block-
  /// diagonal S (checked again whenever S's pattern changes).
  bool useSchur(const SparseMatrixd& S, bool sPatternChanged);
  /// Rows between rigid bodies and particles alone: no bilateral rows and
  /// a block-diagonal S under Auto, which ContactLCP's sparse operator
  /// takes (the pile path, and the Gauss–Seidel fallback's sparse side).
  bool contactsAlone(const SparseMatrixd& S, const ConstraintRows& G, bool sPatternChanged) {
    return G.numRows() == 0 && useSchur(S, sPatternChanged);
  }
  /// The normal and limit complementarity problem by block principal pivoting.
  /// `converged` (if given) tells whether the pivoting ended in a solution.
  bool solveLCP(const SparseMatrixd& S, bool sPatternChanged, const Eigen::VectorXd& bf, const ConstraintRows& G,
                const ConstraintRows& N, Eigen::VectorXd& u, Eigen::VectorXd& lambda, Eigen::VectorXd& theta,
                bool* converged = nullptr);
  /// The unilateral and friction rows together by projected Gauss–Seidel
  /// over their dense Delassus matrix J A⁻¹ Jᵀ + R, formed from responses
  /// with the bilateral rows held (KKTSolverDelassus.cpp); from the normal
  /// impulses in theta with `warm`, else from zero; `phiStart` (rigid
  /// bodies alone) starts the friction impulses too.
  bool solveByDelassus(const SparseMatrixd& S, const Eigen::VectorXd& bf, const ConstraintRows& G,
                       const ConstraintRows& N, Eigen::VectorXd& u, Eigen::VectorXd& lambda, Eigen::VectorXd& theta,
                       bool warm, const Eigen::VectorXd* phiStart = nullptr);
  bool solveFriction(const SparseMatrixd& S, const Eigen::VectorXd& bf, const ConstraintRows& G,
                     const ConstraintRows& N, Eigen::VectorXd& u, Eigen::VectorXd& lambda, Eigen::VectorXd& theta);
  /// Normal and friction rows with no bilateral rows and a block-diagonal
  /// S (rigid bodies and particles) by ContactLCP as a pile's are: from
  /// the last step's impulses (setWarmStart), with conjugate steps, within
  /// contactSweeps.
  bool solveAsPile(const SparseMatrixd& S, const Eigen::VectorXd& bf, const ConstraintRows& G,
                   const ConstraintRows& N, Eigen::VectorXd& u, Eigen::VectorXd& lambda, Eigen::VectorXd& theta);
  /// Clamps the friction impulses to μ times the current pushes, with one
  /// response solve for the change (frictionIterations above 1).
  bool clampFriction(const SparseMatrixd& S, const ConstraintRows& G, const ConstraintRows& N,
                     const ConstraintRows::EntryLists& rowEntries, Eigen::VectorXd& u, Eigen::VectorXd& lambda,
                     Eigen::VectorXd& theta);
  bool solveEqualities(const SparseMatrixd& S, bool sPatternChanged, const Eigen::VectorXd& bf,
                       const ConstraintRows& G, const ConstraintRows& N, const std::vector<char>& active,
                       Eigen::VectorXd& u, Eigen::VectorXd& lambda, Eigen::VectorXd& theta);
  /// With the factors of the last solveEqualities (its rows and active
  /// set), the response (u, λ, θ) to an impulse b_f with zero constraint
  /// right-hand sides.
  bool solveResponse(const SparseMatrixd& S, const Eigen::VectorXd& bf, const ConstraintRows& G,
                     const ConstraintRows& N, Eigen::VectorXd& u, Eigen::VectorXd& lambda, Eigen::VectorXd& theta);
  /// Fills myKKT = [S −Gᵀ; −G −R] for the active rows, rebuilding its
  /// pattern (and the value positions of every source entry) only when the
  /// structure differs from the last call. Returns true if it was rebuilt.
  bool assembleKKT(const SparseMatrixd& S, bool sPatternChanged, const ConstraintRows& G, const ConstraintRows& N,
                   const std::vector<int>& krow, int m);

  /// From this many friction rows between rigid bodies alone, friction is
  /// found by ContactLCP directly (no exact pass first).
  static constexpr int kSparseFrictionRows = 200;
  /// Block principal pivoting passes before solveLCP reports that it did
  /// not converge (and the caller falls back to Gauss–Seidel).
  static constexpr int kMaxPivotPasses = 24;
  /// Past this many unilateral and friction rows the dense Delassus
  /// fallback (one back-substitution per row) costs more than it is worth,
  /// and the exact path's result stands.
  static constexpr int kMaxDenseRows = 3000;
  int myMaxPivotPasses = kMaxPivotPasses;
  int myMaxDenseRows = kMaxDenseRows;
  LinearSolverType myType;
  std::unique_ptr<LinearSolver> mySolver;     ///< for S alone
  std::unique_ptr<LinearSolver> myKKTSolver;  ///< for the KKT matrix
  SchurKKTSolver mySchur;                     ///< for block-diagonal S
  ContactLCP myContact;                       ///< Gauss–Seidel for contact alone over block-diagonal S
  bool myBlocksKnown = false, myBlockDiagonal = false, myUsedSchur = false;
  bool myUsedContact = false, myContactStale = true;
  long myFrictionFallbacks = 0, myLCPFallbacks = 0;
  Eigen::VectorXd myU0, myLambda0, myTheta0;  ///< the frictionless solution
  SparseMatrixd myKKT;
  std::vector<Eigen::Triplet<double>> myTrips;
  // Assembly plan of myKKT: the structure it was built for and where each
  // source entry lands in its value array.
  struct Plan {
    bool valid = false;
    int n = 0, m = 0;
    Eigen::Index sNnz = 0;
    std::vector<int> rows, cols;  ///< KKT (row, col) of each constraint entry, lower part
    std::vector<int> sPos, cPosLo, cPosUp, diagPos;
  } myPlan;
  Eigen::VectorXd myRhs, mySol;
  const FrictionRows* myFriction = nullptr;
  int myFrictionIterations = 1;
  int myContactSweeps = 100;
  const Eigen::VectorXd* myWarmTheta = nullptr;
  const Eigen::VectorXd* myWarmPhi = nullptr;
  std::vector<char> myActive;  ///< active set of the last solveEqualities
  std::vector<int> myKrow;     ///< its KKT row of each unilateral row (−1: inactive)
  Eigen::VectorXd myPhi;
  /// Scratch of the friction and Delassus passes, kept so that a step
  /// reuses their storage: each row's entries, and the Delassus matrix.
  ConstraintRows::EntryLists myRowEntries;
  Eigen::MatrixXd myW;
};

}  // namespace sinew
