// FemElement3d (guide §6.1.2.2, §6.2.4, §6.8): a volumetric element of a
// FemModel3d — its nodes in the node order of its ReferenceElement (Table
// 6.1), and an optional density and material that override the model's.
// Its forces and stiffness come from the free kernels of ElementKernels.h;
// the model sums them (one element type for all: TetElement, HexElement, …
// differ only in their ReferenceElement, whose name the element reports).
// Its stress and strain (§6.10) are volume averages over its integration
// points, kept by the model when computeElementStress/Strain is set.
#pragma once

#include <memory>
#include <vector>

#include "sinew/fem/ElementKernels.h"
#include "sinew/fem/FemElement3dBase.h"
#include "sinew/fem/FemNode3d.h"
#include "sinew/fem/StressStrainOutput.h"
#include "sinew/mech/FrameAttachable.h"
#include "sinew/mech/PointAttachable.h"
#include "sinew/model/Component.h"

namespace sinew {

class FemElement3d : public FemElement3dBase, public HasStressStrain, public FrameAttachable, public PointAttachable {
  SINEW_DECLARE_PROPERTIES
 public:
  /// An element of the type with this many nodes (4 tet, 5 pyramid, 6
  /// wedge, 8 hex, 10 quadtet, 13 quadpyramid, 15 quadwedge, 20 quadhex),
  /// as FemElement3d.createElement picks it (§6.2.4). Throws ModelError for
  /// another count or a repeated node.
  static std::unique_ptr<FemElement3d> createElement(const std::vector<FemNode3d*>& nodes);
  FemElement3d(const ReferenceElement& type, const std::vector<FemNode3d*>& nodes);

  const ReferenceElement& getReferenceElement() const { return *myType; }
  FemElementType getType() const { return myType->getType(); }
  /// The guide's class name ("HexElement", "QuadtetElement", …).
  const char* getTypeName() const override { return myType->getName(); }
  int numIntegrationPoints() const override { return myType->numIntegrationPoints(); }

  void getRestPositions(std::array<Vector3d, ReferenceElement::kMaxNodes>& x) const;
  void getPositions(std::array<Vector3d, ReferenceElement::kMaxNodes>& x) const;
  double getRestVolume() const override;
  double computeVolume() const override;

  /// Cauchy stress and strain at each integration point (computed now).
  std::vector<IntegrationPointState> computeIntegrationPointStates() const;
  /// Stress extrapolated to each node, in node order.
  std::vector<Matrix3d> computeNodalStresses() const;

  /// FrameAttachable (§6.6): a FrameFem3dAttachment of `frame` at pose TFW
  /// to this element (`mech.attachFrame(frame, elem)`).
  std::unique_ptr<AttachmentComponent> createFrameAttachment(Frame& frame, const RigidTransform3d& TFW) override;
  /// PointAttachable (§6.4.3): an element-based attachment of p at its
  /// position (`mech.attachPoint(p, elem)`).
  std::unique_ptr<AttachmentComponent> createPointAttachment(Point& p) override;

 private:
  const ReferenceElement* myType;
};

}  // namespace sinew
