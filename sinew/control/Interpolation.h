// Interpolation orders for numeric probe data (guide §5.4.1).
//
// A NumericList interpolates its knots with one of these orders. The names
// are those of ArtiSynth's Interpolation.Order, so they double as the
// interpolation word in probe data files (§5.4.4).
#pragma once

#include <optional>
#include <string>

namespace sinew {

enum class InterpolationOrder {
  Step,       ///< value of the last knot k with t_k <= t
  Linear,     ///< linear between knots k and k+1
  Parabolic,  ///< quadratic through knots k-1, k, k+1
  Cubic,      ///< Catmull-Rom cubic through knots k-1 .. k+2
  CubicStep   ///< cubic Hermite between k and k+1 with zero end slopes
};

/// The order's name as the guide writes it, e.g. "Linear".
const char* toString(InterpolationOrder order);

/// Parses an order name, ignoring case ("linear", "LINEAR", "Linear").
/// Returns nothing for an unknown name.
std::optional<InterpolationOrder> tryParseInterpolationOrder(const std::string& name);

/// As tryParseInterpolationOrder, but throws sinew::Error for an unknown name.
InterpolationOrder parseInterpolationOrder(const std::string& name);

}  // namespace sinew
