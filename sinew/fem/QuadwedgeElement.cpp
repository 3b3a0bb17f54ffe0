// QuadwedgeElement: the 15-node quadratic wedge (guide Table 6.1) with 9
// integration points (3-point triangle rule × 3-point Gauss). With the
// triangle's barycentric coordinates L_a and r ∈ [−1, 1], a corner on the
// face r = ζ has N = ½ L_a(1 + ζr)(2L_a + ζr − 2), a mid-edge node of that
// face N = 2 L_a L_b (1 + ζr), and a node halfway up the vertical edge above
// corner a has N = L_a(1 − r²).
#include <cmath>

#include "sinew/fem/ElementDefinitions.h"

namespace sinew::fem_detail {

namespace {
const int kTriEdges[3][2] = {{0, 1}, {1, 2}, {2, 0}};

void quadwedgeShape(const Vector3d& s, double* N, Vector3d* dN) {
  const double L[3] = {1 - s.x() - s.y(), s.x(), s.y()};
  const Vector3d dL[3] = {{-1, -1, 0}, {1, 0, 0}, {0, 1, 0}};
  const double r = s.z();
  for (int face = 0; face < 2; ++face) {  // bottom (r = −1), then top
    double zeta = face == 0 ? -1 : 1, A = 1 + zeta * r;
    for (int a = 0; a < 3; ++a) {
      double B = 2 * L[a] + zeta * r - 2;
      N[3 * face + a] = 0.5 * L[a] * A * B;
      dN[3 * face + a] = 0.5 * A * (B + 2 * L[a]) * dL[a] + Vector3d(0, 0, 0.5 * L[a] * zeta * (A + B));
    }
    for (int e = 0; e < 3; ++e) {
      int a = kTriEdges[e][0], b = kTriEdges[e][1];
      N[6 + 3 * face + e] = 2 * L[a] * L[b] * A;
      dN[6 + 3 * face + e] = 2 * A * (L[b] * dL[a] + L[a] * dL[b]) + Vector3d(0, 0, 2 * zeta * L[a] * L[b]);
    }
  }
  for (int a = 0; a < 3; ++a) {
    N[12 + a] = L[a] * (1 - r * r);
    dN[12 + a] = (1 - r * r) * dL[a] + Vector3d(0, 0, -2 * r * L[a]);
  }
}
}  // namespace

ReferenceElement::Definition quadwedgeElementDefinition() {
  // The linear wedge's corners, domain and centre, with quadratic functions.
  ReferenceElement::Definition d =
      quadraticDefinition(wedgeElementDefinition(), FemElementType::QuadWedge, "QuadwedgeElement", quadwedgeShape);
  // Mid-edge nodes of the bottom face (01, 12, 20), of the top face (34,
  // 45, 53), then halfway up the vertical edges (03, 14, 25).
  for (int face = 0; face < 2; ++face)
    for (const auto& e : kTriEdges)
      d.nodeCoords.push_back(0.5 * (d.nodeCoords[3 * face + e[0]] + d.nodeCoords[3 * face + e[1]]));
  for (int a = 0; a < 3; ++a) d.nodeCoords.push_back(0.5 * (d.nodeCoords[a] + d.nodeCoords[a + 3]));
  d.integrationPoints = wedgeIntegrationPoints({{-kGauss3, 5.0 / 9}, {kGauss3, 5.0 / 9}, {0.0, 8.0 / 9}});
  return d;
}

}  // namespace sinew::fem_detail
