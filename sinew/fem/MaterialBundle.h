// MaterialBundle (guide §6.8): an augmenting material for a set of elements
// (volumetric or shell) of a FemModel3d. The bundle's material acts on each of its elements (or
// on every element, with useAllElements) in addition to the element's own
// material: its stress, tangent stiffness and strain energy add to those of
// the element, over the same element blocks of the Jacobian. Bundles live
// in the model's `materials` list (§6.1.2): `fem.addMaterialBundle(...)`.
//
// As for the model's material, the bundle keeps a copy of the material it
// is given; changing the bundle's copy (material(), or through the
// `material` composite property) changes every element of the bundle at
// the next step — the advantage the guide names over per-element materials.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sinew/fem/FemElement3d.h"
#include "sinew/fem/FemMaterial.h"
#include "sinew/model/Component.h"

namespace sinew {

class FemModel3d;

class MaterialBundle : public Component {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit MaterialBundle(std::string name = {}, bool useAllElements = false);
  MaterialBundle(std::string name, const FemMaterial& mat, bool useAllElements = false);
  ~MaterialBundle() override;

  /// The bundle's material; nullptr (the default without one) adds nothing.
  const FemMaterial* getMaterial() const { return myMaterial.get(); }
  /// Sets a copy of mat and returns the copy, which may be changed in place.
  FemMaterial& setMaterial(const FemMaterial& mat);
  /// The bundle's copy, for changing its parameters in place (ModelError if
  /// the bundle has no material).
  FemMaterial& material();

  /// Whether the material acts on every element of the model. Enabling it
  /// clears the bundle's own element list.
  bool getUseAllElements() const { return myUseAll; }
  void setUseAllElements(bool enable);

  /// Adds an element, volumetric or shell (§6.8: `fem.getElements()`,
  /// `getShellElements()` or `getAllElements()`); ModelError if the bundle
  /// uses all elements, if e is already in the bundle, or if the bundle
  /// belongs to a model and e does not belong to that model.
  void addElement(FemElement3dBase& e);
  /// Removes e; false if it was not in the bundle.
  bool removeElement(FemElement3dBase& e);
  void clearElements();
  int numElements() const { return static_cast<int>(myElements.size()); }
  FemElement3dBase& getElement(int idx) const;
  const std::vector<FemElement3dBase*>& getElements() const { return myElements; }

  /// The model whose `materials` list holds this bundle, or nullptr.
  FemModel3d* getFemModel() const;

 private:
  void changed();

  std::unique_ptr<FemMaterial> myMaterial;
  bool myUseAll = false;
  std::vector<FemElement3dBase*> myElements;
};

}  // namespace sinew
