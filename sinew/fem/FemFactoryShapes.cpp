// FemFactory shapes (guide §6.2.1, §6.2.3): cylinder, tube, torus and
// ellipsoid, built as structured sweeps of hexahedral cells (collapsed to
// wedges, pyramids or tetrahedra on axes and at centres), and the
// extrusion of a surface mesh along its normals.
#include <cmath>
#include <functional>
#include <map>
#include <numbers>

#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemMeshBuilder.h"

namespace sinew {

using fem_detail::FemMeshBuilder;
using fem_detail::requireAtLeast;
using fem_detail::requirePositive;

namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

/// A structured sweep of an annulus: radial index i = 0…nr, angle index
/// j = 0…nt−1 (periodic), layer index k = 0…nl (periodic: layer nl is
/// layer 0). A solid sweep has one point per layer on its axis at i = 0,
/// and wedges around it.
struct Sweep {
  int nt, nl, nr;
  bool solid, periodicLayers;
};

void addSweep(FemMeshBuilder& b, const Sweep& s, FemElementType linearType,
              const std::function<Vector3d(int i, int j, int k)>& pos) {
  const int numLayers = s.periodicLayers ? s.nl : s.nl + 1;
  std::vector<int> idx(static_cast<size_t>(numLayers) * s.nt * (s.nr + 1));
  auto at = [&](int i, int j, int k) -> int& {
    return idx[(static_cast<size_t>(k % numLayers) * s.nt + j % s.nt) * (s.nr + 1) + i];
  };
  for (int k = 0; k < numLayers; ++k) {
    if (s.solid) {
      const int axis = b.addPoint(pos(0, 0, k));
      for (int j = 0; j < s.nt; ++j) at(0, j, k) = axis;
    }
    for (int j = 0; j < s.nt; ++j)
      for (int i = s.solid ? 1 : 0; i <= s.nr; ++i) at(i, j, k) = b.addPoint(pos(i, j, k));
  }
  // Cells have local axes (radial, around, along the layers).
  for (int k = 0; k < s.nl; ++k)
    for (int j = 0; j < s.nt; ++j)
      for (int i = 0; i < s.nr; ++i) {
        if (s.solid && i == 0) {
          b.addElement(
              {at(0, j, k), at(1, j, k), at(1, j + 1, k), at(0, j, k + 1), at(1, j, k + 1), at(1, j + 1, k + 1)});
          continue;
        }
        const std::array<int, 8> c = fem_detail::cellCorners(at, i, j, k);
        b.addCell(c, linearType);
      }
}

/// Radius of ring i of nr between rin and rout.
double ringRadius(double rin, double rout, int i, int nr) { return rin + (rout - rin) * i / nr; }

void checkTypeAllowed(const FemModel3d& fem, const char* func, FemElementType type, bool solid) {
  if (solid && fem_detail::linearTypeOf(type) != FemElementType::Hex)
    throw ModelError(std::string(func) +
                         ": a solid shape (rin = 0) is built of hexes with wedges on its axis; use "
                         "FemElementType::Hex or QuadHex",
                     fem.describe());
}

void checkRadii(const FemModel3d& fem, const char* func, double rin, double rout, bool allowSolid) {
  requirePositive(fem, func, "rout", rout);
  if (!(allowSolid ? rin >= 0 : rin > 0) || !(rin < rout))
    throw ModelError(std::string(func) + ": need " + (allowSolid ? "0 <= rin" : "0 < rin") +
                         " < rout, got rin = " + std::to_string(rin) + ", rout = " + std::to_string(rout),
                     fem.describe());
}

void checkResolution(const FemModel3d& fem, const char* func, int nt, int nl, int nr) {
  requireAtLeast(fem, func, "nt", nt, 3);
  requireAtLeast(fem, func, "nl", nl, 1);
  requireAtLeast(fem, func, "nr", nr, 1);
}

FemModel3d& createTorusSweep(FemModel3d& fem, const char* func, FemElementType type, double R, double rin, double rout,
                             int nt, int nl, int nr, double angle) {
  checkRadii(fem, func, rin, rout, true);
  checkResolution(fem, func, nt, nl, nr);
  if (!(R > rout))
    throw ModelError(std::string(func) + ": the major radius R must exceed rout, got R = " + std::to_string(R) +
                         ", rout = " + std::to_string(rout),
                     fem.describe());
  if (!(angle > 0 && angle <= kTwoPi))
    throw ModelError(std::string(func) + ": angle must lie in (0, 2π], got " + std::to_string(angle), fem.describe());
  const bool solid = rin == 0;
  checkTypeAllowed(fem, func, type, solid);
  FemMeshBuilder b;
  addSweep(b, {nt, nl, nr, solid, angle == kTwoPi}, fem_detail::linearTypeOf(type), [&](int i, int j, int k) {
    const double rho = ringRadius(rin, rout, i, nr), theta = kTwoPi * j / nt, phi = angle * k / nl;
    const double w = R + rho * std::cos(theta);
    return Vector3d(w * std::cos(phi), w * std::sin(phi), rho * std::sin(theta));
  });
  return b.emit(fem, fem_detail::isQuadratic(type));
}

}  // namespace

