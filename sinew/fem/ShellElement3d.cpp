#include "sinew/fem/ShellElement3d.h"

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "sinew/fem/FemModel3d.h"

namespace sinew {

SINEW_PROPERTIES(ShellElement3d, FemElement3dBase) {
  list.add<ShellElement3d>("defaultThickness", "rest thickness of the shell", &ShellElement3d::getDefaultThickness,
                           &ShellElement3d::setDefaultThickness);
  list.add<ShellElement3d>("assumedShearStrain",
                           "take transverse shear strains from tying points (MITC4/MITC3) so thin shells do not lock",
                           &ShellElement3d::getAssumedShearStrain, &ShellElement3d::setAssumedShearStrain)
      .setDefault(true);
}

namespace {
const char* typeName(ShellType t) { return t == ShellType::Tri ? "ShellTriElement" : "ShellQuadElement"; }
double checkedThickness(double h, const char* type) {
  if (!(h > 0) || !std::isfinite(h))
    throw ModelError(std::string(type) + ": thickness must be finite and positive, got " + std::to_string(h));
  return h;
}
}  // namespace

ShellElement3d::ShellElement3d(ShellType type, const std::vector<FemNode3d*>& nodes, double thickness, bool membrane)
    : FemElement3dBase(typeName(type), numShellNodes(type), nodes),
      myType(type),
      myThickness(checkedThickness(thickness, typeName(type))),
      myMembrane(membrane) {}

std::unique_ptr<ShellElement3d> ShellElement3d::createElement(const std::vector<FemNode3d*>& nodes, double thickness,
                                                              bool membrane, bool flipped) {
  std::vector<FemNode3d*> n = nodes;
  if (flipped && n.size() >= 3) std::reverse(n.begin() + 1, n.end());
  if (n.size() == 3) return std::make_unique<ShellTriElement>(n[0], n[1], n[2], thickness, membrane);
  if (n.size() == 4) return std::make_unique<ShellQuadElement>(n[0], n[1], n[2], n[3], thickness, membrane);
  throw ModelError("no shell element type has " + std::to_string(nodes.size()) + " nodes (expected 3 or 4)");
}

const char* ShellElement3d::getTypeName() const { return typeName(myType); }

int ShellElement3d::numIntegrationPoints() const {
  return myMembrane ? numPlanarIntegrationPoints() : shellReferenceElement(myType).numIntegrationPoints();
}

void ShellElement3d::setDefaultThickness(double h) {
  const double old = myThickness;
  myThickness = checkedThickness(h, getTypeName());
  if (FemModel3d* m = owner()) m->shellThicknessChanged(*this, old);
}

int ShellElement3d::frontIndex(int i) const {
  return myMembrane || myType == ShellType::Quad ? i : i + 3;
}

int ShellElement3d::backIndex(int i) const { return myType == ShellType::Quad ? i + 4 : i; }

Particle& ShellElement3d::getDofNode(int i) const {
  const int n = numNodes();
  if (myMembrane) return *myNodes[i];
  const bool front = myType == ShellType::Quad ? i < n : i >= n;
  FemNode3d& node = *myNodes[i % n];
  if (front) return node;
  if (!node.getBackNode()) throw ModelError("shell node " + node.describe() + " has no back node yet", describe());
  return *node.getBackNode();
}

int ShellElement3d::getDofPositions(DofArray& rest, DofArray& pos) const {
  const int m = numDofNodes();
  for (int i = 0; i < numNodes(); ++i) {
    const FemNode3d& node = *myNodes[i];
    rest[frontIndex(i)] = node.getRestPosition();
    pos[frontIndex(i)] = node.getPosition();
    if (myMembrane) continue;
    const BackNode3d* back = node.getBackNode();
    if (!back) throw ModelError("shell element is not in a model: its nodes have no directors", describe());
    rest[backIndex(i)] = back->getRestPosition();
    pos[backIndex(i)] = back->getPosition();
  }
  return m;
}

double ShellElement3d::getRestVolume() const {
  if (myMembrane) return computeRestArea() * myThickness;
  DofArray rest, pos;
  const int m = getDofPositions(rest, pos);
  return sinew::computeVolume(shellReferenceElement(myType), NodePositions(rest.data(), m));
}

double ShellElement3d::computeVolume() const {
  if (myMembrane) return computeArea() * myThickness;
  DofArray rest, pos;
  const int m = getDofPositions(rest, pos);
  return sinew::computeVolume(shellReferenceElement(myType), NodePositions(pos.data(), m));
}

double ShellElement3d::computeRestArea() const {
  DofArray x;
  for (int i = 0; i < numNodes(); ++i) x[i] = myNodes[i]->getRestPosition();
  return computeShellArea(myType, NodePositions(x.data(), numNodes()));
}

double ShellElement3d::computeArea() const {
  DofArray x;
  for (int i = 0; i < numNodes(); ++i) x[i] = myNodes[i]->getPosition();
  return computeShellArea(myType, NodePositions(x.data(), numNodes()));
}

Vector3d ShellElement3d::computeRestVectorArea() const {
  Vector3d a = Vector3d::Zero();
  const Vector3d& x0 = myNodes[0]->getRestPosition();
  for (int i = 1; i + 1 < numNodes(); ++i)
    a += 0.5 * (myNodes[i]->getRestPosition() - x0).cross(myNodes[i + 1]->getRestPosition() - x0);
  return a;
}

void ShellElement3d::getMassWeights(double* w) const {
  if (!myMembrane) {
    const Eigen::VectorXd& mw = shellReferenceElement(myType).getNodeMassWeights();
    for (int i = 0; i < numDofNodes(); ++i) w[i] = mw[i];
    return;
  }
  DofArray x;
  for (int i = 0; i < numNodes(); ++i) x[i] = myNodes[i]->getRestPosition();
  computeMembraneMassWeights(myType, NodePositions(x.data(), numNodes()), w);
}

void ShellElement3d::computeForcesAndStiffness(const FemMaterial& mat, ElementVector& f, ElementMatrix* K) const {
  DofArray rest, pos;
  const int m = getDofPositions(rest, pos);
  const NodePositions x0(rest.data(), m), x(pos.data(), m);
  try {
    if (myMembrane) {
      computeMembraneForcesAndStiffness(myType, x0, x, myThickness, mat, f, K);
    } else if (myAssumedShear) {
      computeShellAnsForcesAndStiffness(myType, x0, x, mat, f, K);
    } else if (K) {
      computeElementForcesAndStiffness(shellReferenceElement(myType), x0, x, mat, f, *K);
      if (mat.hasExactRotationTangent()) symmetrizeStiffness(*K);
    } else {
      computeElementForces(shellReferenceElement(myType), x0, x, mat, f);
    }
  } catch (const InvertedElementError& err) {
    throw ModelError(std::string(getTypeName()) + " inverted at integration point " +
                         std::to_string(err.integrationPoint()) + " (det F = " + std::to_string(err.determinant()) +
                         ")",
                     describe());
  }
}

double ShellElement3d::computeStrainEnergy(const FemMaterial& mat) const {
  DofArray rest, pos;
  const int m = getDofPositions(rest, pos);
  const NodePositions x0(rest.data(), m), x(pos.data(), m);
  if (myMembrane) return computeMembraneStrainEnergy(myType, x0, x, myThickness, mat);
  if (myAssumedShear) return computeShellAnsStrainEnergy(myType, x0, x, mat);
  return computeElementStrainEnergy(shellReferenceElement(myType), x0, x, mat);
}

std::vector<IntegrationPointState> ShellElement3d::computeIntegrationPointStates() const {
  return computeIntegrationPointStates(getMaterial());
}

std::vector<IntegrationPointState> ShellElement3d::computeIntegrationPointStates(const FemMaterial& mat) const {
  DofArray rest, pos;
  const int m = getDofPositions(rest, pos);
  const NodePositions x0(rest.data(), m), x(pos.data(), m);
  std::vector<IntegrationPointState> states(numIntegrationPoints());
  if (myMembrane)
    computeMembranePointStates(myType, x0, x, myThickness, mat, states);
  else if (myAssumedShear)
    computeShellAnsPointStates(myType, x0, x, mat, states);
  else
    sinew::computeIntegrationPointStates(shellReferenceElement(myType), x0, x, mat, states);
  return states;
}

void ShellElement3d::extrapolateToCorners(std::span<const Matrix3d> atPoints, std::span<Matrix3d> atCorners) const {
  if (myMembrane) {
    Matrix3d mean = Matrix3d::Zero();
    for (const Matrix3d& v : atPoints) mean += v / static_cast<double>(atPoints.size());
    for (int i = 0; i < numNodes(); ++i) atCorners[i] = mean;
    return;
  }
  const Eigen::MatrixXd& E = shellReferenceElement(myType).getNodalExtrapolationMatrix();
  for (int i = 0; i < numNodes(); ++i) {
    atCorners[i].setZero();
    for (int k = 0; k < static_cast<int>(atPoints.size()); ++k) atCorners[i] += E(frontIndex(i), k) * atPoints[k];
  }
}

std::vector<double> ShellElement3d::computeDofWeights(const Vector3d& p, Vector3d& at) const {
  DofArray rest, pos;
  const int m = getDofPositions(rest, pos);
  const ReferenceElement& ref = shellReferenceElement(myType);
  ReferenceElement::ShapeValues N;
  ReferenceElement::ShapeGradients dN;
  // Corner i is the solid's node `front` (a regular shell's frontIndex)
  // and its back node backIndex(i). A membrane's dof points are its
  // corners, and the solid's shape functions on its front face (t = 1) are
  // the membrane's own.
  auto front = [&](int i) { return myType == ShellType::Quad ? i : i + 3; };
  const double t0 = myMembrane ? 1.0 : 0.0;
  Vector3d xi = myType == ShellType::Quad ? Vector3d(0, 0, t0) : Vector3d(1.0 / 3, 1.0 / 3, t0);
  // x(ξ) and its Jacobian at the current ξ.
  auto evaluate = [&](Vector3d& x, Matrix3d& J) {
    ref.computeShape(xi, N, dN);
    x.setZero();
    J.setZero();
    for (int i = 0; i < numNodes(); ++i) {
      const Vector3d& xf = myMembrane ? pos[i] : pos[front(i)];
      x += N[front(i)] * xf;
      J += xf * dN.col(front(i)).transpose();
      if (myMembrane) continue;
      x += N[backIndex(i)] * pos[backIndex(i)];
      J += pos[backIndex(i)] * dN.col(backIndex(i)).transpose();
    }
  };
  Vector3d x;
  Matrix3d J;
  for (int iter = 0; iter < 30; ++iter) {
    evaluate(x, J);
    Vector3d dxi;
    if (myMembrane) {
      // Gauss–Newton on |x(r, s) − p|² over the in-plane coordinates.
      const Eigen::Matrix<double, 3, 2> A = J.leftCols<2>();
      const Eigen::Vector2d d = (A.transpose() * A).ldlt().solve(A.transpose() * (p - x));
      dxi << d, 0;
    } else {
      dxi = J.partialPivLu().solve(p - x);
    }
    if (!dxi.allFinite()) break;
    xi += dxi;
    if (dxi.norm() < 1e-14) break;
  }
  evaluate(at, J);
  if (!xi.allFinite() || !at.allFinite())
    throw ModelError("no natural coordinates for the point in the shell", describe());
  std::vector<double> w(m, 0.0);
  for (int i = 0; i < numNodes(); ++i) {
    if (myMembrane) {
      w[i] = N[front(i)];
    } else {
      w[front(i)] = N[front(i)];
      w[backIndex(i)] = N[backIndex(i)];
    }
  }
  return w;
}

}  // namespace sinew
