// FemFactory (guide §6.2.1): FEM models of simple shapes. Grids are
// centred at the origin with widths (wx, wy, wz) along x, y, z and
// (nx, ny, nz) cells; node numbers run along x fastest, then y, then z.
//
// Each function adds nodes and elements to `fem` (which may already hold
// some) and returns it, as the guide's `createHexGrid(fem, …)` does.
#pragma once

#include "sinew/fem/FemModel3d.h"

namespace sinew {

class FemFactory {
 public:
  /// A grid of 8-node HexElements.
  static FemModel3d& createHexGrid(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz);
  /// A grid of 4-node TetElements: each cell split into six tetrahedra
  /// around its main diagonal (a conforming Kuhn subdivision).
  static FemModel3d& createTetGrid(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz);
};

}  // namespace sinew
