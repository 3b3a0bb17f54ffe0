#include "sinew/fem/FemModel3d.h"

#include <cmath>

#include "sinew/fem/LinearMaterial.h"

namespace sinew {

SINEW_PROPERTIES(FemModel3d, MechSystemBase) {
  list.add<FemModel3d>("density", "density lumped to the nodes", &FemModel3d::getDensity, &FemModel3d::setDensity)
      .setDefault(1000.0)
      .setRange(0, INFINITY);
  list.add<FemModel3d>("particleDamping", "mass-proportional Rayleigh damping d_M",
                       &FemModel3d::getParticleDamping, &FemModel3d::setParticleDamping)
      .setDefault(2.0)
      .setRange(0, INFINITY);
  list.add<FemModel3d>("stiffnessDamping", "stiffness-proportional Rayleigh damping d_K",
                       &FemModel3d::getStiffnessDamping, &FemModel3d::setStiffnessDamping)
      .setDefault(0.0)
      .setRange(0, INFINITY);
}

namespace {
using NodeArray = std::array<Vector3d, ReferenceElement::kMaxNodes>;

double checkedNonNegative(double v, const char* what, const std::string& where) {
  if (!(v >= 0) || !std::isfinite(v))
    throw ModelError(std::string(what) + " must be finite and non-negative, got " + std::to_string(v), where);
  return v;
}
}  // namespace

FemModel3d::FemModel3d(std::string name)
    : MechSystemBase(std::move(name)), myMaterial(std::make_unique<LinearMaterial>()) {
  myNodes = addList<FemNode3d>("nodes");
  myElements = addList<FemElement3d>("elements");
}

FemModel3d::~FemModel3d() = default;

FemNode3d* FemModel3d::getNodeByNumber(int num) const { return dynamic_cast<FemNode3d*>(myNodes->getByNumber(num)); }

FemElement3d* FemModel3d::getElementByNumber(int num) const {
  return dynamic_cast<FemElement3d*>(myElements->getByNumber(num));
}

FemNode3d& FemModel3d::addNode(std::unique_ptr<FemNode3d> n) { return myNodes->add(std::move(n)); }

FemNode3d& FemModel3d::addNumberedNode(std::unique_ptr<FemNode3d> n, int number) {
  return myNodes->add(std::move(n), number);
}

void FemModel3d::checkNewElement(const FemElement3d& e) const {
  for (auto* n : e.getNodes())
    if (n->getParent() != myNodes)
      throw ModelError(std::string(e.getTypeName()) + ": node " + n->describe() + " is not a node of this model",
                       describe());
  const double v = e.getRestVolume();  // throws for an inverted rest element
  if (!(v > 0))
    throw ModelError(std::string(e.getTypeName()) + " is inverted or flat at rest (check its node order, §6.2.4)",
                     describe());
}

FemElement3d& FemModel3d::addElement(std::unique_ptr<FemElement3d> e) {
  checkNewElement(*e);
  FemElement3d& added = myElements->add(std::move(e));
  lumpMass(added, 1.0);
  return added;
}

FemElement3d& FemModel3d::addNumberedElement(std::unique_ptr<FemElement3d> e, int number) {
  checkNewElement(*e);
  FemElement3d& added = myElements->add(std::move(e), number);
  lumpMass(added, 1.0);
  return added;
}

void FemModel3d::setDensity(double d) {
  myDensity = checkedNonNegative(d, "density", describe());
  updateNodeMasses();
}

void FemModel3d::setParticleDamping(double d) { myParticleDamping = checkedNonNegative(d, "particleDamping", describe()); }

void FemModel3d::setStiffnessDamping(double d) {
  myStiffnessDamping = checkedNonNegative(d, "stiffnessDamping", describe());
}

void FemModel3d::lumpMass(const FemElement3d& e, double sign) {
  const double m = e.getDensity() * e.getRestVolume();
  const Eigen::VectorXd& w = e.getReferenceElement().getNodeMassWeights();
  for (int i = 0; i < e.numNodes(); ++i) {
    FemNode3d& n = e.getNode(i);
    n.setMass(std::max(0.0, n.getMass() + sign * w[i] * m));
  }
}

void FemModel3d::updateNodeMasses() {
  for (auto& n : *myNodes) n.setMass(0);
  for (auto& e : *myElements) lumpMass(e, 1.0);
}

double FemModel3d::getMass() const {
  double m = 0;
  for (auto& n : *myNodes) m += n.getMass();
  return m;
}

double FemModel3d::getRestVolume() const {
  double v = 0;
  for (auto& e : *myElements) v += e.getRestVolume();
  return v;
}

double FemModel3d::computeVolume() const {
  double v = 0;
  for (auto& e : *myElements) v += e.computeVolume();
  return v;
}

// ------------------------------------------------------------ forces

void FemModel3d::computeElement(const FemElement3d& e, ElementVector& f, ElementMatrix& K) const {
  NodeArray rest, pos;
  e.getRestPositions(rest);
  e.getPositions(pos);
  const size_t n = e.numNodes();
  try {
    computeElementForcesAndStiffness(e.getReferenceElement(), NodePositions(rest.data(), n),
                                     NodePositions(pos.data(), n), e.getMaterial(), f, K);
  } catch (const InvertedElementError& err) {
    // As a ModelError the solver reports a failed step and keeps the state.
    throw ModelError(std::string(e.getTypeName()) + " inverted at integration point " +
                         std::to_string(err.integrationPoint()) + " (det F = " + std::to_string(err.determinant()) +
                         ")",
                     e.describe());
  }
}

void FemModel3d::applyForces(double) {
  const double dM = myParticleDamping, dK = myStiffnessDamping;
  if (dM > 0)
    for (auto& n : *myNodes) n.addForce(Vector3d(-dM * n.getMass() * n.getVelocity()));
  myK.resize(myElements->size());
  ElementVector f, v;
  ElementMatrix K;
  for (int k = 0; k < myElements->size(); ++k) {
    const FemElement3d& e = myElements->get(k);
    computeElement(e, f, K);
    myK[k] = K;
    if (dK > 0) {
      v.resize(f.size());
      for (int i = 0; i < e.numNodes(); ++i) v.segment<3>(3 * i) = e.getNode(i).getVelocity();
      f.noalias() -= dK * (K * v);
    }
    for (int i = 0; i < e.numNodes(); ++i) e.getNode(i).addForce(Vector3d(f.segment<3>(3 * i)));
  }
}

void FemModel3d::declareJacobianBlocks(JacobianPattern& pat) {
  myElementHandles.clear();
  myElementHandleStart.clear();
  for (auto& e : *myElements) {
    myElementHandleStart.push_back(static_cast<int>(myElementHandles.size()));
    for (auto* a : e.getNodes())
      for (auto* b : e.getNodes()) myElementHandles.push_back(pat.declareBlock(*a, *b));
  }
  myNodeHandles.clear();
  for (auto& n : *myNodes) myNodeHandles.push_back(pat.declareBlock(n, n));
}

void FemModel3d::addPosJacobian(JacobianMatrix& Kmat, double s) {
  // ∂f/∂x = −K for each element.
  for (int k = 0; k < myElements->size() && k < static_cast<int>(myK.size()); ++k) {
    const int n = myElements->get(k).numNodes();
    const int* h = myElementHandles.data() + myElementHandleStart[k];
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const Matrix3d B = -s * myK[k].block<3, 3>(3 * i, 3 * j);
        Kmat.addBlock(*h++, B);
      }
  }
}

void FemModel3d::addVelJacobian(JacobianMatrix& D, double s) {
  // ∂f_d/∂v = −d_M M − d_K K.
  if (myParticleDamping > 0)
    for (int i = 0; i < myNodes->size(); ++i) {
      const Matrix3d B = -s * myParticleDamping * myNodes->get(i).getMass() * Matrix3d::Identity();
      D.addBlock(myNodeHandles[i], B);
    }
  if (myStiffnessDamping > 0) addPosJacobian(D, s * myStiffnessDamping);
}

double FemModel3d::getPotentialEnergy() const {
  double E = 0;
  NodeArray rest, pos;
  for (auto& e : *myElements) {
    e.getRestPositions(rest);
    e.getPositions(pos);
    const size_t n = e.numNodes();
    E += computeElementStrainEnergy(e.getReferenceElement(), NodePositions(rest.data(), n),
                                    NodePositions(pos.data(), n), e.getMaterial());
  }
  return E;
}

}  // namespace sinew
