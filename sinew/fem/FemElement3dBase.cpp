#include "sinew/fem/FemElement3dBase.h"

#include <algorithm>

#include "sinew/fem/FemModel3d.h"

namespace sinew {

SINEW_PROPERTIES(FemElement3dBase, Component) {
  list.add<FemElement3dBase>("density", "density (NaN: the model's)", &FemElement3dBase::getDensity,
                             &FemElement3dBase::setDensity);
}

FemElement3dBase::FemElement3dBase(const char* typeName, int expected, const std::vector<FemNode3d*>& nodes)
    : myNodes(nodes) {
  if (static_cast<int>(nodes.size()) != expected)
    throw ModelError(std::string(typeName) + " needs " + std::to_string(expected) + " nodes, got " +
                     std::to_string(nodes.size()));
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!nodes[i]) throw ModelError(std::string(typeName) + ": node " + std::to_string(i) + " is null");
    if (std::find(nodes.begin(), nodes.begin() + i, nodes[i]) != nodes.begin() + i)
      throw ModelError(std::string(typeName) + ": node " + nodes[i]->describe() + " appears twice");
  }
}

FemModel3d* FemElement3dBase::owner() const {
  const Component* list = getParent();
  return list ? dynamic_cast<FemModel3d*>(list->getParent()) : nullptr;
}

double FemElement3dBase::getDensity() const {
  if (hasOwnDensity()) return myDensity;
  const FemModel3d* m = owner();
  return m ? m->getDensity() : 1000.0;
}

void FemElement3dBase::setDensity(double d) {
  if (!std::isnan(d) && !(d >= 0 && std::isfinite(d)))
    throw ModelError("density must be finite and non-negative", describe());
  myDensity = d;
  if (FemModel3d* m = owner()) m->invalidateNodeMasses();
}

void FemElement3dBase::setMaterial(const FemMaterial& mat) {
  myMaterial = mat.clone();
  if (FemModel3d* m = owner()) m->materialsChanged();
}

const FemMaterial& FemElement3dBase::getMaterial() const {
  if (myMaterial) return *myMaterial;
  const FemModel3d* m = owner();
  if (!m) throw ModelError("element has no material and belongs to no model", describe());
  return m->getMaterial();
}

Vector3d FemElement3dBase::computeCentroid() const {
  Vector3d c = Vector3d::Zero();
  for (auto* n : myNodes) c += n->getPosition();
  return c / static_cast<double>(myNodes.size());
}

}  // namespace sinew
