// The velocity Jacobian of a rigid body's fictitious (Coriolis and
// gyroscopic) wrench, SpatialInertia::coriolisForce (guide §3.2.1): what a
// step needs to treat that wrench implicitly. Explicit Euler on the
// gyroscopic term gains energy when a body spins fast (h·|ω| of a few
// tenths already); one Newton step of the implicit update, with this
// Jacobian, is stable. implicitMidpointVelocity takes the wrench by the
// implicit midpoint rule, which keeps a free body's kinetic energy.
#pragma once

#include <Eigen/LU>

#include "sinew/math/Spatial.h"

namespace sinew {

/// ∂f/∂(v, ω) of f = coriolisForce(R, tw) for inertia I at rotation R.
/// f depends on ω only: with r = R·c the world offset of the centre of
/// mass, a = ω × r, b = ω × a, J = R J_c Rᵀ:
///   f_v = −m b,               ∂f_v/∂ω = m ([a] + [ω][r])
///   f_ω = −ω × Jω − m r × b,  ∂f_ω/∂ω = [Jω] − [ω]J + m [r]([a] + [ω][r])
inline Matrix6d coriolisJacobian(const SpatialInertia& I, const Matrix3d& R, const Twist& tw) {
  const double m = I.getMass();
  const Vector3d w = tw.tail<3>(), r = R * I.getCenterOfMass();
  const Matrix3d J = R * I.getRotationalInertia() * R.transpose();
  const Matrix3d db = skew(w.cross(r)) + skew(w) * skew(r);  // −∂b/∂ω
  Matrix6d D = Matrix6d::Zero();
  D.block<3, 3>(0, 3) = m * db;
  D.block<3, 3>(3, 3) = skew(J * w) - skew(w) * J + m * skew(r) * db;
  return D;
}

/// The twist w1 after a step h of a body with world mass matrix M (at R)
/// under a constant wrench f and its fictitious wrench taken at the step's
/// midpoint twist, M (w1 − w0) = h (f + coriolisForce(R, (w0 + w1)/2)):
/// chord Newton with the Jacobian above taken once, at w0 — the midpoint
/// twist moves by h·|ω̇|/2 within the step, so each iteration still gains a
/// factor of about h·|ω|, and it costs one 6×6 factorization, not one per
/// iteration. Converged in a few steps for h·|ω| < 1 (up to 12).
/// With the centre of mass at the frame's origin and M block diagonal (a
/// body built about its centre of mass, the common case) the fictitious
/// wrench is −ω × Jω alone and the translational rows are explicit, so the
/// iteration is on ω with a 3×3 matrix.
inline Twist implicitMidpointVelocity(const SpatialInertia& I, const Matrix3d& R, const Matrix6d& M, const Twist& w0,
                                      const Vector6d& f, double h) {
  if (I.getCenterOfMass().isZero(0) && M.topRightCorner<3, 3>().isZero(0) && M.bottomLeftCorner<3, 3>().isZero(0)) {
    Twist w1;
    w1.head<3>() = w0.head<3>() + h * M.topLeftCorner<3, 3>().inverse() * f.head<3>();
    const Matrix3d Mw = M.bottomRightCorner<3, 3>(), J = R * I.getRotationalInertia() * R.transpose();
    const Vector3d om0 = w0.tail<3>();
    const Matrix3d A = (Mw - 0.5 * h * (skew(J * om0) - skew(om0) * J)).inverse();
    Vector3d om1 = om0;
    for (int it = 0; it < 12; ++it) {
      const Vector3d om = 0.5 * (om0 + om1);
      const Vector3d d = A * (Mw * (om1 - om0) - h * (f.tail<3>() - om.cross(J * om)));
      om1 -= d;
      if (d.norm() <= 1e-14 * (1 + w1.head<3>().norm() + om1.norm())) break;
    }
    w1.tail<3>() = om1;
    return w1;
  }
  const Eigen::PartialPivLU<Matrix6d> lu(M - 0.5 * h * coriolisJacobian(I, R, w0));
  Twist w1 = w0;
  for (int it = 0; it < 12; ++it) {
    const Twist wm = 0.5 * (w0 + w1);
    const Vector6d dw = lu.solve(M * (w1 - w0) - h * (f + I.coriolisForce(R, wm)));
    w1 -= dw;
    if (dw.norm() <= 1e-14 * (1 + w1.norm())) break;
  }
  return w1;
}

}  // namespace sinew
