// Shared by the embedded-mesh tests (unit and scenario): record where
// points sit in an FEM model, as element and natural coordinates, and
// measure how far points are from the shape-function interpolation
// Σ φ_i(s) x_i of those coordinates at the current node positions.
#pragma once

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "sinew/fem/FemModel3d.h"

namespace sinew::femtest {

using NaturalLocation = std::pair<FemElement3d*, Vector3d>;

/// The containing element and natural coordinates of each point (every
/// point must lie inside the model).
inline std::vector<NaturalLocation> recordNaturalCoordinates(const FemModel3d& fem,
                                                             const std::vector<Vector3d>& points) {
  std::vector<NaturalLocation> out;
  for (const Vector3d& p : points) {
    FemElement3d* e = fem.findContainingElement(p);
    EXPECT_NE(e, nullptr) << p.transpose();
    Vector3d s = Vector3d::Constant(NAN);
    if (e) EXPECT_TRUE(computeNaturalCoordinates(*e, p, s));
    out.emplace_back(e, s);
  }
  return out;
}

/// The largest distance of points[k] from Σ φ_i(s_k) x_i of its element.
inline double maxInterpolationError(const std::vector<NaturalLocation>& where, const std::vector<Vector3d>& points) {
  double maxErr = 0;
  for (size_t k = 0; k < points.size(); ++k) {
    const auto& [e, s] = where[k];
    if (!e) return INFINITY;
    ReferenceElement::ShapeValues N;
    ReferenceElement::ShapeGradients dNds;
    e->getReferenceElement().computeShape(s, N, dNds);
    Vector3d x = Vector3d::Zero();
    for (int i = 0; i < e->numNodes(); ++i) x += N[i] * e->getNode(i).getPosition();
    maxErr = std::max(maxErr, (points[k] - x).norm());
  }
  return maxErr;
}

}  // namespace sinew::femtest
