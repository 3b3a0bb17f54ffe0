#include "sinew/fem/TensorUtils.h"

#include <Eigen/SVD>

namespace sinew {

Matrix6d voigtSymProduct(const Matrix3d& A) {
  Matrix6d c;
  for (int I = 0; I < 6; ++I) {
    int i = kVoigtI[I], j = kVoigtJ[I];
    for (int J = 0; J < 6; ++J) {
      int k = kVoigtI[J], l = kVoigtJ[J];
      c(I, J) = 0.5 * (A(i, k) * A(j, l) + A(i, l) * A(j, k));
    }
  }
  return c;
}

Matrix6d voigtCongruence(const Matrix3d& P) {
  Matrix6d Q;
  for (int I = 0; I < 6; ++I) {
    const int A = kVoigtI[I], B = kVoigtJ[I];
    for (int J = 0; J < 6; ++J) {
      const int a = kVoigtI[J], b = kVoigtJ[J];
      Q(I, J) = P(A, a) * P(B, b) + (a != b ? P(A, b) * P(B, a) : 0.0);
    }
  }
  return Q;
}

Matrix6d voigtIdentityOuter() {
  Matrix6d c = Matrix6d::Zero();
  c.topLeftCorner<3, 3>().setOnes();
  return c;
}

Matrix6d voigtSymIdentity() {
  Vector6d d;
  d << 1, 1, 1, 0.5, 0.5, 0.5;
  return d.asDiagonal();
}

Matrix3d polarRotation(const Matrix3d& F) {
  Eigen::JacobiSVD<Matrix3d> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Matrix3d U = svd.matrixU();
  const Matrix3d& V = svd.matrixV();
  // Singular values come sorted, so flipping the last column of U turns a
  // reflection into the nearest proper rotation.
  if ((U * V.transpose()).determinant() < 0) U.col(2) = -U.col(2);
  return U * V.transpose();
}

}  // namespace sinew
