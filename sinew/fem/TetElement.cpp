// TetElement: the 4-node linear tetrahedron (guide Table 6.1), one
// integration point. Natural coordinates (s1, s2, s3) with
// N0 = 1 − s1 − s2 − s3, N1 = s1, N2 = s2, N3 = s3.
#include "sinew/fem/ElementDefinitions.h"

namespace sinew::fem_detail {

namespace {
void tetShape(const Vector3d& s, double* N, Vector3d* dN) {
  N[0] = 1 - s.sum();
  dN[0].setConstant(-1);
  for (int a = 0; a < 3; ++a) {
    N[a + 1] = s[a];
    dN[a + 1] = Vector3d::Unit(a);
  }
}
}  // namespace

ReferenceElement::Definition tetElementDefinition() {
  // Face 0-1-2 runs clockwise seen from outside (its outward normal is −z),
  // then the opposite node (§6.2.4).
  return {FemElementType::Tet,
          "TetElement",
          1,
          ReferenceElement::Domain::Tetrahedron,
          {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
          {{Vector3d(0.25, 0.25, 0.25), 1.0 / 6.0}},
          Vector3d(0.25, 0.25, 0.25),
          tetShape,
          FemElementType::Tet};
}

}  // namespace sinew::fem_detail
