#include "sinew/fem/FemElement3d.h"

#include <algorithm>
#include <cmath>

#include "sinew/fem/FemModel3d.h"

namespace sinew {

SINEW_PROPERTIES(FemElement3d, FemElement3dBase) {
  addStressStrainProperties<FemElement3d>(list);
}

std::unique_ptr<FemElement3d> FemElement3d::createElement(const std::vector<FemNode3d*>& nodes) {
  return std::make_unique<FemElement3d>(ReferenceElement::forNumNodes(static_cast<int>(nodes.size())), nodes);
}

FemElement3d::FemElement3d(const ReferenceElement& type, const std::vector<FemNode3d*>& nodes)
    : FemElement3dBase(type.getName(), type.numNodes(), nodes), myType(&type) {}

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
