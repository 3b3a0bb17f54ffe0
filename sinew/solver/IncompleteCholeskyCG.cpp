#include "sinew/solver/IncompleteCholeskyCG.h"

namespace sinew {

bool IncompleteCholeskyCG::factor(const SparseMatrixd& A, bool patternChanged) {
  myCG.setTolerance(1e-12);
  myCG.setMaxIterations(kMaxIterations);
  if (patternChanged || !myAnalyzed) {
    myCG.analyzePattern(A);
    myAnalyzed = true;
  }
  myCG.factorize(A);
  return myCG.info() == Eigen::Success;
}

bool IncompleteCholeskyCG::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  if (x.size() == b.size()) x = myCG.solveWithGuess(b, x);
  else x = myCG.solve(b);
  myIterations = static_cast<int>(myCG.iterations());
  return myCG.info() == Eigen::Success;
}

}  // namespace sinew
