// FemModel3d's augmenting materials (guide §6.8): the `materials` list of
// MaterialBundles and, per element, the bundle materials that act on it.
#include <unordered_map>

#include "sinew/fem/FemModel3d.h"

namespace sinew {

MaterialBundle& FemModel3d::addMaterialBundle(std::unique_ptr<MaterialBundle> b) {
  if (!b) throw ModelError("addMaterialBundle: null bundle", describe());
  for (FemElement3d* e : b->getElements())
    if (e->getParent() != myElements)
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
  if (myAugmentValid && static_cast<int>(myAugment.size()) == myElements->size()) return myAugment;
  myAugment.assign(myElements->size(), {});
  std::unordered_map<const FemElement3d*, int> index;
  for (int k = 0; k < myElements->size(); ++k) index[&myElements->get(k)] = k;
  for (const MaterialBundle& b : *myBundles) {
    const FemMaterial* mat = b.getMaterial();
    if (!mat) continue;
    if (b.getUseAllElements()) {
      for (auto& list : myAugment) list.push_back(mat);
      continue;
    }
    for (const FemElement3d* e : b.getElements()) {
      // Compared by address only: a removed element is never dereferenced.
      auto it = index.find(e);
      if (it == index.end())
        throw ModelError("holds an element that is no longer in " + describe(), b.describe());
      myAugment[it->second].push_back(mat);
    }
  }
  myAugmentValid = true;
  return myAugment;
}

}  // namespace sinew
