// The ideal ("reference") element of each volumetric element type of guide
// §6.1.2.2, Table 6.1: natural coordinates of its nodes in ArtiSynth's node
// ordering (§6.2.4, getNodeCoords()), its shape functions φ_i of eq. (6.1)
// and their natural-coordinate gradients, its integration points and the
// warping point at the element centre, per-node mass weights for lumping,
// and the matrix that extrapolates integration-point values to the nodes.
//
// One immutable ReferenceElement exists per type and is shared by every
// element of that type; shape values and gradients at the integration points
// are computed once here, so per-element evaluation allocates nothing.
// The element classes of a model (TetElement, HexElement, …) refer to it.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "sinew/math/Spatial.h"

namespace sinew {

/// The element types of Table 6.1, spelled as FemFactory's FemElementType.
enum class FemElementType { Tet, Hex, Wedge, Pyramid, QuadTet, QuadHex, QuadWedge, QuadPyramid };

/// A quadrature point: natural coordinates and weight. The weights of an
/// element multiply det(∂X/∂s) to give volume.
struct IntegrationPoint3d {
  Vector3d coords;
  double weight;
};

class ReferenceElement {
 public:
  static constexpr int kMaxNodes = 20;
  static constexpr int kMaxIntegrationPoints = 14;
  /// Bounded-size Eigen types: no heap allocation, sized per type.
  using ShapeValues = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxNodes, 1>;
  using ShapeGradients = Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, kMaxNodes>;
  /// Evaluates the n shape functions N[i] and their gradients dNds[i] at s.
  using ShapeFunction = void (*)(const Vector3d& s, double* N, Vector3d* dNds);

  /// The natural domain a type is parametrised on. Pyramids are degenerate
  /// hexahedra: natural coordinates fill the cube and the top face collapses
  /// onto the apex.
  enum class Domain { Tetrahedron, Cube, Prism };

  /// What an element-type file supplies (the derived data is computed here).
  struct Definition {
    FemElementType type;
    const char* name;
    int order;  ///< 1 linear, 2 quadratic
    Domain domain;
    std::vector<Vector3d> nodeCoords;
    std::vector<IntegrationPoint3d> integrationPoints;
    Vector3d warpingCoords;
    ShapeFunction shape;
    /// The linear element spanning the same natural domain (itself for a
    /// linear type): its shape functions fit integration-point values.
    FemElementType linearType;
  };

  /// The reference element of a type.
  static const ReferenceElement& get(FemElementType type);
  /// The type with this many nodes (4, 5, 6, 8, 10, 13, 15, 20), as
  /// FemElement3d.createElement picks it (§6.2.4); ModelError otherwise.
  static const ReferenceElement& forNumNodes(int numNodes);

  FemElementType getType() const { return myDef.type; }
  /// The guide's class name, e.g. "QuadhexElement".
  const char* getName() const { return myDef.name; }
  int numNodes() const { return static_cast<int>(myDef.nodeCoords.size()); }
  int getOrder() const { return myDef.order; }
  Domain getDomain() const { return myDef.domain; }
  int numIntegrationPoints() const { return static_cast<int>(myDef.integrationPoints.size()); }
  /// Natural coordinates of the nodes, in node order.
  const std::vector<Vector3d>& getNodeCoords() const { return myDef.nodeCoords; }
  /// Node positions of the ideal element: the natural coordinates mapped by
  /// the linear counterpart's geometry. They equal getNodeCoords() except on
  /// QuadpyramidElement, whose slanted-edge nodes have natural coordinates
  /// (±1, ±1, 0) but sit at the edge midpoints (±½, ±½, 0).
  const std::vector<Vector3d>& getIdealNodePositions() const { return myIdealPositions; }
  const std::vector<IntegrationPoint3d>& getIntegrationPoints() const { return myDef.integrationPoints; }
  /// The element centre, where corotated materials take their rotation.
  const Vector3d& getWarpingCoords() const { return myDef.warpingCoords; }
  /// Index of the warping point in the "all integration points" numbering
  /// (§7.2.3): it follows the integration points.
  int warpingPointIndex() const { return numIntegrationPoints(); }

  /// Shape values and natural gradients at any natural coordinates.
  void computeShape(const Vector3d& s, ShapeValues& N, ShapeGradients& dNds) const;
  /// Precomputed values at point k of the "all" list (k = warpingPointIndex()
  /// is the warping point).
  const ShapeValues& getShapeValues(int k) const { return myN[k]; }
  const ShapeGradients& getShapeGradients(int k) const { return myDNds[k]; }

  /// Fraction of an element's mass lumped on each node (sums to 1): the
  /// diagonal of the consistent mass matrix of the ideal element, scaled
  /// (HRZ lumping), so quadratic elements get positive, unequal weights.
  const Eigen::VectorXd& getNodeMassWeights() const { return myMassWeights; }
  /// numNodes × numIntegrationPoints matrix taking integration-point values
  /// to nodal values: the least-squares fit by the linear counterpart's
  /// shape functions, evaluated at the nodes. Exact for fields linear over
  /// the ideal element (for Tet, with one point: constant fields).
  const Eigen::MatrixXd& getNodalExtrapolationMatrix() const { return myExtrapolation; }

  explicit ReferenceElement(Definition def);
  ReferenceElement(const ReferenceElement&) = delete;
  ReferenceElement& operator=(const ReferenceElement&) = delete;

 private:
  const ReferenceElement& linearCounterpart() const;
  void computeIdealPositions();
  void computeMassWeights();
  void computeExtrapolation();

  Definition myDef;
  std::vector<Vector3d> myIdealPositions;
  std::vector<ShapeValues> myN;
  std::vector<ShapeGradients> myDNds;
  Eigen::VectorXd myMassWeights;
  Eigen::MatrixXd myExtrapolation;
};

/// A dense tensor-product Gauss rule on a natural domain (5 points per
/// direction: exact to degree 9 on the cube, and for the collapsed
/// tetrahedron and prism rules on polynomials of degree up to 7). Used for
/// reference-element integrals such as the consistent mass.
std::vector<IntegrationPoint3d> denseIntegrationRule(ReferenceElement::Domain domain);

}  // namespace sinew
