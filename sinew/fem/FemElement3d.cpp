#include "sinew/fem/FemElement3d.h"

#include <algorithm>
#include <cmath>

#include "sinew/fem/FemModel3d.h"

namespace sinew {

SINEW_PROPERTIES(FemElement3d, Component) {
  list.add<FemElement3d>("density", "density (NaN: the model's)", &FemElement3d::getDensity,
                         &FemElement3d::setDensity);
  addStressStrainProperties<FemElement3d>(list);
}

namespace {
/// The model an element belongs to (element → elements list → model).
const FemModel3d* owner(const FemElement3d& e) {
  const Component* list = e.getParent();
  return list ? dynamic_cast<const FemModel3d*>(list->getParent()) : nullptr;
}
}  // namespace

std::unique_ptr<FemElement3d> FemElement3d::createElement(const std::vector<FemNode3d*>& nodes) {
  return std::make_unique<FemElement3d>(ReferenceElement::forNumNodes(static_cast<int>(nodes.size())), nodes);
}

FemElement3d::FemElement3d(const ReferenceElement& type, const std::vector<FemNode3d*>& nodes)
    : myType(&type), myNodes(nodes) {
  if (static_cast<int>(nodes.size()) != type.numNodes())
    throw ModelError(std::string(type.getName()) + " needs " + std::to_string(type.numNodes()) + " nodes, got " +
                     std::to_string(nodes.size()));
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!nodes[i]) throw ModelError(std::string(type.getName()) + ": node " + std::to_string(i) + " is null");
    if (std::find(nodes.begin(), nodes.begin() + i, nodes[i]) != nodes.begin() + i)
      throw ModelError(std::string(type.getName()) + ": node " + nodes[i]->describe() + " appears twice");
  }
}

double FemElement3d::getDensity() const {
  if (hasOwnDensity()) return myDensity;
  const FemModel3d* m = owner(*this);
  return m ? m->getDensity() : 1000.0;
}

void FemElement3d::setDensity(double d) {
  if (!std::isnan(d) && !(d >= 0 && std::isfinite(d)))
    throw ModelError("density must be finite and non-negative", describe());
  myDensity = d;
  if (auto* m = const_cast<FemModel3d*>(owner(*this))) m->invalidateNodeMasses();
}

void FemElement3d::setMaterial(const FemMaterial& mat) {
  myMaterial = mat.clone();
  if (auto* m = const_cast<FemModel3d*>(owner(*this))) m->materialsChanged();
}

const FemMaterial& FemElement3d::getMaterial() const {
  if (myMaterial) return *myMaterial;
  const FemModel3d* m = owner(*this);
  if (!m) throw ModelError("element has no material and belongs to no model", describe());
  return m->getMaterial();
}

void FemElement3d::getRestPositions(std::array<Vector3d, ReferenceElement::kMaxNodes>& x) const {
  for (size_t i = 0; i < myNodes.size(); ++i) x[i] = myNodes[i]->getRestPosition();
}

void FemElement3d::getPositions(std::array<Vector3d, ReferenceElement::kMaxNodes>& x) const {
  for (size_t i = 0; i < myNodes.size(); ++i) x[i] = myNodes[i]->getPosition();
}

double FemElement3d::getRestVolume() const {
  std::array<Vector3d, ReferenceElement::kMaxNodes> x;
  getRestPositions(x);
  return sinew::computeVolume(*myType, NodePositions(x.data(), myNodes.size()));
}

double FemElement3d::computeVolume() const {
  std::array<Vector3d, ReferenceElement::kMaxNodes> x;
  getPositions(x);
  return sinew::computeVolume(*myType, NodePositions(x.data(), myNodes.size()));
}

Vector3d FemElement3d::computeCentroid() const {
  Vector3d c = Vector3d::Zero();
  for (auto* n : myNodes) c += n->getPosition();
  return c / static_cast<double>(myNodes.size());
}

std::vector<IntegrationPointState> FemElement3d::computeIntegrationPointStates() const {
  std::array<Vector3d, ReferenceElement::kMaxNodes> rest, pos;
  getRestPositions(rest);
  getPositions(pos);
  std::vector<IntegrationPointState> states(numIntegrationPoints());
  const size_t n = myNodes.size();
  try {
    sinew::computeIntegrationPointStates(*myType, NodePositions(rest.data(), n), NodePositions(pos.data(), n),
                                         getMaterial(), states);
  } catch (const InvertedElementError& e) {
    throw InvertedElementError(e, describe());
  }
  return states;
}

std::vector<Matrix3d> FemElement3d::computeNodalStresses() const {
  std::vector<Matrix3d> atPoints, atNodes(myNodes.size());
  for (const auto& s : computeIntegrationPointStates()) atPoints.push_back(s.stress);
  extrapolateToNodes(*myType, atPoints, atNodes);
  return atNodes;
}

}  // namespace sinew
