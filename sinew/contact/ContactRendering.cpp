#include "sinew/contact/ContactRendering.h"

#include <algorithm>

namespace sinew {

void ScalarRange::update(double lo, double hi) {
  if (!(lo <= hi)) return;  // no values
  switch (updating) {
    case Updating::Fixed: return;
    case Updating::AutoExpand:
      min = std::min(min, lo);
      max = std::max(max, hi);
      return;
    case Updating::AutoFit: min = lo, max = hi; return;
  }
}

const std::vector<std::string>& EnumNames<ScalarRange::Updating>::get() {
  static const std::vector<std::string> n{"FIXED", "AUTO_EXPAND", "AUTO_FIT"};
  return n;
}

const std::vector<std::string>& EnumNames<ColorInterpolation>::get() {
  static const std::vector<std::string> n{"RGB", "HSV"};
  return n;
}

ContactRenderSettings ContactRenderOverrides::over(const ContactRenderSettings& m) const {
  ContactRenderSettings s;
  s.renderingCollidable = renderingCollidable.value_or(m.renderingCollidable);
  s.drawIntersectionContours = drawIntersectionContours.value_or(m.drawIntersectionContours);
  s.drawIntersectionPoints = drawIntersectionPoints.value_or(m.drawIntersectionPoints);
  s.drawContactNormals = drawContactNormals.value_or(m.drawContactNormals);
  s.drawContactForces = drawContactForces.value_or(m.drawContactForces);
  s.drawFrictionForces = drawFrictionForces.value_or(m.drawFrictionForces);
  s.colorMapInterpolation = colorMapInterpolation.value_or(m.colorMapInterpolation);
  return s;
}

}  // namespace sinew
