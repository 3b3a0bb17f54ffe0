#include "sinew/solver/CholmodSchurSolver.h"

#include "sinew/solver/IterativeRefinement.h"
#include "sinew/solver/SerialOpenMP.h"

#ifdef SINEW_HAVE_SUITESPARSE
#include <algorithm>
#include <cmath>
#include <vector>

namespace sinew {

CholmodSchurSolver::CholmodSchurSolver() { myLLT.cholmod().print = 0; }

bool CholmodSchurSolver::split(const SparseMatrixd& K, int m) {
  myK = &K;
  myM = m;
  myN = static_cast<int>(K.rows()) - m;
  const int n = myN;
  // S is the leading part of each of the first n columns (rows sorted).
  const int* outer = K.outerIndexPtr();
  const int* inner = K.innerIndexPtr();
  const double* value = K.valuePtr();
  std::vector<int> sOuter(n + 1, 0), sInner;
  std::vector<double> sValue;
  sInner.reserve(outer[n]);
  sValue.reserve(outer[n]);
  for (int j = 0; j < n; ++j) {
    for (int p = outer[j]; p < outer[j + 1] && inner[p] < n; ++p) {
      sInner.push_back(inner[p]);
      sValue.push_back(value[p]);
    }
    sOuter[j + 1] = static_cast<int>(sInner.size());
  }
  const bool same = myS.rows() == n && myS.nonZeros() == static_cast<Eigen::Index>(sInner.size()) &&
                    std::equal(sOuter.begin(), sOuter.end(), myS.outerIndexPtr()) &&
                    std::equal(sInner.begin(), sInner.end(), myS.innerIndexPtr());
  if (!same) {
    myS.resize(n, n);
    myS.resizeNonZeros(static_cast<Eigen::Index>(sInner.size()));
    std::copy(sOuter.begin(), sOuter.end(), myS.outerIndexPtr());
    std::copy(sInner.begin(), sInner.end(), myS.innerIndexPtr());
    mySPatternChanged = true;
  }
  std::copy(sValue.begin(), sValue.end(), myS.valuePtr());
  return !same;
}

bool CholmodSchurSolver::factorSplit() {
  const SerialOpenMP serial;  // CHOLMOD's fixed four OpenMP threads (SerialOpenMP.h)
  const Eigen::Map<const Eigen::VectorXd> values(myS.valuePtr(), myS.nonZeros());
  if (mySPatternChanged) {
    myLLT.analyzePattern(myS);
    mySFactored = false;
    mySPatternChanged = false;
  }
  // The rows change from pass to pass of an active-set solve; S does not.
  if (!mySFactored || values != mySValues) {
    myLLT.factorize(myS);
    mySFactored = myLLT.info() == Eigen::Success;
    if (!mySFactored) return false;
    mySValues = values;
  }
  if (myM == 0) return true;
  // Bᵀ and K's lower-right block, dense: the rows are few on this path.
  const int n = myN;
  const int* outer = myK->outerIndexPtr();
  const int* inner = myK->innerIndexPtr();
  const double* value = myK->valuePtr();
  myBt.setZero(n, myM);
  myD.setZero(myM, myM);
  for (int j = 0; j < n + myM; ++j)
    for (int p = outer[j]; p < outer[j + 1]; ++p)
      if (inner[p] >= n) (j < n ? myBt(j, inner[p] - n) : myD(inner[p] - n, j - n)) = value[p];
  myY = myLLT.solve(myBt);
  Eigen::MatrixXd C = myBt.transpose() * myY - myD;
  C = 0.5 * (C + C.transpose()).eval();
  // Redundant rows make C singular: 1e-12 of each row's own scale, as
  // EigenLDLT regularizes its constraint block; refinement removes it.
  const double fallback = 1e-12 * std::max(1e-300, C.diagonal().cwiseAbs().maxCoeff());
  for (int i = 0; i < myM; ++i) C(i, i) += C(i, i) > 0 ? 1e-12 * C(i, i) : fallback;
  myC.compute(C);
  return myC.info() == Eigen::Success;
}

bool CholmodSchurSolver::factor(const SparseMatrixd& K, int numConstraints, bool) {
  split(K, numConstraints);
  return factorSplit();
}

void CholmodSchurSolver::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  const int n = myN, m = myM;
  auto solveOnce = [&](const Eigen::VectorXd& rhs, Eigen::VectorXd& sol) {
    myX1 = myLLT.solve(rhs.head(n));
    sol.resize(n + m);
    if (m == 0) {
      sol = myX1;
      return;
    }
    const Eigen::VectorXd y = myC.solve(myBt.transpose() * myX1 - rhs.tail(m));
    sol.head(n) = myX1 - myY * y;
    sol.tail(m) = y;
  };
  solveOnce(b, x);
  if (m == 0) return;
  // Against the exact K (C's regularization); a step that does not halve
  // the residual ends it (redundant rows, whose residual cannot vanish).
  refineAgainst(*myK, b, x, myR, 0, [&](const Eigen::VectorXd& r) -> const Eigen::VectorXd& {
    solveOnce(r, myDx);
    return myDx;
  });
}

}  // namespace sinew
#endif
