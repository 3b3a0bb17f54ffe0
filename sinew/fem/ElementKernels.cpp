#include "sinew/fem/ElementKernels.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "sinew/fem/TensorUtils.h"
#include "sinew/math/Spatial.h"

namespace sinew {

/// The quadrature step with the material's stress and tangent at the point
/// already evaluated (D is read only when K is given).
static void addPointTerms(int n, const PointKinematics& pk, const DeformedPoint& def, const FemMaterial& mat,
                          const Matrix3d& sigma, const Matrix6d& D, ElementVector& f, ElementMatrix* K);

namespace {

std::string invertedMessage(int point, double det, bool atRest) {
  std::ostringstream out;
  if (atRest)
    out << "element is inverted or degenerate in its rest position (rest Jacobian " << det
        << " at integration point " << point << "); check its node ordering (guide 6.2.4)";
  else
    out << "inverted element: det F = " << det << " at integration point " << point;
  return out.str();
}

void checkNodeCounts(const ReferenceElement& elem, NodePositions rest, NodePositions pos) {
  if (static_cast<int>(rest.size()) != elem.numNodes() || static_cast<int>(pos.size()) != elem.numNodes())
    throw ModelError(std::string(elem.getName()) + " needs " + std::to_string(elem.numNodes()) +
                     " node positions, got " + std::to_string(rest.size()) + " rest and " +
                     std::to_string(pos.size()) + " current");
}

/// The 6×3 strain-displacement block of a node with spatial gradient g, in
/// the Voigt order (xx, yy, zz, xy, yz, xz) with engineering shears.
Eigen::Matrix<double, 6, 3> strainDisplacement(const Vector3d& g) {
  Eigen::Matrix<double, 6, 3> B;
  B << g.x(), 0, 0,  //
      0, g.y(), 0,   //
      0, 0, g.z(),   //
      g.y(), g.x(), 0,  //
      0, g.z(), g.y(),  //
      g.z(), 0, g.x();
  return B;
}

using Gradients = std::array<Vector3d, ReferenceElement::kMaxNodes>;

/// K_ij += (B_iᵀ D B_j + (g_iᵀ σ g_j) I) dv over the upper block triangle,
/// mirrored: D and σ are symmetric, so K is.
void addPointStiffness(ElementMatrix& K, const Gradients& g, int n, const Matrix6d& D, const Matrix3d& sigma,
                       double dv) {
  // B has three non-zeros per row of Bᵀ (see strainDisplacement): D B_j
  // and B_iᵀ (D B_j) are taken over them alone, about half the dense
  // products' multiplications.
  std::array<Eigen::Matrix<double, 6, 3>, ReferenceElement::kMaxNodes> DB;
  for (int j = 0; j < n; ++j) {
    const Vector3d q = dv * g[j];
    DB[j].col(0) = q.x() * D.col(0) + q.y() * D.col(3) + q.z() * D.col(5);
    DB[j].col(1) = q.y() * D.col(1) + q.x() * D.col(3) + q.z() * D.col(4);
    DB[j].col(2) = q.z() * D.col(2) + q.y() * D.col(4) + q.x() * D.col(5);
  }
  for (int i = 0; i < n; ++i) {
    const Vector3d& p = g[i];
    Vector3d sg = sigma * g[i] * dv;
    for (int j = i; j < n; ++j) {
      const Eigen::Matrix<double, 6, 3>& B = DB[j];
      Matrix3d Kij;
      Kij.row(0) = p.x() * B.row(0) + p.y() * B.row(3) + p.z() * B.row(5);
      Kij.row(1) = p.y() * B.row(1) + p.x() * B.row(3) + p.z() * B.row(4);
      Kij.row(2) = p.z() * B.row(2) + p.y() * B.row(4) + p.x() * B.row(5);
      Kij.diagonal().array() += sg.dot(g[j]);
      K.block<3, 3>(3 * i, 3 * j) += Kij;
      if (j != i) K.block<3, 3>(3 * j, 3 * i) += Kij.transpose();
    }
  }
}

/// Visits each integration point k with its kinematics and the material's
/// DeformedPoint (R the element rotation of corotated materials); reports an
/// inverted element unless the material tolerates inversion.
template <class Visit>
void forEachIntegrationPoint(const ReferenceElement& elem, NodePositions rest, NodePositions pos,
                             const FemMaterial& mat, Visit visit) {
  checkNodeCounts(elem, rest, pos);
  DeformedPoint def;
  if (mat.isCorotated()) def.R = computeWarpingRotation(elem, rest, pos);
  PointKinematics pk;
  for (int k = 0; k < elem.numIntegrationPoints(); ++k) {
    computePointKinematics(elem, k, rest, pos, pk);
    if (pk.J <= 0 && !mat.isInvertible()) throw InvertedElementError(k, pk.J, false);
    def.F = pk.F;
    def.J = pk.J;
    visit(k, pk, def);
  }
}

using NodeMatrices = std::array<Matrix3d, ReferenceElement::kMaxNodes>;


/// Adds to A_i = ∂f_i/∂ω the part of point k, where the element rotation
/// turns by dR = R[ω]: the rotated stress turns with it, f_i = −dV R σ₀ b_i
/// (b_i the rest gradient, σ₀ the stress in the element frame), and the
/// strain sym(RᵀF) − I changes by sym(−[ω]RᵀF).
void addRotationSensitivity(int n, const PointKinematics& pk, const DeformedPoint& def, const Matrix3d& sigma,
                            const Matrix6d& D, NodeMatrices& A) {
  const Matrix3d s0 = def.R.transpose() * sigma * def.R, Fr = def.R.transpose() * def.F;
  Eigen::Matrix<double, 6, 3> E;  // engineering strain of sym(−[e_c] Fr), column c
  for (int c = 0; c < 3; ++c) {
    const Matrix3d M = -skew(Vector3d::Unit(c)) * Fr;
    E.col(c) << M(0, 0), M(1, 1), M(2, 2), M(0, 1) + M(1, 0), M(1, 2) + M(2, 1), M(0, 2) + M(2, 0);
  }
  const Eigen::Matrix<double, 6, 3> DE = D * E;
  for (int i = 0; i < n; ++i) {
    const Vector3d& b = pk.dNdX[i];
    A[i] += pk.dV * def.R * (skew(s0 * b) - strainDisplacement(b).transpose() * DE);
  }
}

/// K_ij −= A_i ∂ω/∂x_j: the derivative of the element rotation that stiffness
/// warping leaves out. With F = RS at the warping point, RᵀdF − dFᵀR =
/// [(tr S I − S) ω], and dF = dx_j a_jᵀ gives ∂ω/∂x_j = (tr S I − S)⁻¹
/// [a_j] Rᵀ. A polar decomposition without a unique derivative (two
/// singular values summing to zero: a flattened element) keeps warping.
void addRotationTangent(const ReferenceElement& elem, NodePositions rest, NodePositions pos, const Matrix3d& R,
                        const NodeMatrices& A, ElementMatrix& K) {
  PointKinematics pw;
  computePointKinematics(elem, elem.warpingPointIndex(), rest, pos, pw);
  const Matrix3d S = R.transpose() * pw.F;
  const Matrix3d G = S.trace() * Matrix3d::Identity() - 0.5 * (S + S.transpose());
  if (std::abs(G.determinant()) <= 1e-12 * std::pow(S.norm(), 3)) return;
  const Matrix3d Ginv = G.inverse();
  const int n = elem.numNodes();
  for (int j = 0; j < n; ++j) {
    const Matrix3d W = Ginv * skew(pw.dNdX[j]) * R.transpose();
    for (int i = 0; i < n; ++i) K.block<3, 3>(3 * i, 3 * j) -= A[i] * W;
  }
}

/// The shared quadrature loop of the force and stiffness kernels.
void integrate(const ReferenceElement& elem, NodePositions rest, NodePositions pos, const FemMaterial& mat,
               ElementVector& f, ElementMatrix* K) {
  int n = elem.numNodes();
  f.setZero(3 * n);
  if (K) K->setZero(3 * n, 3 * n);
  const bool exactRotation = K && mat.isCorotated() && mat.hasExactRotationTangent();
  NodeMatrices A;
  if (exactRotation) std::fill_n(A.begin(), n, Matrix3d::Zero());
  Matrix3d R;
  forEachIntegrationPoint(elem, rest, pos, mat, [&](int, const PointKinematics& pk, const DeformedPoint& def) {
    Matrix3d sigma;
    Matrix6d D;
    mat.computeStressAndTangent(sigma, K ? &D : nullptr, def);
    addPointTerms(n, pk, def, mat, sigma, D, f, K);
    if (exactRotation) addRotationSensitivity(n, pk, def, sigma, D, A);
    R = def.R;
  });
  if (exactRotation) addRotationTangent(elem, rest, pos, R, A, *K);
}

}  // namespace

void addIntegrationPointTerms(int n, const PointKinematics& pk, const DeformedPoint& def, const FemMaterial& mat,
                              ElementVector& f, ElementMatrix* K) {
  Matrix3d sigma;
  Matrix6d D;
  mat.computeStressAndTangent(sigma, K ? &D : nullptr, def);
  addPointTerms(n, pk, def, mat, sigma, D, f, K);
}

static void addPointTerms(int n, const PointKinematics& pk, const DeformedPoint& def, const FemMaterial& mat,
                          const Matrix3d& sigma, const Matrix6d& D, ElementVector& f, ElementMatrix* K) {
  Gradients g;
  double dv = pk.dV;
  const bool linear = mat.isLinear();
  if (linear) {
    for (int i = 0; i < n; ++i) g[i] = def.R * pk.dNdX[i];
  } else {
    // Spatial gradients ∇ₓN = F⁻ᵀ ∇_X N; dv = J dV.
    Matrix3d FinvT = pk.F.inverse().transpose();
    for (int i = 0; i < n; ++i) g[i] = FinvT * pk.dNdX[i];
    dv *= pk.J;
  }
  for (int i = 0; i < n; ++i) f.segment<3>(3 * i) -= dv * (sigma * g[i]);
  // Small-strain theory has no initial-stress term.
  if (K) addPointStiffness(*K, g, n, D, linear ? Matrix3d::Zero() : sigma, dv);
}

InvertedElementError::InvertedElementError(int point, double determinant, bool atRest, std::string path)
    : Error((path.empty() ? "" : path + ": ") + invertedMessage(point, determinant, atRest)),
      myPoint(point),
      myDet(determinant),
      myAtRest(atRest),
      myPath(std::move(path)) {}

void computePointKinematics(const ReferenceElement& elem, int k, NodePositions rest, NodePositions pos,
                            PointKinematics& pk) {
  const ReferenceElement::ShapeGradients& dNds = elem.getShapeGradients(k);
  int n = elem.numNodes();
  Matrix3d J0 = Matrix3d::Zero();  // ∂X/∂s
  for (int i = 0; i < n; ++i) J0 += rest[i] * dNds.col(i).transpose();
  pk.detJ0 = J0.determinant();
  if (pk.detJ0 <= 0) throw InvertedElementError(k, pk.detJ0, true);
  Matrix3d J0invT = J0.inverse().transpose();
  pk.F.setZero();
  for (int i = 0; i < n; ++i) {
    pk.dNdX[i] = J0invT * dNds.col(i);
    pk.F += pos[i] * pk.dNdX[i].transpose();
  }
  pk.J = pk.F.determinant();
  pk.dV = k < elem.numIntegrationPoints() ? elem.getIntegrationPoints()[k].weight * pk.detJ0 : 0;
}

Matrix3d computeWarpingRotation(const ReferenceElement& elem, NodePositions rest, NodePositions pos) {
  checkNodeCounts(elem, rest, pos);
  PointKinematics pk;
  computePointKinematics(elem, elem.warpingPointIndex(), rest, pos, pk);
  return polarRotation(pk.F);
}

double computeVolume(const ReferenceElement& elem, NodePositions pos) {
  double vol = 0;
  for (int k = 0; k < elem.numIntegrationPoints(); ++k) {
    const ReferenceElement::ShapeGradients& dNds = elem.getShapeGradients(k);
    Matrix3d J = Matrix3d::Zero();
    for (int i = 0; i < elem.numNodes(); ++i) J += pos[i] * dNds.col(i).transpose();
    vol += elem.getIntegrationPoints()[k].weight * J.determinant();
  }
  return vol;
}

void computeElementForces(const ReferenceElement& elem, NodePositions rest, NodePositions pos,
                          const FemMaterial& mat, ElementVector& f) {
  integrate(elem, rest, pos, mat, f, nullptr);
}

void computeElementForcesAndStiffness(const ReferenceElement& elem, NodePositions rest, NodePositions pos,
                                      const FemMaterial& mat, ElementVector& f, ElementMatrix& K) {
  integrate(elem, rest, pos, mat, f, &K);
}

void symmetrizeStiffness(ElementMatrix& K) { K = (0.5 * (K + K.transpose())).eval(); }

double computeElementStrainEnergy(const ReferenceElement& elem, NodePositions rest, NodePositions pos,
                                  const FemMaterial& mat) {
  double energy = 0;
  forEachIntegrationPoint(elem, rest, pos, mat, [&](int, const PointKinematics& pk, const DeformedPoint& def) {
    energy += mat.computeStrainEnergyDensity(def) * pk.dV;
  });
  return energy;
}

void computeIntegrationPointStates(const ReferenceElement& elem, NodePositions rest, NodePositions pos,
                                   const FemMaterial& mat, std::span<IntegrationPointState> out) {
  forEachIntegrationPoint(elem, rest, pos, mat, [&](int k, const PointKinematics& pk, const DeformedPoint& def) {
    IntegrationPointState& s = out[k];
    s.F = pk.F;
    s.J = pk.J;
    s.strain = mat.isLinear() ? smallStrain(pk.F, def.R) : greenStrain(pk.F);
    s.stress = mat.computeStress(def);
  });
}

void extrapolateToNodes(const ReferenceElement& elem, std::span<const Matrix3d> atPoints,
                        std::span<Matrix3d> atNodes) {
  const Eigen::MatrixXd& E = elem.getNodalExtrapolationMatrix();
  for (int i = 0; i < elem.numNodes(); ++i) {
    atNodes[i].setZero();
    for (int k = 0; k < elem.numIntegrationPoints(); ++k) atNodes[i] += E(i, k) * atPoints[k];
  }
}

}  // namespace sinew
