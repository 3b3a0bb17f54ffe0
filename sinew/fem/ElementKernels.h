// Element kernels (guide §6.1.2.2, §6.1.3): the nodal elastic forces and
// tangent stiffness of one volumetric element by quadrature over its
// integration points, its rest and current volume, its strain energy, and
// the strain and stress at each integration point. Free functions of a
// ReferenceElement, the rest and current node positions (in the element's
// node order) and a FemMaterial; they know nothing of models or solvers.
//
// Conventions: f is the elastic force on the nodes, f = −∂E/∂x, and
// K = −∂f/∂x is the (symmetric) tangent stiffness, material plus
// initial-stress part. Large-strain materials integrate the Cauchy stress
// over the current volume, f_i = −∫ σ ∇ₓN_i dv. Small-strain materials
// (FemMaterial::isLinear) integrate over the rest volume with the rest
// gradients rotated by the element rotation R — the polar rotation of F at
// the warping point when corotated, else I — so K = R K₀ Rᵀ: stiffness
// warping, which, like ArtiSynth, leaves out the derivative of R (exact at
// rigidly rotated rest states, approximate under strain). A material with
// FemMaterial::hasExactRotationTangent (LinearMaterial's `exactTangent`)
// gets the derivative of R as well: K = −∂f/∂x exactly, symmetric for
// one-point elements (tets) and not in general, since one R serves all the
// integration points; models hand the solver its symmetric part.
#pragma once

#include <array>
#include <span>

#include "sinew/Error.h"
#include "sinew/fem/FemMaterial.h"
#include "sinew/fem/ReferenceElement.h"

namespace sinew {

inline constexpr int kMaxElementDofs = 3 * ReferenceElement::kMaxNodes;
/// Element force vectors (3n) and stiffness matrices (3n × 3n), node-major
/// (x, y, z of node 0, then node 1, …); bounded size, never on the heap.
using ElementVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxElementDofs, 1>;
using ElementMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxElementDofs, kMaxElementDofs>;
using NodePositions = std::span<const Vector3d>;

/// An element whose Jacobian is not positive at an integration point:
/// inverted by the deformation (det F ≤ 0), or already in its rest position
/// (a node ordering that contradicts §6.2.4). The kernels leave the path
/// empty; the element that catches it rethrows with its own path.
class InvertedElementError : public Error {
 public:
  InvertedElementError(int point, double determinant, bool atRest, std::string path = {});
  /// The same error, naming the element.
  InvertedElementError(const InvertedElementError& e, std::string path)
      : InvertedElementError(e.myPoint, e.myDet, e.myAtRest, std::move(path)) {}
  int integrationPoint() const { return myPoint; }
  /// det F (or, at rest, the rest Jacobian determinant det ∂X/∂s).
  double determinant() const { return myDet; }
  bool atRest() const { return myAtRest; }
  const std::string& path() const { return myPath; }

 private:
  int myPoint;
  double myDet;
  bool myAtRest;
  std::string myPath;
};

/// Kinematics at point k of the element's "all integration points" list.
struct PointKinematics {
  Matrix3d F;      ///< deformation gradient ∂x/∂X
  double J;        ///< det F
  double detJ0;    ///< det ∂X/∂s, the rest Jacobian
  double dV;       ///< rest volume weight w_k·detJ0 (0 at the warping point)
  std::array<Vector3d, ReferenceElement::kMaxNodes> dNdX;  ///< rest gradients of the shape functions
};

/// Adds the force and stiffness of one integration point with kinematics pk
/// and material point def to the element's f (3n) and, if given, K (3n ×
/// 3n), both already sized: the quadrature step of every kernel, exposed for
/// kernels whose kinematics come from elsewhere (shell membranes).
void addIntegrationPointTerms(int n, const PointKinematics& pk, const DeformedPoint& def, const FemMaterial& mat,
                              ElementVector& f, ElementMatrix* K);

/// Fills pk at point k; throws InvertedElementError if the rest Jacobian is
/// not positive.
void computePointKinematics(const ReferenceElement& elem, int k, NodePositions rest, NodePositions pos,
                            PointKinematics& pk);

/// The element rotation of corotated materials: the polar rotation of F at
/// the warping point.
Matrix3d computeWarpingRotation(const ReferenceElement& elem, NodePositions rest, NodePositions pos);

/// Element volume Σ_k w_k det(∂x/∂s) at the given node positions (rest or
/// current).
double computeVolume(const ReferenceElement& elem, NodePositions pos);

/// Nodal elastic forces f (3n).
void computeElementForces(const ReferenceElement& elem, NodePositions rest, NodePositions pos,
                          const FemMaterial& mat, ElementVector& f);
/// Nodal elastic forces f (3n) and the tangent stiffness K = −∂f/∂x.
void computeElementForcesAndStiffness(const ReferenceElement& elem, NodePositions rest, NodePositions pos,
                                      const FemMaterial& mat, ElementVector& f, ElementMatrix& K);
/// K ← ½(K + Kᵀ): what a model hands the solver of an exact, nonsymmetric
/// tangent (FemMaterial::hasExactRotationTangent).
void symmetrizeStiffness(ElementMatrix& K);
/// Strain energy ∫ W dV over the rest volume.
double computeElementStrainEnergy(const ReferenceElement& elem, NodePositions rest, NodePositions pos,
                                  const FemMaterial& mat);

/// Deformation, strain and Cauchy stress at one integration point. The
/// strain is the material's measure: the small strain sym(RᵀF) − I for
/// small-strain materials, the Green strain ½(FᵀF − I) otherwise.
struct IntegrationPointState {
  Matrix3d F;
  double J;
  Matrix3d strain;
  Matrix3d stress;
};
/// One state per integration point (out.size() ≥ numIntegrationPoints()).
void computeIntegrationPointStates(const ReferenceElement& elem, NodePositions rest, NodePositions pos,
                                   const FemMaterial& mat, std::span<IntegrationPointState> out);

/// Nodal values of a symmetric tensor field known at the integration points,
/// by the element's extrapolation matrix (for nodal stress and strain).
void extrapolateToNodes(const ReferenceElement& elem, std::span<const Matrix3d> atPoints,
                        std::span<Matrix3d> atNodes);

}  // namespace sinew
