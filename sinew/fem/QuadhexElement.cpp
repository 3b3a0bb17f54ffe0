// QuadhexElement: the 20-node serendipity hexahedron (guide Table 6.1) with
// the 14-point Irons rule (exact to degree 5). Natural coordinates (s, t, r)
// ∈ [−1, 1]³. A corner (ξ, η, ζ) has N = ⅛ a b c (ξs + ηt + ζr − 2) with
// a = 1 + ξs, b = 1 + ηt, c = 1 + ζr; an edge node with ξ = 0 has
// N = ¼(1 − s²) b c, and likewise for the other two directions.
#include <cmath>

#include "sinew/fem/ElementDefinitions.h"

namespace sinew::fem_detail {

namespace {
// Corners as HexElement; then the edges of the z = +1 face (01, 12, 23, 30),
// of the z = −1 face (45, 56, 67, 74), and the edges joining them (04, 15,
// 26, 37).
const Vector3d kNodes[20] = {
    {-1, -1, 1}, {1, -1, 1}, {1, 1, 1},  {-1, 1, 1},  {-1, -1, -1}, {1, -1, -1}, {1, 1, -1},
    {-1, 1, -1}, {0, -1, 1}, {1, 0, 1},  {0, 1, 1},   {-1, 0, 1},   {0, -1, -1}, {1, 0, -1},
    {0, 1, -1},  {-1, 0, -1}, {-1, -1, 0}, {1, -1, 0}, {1, 1, 0},   {-1, 1, 0}};

void cornerShape(const Vector3d& c, const Vector3d& s, double& N, Vector3d& dN) {
  Vector3d f = Vector3d::Ones() + c.cwiseProduct(s);
  double q = c.dot(s) - 2;
  N = 0.125 * f.prod() * q;
  // ∂/∂s of a·q is ξ(q + a); the other two factors are constant in s.
  for (int k = 0; k < 3; ++k) dN[k] = 0.125 * c[k] * f[(k + 1) % 3] * f[(k + 2) % 3] * (q + f[k]);
}

void edgeShape(const Vector3d& c, const Vector3d& s, double& N, Vector3d& dN) {
  int k = c[0] == 0 ? 0 : (c[1] == 0 ? 1 : 2);  // the direction along the edge
  int i = (k + 1) % 3, j = (k + 2) % 3;
  double bubble = 1 - s[k] * s[k], fi = 1 + c[i] * s[i], fj = 1 + c[j] * s[j];
  N = 0.25 * bubble * fi * fj;
  dN[k] = -0.5 * s[k] * fi * fj;
  dN[i] = 0.25 * bubble * c[i] * fj;
  dN[j] = 0.25 * bubble * fi * c[j];
}

void quadhexShape(const Vector3d& s, double* N, Vector3d* dN) {
  for (int i = 0; i < 8; ++i) cornerShape(kNodes[i], s, N[i], dN[i]);
  for (int i = 8; i < 20; ++i) edgeShape(kNodes[i], s, N[i], dN[i]);
}
}  // namespace

ReferenceElement::Definition quadhexElementDefinition() {
  ReferenceElement::Definition d{FemElementType::QuadHex, "QuadhexElement", 2, ReferenceElement::Domain::Cube,
                                 {std::begin(kNodes), std::end(kNodes)}, {}, Vector3d::Zero(),
                                 quadhexShape, FemElementType::Hex};
  // Irons' 14-point rule: 8 points towards the corners, 6 towards the faces.
  const double q = std::sqrt(19.0 / 33.0), wc = 121.0 / 361.0;
  const double r = std::sqrt(19.0 / 30.0), wf = 320.0 / 361.0;
  for (int i = 0; i < 8; ++i) d.integrationPoints.push_back({q * kNodes[i], wc});
  for (int k = 0; k < 3; ++k)
    for (double sign : {-1.0, 1.0}) d.integrationPoints.push_back({sign * r * Vector3d::Unit(k), wf});
  return d;
}

}  // namespace sinew::fem_detail
