// The contact-rendering settings of guide §8.5, which the collision
// manager holds for every pair and a behaviour may override for its own:
// which artifacts a viewer draws (intersection contours and points,
// contact normals, contact and friction forces), toward which collidable
// (renderingCollidable), and the range and interpolation of the colour
// map (drawColorMap itself is a behaviour property, CollisionBehavior.h).
// Sinew draws nothing without a viewer; these are the data a viewer reads,
// and colorMapRange follows the computed colour-map values when
// CollisionManager::updateColorMapRanges() is called (ArtiSynth does it
// before each render).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sinew/model/Property.h"

namespace sinew {

/// A colour map's range of values (§8.5 colorMapRange; ArtiSynth's
/// ScalarRange): an interval and how it follows the values drawn.
struct ScalarRange {
  enum class Updating { Fixed, AutoExpand, AutoFit };
  double min = 0, max = 0;
  Updating updating = Updating::AutoFit;
  /// Follows the values [lo, hi] as `updating` says: FIXED keeps the
  /// interval, AUTO_EXPAND grows it to hold them (from [0, 0] unless set),
  /// AUTO_FIT takes them.
  void update(double lo, double hi);
};

/// How colours between the map's entries are interpolated (§8.5).
enum class ColorInterpolation { RGB, HSV };

template <>
struct EnumNames<ScalarRange::Updating> {
  static const std::vector<std::string>& get();
};
template <>
struct EnumNames<ColorInterpolation> {
  static const std::vector<std::string>& get();
};

/// The settings of §8.5 for one pair, as the manager resolves them.
struct ContactRenderSettings {
  int renderingCollidable = 0;  ///< 0 or 1: the collidable normals point toward, forces act on, maps lie on
  bool drawIntersectionContours = false;
  bool drawIntersectionPoints = false;
  bool drawContactNormals = false;
  bool drawContactForces = false;
  bool drawFrictionForces = false;
  ColorInterpolation colorMapInterpolation = ColorInterpolation::HSV;
};

/// A behaviour's own settings: each unset one is the manager's.
struct ContactRenderOverrides {
  std::optional<int> renderingCollidable;
  std::optional<bool> drawIntersectionContours, drawIntersectionPoints, drawContactNormals, drawContactForces,
      drawFrictionForces;
  std::optional<ColorInterpolation> colorMapInterpolation;
  /// Mutable: the manager follows the values with it (render state, not
  /// a setting) through a behaviour it only reads.
  mutable std::optional<ScalarRange> colorMapRange;
  /// The manager's settings with these in place.
  ContactRenderSettings over(const ContactRenderSettings& manager) const;
};

}  // namespace sinew
