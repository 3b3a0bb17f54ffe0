// HexElement: the 8-node trilinear hexahedron (guide Table 6.1) with the
// 2×2×2 Gauss rule. Natural coordinates (s, t, r) ∈ [−1, 1]³; node i sits at
// the corner (ξ_i, η_i, ζ_i) and N_i = ⅛(1 + ξ_i s)(1 + η_i t)(1 + ζ_i r).
#include "sinew/fem/ElementDefinitions.h"

namespace sinew::fem_detail {

namespace {
// ArtiSynth's ordering: the z = +1 face, then the z = −1 face.
const Vector3d kCorners[8] = {{-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1},
                              {-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}};

void hexShape(const Vector3d& s, double* N, Vector3d* dN) {
  for (int i = 0; i < 8; ++i) {
    const Vector3d& c = kCorners[i];
    Vector3d f = Vector3d::Ones() + c.cwiseProduct(s);  // the three linear factors
    N[i] = 0.125 * f.prod();
    dN[i] = 0.125 * Vector3d(c.x() * f.y() * f.z(), c.y() * f.x() * f.z(), c.z() * f.x() * f.y());
  }
}
}  // namespace

ReferenceElement::Definition hexElementDefinition() {
  ReferenceElement::Definition d{FemElementType::Hex, "HexElement", 1, ReferenceElement::Domain::Cube,
                                 {}, {}, Vector3d::Zero(), hexShape, FemElementType::Hex};
  // Gauss points in node order, so point k is the one nearest node k.
  for (const Vector3d& c : kCorners) {
    d.nodeCoords.push_back(c);
    d.integrationPoints.push_back({kGauss2 * c, 1.0});
  }
  return d;
}

}  // namespace sinew::fem_detail
