// PointShellAttachment: a point attached to a shell element (guide §6.4.3's
// element attachment, for ShellTriElement and ShellQuadElement, §6.1.2.3).
// Its position is a weighted sum of the shell's dof points, p = Σ w_k x_k:
// for a regular shell its nodes and back nodes, the weights the shape
// functions of the solid between them at the point's natural coordinates
// (r, s, t); for a membrane its corner nodes, at the point's projection
// onto its surface. So the point follows the shell as it bends and
// stretches, and a force on it passes to those points.
#pragma once

#include <vector>

#include "sinew/fem/ShellElement3d.h"
#include "sinew/mech/Attachments.h"

namespace sinew {

class PointShellAttachment : public AttachmentComponent {
 public:
  /// Attaches p to shell e at p's current position (a membrane: at its
  /// projection onto e's surface, to which p is moved). ModelError if no
  /// natural coordinates can be found.
  PointShellAttachment(Point& p, const ShellElement3d& e);

  DynamicComponent& getSlave() const override { return mySlave; }
  int numMasters() const override { return static_cast<int>(myMasters.size()); }
  DynamicComponent& getMaster(int i) const override { return *myMasters[i]; }
  void getMasterJacobian(int i, Block& J) const override { J = myWeights[i] * Matrix3d::Identity(); }
  void updatePosStates() override;
  void updateVelStates() override;

  /// The weight of each dof point of the shell (ShellElement3d::getDofNode order).
  const std::vector<double>& getWeights() const { return myWeights; }

 private:
  Point& mySlave;
  std::vector<Particle*> myMasters;
  std::vector<double> myWeights;
};

}  // namespace sinew
