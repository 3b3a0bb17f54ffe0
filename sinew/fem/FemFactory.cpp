#include "sinew/fem/FemFactory.h"

#include <algorithm>
#include <array>

namespace sinew {

namespace {

/// The grid's nodes, indexed (i, j, k) → i + (nx+1)(j + (ny+1) k).
struct GridNodes {
  int nx, ny, nz;
  std::vector<FemNode3d*> nodes;
  FemNode3d* at(int i, int j, int k) const { return nodes[i + (nx + 1) * (j + (ny + 1) * k)]; }
};

GridNodes addGridNodes(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz) {
  if (nx < 1 || ny < 1 || nz < 1) throw ModelError("grid resolution must be at least 1 in each direction", fem.describe());
  if (!(wx > 0 && wy > 0 && wz > 0)) throw ModelError("grid widths must be positive", fem.describe());
  GridNodes g{nx, ny, nz, {}};
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        const Vector3d p(wx * (double(i) / nx - 0.5), wy * (double(j) / ny - 0.5), wz * (double(k) / nz - 0.5));
        g.nodes.push_back(&fem.addNode(p));
      }
  return g;
}

}  // namespace

FemModel3d& FemFactory::createHexGrid(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz) {
  const GridNodes g = addGridNodes(fem, wx, wy, wz, nx, ny, nz);
  // HexElement's node order (§6.2.4): the +z face (−,−), (+,−), (+,+), (−,+),
  // then the same corners of the −z face.
  const int corner[8][3] = {{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}, {0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        std::vector<FemNode3d*> n(8);
        for (int c = 0; c < 8; ++c) n[c] = g.at(i + corner[c][0], j + corner[c][1], k + corner[c][2]);
        fem.addElement(n);
      }
  return fem;
}

FemModel3d& FemFactory::createTetGrid(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz) {
  const GridNodes g = addGridNodes(fem, wx, wy, wz, nx, ny, nz);
  // Each path from corner (0,0,0) to (1,1,1) along unit steps, one per
  // permutation of the axes, spans one tetrahedron; neighbouring cells
  // then share their face diagonals.
  std::array<int, 3> perm = {0, 1, 2};
  std::vector<std::array<int, 3>> perms;
  do perms.push_back(perm);
  while (std::next_permutation(perm.begin(), perm.end()));
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (const auto& p : perms) {
          int c[3] = {0, 0, 0};
          std::vector<FemNode3d*> n{g.at(i, j, k)};
          for (int axis : p) {
            ++c[axis];
            n.push_back(g.at(i + c[0], j + c[1], k + c[2]));
          }
          // TetElement needs det[x1−x0, x2−x0, x3−x0] > 0 (§6.2.4): odd
          // permutations give the mirror ordering.
          const Vector3d a = n[1]->getPosition() - n[0]->getPosition(), b = n[2]->getPosition() - n[0]->getPosition(),
                         d = n[3]->getPosition() - n[0]->getPosition();
          if (a.cross(b).dot(d) < 0) std::swap(n[1], n[2]);
          fem.addElement(n);
        }
  return fem;
}

}  // namespace sinew
