// The procedural stand-in vertebrae shared by LumbarFrameSpring (guide
// §3.5.4) and LumbarFEMDisk (§6.4.7), which read lumbar1.obj and
// lumbar2.obj in the guide; Sinew ships no third-party meshes.
#pragma once

#include <string>

#include "sinew/mech/MechModel.h"

namespace sinew::demos {

/// Density of the vertebrae in both lumbar demos.
inline constexpr double kLumbarDensity = 1500;

/// The start of both lumbar demos: adds the MechModel "mech" to root
/// (gravity (0, 0, −1), frameDamping 0.1, rotaryDamping 0.001) with two
/// vertebrae, each a cylindrical body (radius 2 cm, height 2.5 cm, along
/// the spine) with a 3 × 1 × 1.2 cm spinous process behind it along −x:
/// lumbar2, fixed at the origin, and lumbar1 at (−0.016, lumbar1Height, 0)
/// with the spine along y; then turns the model 90° about x, so that the
/// spine stands along z. Returns mech.
MechModel& addLumbarVertebrae(RootModel& root, double lumbar1Height);

}  // namespace sinew::demos
