#include "sinew/fem/ReferenceElement.h"

#include <Eigen/Dense>
#include <array>
#include <cmath>

#include "sinew/Error.h"
#include "sinew/fem/ElementDefinitions.h"

namespace sinew {

using namespace fem_detail;

const ReferenceElement& ReferenceElement::get(FemElementType type) {
  // One function-local static per type: built on first use, thread-safely,
  // and a quadratic type may ask for its linear counterpart while it is built.
  using T = FemElementType;
  switch (type) {
    case T::Tet: { static const ReferenceElement e(tetElementDefinition()); return e; }
    case T::Hex: { static const ReferenceElement e(hexElementDefinition()); return e; }
    case T::Wedge: { static const ReferenceElement e(wedgeElementDefinition()); return e; }
    case T::Pyramid: { static const ReferenceElement e(pyramidElementDefinition()); return e; }
    case T::QuadTet: { static const ReferenceElement e(quadtetElementDefinition()); return e; }
    case T::QuadHex: { static const ReferenceElement e(quadhexElementDefinition()); return e; }
    case T::QuadWedge: { static const ReferenceElement e(quadwedgeElementDefinition()); return e; }
    case T::QuadPyramid: { static const ReferenceElement e(quadpyramidElementDefinition()); return e; }
  }
  throw ModelError("unknown element type");
}

const ReferenceElement& ReferenceElement::forNumNodes(int numNodes) {
  switch (numNodes) {
    case 4: return get(FemElementType::Tet);
    case 5: return get(FemElementType::Pyramid);
    case 6: return get(FemElementType::Wedge);
    case 8: return get(FemElementType::Hex);
    case 10: return get(FemElementType::QuadTet);
    case 13: return get(FemElementType::QuadPyramid);
    case 15: return get(FemElementType::QuadWedge);
    case 20: return get(FemElementType::QuadHex);
  }
  throw ModelError("no volumetric element type has " + std::to_string(numNodes) +
                   " nodes (expected 4, 5, 6, 8, 10, 13, 15 or 20)");
}

ReferenceElement::ReferenceElement(Definition def) : myDef(std::move(def)) {
  int npts = numIntegrationPoints() + 1;  // the warping point comes last
  myN.resize(npts);
  myDNds.resize(npts);
  for (int k = 0; k < npts; ++k) {
    const Vector3d& s = k < numIntegrationPoints() ? myDef.integrationPoints[k].coords : myDef.warpingCoords;
    computeShape(s, myN[k], myDNds[k]);
  }
  computeIdealPositions();
  computeMassWeights();
  computeExtrapolation();
}

const ReferenceElement& ReferenceElement::linearCounterpart() const {
  return myDef.linearType == myDef.type ? *this : get(myDef.linearType);
}

void ReferenceElement::computeIdealPositions() {
  // A linear element's nodes are its own ideal positions (the pyramid's apex
  // included); a quadratic one's follow from the linear geometry.
  const ReferenceElement& lin = linearCounterpart();
  if (&lin == this) {
    myIdealPositions = myDef.nodeCoords;
    return;
  }
  ShapeValues N;
  ShapeGradients dNds;
  for (const Vector3d& s : myDef.nodeCoords) {
    lin.computeShape(s, N, dNds);
    Vector3d x = Vector3d::Zero();
    for (int j = 0; j < lin.numNodes(); ++j) x += N[j] * lin.myDef.nodeCoords[j];
    myIdealPositions.push_back(x);
  }
}

void ReferenceElement::computeShape(const Vector3d& s, ShapeValues& N, ShapeGradients& dNds) const {
  int n = numNodes();
  std::array<double, kMaxNodes> v;
  std::array<Vector3d, kMaxNodes> g;
  myDef.shape(s, v.data(), g.data());
  N.resize(n);
  dNds.resize(3, n);
  for (int i = 0; i < n; ++i) {
    N[i] = v[i];
    dNds.col(i) = g[i];
  }
}

void ReferenceElement::computeMassWeights() {
  // Diagonal of M_ij = ∫ N_i N_j dV over the ideal element (nodes at their
  // natural coordinates), scaled to sum to one.
  int n = numNodes();
  Eigen::VectorXd diag = Eigen::VectorXd::Zero(n);
  ShapeValues N;
  ShapeGradients dNds;
  for (const IntegrationPoint3d& p : denseIntegrationRule(myDef.domain)) {
    computeShape(p.coords, N, dNds);
    Matrix3d J = Matrix3d::Zero();
    for (int i = 0; i < n; ++i) J += myIdealPositions[i] * dNds.col(i).transpose();
    diag += p.weight * std::abs(J.determinant()) * N.cwiseAbs2();
  }
  myMassWeights = diag / diag.sum();
}

void ReferenceElement::computeExtrapolation() {
  // Fit the integration-point values with the linear counterpart's shape
  // functions (least squares where there are more points than functions),
  // then evaluate the fit at this element's nodes.
  const ReferenceElement& lin = linearCounterpart();
  int m = lin.numNodes(), nip = numIntegrationPoints();
  ShapeValues N;
  ShapeGradients dNds;
  Eigen::MatrixXd atPoints(nip, m), atNodes(numNodes(), m);
  for (int k = 0; k < nip; ++k) {
    lin.computeShape(myDef.integrationPoints[k].coords, N, dNds);
    atPoints.row(k) = N.transpose();
  }
  for (int i = 0; i < numNodes(); ++i) {
    lin.computeShape(myDef.nodeCoords[i], N, dNds);
    atNodes.row(i) = N.transpose();
  }
  myExtrapolation = atNodes * atPoints.completeOrthogonalDecomposition().pseudoInverse();
}

std::vector<IntegrationPoint3d> denseIntegrationRule(ReferenceElement::Domain domain) {
  // 5-point Gauss–Legendre on [0, 1]; collapsed (Duffy) coordinates map the
  // cube onto the triangle and the tetrahedron.
  static const double x[5] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                              0.9061798459386640};
  static const double w[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                              0.4786286704993665, 0.2369268850561891};
  std::vector<IntegrationPoint3d> rule;
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 5; ++b)
      for (int c = 0; c < 5; ++c) {
        double u = 0.5 * (1 + x[a]), v = 0.5 * (1 + x[b]), t = 0.5 * (1 + x[c]);
        double wt = w[a] * w[b] * w[c];
        switch (domain) {
          case ReferenceElement::Domain::Cube:
            rule.push_back({Vector3d(x[a], x[b], x[c]), wt});
            break;
          case ReferenceElement::Domain::Prism:  // triangle × [−1, 1]
            rule.push_back({Vector3d(u, (1 - u) * v, x[c]), wt * 0.25 * (1 - u)});
            break;
          case ReferenceElement::Domain::Tetrahedron:
            rule.push_back({Vector3d(u, (1 - u) * v, (1 - u) * (1 - v) * t),
                            wt * 0.125 * (1 - u) * (1 - u) * (1 - v)});
            break;
        }
      }
  return rule;
}

}  // namespace sinew
