// Volume kernels for incompressibility (guide §6.7): an element's current
// volume V = Σ_k w_k det(∂x/∂s)_k, its gradient ∂V/∂x_i (the row of a hard
// volume constraint, and the direction of a soft pressure force) and its
// Hessian ∂²V/∂x_i∂x_j (the pressure's initial-stress stiffness). With
// b_i = (∂x/∂s)^(−T) ∂N_i/∂s at a point,
//   ∂V/∂x_i = Σ_k w_k det_k b_i,   ∂²V/∂x_i∂x_j = Σ_k w_k det_k (b_i b_jᵀ − b_j b_iᵀ).
#pragma once

#include "sinew/fem/ElementKernels.h"

namespace sinew {

using NodeGradients = std::array<Vector3d, ReferenceElement::kMaxNodes>;

/// Volume at pos and its gradient (grad[i] = ∂V/∂x_i for each node).
double computeVolumeGradient(const ReferenceElement& elem, NodePositions pos, NodeGradients& grad);

/// K += s ∂²V/∂x² (3n × 3n, node-major; K must already have that size).
void addVolumeHessian(const ReferenceElement& elem, NodePositions pos, double s, ElementMatrix& K);

}  // namespace sinew
