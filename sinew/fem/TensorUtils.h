// Small tensor helpers for the FEM kernels (guide §6.1.3): Voigt notation,
// the fourth-order products that spatial tangents are built from, the polar
// decomposition used by corotated materials, and strain measures.
//
// Voigt convention (used by every FemMaterial): a symmetric tensor A maps to
// the 6-vector (Axx, Ayy, Azz, Axy, Ayz, Axz). Stresses use that vector as is;
// strains use engineering shears (2εxy, 2εyz, 2εxz), so that σ = D·ε with the
// D of eq. (6.2). A fourth-order tensor c with minor symmetries maps to the
// 6×6 matrix c[I][J] = c_ijkl for I = (ij), J = (kl); then c·ε_voigt is c:ε.
#pragma once

#include <Eigen/Core>

#include "sinew/math/Spatial.h"

namespace sinew {

/// (Axx, Ayy, Azz, Axy, Ayz, Axz) of a symmetric A.
inline Vector6d toVoigt(const Matrix3d& A) {
  Vector6d v;
  v << A(0, 0), A(1, 1), A(2, 2), A(0, 1), A(1, 2), A(0, 2);
  return v;
}

/// The symmetric tensor with Voigt components v (stress-like, no factor 2).
inline Matrix3d fromVoigt(const Vector6d& v) {
  Matrix3d A;
  A << v[0], v[3], v[5], v[3], v[1], v[4], v[5], v[4], v[2];
  return A;
}

/// Row/column indices (i, j) of Voigt entry I.
inline constexpr int kVoigtI[6] = {0, 1, 2, 0, 1, 0};
inline constexpr int kVoigtJ[6] = {0, 1, 2, 1, 2, 2};

/// A ⊗ B in Voigt form: c_ijkl = A_ij B_kl.
inline Matrix6d voigtOuter(const Matrix3d& A, const Matrix3d& B) {
  return toVoigt(A) * toVoigt(B).transpose();
}

/// A ⊙ A in Voigt form: c_ijkl = ½(A_ik A_jl + A_il A_jk), the push-forward
/// of the symmetric identity (I ⊙ I is the symmetric identity 𝕀 itself).
Matrix6d voigtSymProduct(const Matrix3d& A);

/// The map A ↦ P A Pᵀ of symmetric tensors on stress-like Voigt vectors
/// (entry (AB, ab) is P_Aa P_Bb + P_Ab P_Ba for a ≠ b, P_Aa P_Ba for a = b).
/// With Q = Q(F⁻¹) it pulls a Cauchy stress back to the second
/// Piola–Kirchhoff one, S = J·Q·σ, and a spatial tangent back to the
/// material one, C = J·Q·c·Qᵀ.
Matrix6d voigtCongruence(const Matrix3d& P);

/// I ⊗ I and 𝕀 = I ⊙ I = diag(1,1,1,½,½,½) in Voigt form.
Matrix6d voigtIdentityOuter();
Matrix6d voigtSymIdentity();

/// The rotation R of the polar decomposition F = R·U (U symmetric positive
/// semi-definite). When det F ≤ 0 the factor with det R = +1 closest to F is
/// returned, so corotated materials stay defined for inverted elements.
Matrix3d polarRotation(const Matrix3d& F);

/// Green–Lagrange strain E = ½(FᵀF − I).
inline Matrix3d greenStrain(const Matrix3d& F) {
  return 0.5 * (F.transpose() * F - Matrix3d::Identity());
}

/// Small (Cauchy) strain of the deformation F with the rotation R removed:
/// ε = sym(RᵀF) − I; R = I gives the plain small strain sym(F) − I.
inline Matrix3d smallStrain(const Matrix3d& F, const Matrix3d& R) {
  Matrix3d G = R.transpose() * F;
  return 0.5 * (G + G.transpose()) - Matrix3d::Identity();
}

}  // namespace sinew
