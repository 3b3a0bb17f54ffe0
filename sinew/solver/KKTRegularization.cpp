#include "sinew/solver/KKTRegularization.h"

#include <algorithm>
#include <cmath>

namespace sinew {

const SparseMatrixd& KKTRegularization::apply(const SparseMatrixd& A, int nc, bool patternChanged) {
  if (patternChanged || nc != myNc || myReg.nonZeros() != A.nonZeros() || myReg.rows() != A.rows()) {
    myReg = A;
    myNc = nc;
    myDiag.clear();
    for (int i = static_cast<int>(A.rows()) - nc; i < A.rows(); ++i) myDiag.push_back(valuePosition(myReg, i, i));
  } else {
    std::copy(A.valuePtr(), A.valuePtr() + A.nonZeros(), myReg.valuePtr());
  }
  const int n = static_cast<int>(A.rows()) - nc;
  const double fallback = 1e-12 * std::max(1.0, A.diagonal().head(n).cwiseAbs().maxCoeff());
  myScale.assign(nc, 0.0);
  const Eigen::VectorXd d = A.diagonal();
  for (int j = 0; j < n; ++j)
    for (SparseMatrixd::InnerIterator it(A, j); it; ++it)
      if (it.row() >= n && d[j] != 0) myScale[it.row() - n] += it.value() * it.value() / std::abs(d[j]);
  for (int i = 0; i < nc; ++i) myReg.valuePtr()[myDiag[i]] -= myScale[i] > 0 ? 1e-12 * myScale[i] : fallback;
  return myReg;
}

}  // namespace sinew
