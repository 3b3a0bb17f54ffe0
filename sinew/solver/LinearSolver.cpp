#include "sinew/solver/LinearSolver.h"

#include <Eigen/SparseCholesky>

#include "sinew/Error.h"

#ifdef SINEW_HAVE_SUITESPARSE
#include <Eigen/CholmodSupport>
#include <Eigen/UmfPackSupport>
#endif

namespace sinew {

LinearSolverType parseLinearSolverType(const std::string& n) {
  if (n == "Auto") return LinearSolverType::Auto;
  if (n == "EigenLDLT") return LinearSolverType::EigenLDLT;
  if (n == "Umfpack") return LinearSolverType::Umfpack;
  if (n == "Cholmod") return LinearSolverType::Cholmod;
  throw ModelError("unknown linear solver '" + n + "' (Auto, EigenLDLT, Umfpack, Cholmod)");
}

std::string toString(LinearSolverType t) {
  switch (t) {
    case LinearSolverType::Auto: return "Auto";
    case LinearSolverType::EigenLDLT: return "EigenLDLT";
    case LinearSolverType::Umfpack: return "Umfpack";
    case LinearSolverType::Cholmod: return "Cholmod";
  }
  return "?";
}

namespace {

/// LDLᵀ without pivoting; KKT matrices get −εI on the constraint block so
/// every pivot is non-zero, then iterative refinement against the exact A
/// removes the regularization error (deps.md: 1e-12 + 3 steps → 1e-14).
class EigenLDLTSolver : public LinearSolver {
 public:
  bool factor(const SparseMatrixd& A, int nc, bool patternChanged) override {
    myA = &A;
    myNc = nc;
    if (nc > 0) {
      myReg = A;
      const double eps = 1e-12 * std::max(1.0, A.diagonal().head(A.rows() - nc).cwiseAbs().maxCoeff());
      for (int i = A.rows() - nc; i < A.rows(); ++i) myReg.coeffRef(i, i) -= eps;
    }
    const SparseMatrixd& M = nc > 0 ? myReg : A;
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
    for (int k = 0; k < 3; ++k) {
      myR = b - (*myA) * x;
      x += myLDLT.solve(myR);
    }
  }
  std::string name() const override { return "EigenLDLT"; }

 private:
  Eigen::SimplicialLDLT<SparseMatrixd, Eigen::Lower, Eigen::AMDOrdering<int>> myLDLT;
  const SparseMatrixd* myA = nullptr;
  SparseMatrixd myReg;
  Eigen::VectorXd myR;
  int myNc = 0;
  bool myAnalyzed = false;
};

#ifdef SINEW_HAVE_SUITESPARSE
class UmfpackSolver : public LinearSolver {
 public:
  bool factor(const SparseMatrixd& A, int, bool patternChanged) override {
    if (patternChanged || !myAnalyzed) {
      myLU.analyzePattern(A);
      myAnalyzed = true;
    }
    myLU.factorize(A);
    return myLU.info() == Eigen::Success;
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override { x = myLU.solve(b); }
  std::string name() const override { return "Umfpack"; }

 private:
  Eigen::UmfPackLU<SparseMatrixd> myLU;
  bool myAnalyzed = false;
};

class CholmodSolver : public LinearSolver {
 public:
  CholmodSolver() { myLLT.cholmod().print = 0; }
  bool factor(const SparseMatrixd& A, int nc, bool patternChanged) override {
    if (nc > 0) throw SolverError(0, "", "Cholmod (LLT) cannot factor a KKT matrix");
    if (patternChanged || !myAnalyzed) {
      myLLT.analyzePattern(A);
      myAnalyzed = true;
    }
    myLLT.factorize(A);
    return myLLT.info() == Eigen::Success;
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override { x = myLLT.solve(b); }
  std::string name() const override { return "Cholmod"; }

 private:
  Eigen::CholmodSupernodalLLT<SparseMatrixd, Eigen::Lower> myLLT;
  bool myAnalyzed = false;
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

std::unique_ptr<LinearSolver> LinearSolver::create(LinearSolverType type, int size, int numConstraints) {
  if (type == LinearSolverType::Auto) {
    // Measured in bench/ (docs/solvers.md): Eigen's simplicial LDLᵀ wins on
    // small and rigid-body systems; CHOLMOD supernodal wins on large SPD ones.
    type = (hasSuiteSparse() && numConstraints == 0 && size > 6000) ? LinearSolverType::Cholmod
                                                                    : LinearSolverType::EigenLDLT;
  }
#ifdef SINEW_HAVE_SUITESPARSE
  if (type == LinearSolverType::Umfpack) return std::make_unique<UmfpackSolver>();
  if (type == LinearSolverType::Cholmod) {
    if (numConstraints > 0) return std::make_unique<EigenLDLTSolver>();
    return std::make_unique<CholmodSolver>();
  }
#else
  if (type != LinearSolverType::EigenLDLT)
    throw ModelError(toString(type) + " needs SuiteSparse, which this build lacks");
#endif
  return std::make_unique<EigenLDLTSolver>();
}

}  // namespace sinew
