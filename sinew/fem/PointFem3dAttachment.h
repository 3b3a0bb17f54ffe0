// PointFem3dAttachment (guide §6.4.3, §6.4.8) and FemMarker (§6.5): a point
// whose position and velocity are a weighted sum of FEM node positions and
// velocities, p = Σ w_k x_k. Attached to an element, the weights are the
// element's shape functions at the point's natural coordinates (eq. 6.1),
// so the point follows the element as it deforms; nodal-based attachments
// give the nodes and weights directly.
#pragma once

#include <memory>
#include <vector>

#include "sinew/fem/FemElement3d.h"
#include "sinew/mech/Attachments.h"

namespace sinew {

class PointFem3dAttachment : public AttachmentComponent {
 public:
  /// Attaches p to the nodes with these weights (they must sum to 1).
  PointFem3dAttachment(Point& p, const std::vector<FemNode3d*>& nodes, const std::vector<double>& weights);
  /// Attaches p to element e at p's current position (inside e, or
  /// projected onto e by its natural coordinates when outside).
  PointFem3dAttachment(Point& p, const FemElement3d& e);

  DynamicComponent& getSlave() const override { return mySlave; }
  int numMasters() const override { return static_cast<int>(myNodes.size()); }
  DynamicComponent& getMaster(int i) const override { return *myNodes[i]; }
  void getMasterJacobian(int i, Block& J) const override { J = myWeights[i] * Matrix3d::Identity(); }
  void updatePosStates() override;
  void updateVelStates() override;

  const std::vector<FemNode3d*>& getNodes() const { return myNodes; }
  const std::vector<double>& getWeights() const { return myWeights; }

 private:
  Point& mySlave;
  std::vector<FemNode3d*> myNodes;
  std::vector<double> myWeights;
};

/// The natural coordinates s of world point p in element e (Newton on
/// x(s) = p from the element centre, at the current node positions), and
/// whether p lies inside (within tol in natural coordinates).
bool computeNaturalCoordinates(const FemElement3d& e, const Vector3d& p, Vector3d& s, double tol = 1e-10);

/// A marker point embedded in an FEM model (§6.5): it lives in the model's
/// `markers` list and follows the element it was placed in.
class FemMarker : public Point {
 public:
  explicit FemMarker(std::string name = {}, const Vector3d& pos = Vector3d::Zero()) : Point(std::move(name), pos) {}
  ~FemMarker() override;
  /// Attaches the marker to element e at its current position.
  void setFromElement(const FemElement3d& e);
  const PointFem3dAttachment* getAttachment() const { return myAttachment.get(); }

 private:
  std::unique_ptr<PointFem3dAttachment> myAttachment;
};

}  // namespace sinew
