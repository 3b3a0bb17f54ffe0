#include "sinew/control/Interpolation.h"

#include <array>
#include <cctype>

#include "sinew/Error.h"

namespace sinew {

namespace {

constexpr std::array kAllOrders = {InterpolationOrder::Step, InterpolationOrder::Linear,
                                   InterpolationOrder::Parabolic, InterpolationOrder::Cubic,
                                   InterpolationOrder::CubicStep};

bool equalsIgnoringCase(const std::string& a, const char* b) {
  size_t i = 0;
  for (; i < a.size() && b[i] != '\0'; ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return i == a.size() && b[i] == '\0';
}

}  // namespace

const char* toString(InterpolationOrder order) {
  switch (order) {
    case InterpolationOrder::Step: return "Step";
    case InterpolationOrder::Linear: return "Linear";
    case InterpolationOrder::Parabolic: return "Parabolic";
    case InterpolationOrder::Cubic: return "Cubic";
    case InterpolationOrder::CubicStep: return "CubicStep";
  }
  return "Unknown";
}

std::optional<InterpolationOrder> tryParseInterpolationOrder(const std::string& name) {
  for (InterpolationOrder order : kAllOrders) {
    if (equalsIgnoringCase(name, toString(order))) return order;
  }
  return std::nullopt;
}

InterpolationOrder parseInterpolationOrder(const std::string& name) {
  if (auto order = tryParseInterpolationOrder(name)) return *order;
  throw Error("unknown interpolation order '" + name +
              "' (expected Step, Linear, Parabolic, Cubic or CubicStep)");
}

}  // namespace sinew