FemModel3d& FemFactory::createCylinder(FemModel3d& fem, double l, double r, int nt, int nl, int nr) {
  const char* func = "createCylinder";
  requirePositive(fem, func, "l", l);
  requirePositive(fem, func, "r", r);
  checkResolution(fem, func, nt, nl, nr);
  FemMeshBuilder b;
  addSweep(b, {nt, nl, nr, true, false}, FemElementType::Hex, [&](int i, int j, int k) {
    const double rho = r * i / nr, theta = kTwoPi * j / nt;
    return Vector3d(rho * std::cos(theta), rho * std::sin(theta), l * (double(k) / nl - 0.5));
  });
  return b.emit(fem, false);
}

FemModel3d& FemFactory::createTube(FemModel3d& fem, FemElementType type, double l, double rin, double rout, int nt,
                                   int nl, int nr) {
  const char* func = "createTube";
  requirePositive(fem, func, "l", l);
  checkRadii(fem, func, rin, rout, false);
  checkResolution(fem, func, nt, nl, nr);
  FemMeshBuilder b;
  addSweep(b, {nt, nl, nr, false, false}, fem_detail::linearTypeOf(type), [&](int i, int j, int k) {
    const double rho = ringRadius(rin, rout, i, nr), theta = kTwoPi * j / nt;
    return Vector3d(rho * std::cos(theta), rho * std::sin(theta), l * (double(k) / nl - 0.5));
  });
  return b.emit(fem, fem_detail::isQuadratic(type));
}

FemModel3d& FemFactory::createHexTube(FemModel3d& fem, double l, double rin, double rout, int nt, int nl, int nr) {
  return createTube(fem, FemElementType::Hex, l, rin, rout, nt, nl, nr);
}

FemModel3d& FemFactory::createTorus(FemModel3d& fem, FemElementType type, double R, double rin, double rout, int nt,
                                    int nl, int nr) {
  return createTorusSweep(fem, "createTorus", type, R, rin, rout, nt, nl, nr, kTwoPi);
}

FemModel3d& FemFactory::createHexTorus(FemModel3d& fem, double R, double rin, double rout, int nt, int nl, int nr) {
  return createTorus(fem, FemElementType::Hex, R, rin, rout, nt, nl, nr);
}

FemModel3d& FemFactory::createPartialHexTorus(FemModel3d& fem, double R, double rin, double rout, int nt, int nl,
                                              int nr, double angle) {
  return createTorusSweep(fem, "createPartialHexTorus", FemElementType::Hex, R, rin, rout, nt, nl, nr, angle);
}

FemModel3d& FemFactory::createEllipsoid(FemModel3d& fem, double rl, double rs1, double rs2, int nt, int nl, int ns) {
  const char* func = "createEllipsoid";
  requirePositive(fem, func, "rl", rl);
  requirePositive(fem, func, "rs1", rs1);
  requirePositive(fem, func, "rs2", rs2);
  requireAtLeast(fem, func, "nt", nt, 3);
  requireAtLeast(fem, func, "nl", nl, 2);
  requireAtLeast(fem, func, "ns", ns, 1);
  // Scaled spherical coordinates: shell i (radius fraction i/ns), polar
  // index j (θ = πj/nl from the +z pole), azimuth index k (periodic). The
  // centre and the poles of each shell are single points.
  FemMeshBuilder b;
  auto pos = [&](int i, int j, int k) {
    const double s = double(i) / ns, theta = std::numbers::pi * j / nl, phi = kTwoPi * k / nt;
    return Vector3d(rs1 * s * std::sin(theta) * std::cos(phi), rs2 * s * std::sin(theta) * std::sin(phi),
                    rl * s * std::cos(theta));
  };
  const int centre = b.addPoint(Vector3d::Zero());
  std::vector<int> poles, ring;  // poles[2(i−1) + {0 north, 1 south}]; ring[((i−1)(nl−1) + j−1) nt + k]
  for (int i = 1; i <= ns; ++i) {
    poles.push_back(b.addPoint(pos(i, 0, 0)));
    poles.push_back(b.addPoint(pos(i, nl, 0)));
    for (int j = 1; j < nl; ++j)
      for (int k = 0; k < nt; ++k) ring.push_back(b.addPoint(pos(i, j, k)));
  }
  auto at = [&](int i, int j, int k) {
    if (i == 0) return centre;
    if (j == 0 || j == nl) return poles[2 * (i - 1) + (j == nl)];
    return ring[((i - 1) * (nl - 1) + j - 1) * nt + k % nt];
  };
  for (int i = 0; i < ns; ++i)
    for (int j = 0; j < nl; ++j)
      for (int k = 0; k < nt; ++k) {
        const std::array<int, 8> c = fem_detail::cellCorners(at, i, j, k);  // local axes (radial, polar, azimuth)
        const bool north = j == 0, south = j == nl - 1;
        if (i == 0 && (north || south))
          b.addElement({centre, north ? c[1] : c[3], c[north ? 3 : 1], c[north ? 7 : 5]});
        else if (i == 0)
          b.addElement({c[1], c[3], c[7], c[5], centre});
        else if (north)
          b.addElement({c[0], c[2], c[6], c[1], c[3], c[7]});
        else if (south)
          b.addElement({c[2], c[0], c[4], c[3], c[1], c[5]});
        else
          b.addCell(c, FemElementType::Hex);
      }
  return b.emit(fem, false);
}

