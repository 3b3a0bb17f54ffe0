#include "sinew/solver/LinearSolver.h"

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>

#include "sinew/Error.h"
#include "sinew/solver/CholmodSchurSolver.h"
#include "sinew/solver/IncompleteCholeskyCG.h"
#include "sinew/solver/IterativeRefinement.h"
#include "sinew/solver/KKTRegularization.h"
#include "sinew/solver/MumpsSolver.h"
#include "sinew/solver/SerialOpenMP.h"

#ifdef SINEW_HAVE_SUITESPARSE
#include <Eigen/CholmodSupport>
#include <Eigen/UmfPackSupport>
#endif

namespace sinew {

int valuePosition(const SparseMatrixd& A, int r, int c) {
  const int* inner = A.innerIndexPtr();
  const int b = A.outerIndexPtr()[c], e = A.outerIndexPtr()[c + 1];
  return static_cast<int>(std::lower_bound(inner + b, inner + e, r) - inner);
}

LinearSolverType parseLinearSolverType(const std::string& n) {
  if (n == "Auto") return LinearSolverType::Auto;
  if (n == "EigenLDLT") return LinearSolverType::EigenLDLT;
  if (n == "Umfpack") return LinearSolverType::Umfpack;
  if (n == "Cholmod") return LinearSolverType::Cholmod;
  if (n == "PCG") return LinearSolverType::PCG;
  if (n == "Mumps") return LinearSolverType::Mumps;
  throw ModelError("unknown linear solver '" + n + "' (Auto, EigenLDLT, Umfpack, Cholmod, PCG, Mumps)");
}

std::string toString(LinearSolverType t) {
  switch (t) {
    case LinearSolverType::Auto: return "Auto";
    case LinearSolverType::EigenLDLT: return "EigenLDLT";
    case LinearSolverType::Umfpack: return "Umfpack";
    case LinearSolverType::Cholmod: return "Cholmod";
    case LinearSolverType::PCG: return "PCG";
    case LinearSolverType::Mumps: return "Mumps";
  }
  return "?";
}

namespace {

/// LDLᵀ without pivoting; KKT matrices get −εI on the constraint block so
/// every pivot is non-zero (KKTRegularization), then iterative refinement
/// against the exact A removes the regularization error (deps.md: 1e-12 +
/// 3 steps → 1e-14).
class EigenLDLTSolver : public LinearSolver {
 public:
  bool factor(const SparseMatrixd& A, int nc, bool patternChanged) override {
    myA = &A;
    myNc = nc;
    const SparseMatrixd& M = nc > 0 ? myReg.apply(A, nc, patternChanged) : A;
    if (patternChanged || !myAnalyzed) {
      myLDLT.analyzePattern(M);
      myAnalyzed = true;
    }
    myLDLT.factorize(M);
    return myLDLT.info() == Eigen::Success;
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override {
    x = myLDLT.solve(b);
    if (myNc == 0) return;
    // Against the exact matrix (the regularization's error), at least
    // three steps.
    refineAgainst(*myA, b, x, myR, 3, [&](const Eigen::VectorXd& r) -> Eigen::VectorXd { return myLDLT.solve(r); });
  }
  std::string name() const override { return "EigenLDLT"; }

 private:
  Eigen::SimplicialLDLT<SparseMatrixd, Eigen::Lower, Eigen::AMDOrdering<int>> myLDLT;
  const SparseMatrixd* myA = nullptr;
  KKTRegularization myReg;
  Eigen::VectorXd myR;
  int myNc = 0;
  bool myAnalyzed = false;
};

/// Conjugate gradients for SPD matrices, to a relative residual of 1e-12;
/// if that fails within the iteration limit the step is solved directly.
class PCGSolver : public LinearSolver {
 public:
  bool factor(const SparseMatrixd& A, int nc, bool patternChanged) override {
    if (nc > 0) throw SolverError(0, "", "PCG cannot solve a KKT matrix");
    myA = &A;
    myPatternChanged |= patternChanged;
    myCG.setTolerance(1e-12);
    myCG.setMaxIterations(std::max<Eigen::Index>(50, A.rows() / 10));
    myCG.compute(A);
    return myCG.info() == Eigen::Success;
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override {
    if (x.size() == b.size()) x = myCG.solveWithGuess(b, x);
    else x = myCG.solve(b);
    if (myCG.info() == Eigen::Success) return;
    myDirect.factor(*myA, 0, myPatternChanged);
    myPatternChanged = false;
    myDirect.solve(b, x);
  }
  std::string name() const override { return "PCG"; }

 private:
  Eigen::ConjugateGradient<SparseMatrixd, Eigen::Lower | Eigen::Upper> myCG;
  EigenLDLTSolver myDirect;
  const SparseMatrixd* myA = nullptr;
  bool myPatternChanged = true;
};

#ifdef SINEW_HAVE_SUITESPARSE
/// A SuiteSparse factorization through Eigen's wrapper, its symbolic
/// analysis reused while the pattern stays. LLᵀ (CHOLMOD) takes SPD
/// matrices only; LU (UMFPACK) any.
template <class Factorization, bool kSPDOnly>
class SuiteSparseSolver : public LinearSolver {
 public:
  explicit SuiteSparseSolver(const char* name) : myName(name) {}
  bool factor(const SparseMatrixd& A, int nc, bool patternChanged) override {
    if (kSPDOnly && nc > 0) throw SolverError(0, "", myName + " (LLT) cannot factor a KKT matrix");
    const SerialOpenMP serial;  // CHOLMOD's fixed four OpenMP threads (SerialOpenMP.h)
    if (patternChanged || !myAnalyzed) {
      myFactorization.analyzePattern(A);
      myAnalyzed = true;
    }
    myFactorization.factorize(A);
    return myFactorization.info() == Eigen::Success;
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override { x = myFactorization.solve(b); }
  std::string name() const override { return myName; }

 protected:
  Factorization myFactorization;
  std::string myName;
  bool myAnalyzed = false;
};

class CholmodSolver : public SuiteSparseSolver<Eigen::CholmodSupernodalLLT<SparseMatrixd, Eigen::Lower>, true> {
 public:
  CholmodSolver() : SuiteSparseSolver("Cholmod") { myFactorization.cholmod().print = 0; }
};
using UmfpackSolver = SuiteSparseSolver<Eigen::UmfPackLU<SparseMatrixd>, false>;
#endif

/// The cost of a Cholesky factorization of A under the AMD ordering, from
/// the symbolic analysis alone (the elimination tree's column counts c_j):
/// flops = Σ_j c_j², and the factor's entries Σ_j c_j (a solve's cost).
struct FactorCost {
  double flops = 0, entries = 0;
};
FactorCost choleskyCost(const SparseMatrixd& A) {
  struct Analysis : Eigen::SimplicialLDLT<SparseMatrixd, Eigen::Lower, Eigen::AMDOrdering<int>> {
    FactorCost cost() const {
      FactorCost c;
      for (Eigen::Index j = 0; j < m_nonZerosPerCol.size(); ++j) {
        c.flops += double(m_nonZerosPerCol[j] + 1) * (m_nonZerosPerCol[j] + 1);
        c.entries += double(m_nonZerosPerCol[j] + 1);
      }
      return c;
    }
  } analysis;
  analysis.analyzePattern(A);
  return analysis.cost();
}

#ifdef SINEW_HAVE_MUMPS
/// The MUMPS backend as Auto holds it: created on first use (most models
/// never need it), and a MUMPS failure other than a singular matrix
/// (workspace, ordering) reported as a failed factorization, after which
/// Auto factors the matrix its own way.
class LazyMumps {
 public:
  bool factor(const SparseMatrixd& A, int nc, bool& stale) {
    if (!myMumps) myMumps = std::make_unique<MumpsSolver>(), stale = true;
    try {
      const bool ok = myMumps->factor(A, nc, stale);
      stale = false;
      return ok;
    } catch (const SolverError&) {
      myMumps.reset();
      return false;
    }
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) { myMumps->solve(b, x); }

