// PyramidElement: the 5-node linear pyramid (guide Table 6.1), 5 integration
// points. It is a hexahedron whose top face collapses onto the apex: natural
// coordinates (s, t, r) fill [−1, 1]³, the base corners take the trilinear
// functions ⅛(1 + ξs)(1 + ηt)(1 − r) and the apex takes ½(1 + r). The ideal
// element (nodes at their natural coordinates) is the pyramid with base
// [−1, 1]² at z = −1 and apex (0, 0, 1); the map x = ½s(1 − r), y = ½t(1 − r),
// z = r has det J = ¼(1 − r)², which the quadrature weights assume.
#include <cmath>

#include "sinew/fem/ElementDefinitions.h"

namespace sinew::fem_detail {

namespace {
const Vector3d kNodes[5] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {0, 0, 1}};

void pyramidShape(const Vector3d& s, double* N, Vector3d* dN) {
  for (int i = 0; i < 4; ++i) {
    double xi = kNodes[i].x(), eta = kNodes[i].y();
    double a = 1 + xi * s.x(), b = 1 + eta * s.y(), c = 1 - s.z();
    N[i] = 0.125 * a * b * c;
    dN[i] = 0.125 * Vector3d(xi * b * c, eta * a * c, -a * b);
  }
  N[4] = 0.5 * (1 + s.z());
  dN[4] = Vector3d(0, 0, 0.5);
}
}  // namespace

/// The 5-point pyramid rule shared with QuadpyramidElement: four points
/// over the base and one towards the apex; exact for quadratics on the
/// ideal pyramid once multiplied by det J.
std::vector<IntegrationPoint3d> pyramidIntegrationPoints() {
  double a = 1.6 * std::sqrt(2.0 / 15.0), b = -2.0 / 3.0, w = 0.81;
  return {{Vector3d(-a, -a, b), w}, {Vector3d(a, -a, b), w}, {Vector3d(a, a, b), w},
          {Vector3d(-a, a, b), w},  {Vector3d(0, 0, 0.4), 125.0 / 27.0}};
}

ReferenceElement::Definition pyramidElementDefinition() {
  // The centroid of the ideal pyramid is a quarter of the height above the
  // base: z = −½.
  return {FemElementType::Pyramid,
          "PyramidElement",
          1,
          ReferenceElement::Domain::Cube,
          {std::begin(kNodes), std::end(kNodes)},
          pyramidIntegrationPoints(),
          Vector3d(0, 0, -0.5),
          pyramidShape,
          FemElementType::Pyramid};
}

}  // namespace sinew::fem_detail
