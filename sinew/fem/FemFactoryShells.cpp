// FemFactory's shell models (§6.1.2.3): flat grids and shells on a mesh.
#include "sinew/fem/FemFactory.h"

namespace sinew {

namespace {
void checkGrid(double wx, double wy, int nx, int ny, double thickness) {
  if (!(wx > 0) || !(wy > 0) || nx < 1 || ny < 1)
    throw ModelError("shell grid needs positive widths and at least one cell each way");
  if (!(thickness > 0)) throw ModelError("shell thickness must be positive");
}

/// The (nx+1) × (ny+1) grid nodes, x fastest.
std::vector<FemNode3d*> addGridNodes(FemModel3d& fem, double wx, double wy, int nx, int ny) {
  std::vector<FemNode3d*> nodes;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i)
      nodes.push_back(&fem.addNode(Vector3d(-wx / 2 + wx * i / nx, -wy / 2 + wy * j / ny, 0)));
  return nodes;
}
}  // namespace

FemModel3d& FemFactory::createShellQuadGrid(FemModel3d& fem, double wx, double wy, int nx, int ny, double thickness,
                                            bool membrane) {
  checkGrid(wx, wy, nx, ny, thickness);
  const auto n = addGridNodes(fem, wx, wy, nx, ny);
  auto at = [&](int i, int j) { return n[j * (nx + 1) + i]; };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      fem.addShellElement(std::make_unique<ShellQuadElement>(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1),
                                                             thickness, membrane));
  return fem;
}

FemModel3d& FemFactory::createShellTriGrid(FemModel3d& fem, double wx, double wy, int nx, int ny, double thickness,
                                           bool membrane) {
  checkGrid(wx, wy, nx, ny, thickness);
  const auto n = addGridNodes(fem, wx, wy, nx, ny);
  auto at = [&](int i, int j) { return n[j * (nx + 1) + i]; };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      fem.addShellElement(
          std::make_unique<ShellTriElement>(at(i, j), at(i + 1, j), at(i + 1, j + 1), thickness, membrane));
      fem.addShellElement(
          std::make_unique<ShellTriElement>(at(i, j), at(i + 1, j + 1), at(i, j + 1), thickness, membrane));
    }
  return fem;
}

FemModel3d& FemFactory::createShellModel(FemModel3d& fem, const PolygonalMesh& mesh, double thickness,
                                         bool membrane) {
  if (mesh.numFaces() == 0) throw ModelError("createShellModel: the mesh has no faces");
  std::vector<FemNode3d*> node(mesh.numVertices(), nullptr);
  for (int f = 0; f < mesh.numFaces(); ++f) {
    const auto& v = mesh.getFace(f);
    if (v.size() != 3 && v.size() != 4)
      throw ModelError("createShellModel: face " + std::to_string(f) + " has " + std::to_string(v.size()) +
                       " vertices (shells need triangles or quads)");
    std::vector<FemNode3d*> corners;
    for (int i : v) {
      if (!node[i]) node[i] = &fem.addNode(mesh.getVertex(i));
      corners.push_back(node[i]);
    }
    fem.addShellElement(ShellElement3d::createElement(corners, thickness, membrane));
  }
  return fem;
}

}  // namespace sinew
