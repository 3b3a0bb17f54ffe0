// Argument checks shared by property setters: a bad value is a ModelError
// naming the component (DESIGN: bad input gets a clear, typed error).
#pragma once

#include <cmath>
#include <string>

#include "sinew/Error.h"
#include "sinew/model/Component.h"

namespace sinew {

/// v if it is non-negative and finite; otherwise a ModelError "<what> must
/// be non-negative and finite" naming c.
inline double requireNonNegative(double v, const Component& c, const char* what) {
  if (!(v >= 0) || !std::isfinite(v)) throw ModelError(std::string(what) + " must be non-negative and finite", c.describe());
  return v;
}

}  // namespace sinew