FemModel3d& FemFactory::createExtrusion(FemModel3d& fem, int n, double d, double zOffset,
                                        const PolygonalMesh& surface) {
  const char* func = "createExtrusion";
  requireAtLeast(fem, func, "n", n, 1);
  requirePositive(fem, func, "d", d);
  auto fail = [&](const std::string& what) { throw ModelError(std::string(func) + ": " + what, fem.describe()); };
  if (!std::isfinite(zOffset)) fail("zOffset must be finite");
  if (surface.numFaces() == 0) fail("the surface has no faces");
  std::map<std::pair<int, int>, int> directedEdges;
  std::vector<int> used(surface.numVertices(), -1);
  for (int f = 0; f < surface.numFaces(); ++f) {
    const auto& v = surface.getFace(f);
    if (v.size() != 3 && v.size() != 4)
      fail("face " + std::to_string(f) + " has " + std::to_string(v.size()) +
           " vertices; only triangles and quads "
           "can be extruded");
    for (size_t e = 0; e < v.size(); ++e)
      if (++directedEdges[{v[e], v[(e + 1) % v.size()]}] > 1)
        fail("the surface is not manifold (or not consistently oriented): edge " + std::to_string(v[e]) + "–" +
             std::to_string(v[(e + 1) % v.size()]) + " is shared by more than two faces or twice in one direction");
    for (int i : v) used[i] = 0;
  }
  const std::vector<Eigen::Vector3d> normals = surface.computeVertexNormals();
  FemMeshBuilder b;
  // Layer-major numbering: the surface's (used) vertices at each layer boundary in turn.
  std::vector<int> firstPoint;
  for (int m = 0; m <= n; ++m) {
    firstPoint.push_back(-1);
    for (int i = 0, count = 0; i < surface.numVertices(); ++i) {
      if (used[i] < 0) continue;
      if (!(normals[i].norm() > 0.5)) fail("vertex " + std::to_string(i) + " has no normal (degenerate faces)");
      const int p = b.addPoint(surface.getVertex(i) + (m * d - zOffset) * normals[i]);
      if (m == 0) used[i] = count;
      if (firstPoint[m] < 0) firstPoint[m] = p;
      ++count;
    }
  }
  for (int m = 0; m < n; ++m)
    for (int f = 0; f < surface.numFaces(); ++f) {
      const auto& v = surface.getFace(f);
      const std::string what = std::string(func) + ": the element of face " + std::to_string(f) + ", layer " +
                               std::to_string(m) + " (surface too curved for the thickness?)";
      std::vector<int> lower, upper;
      for (int i : v) {
        lower.push_back(firstPoint[m] + used[i]);
        upper.push_back(firstPoint[m + 1] + used[i]);
      }
      // Wedges: the triangle at layer boundary m, then at m + 1. Hexes: the
      // quad at m + 1 first (the face at natural z = +1), then at m.
      const auto& first = v.size() == 3 ? lower : upper;
      const auto& second = v.size() == 3 ? upper : lower;
      std::vector<int> nodes = first;
      nodes.insert(nodes.end(), second.begin(), second.end());
      b.addElementAsGiven(std::move(nodes), what, fem.describe());
    }
  return b.emit(fem, false);
}

}  // namespace sinew
