// The boundary of a set of FEM elements (guide §6.3.1, §6.4.5, §6.4.9):
// the faces of each element type, the element faces that no other element
// shares, split into triangles, and the ElementFilter that restricts which
// elements count. FemModel3d builds its auto-generated surface mesh and its
// surface queries (isSurfaceNode, findNearestSurfaceElement) from these.
//
// Faces are derived once per element type from the ideal node positions of
// its ReferenceElement: a face is a plane through corner nodes with every
// other node on one side; its nodes (corners and mid-side nodes) are
// ordered counter-clockwise seen from outside, so the right-hand rule gives
// the outward normal. A quadratic face (corners alternating with mid-side
// nodes) is split into one triangle per corner plus the polygon of its
// mid-side nodes: 4 triangles for a 6-node triangle, 6 for an 8-node quad.
#pragma once

#include <array>
#include <vector>

#include "sinew/fem/FemElement3d.h"
#include "sinew/geometry/PolygonalMesh.h"  // nearestPointOnTriangle
#include "sinew/model/Component.h"

namespace sinew {

/// Selects elements for surface building and queries (FemModel.ElementFilter
/// of §6.4.9): subclass it and override elementIsValid.
class ElementFilter {
 public:
  virtual ~ElementFilter() = default;
  virtual bool elementIsValid(const FemElement3dBase& e) const = 0;
};

/// The faces of an element type: node indices, counter-clockwise seen from
/// outside, corner and mid-side nodes in their cyclic order.
const std::vector<std::vector<int>>& getElementFaces(const ReferenceElement& type);

/// The triangles of a face given as element node indices in cyclic order
/// (see the file comment); appended to tris as index triples.
void triangulateElementFace(const ReferenceElement& type, const std::vector<int>& face,
                            std::vector<std::array<int, 3>>& tris);

/// One triangle of a boundary: its nodes, counter-clockwise seen from
/// outside, and the element whose face it lies on.
struct BoundaryTriangle {
  std::array<FemNode3d*, 3> nodes;
  FemElement3d* element;
};

/// The triangles of the element faces that exactly one element (among those
/// passing filter, or all when filter is null) has. Faces are matched by
/// their node sets, so elements of different types fit together.
std::vector<BoundaryTriangle> findBoundaryTriangles(const ComponentList<FemElement3d>& elements,
                                                    const ElementFilter* filter = nullptr);

/// Whether element e contains p (at the current node positions): a box
/// test, then its natural coordinates.
bool elementContains(const FemElement3d& e, const Vector3d& p);

}  // namespace sinew
