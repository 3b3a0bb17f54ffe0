#include "sinew/fem/PointShellAttachment.h"

namespace sinew {

PointShellAttachment::PointShellAttachment(Point& p, const ShellElement3d& e) : mySlave(p) {
  Vector3d at;
  myWeights = e.computeDofWeights(p.getPosition(), at);
  for (int i = 0; i < e.numDofNodes(); ++i) myMasters.push_back(&e.getDofNode(i));
  p.setPosition(at);
}

void PointShellAttachment::updatePosStates() {
  Vector3d x = Vector3d::Zero();
  for (size_t i = 0; i < myMasters.size(); ++i) x += myWeights[i] * myMasters[i]->getPosition();
  mySlave.setPosition(x);
}

void PointShellAttachment::updateVelStates() {
  Vector3d v = Vector3d::Zero();
  for (size_t i = 0; i < myMasters.size(); ++i) v += myWeights[i] * myMasters[i]->getVelocity();
  mySlave.setVelocity(v);
}

std::unique_ptr<AttachmentComponent> ShellElement3d::createPointAttachment(Point& p) {
  return std::make_unique<PointShellAttachment>(p, *this);
}

}  // namespace sinew
