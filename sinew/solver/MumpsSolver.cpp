#include "sinew/solver/MumpsSolver.h"

#ifdef SINEW_HAVE_MUMPS
#include <dmumps_c.h>

#include <algorithm>
#include <string>

#include "sinew/Error.h"
#include "sinew/solver/IterativeRefinement.h"

namespace sinew {

namespace {
/// MUMPS's Fortran communicator for the sequential library.
constexpr int kCommWorld = -987654;
/// MUMPS's default extra workspace for pivoting, percent of the analysis's estimate.
constexpr int kWorkspacePercent = 20;
/// ICNTL(i) and INFOG(i) as the MUMPS manual numbers them.
int& icntl(DMUMPS_STRUC_C& id, int i) { return id.icntl[i - 1]; }
int infog(const DMUMPS_STRUC_C& id, int i) { return id.infog[i - 1]; }
}  // namespace

struct MumpsSolver::Instance {
  DMUMPS_STRUC_C id{};
  Instance() {
    id.job = -1;  // initialize
    id.par = 1;   // the host works too (there is only the host)
    id.sym = 2;   // general symmetric: LDLᵀ with pivoting
    id.comm_fortran = kCommWorld;
    dmumps_c(&id);
    // Quiet: no error, diagnostic or global output streams.
    icntl(id, 1) = -1, icntl(id, 2) = -1, icntl(id, 3) = -1, icntl(id, 4) = 0;
    // The ordering: PORD (bundled with MUMPS, so every build has it) on
    // the graph compressed for augmented systems (ICNTL(12) = 2: each
    // constraint row kept with the unknowns it couples). Measured against
    // the default (automatic: AMF or SCOTCH) on hard-incompressible beams
    // (docs/solvers.md): a nodal hex beam's solve 121 → 32 ms, a nodal tet
    // beam's 62 → 23 ms, an element hex beam's 22 → 18 ms; the same on the
    // FEM ball in contact.
    icntl(id, 7) = 4, icntl(id, 12) = 2;
  }
  ~Instance() {
    id.job = -2;  // free everything
    dmumps_c(&id);
  }
  void run(int job) {
    id.job = job;
    dmumps_c(&id);
  }
  [[noreturn]] void fail(const char* what) const {
    throw SolverError(0, "", std::string("MUMPS ") + what + " failed: INFOG(1) = " + std::to_string(infog(id, 1)) +
                                 ", INFOG(2) = " + std::to_string(infog(id, 2)));
  }
};

MumpsSolver::MumpsSolver() : myMumps(std::make_unique<Instance>()) {
  if (infog(myMumps->id, 1) < 0) myMumps->fail("initialization");
}

MumpsSolver::~MumpsSolver() = default;

void MumpsSolver::gather(const SparseMatrixd& M, bool patternChanged) {
  if (patternChanged) {
    myRows.clear();
    myCols.clear();
  }
  myValues.clear();
  for (int j = 0; j < M.outerSize(); ++j)
    for (SparseMatrixd::InnerIterator it(M, j); it; ++it) {
      if (it.row() < j) continue;
      if (patternChanged) {
        myRows.push_back(it.row() + 1);
        myCols.push_back(j + 1);
      }
      myValues.push_back(it.value());
    }
}

bool MumpsSolver::factor(const SparseMatrixd& A, int nc, bool patternChanged) {
  myA = &A;
  myNc = nc;
  const SparseMatrixd& M = nc > 0 ? myReg.apply(A, nc, patternChanged) : A;
  DMUMPS_STRUC_C& id = myMumps->id;
  bool analyse = patternChanged || !myAnalyzed || id.n != M.rows();
  gather(M, analyse);
  if (!analyse && myValues.size() != myRows.size()) {
    // A new pattern of the same size that the caller did not announce.
    analyse = true;
    gather(M, true);
  }
  id.n = static_cast<int>(M.rows());
  id.nnz = static_cast<MUMPS_INT8>(myValues.size());
  id.irn = myRows.data();
  id.jcn = myCols.data();
  id.a = myValues.data();
  if (analyse) {
    icntl(id, 14) = kWorkspacePercent;  // as the analysis foresees, until pivoting needs more
    myMumps->run(1);
    if (infog(id, 1) < 0) myMumps->fail("analysis");
    myAnalyzed = true;
  }
  // Pivoting can need more room than the analysis foresaw: more, and again.
  for (int attempt = 0;; ++attempt) {
    myMumps->run(2);
    const int err = infog(id, 1);
    if (err >= 0) return true;
    if (err == -10) return false;  // numerically singular
    if ((err == -8 || err == -9 || err == -14 || err == -15 || err == -17 || err == -20) && attempt < 4) {
      icntl(id, 14) *= 2;  // percent of extra workspace: at most 16 times the default
      continue;
    }
    myMumps->fail("factorization");
  }
}

void MumpsSolver::solveInPlace(Eigen::VectorXd& x) {
  DMUMPS_STRUC_C& id = myMumps->id;
  id.nrhs = 1;
  id.lrhs = id.n;
  id.rhs = x.data();
  myMumps->run(3);
  if (infog(id, 1) < 0) myMumps->fail("solve");
}

void MumpsSolver::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  x = b;
  solveInPlace(x);
  if (myNc == 0) return;
  // Against the exact matrix (the regularization's error).
  refineAgainst(*myA, b, x, myR, 1, [&](const Eigen::VectorXd& r) -> const Eigen::VectorXd& {
    myDx = r;
    solveInPlace(myDx);
    return myDx;
  });
}

}  // namespace sinew
#endif
