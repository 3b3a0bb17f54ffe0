#include "sinew/fem/PointShellAttachment.h"

namespace sinew {

PointShellAttachment::PointShellAttachment(Point& p, const ShellElement3d& e) : mySlave(p) {
  Vector3d at;
  myWeights = e.computeDofWeights(p.getPosition(), at);
  for (int i = 0; i < e.numDofNodes(); ++i) myMasters.push_back(&e.getDofNode(i));
  p.setPosition(at);
}

void PointShellAttachment::updatePosStates() { mySlave.setPosition(weightedSum(myMasters, myWeights, &Point::getPosition)); }

void PointShellAttachment::updateVelStates() { mySlave.setVelocity(weightedSum(myMasters, myWeights, &Point::getVelocity)); }

std::unique_ptr<AttachmentComponent> ShellElement3d::createPointAttachment(Point& p) {
  return std::make_unique<PointShellAttachment>(p, *this);
}

}  // namespace sinew
