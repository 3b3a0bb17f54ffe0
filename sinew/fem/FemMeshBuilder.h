// FemMeshBuilder: the staging area behind FemFactory (guide §6.2.1). A
// factory lays out points and linear elements here first: hexahedral cells
// split into the element type asked for, elements given in either
// handedness and put in their ReferenceElement's order (§6.2.4). Every
// element is checked before anything reaches the model, so a factory that
// throws leaves the model as it was. Quadratic types are made from the
// linear layout by adding one node at the middle of each edge, shared by
// every element on that edge, so the quadratic mesh conforms where the
// linear one does. Internal to sinew/fem.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "sinew/fem/FemModel3d.h"

namespace sinew::fem_detail {

/// The linear type with the same corners (Hex for QuadHex; itself if linear).
FemElementType linearTypeOf(FemElementType type);
bool isQuadratic(FemElementType type);

/// Argument checks of the factories: ModelError "<func>: <name> must be …"
/// on fem's path.
void requirePositive(const FemModel3d& fem, const char* func, const char* name, double value);
void requireAtLeast(const FemModel3d& fem, const char* func, const char* name, int value, int min);

/// The corners c[a + 2b + 4d] of cell (i, j, k) of a structured layout
/// whose point (i, j, k) has index at(i, j, k), as addCell takes them.
template <class At>
std::array<int, 8> cellCorners(const At& at, int i, int j, int k) {
  std::array<int, 8> c;
  for (int corner = 0; corner < 8; ++corner) c[corner] = at(i + (corner & 1), j + (corner >> 1 & 1), k + (corner >> 2));
  return c;
}

class FemMeshBuilder {
 public:
  int addPoint(const Vector3d& p);
  const Vector3d& point(int i) const { return myPoints[i]; }

  /// Adds a linear element (4, 5, 6 or 8 point indices) in its reference
  /// order or in the mirror of it: a mirrored one is reordered so that its
  /// rest Jacobian is positive.
  void addElement(std::vector<int> nodes);
  /// Adds a linear element exactly as given; throws ModelError naming
  /// `what` (on `path`) if its rest Jacobian is not positive at every
  /// integration point.
  void addElementAsGiven(std::vector<int> nodes, const std::string& what, const std::string& path = {});
  /// Fills a hexahedral cell with elements of a linear type. The corners are
  /// c[a + 2b + 4d] for the cell's local axes a, b, d (either handedness):
  /// one hex; two wedges split across the diagonal c0–c3 of each (a, b) face
  /// and extruded along d; six tetrahedra around the diagonal c0–c7, one per
  /// path along the axes (Kuhn); or six pyramids, one on each face, meeting
  /// at a new point at the cell's centre. Neighbouring cells whose local axes
  /// follow one global (i, j, k) indexing then share whole faces.
  void addCell(const std::array<int, 8>& c, FemElementType linearType);

  /// Adds a node for each point and the elements, as the quadratic type of
  /// the same corners if `quadratic`, to fem; returns fem.
  FemModel3d& emit(FemModel3d& fem, bool quadratic) const;

 private:
  std::vector<Vector3d> myPoints;
  std::vector<std::vector<int>> myElements;
};

}  // namespace sinew::fem_detail
