#include "sinew/joints/ParameterizedCoupling.h"

#include <Eigen/SVD>
#include <cmath>

namespace sinew {

using C = RigidBodyConstraint;

void ParameterizedCoupling::addCoordinates(const std::vector<Coordinate>& coords) {
  // Bilateral rows first, as in the guide's tables.
  for (size_t k = coords.size(); k < 6; ++k) addConstraint(C::BILATERAL | C::LINEAR);
  for (const auto& c : coords)
    addCoordinate(c.name, -INFINITY, INFINITY, &addConstraint(c.rotary ? C::ROTARY : C::LINEAR));
}

Eigen::Matrix<double, 6, Eigen::Dynamic> ParameterizedCoupling::twistJacobian(const Eigen::VectorXd& q) const {
  const double eps = 1e-6;
  const int n = static_cast<int>(q.size());
  RigidTransform3d T0, Tp, Tm;
  coordinatesToTCD(T0, q);
  const RigidTransform3d T0inv = T0.inverse();
  Eigen::Matrix<double, 6, Eigen::Dynamic> J(6, n);
  for (int i = 0; i < n; ++i) {
    Eigen::VectorXd qp = q, qm = q;
    qp[i] += eps;
    qm[i] -= eps;
    coordinatesToTCD(Tp, qp);
    coordinatesToTCD(Tm, qm);
    J.col(i) = (errorTwist(T0inv * Tp) - errorTwist(T0inv * Tm)) / (2 * eps);
  }
  return J;
}

void ParameterizedCoupling::fit(Eigen::VectorXd& q, const RigidTransform3d& TCD) const {
  RigidTransform3d T;
  for (int it = 0; it < 30; ++it) {
    coordinatesToTCD(T, q);
    const Twist e = errorTwist(T.inverse() * TCD);
    const Eigen::VectorXd dq = twistJacobian(q).colPivHouseholderQr().solve(e);
    q += dq;
    if (dq.norm() < 1e-14 * (1 + q.norm())) break;
  }
}

void ParameterizedCoupling::TCDToCoordinates(Eigen::VectorXd& coords, const RigidTransform3d& TCD) const {
  coords = getCoordinateValues();
  fit(coords, TCD);
}

void ParameterizedCoupling::projectToConstraints(RigidTransform3d& TGD, const RigidTransform3d& TCD,
                                                 Eigen::VectorXd* coords) const {
  Eigen::VectorXd q = getCoordinateValues();
  fit(q, TCD);
  coordinatesToTCD(TGD, q);
  if (coords) *coords = q;
}

Eigen::Matrix<double, 6, Eigen::Dynamic> ParameterizedCoupling::normalBasis(
    const Eigen::Matrix<double, 6, Eigen::Dynamic>& J) {
  const Eigen::Matrix<double, 6, 6> Q = Eigen::HouseholderQR<Eigen::Matrix<double, 6, Eigen::Dynamic>>(J)
                                            .householderQ();
  return Q.rightCols(6 - J.cols());
}

void ParameterizedCoupling::updateConstraints(const RigidTransform3d&, const RigidTransform3d&, const Twist&,
                                              const Twist&, bool) {
  const Eigen::VectorXd q = getCoordinateValues();
  const int n = static_cast<int>(q.size());
  const Eigen::Matrix<double, 6, Eigen::Dynamic> J = twistJacobian(q);
  // The bilateral wrenches: a basis of the normal space of J (orthogonal to
  // every allowed twist), continuous in q as position stabilization's chord
  // passes (which reuse the velocity solve's rows) and the forward-
  // differenced Ġu assume. The last 6 − n columns of J's full Q span it,
  // but Householder's sign choices make them jump between nearby
  // configurations (an ellipsoid joint at 27 rad/s: chord passes doubled
  // the error, 1e-8 of drift stayed); rotated within the span to the
  // nearest of the basis at q = 0 (orthogonal Procrustes), they do not, and
  // they depend on q alone, so that a restored state continues bit for bit.
  Eigen::Matrix<double, 6, Eigen::Dynamic> basis = normalBasis(J);
  if (myReferenceBasis.cols() != basis.cols()) myReferenceBasis = normalBasis(twistJacobian(Eigen::VectorXd::Zero(n)));
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(basis.transpose() * myReferenceBasis,
                                              Eigen::ComputeFullU | Eigen::ComputeFullV);
  if (svd.singularValues().minCoeff() > 1e-6) basis = basis * (svd.matrixU() * svd.matrixV().transpose());
  for (int k = 0; k < 6 - n; ++k) getConstraint(k).setWrenchG(basis.col(k));
  const Eigen::MatrixXd N = J.completeOrthogonalDecomposition().pseudoInverse();
  for (int l = 0; l < n; ++l) getCoordinateInfo(l).limitConstraint->setWrenchG(N.row(l).transpose());
}

}  // namespace sinew
