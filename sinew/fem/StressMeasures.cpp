#include "sinew/fem/StressMeasures.h"

#include <Eigen/Eigenvalues>
#include <cmath>

namespace sinew {

namespace {
double secondDeviatoricInvariant(const Matrix3d& A) {
  Matrix3d s = A - A.trace() / 3 * Matrix3d::Identity();
  return 0.5 * s.squaredNorm();
}
}  // namespace

double vonMises(const Matrix3d& sigma) { return std::sqrt(3 * secondDeviatoricInvariant(sigma)); }

double vonMisesStrain(const Matrix3d& eps) { return std::sqrt(4.0 / 3.0 * secondDeviatoricInvariant(eps)); }

Vector3d principalValues(const Matrix3d& A) {
  Eigen::SelfAdjointEigenSolver<Matrix3d> eig(A, Eigen::EigenvaluesOnly);
  return eig.eigenvalues().reverse();  // the solver sorts increasing
}

double maxShear(const Matrix3d& A) {
  Vector3d p = principalValues(A);
  return 0.5 * (p[0] - p[2]);
}

double maxAbsPrincipalValue(const Matrix3d& A) {
  Vector3d p = principalValues(A);
  return std::abs(p[0]) >= std::abs(p[2]) ? p[0] : p[2];
}

}  // namespace sinew
