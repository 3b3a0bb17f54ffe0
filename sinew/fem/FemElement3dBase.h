// FemElement3dBase (guide §6.1.2.3): what volumetric elements (FemElement3d)
// and shell elements (ShellElement3d) share — their corner nodes, and an
// optional density and material that override the model's (§6.8).
// FemModel3d::getAllElements() lists both kinds through this base.
#pragma once

#include <cmath>
#include <memory>
#include <vector>

#include "sinew/fem/FemMaterial.h"
#include "sinew/fem/FemNode3d.h"
#include "sinew/model/Component.h"

namespace sinew {

class FemModel3d;

class FemElement3dBase : public Component {
  SINEW_DECLARE_PROPERTIES
 public:
  int numNodes() const { return static_cast<int>(myNodes.size()); }
  FemNode3d& getNode(int i) const { return *myNodes[i]; }
  const std::vector<FemNode3d*>& getNodes() const { return myNodes; }
  /// The guide's class name ("HexElement", "ShellTriElement", …).
  virtual const char* getTypeName() const = 0;
  virtual int numIntegrationPoints() const = 0;
  virtual double getRestVolume() const = 0;
  virtual double computeVolume() const = 0;
  virtual bool isShell() const { return false; }

  /// Density; NaN (the default) inherits the model's.
  double getDensity() const;
  void setDensity(double d);
  bool hasOwnDensity() const { return !std::isnan(myDensity); }
  /// The element's own material (nullptr: the model's, the default).
  const FemMaterial* getOwnMaterial() const { return myMaterial.get(); }
  /// Sets a copy of mat as the element's material (§6.8).
  void setMaterial(const FemMaterial& mat);
  void clearMaterial() { myMaterial.reset(); }
  /// The material in effect: the element's own or the model's.
  const FemMaterial& getMaterial() const;
  Vector3d computeCentroid() const;

 protected:
  /// Checks the node count against `expected` and that no node is null or
  /// repeated (ModelError naming the type).
  FemElement3dBase(const char* typeName, int expected, const std::vector<FemNode3d*>& nodes);
  /// The model the element belongs to (element → list → model), or null.
  FemModel3d* owner() const;

  std::vector<FemNode3d*> myNodes;

 private:
  double myDensity = NAN;
  std::unique_ptr<FemMaterial> myMaterial;
};

}  // namespace sinew
