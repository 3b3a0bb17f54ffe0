#include "sinew/fem/MaterialBundle.h"

#include <algorithm>

#include "sinew/fem/FemModel3d.h"

namespace sinew {

SINEW_PROPERTIES(MaterialBundle, Component) {
  list.addComposite<MaterialBundle>("material", "the augmenting material (§6.8)",
                                    [](MaterialBundle& b) -> HasProperties* {
                                      return b.getMaterial() ? &b.material() : nullptr;
                                    });
  list.add<MaterialBundle>("useAllElements", "the material acts on every element of the model",
                           &MaterialBundle::getUseAllElements, &MaterialBundle::setUseAllElements)
      .setDefault(false);
}

MaterialBundle::MaterialBundle(std::string name, bool useAllElements)
    : Component(std::move(name)), myUseAll(useAllElements) {}

MaterialBundle::MaterialBundle(std::string name, const FemMaterial& mat, bool useAllElements)
    : MaterialBundle(std::move(name), useAllElements) {
  myMaterial = mat.clone();
}

MaterialBundle::~MaterialBundle() = default;

FemModel3d* MaterialBundle::getFemModel() const {
  const Component* list = getParent();
  return list ? dynamic_cast<FemModel3d*>(list->getParent()) : nullptr;
}

void MaterialBundle::changed() {
  if (FemModel3d* fem = getFemModel()) fem->bundlesChanged();
}

FemMaterial& MaterialBundle::setMaterial(const FemMaterial& mat) {
  myMaterial = mat.clone();
  changed();
  return *myMaterial;
}

FemMaterial& MaterialBundle::material() {
  if (!myMaterial) throw ModelError("the bundle has no material", describe());
  return *myMaterial;
}

void MaterialBundle::setUseAllElements(bool enable) {
  myUseAll = enable;
  if (enable) myElements.clear();
  changed();
}

void MaterialBundle::addElement(FemElement3dBase& e) {
  if (myUseAll)
    throw ModelError("cannot add " + e.describe() + ": the bundle uses all elements (useAllElements)", describe());
  if (std::find(myElements.begin(), myElements.end(), &e) != myElements.end())
    throw ModelError(e.describe() + " is already in the bundle", describe());
  if (const FemModel3d* fem = getFemModel(); fem && !fem->ownsElement(e))
    throw ModelError(e.describe() + " is not an element of " + fem->describe(), describe());
  myElements.push_back(&e);
  changed();
}

bool MaterialBundle::removeElement(FemElement3dBase& e) {
  auto it = std::find(myElements.begin(), myElements.end(), &e);
  if (it == myElements.end()) return false;
  myElements.erase(it);
  changed();
  return true;
}

void MaterialBundle::clearElements() {
  myElements.clear();
  changed();
}

FemElement3dBase& MaterialBundle::getElement(int idx) const {
  if (idx < 0 || idx >= numElements())
    throw ModelError("element index " + std::to_string(idx) + " out of range [0, " + std::to_string(numElements()) +
                         ")",
                     describe());
  return *myElements[idx];
}

}  // namespace sinew
