// FemFactory grids (guide §6.2.1); the shapes of revolution and the
// extrusion are in FemFactoryShapes.cpp.
#include "sinew/fem/FemFactory.h"

#include "sinew/fem/FemMeshBuilder.h"

namespace sinew {

using fem_detail::FemMeshBuilder;

FemModel3d& FemFactory::createGrid(FemModel3d& fem, FemElementType type, double wx, double wy, double wz, int nx,
                                   int ny, int nz) {
  const char* func = "createGrid";
  fem_detail::requirePositive(fem, func, "wx", wx);
  fem_detail::requirePositive(fem, func, "wy", wy);
  fem_detail::requirePositive(fem, func, "wz", wz);
  fem_detail::requireAtLeast(fem, func, "nx", nx, 1);
  fem_detail::requireAtLeast(fem, func, "ny", ny, 1);
  fem_detail::requireAtLeast(fem, func, "nz", nz, 1);
  FemMeshBuilder b;
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        b.addPoint(Vector3d(wx * (double(i) / nx - 0.5), wy * (double(j) / ny - 0.5), wz * (double(k) / nz - 0.5)));
  auto at = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };
  // The cells' local axes are x, y, z, so Kuhn tetrahedra and wedges of
  // neighbouring cells split their common faces alike. Cells go z fastest,
  // x slowest, as ArtiSynth numbers them: the guide's element numbers (the
  // beam elements 22 and 31 of §6.6.1) name the same elements here.
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j)
      for (int k = 0; k < nz; ++k) {
        const std::array<int, 8> c = fem_detail::cellCorners(at, i, j, k);
        b.addCell(c, fem_detail::linearTypeOf(type));
      }
  return b.emit(fem, fem_detail::isQuadratic(type));
}

// The guide's and ArtiSynth's per-type names: createGrid of one type each.
#define SINEW_NAMED_GRID(func, type)                                                                       \
  FemModel3d& FemFactory::func(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz) { \
    return createGrid(fem, FemElementType::type, wx, wy, wz, nx, ny, nz);                                  \
  }
SINEW_NAMED_GRID(createHexGrid, Hex)
SINEW_NAMED_GRID(createTetGrid, Tet)
SINEW_NAMED_GRID(createWedgeGrid, Wedge)
SINEW_NAMED_GRID(createPyramidGrid, Pyramid)
SINEW_NAMED_GRID(createQuadtetGrid, QuadTet)
SINEW_NAMED_GRID(createQuadhexGrid, QuadHex)
SINEW_NAMED_GRID(createQuadwedgeGrid, QuadWedge)
SINEW_NAMED_GRID(createQuadpyramidGrid, QuadPyramid)
#undef SINEW_NAMED_GRID

}  // namespace sinew
