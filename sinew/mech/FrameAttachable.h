// FrameAttachable (guide §3.6.3, §6.6.2): a component that a frame can be
// attached to — a frame or rigid body, an FEM model, an FEM element. It
// builds the attachment that makes a frame follow it, which is what
// `mech.attachFrame(frame, comp)` adds, and what lets a joint connect
// bodies that are not frames themselves (an FEM model: the joint attaches
// its frame C or D to it).
#pragma once

#include <memory>

#include "sinew/math/Spatial.h"

namespace sinew {

class AttachmentComponent;
class Frame;

class FrameAttachable {
 public:
  virtual ~FrameAttachable() = default;
  /// An attachment of `frame`, whose pose is (or is about to be) TFW, to
  /// this component; not yet connected (MechModel::addAttachment does that).
  virtual std::unique_ptr<AttachmentComponent> createFrameAttachment(Frame& frame, const RigidTransform3d& TFW) = 0;
  /// This component as a Frame, when it is one: joints use frames directly
  /// and need an attached frame of their own for anything else.
  virtual Frame* asFrame() { return nullptr; }
};

}  // namespace sinew