 private:
  std::unique_ptr<MumpsSolver> myMumps;
};
#endif

/// Auto for SPD matrices, chosen from the matrix so results stay
/// deterministic:
///  - warm-started PCG when the Jacobi-scaled matrix is strictly diagonally
///    dominant with margin (Gershgorin bounds its condition number by
///    (1 + r)/(1 − r) ≤ 19, so CG converges in a few dozen steps);
///  - incomplete-Cholesky CG when the factorization would be very large
///    (≥ kIterativeFlops: 100k-element meshes), with the direct path below
///    if CG does not converge;
///  - CHOLMOD's supernodal LLᵀ when the factorization is large
///    (≥ kSupernodalFlops, re-decided when the pattern changes): 3D FEM
///    meshes, whose dense fronts BLAS handles far better than a simplicial
///    factorization (docs/solvers.md, "FEM beams"), and MUMPS's LDLᵀ with
///    pivoting if LLᵀ meets a matrix that is not positive definite;
///  - otherwise Eigen's simplicial LDLᵀ (chains, small systems).
/// A fallback (LLᵀ failed, CG did not converge) holds until the pattern
/// changes: a run restored past one tries the first choice again, and may
/// then differ from the original run at round-off.
class AutoSPDSolver : public LinearSolver {
 public:
  /// The crossover measured by `sinew_bench --benchmark_filter=FemBeam`:
  /// equal times for a 1.5k-element tet beam (1e7 flops); supernodal is 6×
  /// faster for 2k hexahedra (2e8 flops).
  static constexpr double kSupernodalFlops = 1e7;
  /// Past this the factorization is left for incomplete-Cholesky CG
  /// (IncompleteCholeskyCG.h), measured (docs/solvers.md, "Very large
  /// models"): femhex 100000 (well past it) 28.6 → 12.2 s a step; at about
  /// 5e10 the two are even (femhex 10000 faster direct, femtet 100000
  /// faster by CG), so the threshold sits above that, on the direct side.
  static constexpr double kIterativeFlops = 1e11;

