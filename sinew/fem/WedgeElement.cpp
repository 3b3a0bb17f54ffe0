// WedgeElement: the 6-node linear wedge (triangular prism, guide Table 6.1)
// with 6 integration points (3-point triangle rule × 2-point Gauss).
// Natural coordinates (s1, s2) on the unit triangle and r ∈ [−1, 1]:
// N = ½ L_a(s1, s2)(1 ∓ r) with L0 = 1 − s1 − s2, L1 = s1, L2 = s2.
#include "sinew/fem/ElementDefinitions.h"

namespace sinew::fem_detail {

namespace {
void wedgeShape(const Vector3d& s, double* N, Vector3d* dN) {
  const double L[3] = {1 - s.x() - s.y(), s.x(), s.y()};
  const Vector3d dL[3] = {{-1, -1, 0}, {1, 0, 0}, {0, 1, 0}};
  for (int a = 0; a < 3; ++a) {
    for (int face = 0; face < 2; ++face) {  // bottom (r = −1), then top
      double zeta = face == 0 ? -1 : 1, f = 0.5 * (1 + zeta * s.z());
      N[3 * face + a] = L[a] * f;
      dN[3 * face + a] = f * dL[a] + Vector3d(0, 0, 0.5 * zeta * L[a]);
    }
  }
}
}  // namespace

std::vector<IntegrationPoint3d> wedgeIntegrationPoints(std::initializer_list<std::pair<double, double>> lineRule) {
  std::vector<IntegrationPoint3d> points;
  for (auto [r, w] : lineRule)
    for (Vector3d p : {Vector3d(kTriA, kTriA, r), Vector3d(kTriB, kTriA, r), Vector3d(kTriA, kTriB, r)})
      points.push_back({p, w / 6});
  return points;
}

ReferenceElement::Definition wedgeElementDefinition() {
  ReferenceElement::Definition d{FemElementType::Wedge,
                                 "WedgeElement",
                                 1,
                                 ReferenceElement::Domain::Prism,
                                 {{0, 0, -1}, {1, 0, -1}, {0, 1, -1}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}},
                                 {},
                                 Vector3d(1.0 / 3, 1.0 / 3, 0),
                                 wedgeShape,
                                 FemElementType::Wedge};
  d.integrationPoints = wedgeIntegrationPoints({{-kGauss2, 1.0}, {kGauss2, 1.0}});
  return d;
}

}  // namespace sinew::fem_detail
