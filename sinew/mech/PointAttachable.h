// PointAttachable (guide §6.4.3): a component that a point can be attached
// to at an arbitrary location — an FEM model or one of its elements. It
// builds the attachment that `mech.attachPoint(point, comp)` adds, so that
// MechModel need not know the FEM classes (particles and frames have their
// own attachPoint overloads).
#pragma once

#include <memory>

namespace sinew {

class AttachmentComponent;
class Point;

class PointAttachable {
 public:
  virtual ~PointAttachable() = default;
  /// An attachment of p at its current position to this component; not yet
  /// connected (MechModel::addAttachment does that).
  virtual std::unique_ptr<AttachmentComponent> createPointAttachment(Point& p) = 0;
};

}  // namespace sinew