  bool factor(const SparseMatrixd& A, int nc, bool patternChanged) override {
    if (patternChanged) {
      myDirectStale = myCholmodStale = myMumpsStale = myICStale = myChoiceStale = true;
      myIndefiniteLarge = false;
    }
    myUseIC = false;
    myUsePCG = nc == 0 && A.rows() > 600 && dominanceRadius(A) <= 0.9;
    if (myUsePCG) return myPCG.factor(A, 0, patternChanged);
    if (myChoiceStale) {
      const double flops = choleskyCost(A).flops;
      mySupernodal = nc == 0 && flops >= kSupernodalFlops;
      myIterative = nc == 0 && flops >= kIterativeFlops;
      myChoiceStale = false;
    }
    // A matrix with a diagonal entry that is not positive (a dynamic body
    // without mass) goes to the direct path, which refuses it in
    // factor() so that the caller can name the component.
    if (myIterative && A.diagonal().minCoeff() > 0) {
      // The direct factorization waits until a solve does not converge.
      myUseIC = myIC.factor(A, myICStale);
      myICStale = false;
      if (myUseIC) {
        myA = &A;
        myNc = nc;
        return true;
      }
      myIterative = false;  // no preconditioner: direct until the pattern changes
    }
    myUseIC = false;
    return factorDirect(A, nc);
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override {
    if (myUsePCG) {
      myPCG.solve(b, x);
      return;
    }
    if (myUseIC) {
      if (myIC.solve(b, x)) return;
      // Not converged: this matrix, and its pattern from now on (a run
      // restored after this point retries CG first), directly.
      myUseIC = myIterative = false;
      if (!factorDirect(*myA, myNc))
        throw SolverError(0, "",
                          "conjugate gradients did not converge on a very large matrix (" +
                              std::to_string(myA->rows()) + " unknowns), and its direct factorization failed: "
                              "it is singular or far from positive definite");
    }
#ifdef SINEW_HAVE_SUITESPARSE
    if (myUseCholmod) return myCholmod.solve(b, x);
#endif
#ifdef SINEW_HAVE_MUMPS
    if (myUseMumps) return myMumps.solve(b, x);
#endif
    myDirect.solve(b, x);
  }
  std::string name() const override {
    return myUsePCG        ? "Auto(PCG)"
           : myUseIC       ? "Auto(ICCG)"
           : myUseCholmod  ? "Auto(Cholmod)"
           : myUseMumps    ? "Auto(Mumps)"
                           : "Auto(EigenLDLT)";
  }

 private:
  /// max_i Σ_{j≠i} |A_ij| / sqrt(A_ii A_jj).
  static double dominanceRadius(const SparseMatrixd& A) {
    Eigen::VectorXd d = A.diagonal();
    if (d.minCoeff() <= 0) return INFINITY;
    Eigen::VectorXd r = Eigen::VectorXd::Zero(A.rows());
    for (int c = 0; c < A.outerSize(); ++c)
      for (SparseMatrixd::InnerIterator it(A, c); it; ++it)
        if (it.row() != c) r[it.row()] += std::abs(it.value()) / std::sqrt(d[it.row()] * d[c]);
    return r.maxCoeff();
  }
  /// The direct factorizations: CHOLMOD's supernodal LLᵀ for a large
  /// factor, then LDLᵀ with pivoting (MUMPS) if it is not positive
  /// definite, else Eigen's simplicial LDLᵀ.
  bool factorDirect(const SparseMatrixd& A, int nc) {
    myUseCholmod = false;
#ifdef SINEW_HAVE_SUITESPARSE
    if (mySupernodal) {
      myUseCholmod = myCholmod.factor(A, 0, myCholmodStale);
      myCholmodStale = false;
      if (myUseCholmod) return true;
      // Not positive definite: until the pattern changes, a factorization
      // with pivoting of the same (large) size if there is one, else LDLᵀ.
      mySupernodal = false;
      myIndefiniteLarge = true;
    }
#endif
    myUseMumps = false;
#ifdef SINEW_HAVE_MUMPS
    if (myIndefiniteLarge) {
      myUseMumps = myMumps.factor(A, nc, myMumpsStale);
      if (myUseMumps) return true;
    }
#endif
    bool ok = myDirect.factor(A, nc, myDirectStale);
    myDirectStale = false;
    return ok;
  }

  PCGSolver myPCG;
  IncompleteCholeskyCG myIC;
  const SparseMatrixd* myA = nullptr;  ///< the matrix the preconditioner was formed for
  int myNc = 0;
  EigenLDLTSolver myDirect;
#ifdef SINEW_HAVE_SUITESPARSE
  CholmodSolver myCholmod;
#endif
#ifdef SINEW_HAVE_MUMPS
  LazyMumps myMumps;
#endif
  bool myUsePCG = false, myUseIC = false, myUseCholmod = false, myUseMumps = false;
  bool mySupernodal = false, myIterative = false, myICStale = true;
  bool myIndefiniteLarge = false;  ///< LLᵀ failed on a supernodal-sized matrix of this pattern
  bool myDirectStale = true, myCholmodStale = true, myMumpsStale = true, myChoiceStale = true;
};

#ifdef SINEW_HAVE_SUITESPARSE
/// Auto for KKT matrices [S Bᵀ; B −R]: CholmodSchurSolver when S alone
/// would go to the supernodal factorization (≥ kSupernodalFlops) and the
/// rows are few enough that their solves with S's factor and their dense
/// complement cost less than that factorization (contact on an FEM body);
/// otherwise, and when S is not positive definite, the whole of K: by
/// MUMPS's LDLᵀ with pivoting where S alone is that large (hard
/// incompressibility, an indefinite FEM tangent), else by EigenLDLT.
/// `preferSchur` (the Cholmod backend) takes the Schur path whenever S is
/// positive definite and the dense Bᵀ and S⁻¹Bᵀ stay within kMaxDense
/// entries each (hard incompressibility's row per element would not), and
/// otherwise the same whole-K path.
class AutoKKTSolver : public LinearSolver {
 public:
  explicit AutoKKTSolver(bool preferSchur) : myPreferSchur(preferSchur) {}
  bool factor(const SparseMatrixd& K, int nc, bool patternChanged) override {
    myDirectStale = myDirectStale || patternChanged;
    myMumpsStale = myMumpsStale || patternChanged;
    if (mySchur.split(K, nc)) {
      // S's pattern is new: its factorization's cost, and another chance
      // for LLᵀ.
      const FactorCost c = choleskyCost(mySchur.stiffness());
      myFlopsS = c.flops;
      myEntriesS = c.entries;
      mySPD = true;
    }
    const double m = nc, n = static_cast<double>(K.rows()) - nc;
    const double schurFlops = 4 * m * myEntriesS + 2 * m * m * n + m * m * m / 3;
    const bool pays = myPreferSchur ? m * n <= kMaxDense
                                    : myFlopsS >= AutoSPDSolver::kSupernodalFlops && schurFlops <= myFlopsS;
    myUseSchur = mySPD && pays;
    if (myUseSchur) {
      if (mySchur.factorSplit()) return true;
      mySPD = myUseSchur = false;  // the whole of K until S's pattern changes
    }
    // The whole of K: where S alone is a supernodal-sized factorization, by
    // the multifrontal LDLᵀ with pivoting (MumpsSolver.h), else by
    // Eigen's simplicial LDLᵀ.
    myUseMumps = false;
#ifdef SINEW_HAVE_MUMPS
    if (myFlopsS >= AutoSPDSolver::kSupernodalFlops) {
      myUseMumps = myMumps.factor(K, nc, myMumpsStale);
      if (myUseMumps) return true;
    }
#endif
    const bool ok = myDirect.factor(K, nc, myDirectStale);
    myDirectStale = false;
    return ok;
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override {
    if (myUseSchur) mySchur.solve(b, x);
#ifdef SINEW_HAVE_MUMPS
    else if (myUseMumps) myMumps.solve(b, x);
#endif
    else myDirect.solve(b, x);
  }
  std::string name() const override {
    const char* backend = myUseSchur ? "CholmodSchur" : myUseMumps ? "Mumps" : "EigenLDLT";
    return myPreferSchur ? backend : std::string("Auto(") + backend + ")";
  }

 private:
  static constexpr double kMaxDense = 2e7;  ///< 160 MB a matrix
  CholmodSchurSolver mySchur;
  EigenLDLTSolver myDirect;
#ifdef SINEW_HAVE_MUMPS
  LazyMumps myMumps;
#endif
  double myFlopsS = 0, myEntriesS = 0;
  bool myPreferSchur, mySPD = true, myUseSchur = false, myUseMumps = false;
  bool myDirectStale = true, myMumpsStale = true;
};
#endif


}  // namespace

bool LinearSolver::hasSuiteSparse() {
#ifdef SINEW_HAVE_SUITESPARSE
  return true;
#else
  return false;
#endif
}

bool LinearSolver::hasMumps() {
#ifdef SINEW_HAVE_MUMPS
  return true;
#else
  return false;
#endif
}

std::unique_ptr<LinearSolver> LinearSolver::create(LinearSolverType type, int size, int numConstraints) {
  if (type == LinearSolverType::Auto) {
    // Measured in bench/ (docs/solvers.md): Eigen's simplicial LDLᵀ wins on
    // small systems and on KKT systems with many rows; warm-started PCG
    // keeps large, well-conditioned SPD systems linear in cost; a large
    // FEM matrix with few rows goes to CHOLMOD through the Schur complement.
    if (numConstraints == 0) return std::make_unique<AutoSPDSolver>();
#ifdef SINEW_HAVE_SUITESPARSE
    return std::make_unique<AutoKKTSolver>(false);
#else
    type = LinearSolverType::EigenLDLT;
#endif
  }
  if (type == LinearSolverType::Mumps) {
#ifdef SINEW_HAVE_MUMPS
    return std::make_unique<MumpsSolver>();
#else
    throw ModelError("Mumps needs MUMPS (libmumps-seq-dev), which this build lacks");
#endif
  }
  if (type == LinearSolverType::PCG) {
    if (numConstraints > 0) return std::make_unique<EigenLDLTSolver>();
    return std::make_unique<PCGSolver>();
  }
#ifdef SINEW_HAVE_SUITESPARSE
  if (type == LinearSolverType::Umfpack) return std::make_unique<UmfpackSolver>("Umfpack");
  if (type == LinearSolverType::Cholmod) {
    if (numConstraints > 0) return std::make_unique<AutoKKTSolver>(true);
    return std::make_unique<CholmodSolver>();
  }
#else
  if (type != LinearSolverType::EigenLDLT)
    throw ModelError(toString(type) + " needs SuiteSparse, which this build lacks");
#endif
  return std::make_unique<EigenLDLTSolver>();
}

}  // namespace sinew
