// FemModel3d's augmenting materials (guide §6.8): the `materials` list of
// MaterialBundles and, per element, the bundle materials that act on it.
#include <unordered_map>

#include "sinew/fem/FemModel3d.h"

namespace sinew {

MaterialBundle& FemModel3d::addMaterialBundle(std::unique_ptr<MaterialBundle> b) {
  if (!b) throw ModelError("addMaterialBundle: null bundle", describe());
  for (FemElement3dBase* e : b->getElements())
    if (!ownsElement(*e))
      throw ModelError("bundle '" + b->getName() + "': " + e->describe() + " is not an element of this model",
                       describe());
  MaterialBundle& added = myBundles->add(std::move(b));
  bundlesChanged();
  return added;
}

bool FemModel3d::removeMaterialBundle(MaterialBundle& b) {
  const bool removed = myBundles->remove(b);
  bundlesChanged();
  return removed;
}

const std::vector<std::vector<const FemMaterial*>>& FemModel3d::augmentingMaterials() const {
  if (myAugmentValid && static_cast<int>(myAugment.size()) == myElements->size() &&
      static_cast<int>(myShellAugment.size()) == myShells->size())
    return myAugment;
  myAugment.assign(myElements->size(), {});
  myShellAugment.assign(myShells->size(), {});
  // Where each element's list is: volumetric and shell elements alike.
  std::unordered_map<const FemElement3dBase*, std::vector<const FemMaterial*>*> listOf;
  for (int k = 0; k < myElements->size(); ++k) listOf[&myElements->get(k)] = &myAugment[k];
  for (int k = 0; k < myShells->size(); ++k) listOf[&myShells->get(k)] = &myShellAugment[k];
  for (const MaterialBundle& b : *myBundles) {
    const FemMaterial* mat = b.getMaterial();
    if (!mat) continue;
    if (b.getUseAllElements()) {
      for (auto& list : myAugment) list.push_back(mat);
      for (auto& list : myShellAugment) list.push_back(mat);
      continue;
    }
    for (const FemElement3dBase* e : b.getElements()) {
      // Compared by address only: a removed element is never dereferenced.
      auto it = listOf.find(e);
      if (it == listOf.end())
        throw ModelError("holds an element that is no longer in " + describe(), b.describe());
      it->second->push_back(mat);
    }
  }
  myAugmentValid = true;
  return myAugment;
}

const std::vector<std::vector<const FemMaterial*>>& FemModel3d::shellAugmentingMaterials() const {
  augmentingMaterials();
  return myShellAugment;
}

}  // namespace sinew
