// FemQuery (guide §6.4.5): feature-based node queries on the surface mesh
// of an FEM model, for choosing the nodes to attach or constrain. The bend
// angle of an edge is the angle between the normals of the two surface
// faces that share it (0 where the surface is flat). A patch grows from
// the faces around a start node across edges that bend by at most
// maxBendAngle; an edge line follows edges that bend by at least
// minBendAngle (or lie on the border of an open surface), turning by at
// most maxEdgeAngle from one edge to the next. Angles are in radians, as
// in the guide's `Math.toRadians(10)`. Nodes come back in number order;
// vertices of a surface set by hand that lie on no node (embedded) shape
// the features but are not returned.
#pragma once

#include <vector>

#include "sinew/fem/FemModel3d.h"

namespace sinew {

class FemQuery {
 public:
  /// The nodes of the patch around node0. A node0 on a sharper edge starts
  /// the patches on both sides. ModelError if node0 is not a vertex of the
  /// surface mesh or an angle is negative.
  static std::vector<FemNode3d*> findPatchNodes(FemModel3d& fem, const FemNode3d& node0, double maxBendAngle);
  /// The nodes on the border of that patch: on its edges whose other face
  /// is not in the patch (or that have none).
  static std::vector<FemNode3d*> findPatchBoundaryNodes(FemModel3d& fem, const FemNode3d& node0,
                                                        double maxBendAngle);
  /// The nodes of the edge lines through node0. Every feature edge at node0
  /// starts a line; at each later node the line goes on along the feature
  /// edge that turns least, if by at most maxEdgeAngle, or along every such
  /// edge when allowBranching.
  static std::vector<FemNode3d*> findEdgeLineNodes(FemModel3d& fem, const FemNode3d& node0, double minBendAngle,
                                                   double maxEdgeAngle, bool allowBranching);
};

}  // namespace sinew
