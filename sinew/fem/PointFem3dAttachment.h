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

class FemModel3d;
class ShellElement3d;
class PointShellAttachment;

class PointFem3dAttachment : public AttachmentComponent {
 public:
  /// An attachment of p whose nodes are set afterwards by setFromNodes
  /// (§6.4.8); connecting it before that is a ModelError.
  explicit PointFem3dAttachment(Point& p) : mySlave(p) {}
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

  /// Nodal-based attachment (§6.4.8) with explicit weights (summing to 1).
  void setFromNodes(const std::vector<FemNode3d*>& nodes, const std::vector<double>& weights);
  /// Nodal-based attachment with automatic weights (computeNodalWeights) that
  /// reproduce pos; false, leaving the attachment unchanged, when the nodes
  /// give too little support.
  bool setFromNodes(const Vector3d& pos, const std::vector<FemNode3d*>& nodes);
  /// Element-based attachment at pos (§6.4.3): the shape functions of e at
  /// pos's natural coordinates; false when pos is not inside e (the shape
  /// functions are then extrapolated). The point is moved to pos.
  bool setFromElement(const Vector3d& pos, const FemElement3d& e);
  /// Element-based attachment at pos in fem: in the element containing pos,
  /// or, for a pos outside, at the nearest point of fem's surface, to which
  /// the point is moved (§6.4.3).
  void setFromFem(const Vector3d& pos, FemModel3d& fem);

 private:
  /// ModelError unless there is one weight per node and they sum to 1.
  static void checkWeights(const Point& p, const std::vector<FemNode3d*>& nodes, const std::vector<double>& weights);

  Point& mySlave;
  std::vector<FemNode3d*> myNodes;
  std::vector<double> myWeights;
};

/// The natural coordinates s of world point p in element e (Newton on
/// x(s) = p from the element centre, at the current node positions), and
/// whether p lies inside (within tol in natural coordinates).
bool computeNaturalCoordinates(const FemElement3d& e, const Vector3d& p, Vector3d& s, double tol = 1e-10);

/// The weights of the shape functions of e at p's natural coordinates (eq.
/// 6.1), extrapolated when p is outside; false if none can be found.
bool computeElementWeights(const FemElement3d& e, const Vector3d& p, std::vector<double>& weights);

/// Nodal weights for point pos (§6.4.8): first α_k = d_max / (d_k + d_max)
/// (d_k the distance of node k from pos), normalized to sum to 1, then the
/// smallest change to them for which Σ α_k = 1 and Σ α_k x_k = pos. False when no weights can meet
/// both conditions (no nodes, or nodes that do not span pos, such as
/// collinear nodes with pos off their line).
bool computeNodalWeights(const Vector3d& pos, const std::vector<FemNode3d*>& nodes, std::vector<double>& weights);

/// A marker point embedded in an FEM model (§6.5): it lives in the model's
/// `markers` list and follows the element it was placed in.
class FemMarker : public Point {
 public:
  explicit FemMarker(std::string name = {}, const Vector3d& pos = Vector3d::Zero()) : Point(std::move(name), pos) {}
  FemMarker(double x, double y, double z) : Point({}, Vector3d(x, y, z)) {}
  ~FemMarker() override;
  // The attachment setters of §6.5, each at the marker's current position.
  /// In the containing element, or at the nearest surface point (moving
  /// the marker there); in a model of shells alone, in the shell whose
  /// centroid is nearest (setFromShell).
  void setFromFem(FemModel3d& fem);
  /// In element e; false when the marker is not inside e.
  bool setFromElement(const FemElement3d& e);
  /// In shell element e (PointShellAttachment: inside a regular shell's
  /// thickness, or at the projection onto a membrane, moving the marker).
  void setFromShell(const ShellElement3d& e);
  /// Nodal-based, with explicit weights summing to 1 (§6.4.8).
  void setFromNodes(const std::vector<FemNode3d*>& nodes, const std::vector<double>& weights);
  /// Nodal-based with automatic weights; false, leaving the marker as it
  /// was, when the nodes give too little support.
  bool setFromNodes(const std::vector<FemNode3d*>& nodes);
  /// The attachment to volume elements or nodes; null when the marker is
  /// on a shell (or not attached).
  const PointFem3dAttachment* getAttachment() const;
  /// The attachment to a shell element; null otherwise.
  const PointShellAttachment* getShellAttachment() const;

 private:
  /// Replaces the marker's attachment by a, fully set, and connects it.
  void install(std::unique_ptr<AttachmentComponent> a);

  std::unique_ptr<AttachmentComponent> myAttachment;
};

}  // namespace sinew
