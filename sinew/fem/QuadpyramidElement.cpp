// QuadpyramidElement: the 13-node quadratic pyramid (guide Table 6.1), with
// the 5-point rule of PyramidElement. Like the linear pyramid it is a
// hexahedron collapsed onto its apex: natural coordinates (s, t, r) fill
// [−1, 1]³. With q = ½(1 − r) (1 on the base, 0 at the apex), a base corner
// (ξ, η) has N = −¼ q a b (1 − q(ξs + ηt)) with a = 1 + ξs, b = 1 + ηt; the
// apex N = ½ r(1 + r); a base mid-edge node with ξ = 0 has N = ½ q² b(1 − s²)
// (and symmetrically); a node halfway up a slanted edge N = q(1 − q) a b.
#include "sinew/fem/ElementDefinitions.h"

namespace sinew::fem_detail {

namespace {
// Base corners, apex, base mid-edges (01, 12, 23, 30), then the midpoints of
// the slanted edges 04, 14, 24, 34 (at r = 0 in natural coordinates).
const Vector3d kNodes[13] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {0, 0, 1},
                             {0, -1, -1},  {1, 0, -1},  {0, 1, -1}, {-1, 0, -1}, {-1, -1, 0},
                             {1, -1, 0},   {1, 1, 0},   {-1, 1, 0}};

void quadpyramidShape(const Vector3d& s, double* N, Vector3d* dN) {
  const double q = 0.5 * (1 - s.z());  // dq/dr = −½
  for (int i = 0; i < 4; ++i) {
    double xi = kNodes[i].x(), eta = kNodes[i].y();
    double a = 1 + xi * s.x(), b = 1 + eta * s.y(), m = xi * s.x() + eta * s.y();
    N[i] = -0.25 * q * a * b * (1 - q * m);
    dN[i] = Vector3d(-0.25 * q * b * xi * (1 - q * m - q * a), -0.25 * q * a * eta * (1 - q * m - q * b),
                     0.125 * a * b * (1 - 2 * q * m));
  }
  N[4] = 0.5 * s.z() * (1 + s.z());
  dN[4] = Vector3d(0, 0, 0.5 + s.z());
  for (int i = 5; i < 9; ++i) {
    // Along the edge direction k the node coordinate is 0; across it ±1.
    int k = kNodes[i].x() == 0 ? 0 : 1, j = 1 - k;
    double c = kNodes[i][j], f = 1 + c * s[j], bubble = 1 - s[k] * s[k];
    N[i] = 0.5 * q * q * f * bubble;
    dN[i][k] = -q * q * f * s[k];
    dN[i][j] = 0.5 * q * q * c * bubble;
    dN[i][2] = -0.5 * q * f * bubble;
  }
  for (int i = 9; i < 13; ++i) {
    double xi = kNodes[i].x(), eta = kNodes[i].y();
    double a = 1 + xi * s.x(), b = 1 + eta * s.y(), h = q * (1 - q);
    N[i] = h * a * b;
    dN[i] = Vector3d(h * xi * b, h * eta * a, (q - 0.5) * a * b);
  }
}
}  // namespace

ReferenceElement::Definition quadpyramidElementDefinition() {
  // The linear pyramid's domain, rule and centre, with quadratic functions.
  ReferenceElement::Definition d =
      quadraticDefinition(pyramidElementDefinition(), FemElementType::QuadPyramid, "QuadpyramidElement", quadpyramidShape);
  d.nodeCoords.assign(std::begin(kNodes), std::end(kNodes));
  return d;
}

}  // namespace sinew::fem_detail
