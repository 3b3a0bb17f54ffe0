// The definitions of the reference elements, one file per element type
// (TetElement.cpp, HexElement.cpp, …); ReferenceElement.cpp builds the
// shared instances from them. Internal to sinew/fem.
#pragma once

#include <initializer_list>
#include <utility>

#include "sinew/fem/ReferenceElement.h"

namespace sinew::fem_detail {

ReferenceElement::Definition tetElementDefinition();
ReferenceElement::Definition hexElementDefinition();
ReferenceElement::Definition wedgeElementDefinition();
ReferenceElement::Definition pyramidElementDefinition();
ReferenceElement::Definition quadtetElementDefinition();
ReferenceElement::Definition quadhexElementDefinition();
ReferenceElement::Definition quadwedgeElementDefinition();
ReferenceElement::Definition quadpyramidElementDefinition();

/// A quadratic type built on its linear counterpart's definition: same
/// corners, domain, rule and centre until the caller changes them.
inline ReferenceElement::Definition quadraticDefinition(ReferenceElement::Definition linear, FemElementType type,
                                                        const char* name, ReferenceElement::ShapeFunction shape) {
  linear.type = type;
  linear.name = name;
  linear.order = 2;
  linear.shape = shape;
  return linear;
}

/// The 5-point rule of both pyramid types (PyramidElement.cpp).
std::vector<IntegrationPoint3d> pyramidIntegrationPoints();

/// The 3-point triangle rule (WedgeElement.cpp) times a rule on r ∈ [−1, 1]
/// given as (point, weight) pairs, for both wedge types.
std::vector<IntegrationPoint3d> wedgeIntegrationPoints(std::initializer_list<std::pair<double, double>> lineRule);

/// Nodes and weights of the 1D Gauss–Legendre rules on [−1, 1] used by the
/// tensor-product rules.
inline const double kGauss2 = 0.57735026918962576;  // 1/√3
inline const double kGauss3 = 0.77459666924148338;  // √(3/5)

/// The triangle points (1/6, 1/6), (2/3, 1/6), (1/6, 2/3), each of weight
/// 1/6: exact for quadratics on the unit triangle (wedge rules).
inline const double kTriA = 1.0 / 6.0;
inline const double kTriB = 2.0 / 3.0;

}  // namespace sinew::fem_detail
