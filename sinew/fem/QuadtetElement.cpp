// QuadtetElement: the 10-node quadratic tetrahedron (guide Table 6.1) with
// the 4-point rule exact for quadratics. With the barycentric coordinates
// L0 = 1 − s1 − s2 − s3, L1 = s1, L2 = s2, L3 = s3: corners
// N = L_a(2L_a − 1), edge nodes N = 4 L_a L_b.
#include "sinew/fem/ElementDefinitions.h"

namespace sinew::fem_detail {

namespace {
// Edge nodes 4..9 sit on the edges 01, 12, 20, 03, 13, 23.
const int kEdges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};

void quadtetShape(const Vector3d& s, double* N, Vector3d* dN) {
  const double L[4] = {1 - s.sum(), s.x(), s.y(), s.z()};
  const Vector3d dL[4] = {Vector3d::Constant(-1), Vector3d::UnitX(), Vector3d::UnitY(), Vector3d::UnitZ()};
  for (int a = 0; a < 4; ++a) {
    N[a] = L[a] * (2 * L[a] - 1);
    dN[a] = (4 * L[a] - 1) * dL[a];
  }
  for (int e = 0; e < 6; ++e) {
    int a = kEdges[e][0], b = kEdges[e][1];
    N[4 + e] = 4 * L[a] * L[b];
    dN[4 + e] = 4 * (L[b] * dL[a] + L[a] * dL[b]);
  }
}
}  // namespace

ReferenceElement::Definition quadtetElementDefinition() {
  // The linear tet's corners, domain and centre, with quadratic functions.
  ReferenceElement::Definition d =
      quadraticDefinition(tetElementDefinition(), FemElementType::QuadTet, "QuadtetElement", quadtetShape);
  for (const auto& e : kEdges) d.nodeCoords.push_back(0.5 * (d.nodeCoords[e[0]] + d.nodeCoords[e[1]]));
  // The symmetric 4-point rule: each point is α along one barycentric
  // coordinate and β along the other three (α + 3β = 1).
  const double alpha = 0.58541019662496845, beta = 0.13819660112501052;
  d.integrationPoints = {{Vector3d(beta, beta, beta), 1.0 / 24},
                         {Vector3d(alpha, beta, beta), 1.0 / 24},
                         {Vector3d(beta, alpha, beta), 1.0 / 24},
                         {Vector3d(beta, beta, alpha), 1.0 / 24}};
  return d;
}

}  // namespace sinew::fem_detail
