#include "sinew/geometry/MeshFactory.h"

#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <utility>

#include "sinew/Error.h"

namespace sinew {

namespace {

using Eigen::Vector2d;
using Eigen::Vector3d;
constexpr double kPi = std::numbers::pi;

void requirePositive(double v, const char* what) {
  if (!(v > 0)) throw ModelError(std::string("MeshFactory: ") + what + " must be > 0");
}

void requireAtLeast(int v, int min, const char* what) {
  if (v < min) {
    throw ModelError(std::string("MeshFactory: ") + what + " must be >= " + std::to_string(min));
  }
}

// Points (cos φ, sin φ) scaled by r for φ from phi0 to phi1 in n steps,
// excluding the start point: the arcs of a profile curve.
void appendArc(std::vector<Vector2d>& prof, double r, double zc, double phi0, double phi1, int n) {
  for (int k = 1; k <= n; ++k) {
    const double phi = phi0 + (phi1 - phi0) * k / n;
    prof.emplace_back(r * std::cos(phi), zc + r * std::sin(phi));
  }
}

// Splits each triangle of a closed triangle mesh into four and projects the
// new vertices onto the sphere of radius r; shared edges share midpoints, so
// the result stays closed.
PolygonalMesh subdivideOnSphere(const PolygonalMesh& mesh, double r) {
  PolygonalMesh out;
  for (const auto& v : mesh.getVertices()) out.addVertex(v);
  std::map<std::pair<int, int>, int> midpoints;
  auto midpoint = [&](int a, int b) {
    const auto key = std::minmax(a, b);
    auto it = midpoints.find(key);
    if (it != midpoints.end()) return it->second;
    const Vector3d m = (out.getVertex(a) + out.getVertex(b)).normalized() * r;
    const int idx = out.addVertex(m);
    midpoints.emplace(key, idx);
    return idx;
  };
  for (const auto& f : mesh.getFaces()) {
    const int ab = midpoint(f[0], f[1]), bc = midpoint(f[1], f[2]), ca = midpoint(f[2], f[0]);
    out.addFace({f[0], ab, ca});
    out.addFace({ab, f[1], bc});
    out.addFace({ca, bc, f[2]});
    out.addFace({ab, bc, ca});
  }
  return out;
}

// Regular icosahedron inscribed in the sphere of radius r. Its faces are the
// triples of mutually adjacent vertices (edge length 2 before scaling),
// oriented so their normal points away from the centre.
PolygonalMesh icosahedron(double r) {
  const double g = (1 + std::sqrt(5.0)) / 2;
  std::vector<Vector3d> pts;
  for (double s0 : {-1.0, 1.0}) {
    for (double s1 : {-1.0, 1.0}) {
      pts.emplace_back(0, s0, s1 * g);
      pts.emplace_back(s0, s1 * g, 0);
      pts.emplace_back(s1 * g, 0, s0);
    }
  }
  PolygonalMesh mesh;
  const double scale = r / pts[0].norm();
  for (const auto& p : pts) mesh.addVertex(p * scale);
  auto adjacent = [&](int a, int b) { return std::abs((pts[a] - pts[b]).norm() - 2.0) < 1e-9; };
  for (int a = 0; a < 12; ++a) {
    for (int b = a + 1; b < 12; ++b) {
      for (int c = b + 1; c < 12; ++c) {
        if (!adjacent(a, b) || !adjacent(b, c) || !adjacent(a, c)) continue;
        const Vector3d n = (pts[b] - pts[a]).cross(pts[c] - pts[a]);
        if (n.dot(pts[a]) > 0) {
          mesh.addFace({a, b, c});
        } else {
          mesh.addFace({a, c, b});
        }
      }
    }
  }
  return mesh;
}

}  // namespace

PolygonalMesh MeshFactory::createQuadBox(double wx, double wy, double wz, int nx, int ny, int nz) {
  requirePositive(wx, "box width x");
  requirePositive(wy, "box width y");
  requirePositive(wz, "box width z");
  const std::array<int, 3> n = {nx, ny, nz};
  for (int d : n) requireAtLeast(d, 1, "box divisions");
  const Vector3d w(wx, wy, wz);

  // Surface vertices live on the (nx+1)(ny+1)(nz+1) lattice; a lattice point
  // gets a vertex the first time a face needs it, so faces meeting at box
  // edges share vertices and the surface is closed.
  PolygonalMesh mesh;
  std::vector<int> vid((nx + 1) * (ny + 1) * (nz + 1), -1);
  auto vertex = [&](const std::array<int, 3>& l) {
    int& id = vid[(l[2] * (ny + 1) + l[1]) * (nx + 1) + l[0]];
    if (id < 0) {
      Vector3d p;
      for (int d = 0; d < 3; ++d) p[d] = w[d] * (static_cast<double>(l[d]) / n[d] - 0.5);
      id = mesh.addVertex(p);
    }
    return id;
  };
  for (int a = 0; a < 3; ++a) {
    // (b, c) cyclic after a, so e_b × e_c = e_a: CCW in (b, c) faces +a.
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    for (int side = 0; side < 2; ++side) {
      for (int u = 0; u < n[b]; ++u) {
        for (int v = 0; v < n[c]; ++v) {
          std::array<int, 3> l{};
          l[a] = side * n[a];
          std::vector<int> quad;
          for (auto [du, dv] : {std::pair{0, 0}, {1, 0}, {1, 1}, {0, 1}}) {
            l[b] = u + du;
            l[c] = v + dv;
            quad.push_back(vertex(l));
          }
          if (side == 0) std::swap(quad[1], quad[3]);  // the −a side faces the other way
          mesh.addFace(quad);
        }
      }
    }
  }
  return mesh;
}

PolygonalMesh MeshFactory::createBox(double wx, double wy, double wz, int nx, int ny, int nz) {
  PolygonalMesh mesh = createQuadBox(wx, wy, wz, nx, ny, nz);
  mesh.triangulate();
  return mesh;
}

PolygonalMesh MeshFactory::createRevolution(const std::vector<Vector2d>& profile, int nslices) {
  requireAtLeast(nslices, 3, "nslices");
  const int m = static_cast<int>(profile.size());
  requireAtLeast(m, 3, "profile size");
  if (profile.front().x() != 0 || profile.back().x() != 0) {
    throw ModelError("MeshFactory: a revolution profile must start and end on the axis");
  }
  PolygonalMesh mesh;
  const int south = mesh.addVertex(0, 0, profile.front().y());
  for (int k = 1; k + 1 < m; ++k) {
    requirePositive(profile[k].x(), "interior profile radius");
    for (int j = 0; j < nslices; ++j) {
      const double th = 2 * kPi * j / nslices;
      mesh.addVertex(profile[k].x() * std::cos(th), profile[k].x() * std::sin(th), profile[k].y());
    }
  }
  const int north = mesh.addVertex(0, 0, profile.back().y());
  auto ring = [&](int k, int j) { return 1 + (k - 1) * nslices + (j % nslices); };
  // Going round (e_θ) then up the profile gives the outward normal.
  for (int j = 0; j < nslices; ++j) {
    mesh.addFace({south, ring(1, j + 1), ring(1, j)});
    for (int k = 1; k + 2 < m; ++k) {
      mesh.addFace({ring(k, j), ring(k, j + 1), ring(k + 1, j + 1)});
      mesh.addFace({ring(k, j), ring(k + 1, j + 1), ring(k + 1, j)});
    }
    mesh.addFace({ring(m - 2, j), ring(m - 2, j + 1), north});
  }
  return mesh;
}

PolygonalMesh MeshFactory::createSphere(double r, int nslices, int nlevels) {
  requirePositive(r, "sphere radius");
  if (nlevels <= 0) nlevels = std::max(2, nslices / 2);
  requireAtLeast(nlevels, 2, "nlevels");
  std::vector<Vector2d> prof{{0, -r}};
  appendArc(prof, r, 0, -kPi / 2, kPi / 2, nlevels);
  prof.back() = Vector2d(0, r);  // exact pole (cos(π/2) is not exactly 0)
  return createRevolution(prof, nslices);
}

PolygonalMesh MeshFactory::createIcosahedralSphere(double r, int divisions) {
  requirePositive(r, "sphere radius");
  requireAtLeast(divisions, 0, "divisions");
  PolygonalMesh mesh = icosahedron(r);
  for (int i = 0; i < divisions; ++i) mesh = subdivideOnSphere(mesh, r);
  return mesh;
}

PolygonalMesh MeshFactory::createOctahedralSphere(double r, int divisions) {
  requirePositive(r, "sphere radius");
  requireAtLeast(divisions, 0, "divisions");
  // The octahedron with vertices ±r on each axis; faces counter-clockwise
  // seen from outside (one per octant).
  PolygonalMesh mesh;
  for (int axis = 0; axis < 3; ++axis)
    for (double sign : {1.0, -1.0}) mesh.addVertex(sign * r * Vector3d::Unit(axis));
  for (int ix : {0, 1})
    for (int iy : {2, 3})
      for (int iz : {4, 5}) {
        // Negative axes have odd indices; each one mirrors the octant, so
        // the order flips when an odd number of them are negative.
        const bool flip = ((ix + iy + iz) % 2) == 1;
        mesh.addFace(flip ? std::vector<int>{ix, iz, iy} : std::vector<int>{ix, iy, iz});
      }
  for (int i = 0; i < divisions; ++i) mesh = subdivideOnSphere(mesh, r);
  return mesh;
}

PolygonalMesh MeshFactory::createEllipsoid(double rx, double ry, double rz, int nslices) {
  requirePositive(rx, "rx");
  requirePositive(ry, "ry");
  requirePositive(rz, "rz");
  PolygonalMesh mesh = createSphere(1.0, nslices);
  mesh.scale(rx, ry, rz);
  return mesh;
}

PolygonalMesh MeshFactory::createCylinder(double r, double h, int nslices) {
  return createCylinder(r, h, nslices, 1, 1);
}

PolygonalMesh MeshFactory::createCylinder(double r, double h, int nslices, int nr, int nh) {
  requirePositive(r, "cylinder radius");
  requirePositive(h, "cylinder height");
  requireAtLeast(nr, 1, "nr");
  requireAtLeast(nh, 1, "nh");
  std::vector<Vector2d> prof{{0, -h / 2}};
  for (int k = 1; k <= nr; ++k) prof.emplace_back(r * k / nr, -h / 2);
  for (int k = 1; k <= nh; ++k) prof.emplace_back(r, -h / 2 + h * k / nh);
  for (int k = nr - 1; k >= 0; --k) prof.emplace_back(r * k / nr, h / 2);
  return createRevolution(prof, nslices);
}

PolygonalMesh MeshFactory::createCapsule(double r, double h, int nslices) {
  requirePositive(r, "capsule radius");
  if (!(h >= 0)) throw ModelError("MeshFactory: capsule length must be >= 0");
  const int nlev = std::max(2, nslices / 4);  // levels per hemisphere
  std::vector<Vector2d> prof{{0, -h / 2 - r}};
  appendArc(prof, r, -h / 2, -kPi / 2, 0, nlev);
  prof.back() = Vector2d(r, -h / 2);
  if (h > 0) prof.emplace_back(r, h / 2);  // no duplicate ring for a sphere
  appendArc(prof, r, h / 2, 0, kPi / 2, nlev);
  prof.back() = Vector2d(0, h / 2 + r);
  return createRevolution(prof, nslices);
}

PolygonalMesh MeshFactory::createTorus(double rmajor, double rminor, int nmajor, int nminor) {
  requirePositive(rminor, "torus minor radius");
  if (!(rmajor > rminor)) throw ModelError("MeshFactory: torus needs rmajor > rminor");
  requireAtLeast(nmajor, 3, "nmajor");
  requireAtLeast(nminor, 3, "nminor");
  PolygonalMesh mesh;
  for (int i = 0; i < nmajor; ++i) {
    const double phi = 2 * kPi * i / nmajor;
    for (int j = 0; j < nminor; ++j) {
      const double th = 2 * kPi * j / nminor;
      const double rho = rmajor + rminor * std::cos(th);
      mesh.addVertex(rho * std::cos(phi), rho * std::sin(phi), rminor * std::sin(th));
    }
  }
  auto id = [&](int i, int j) { return (i % nmajor) * nminor + (j % nminor); };
  // Along the major circle (e_φ) then round the tube (+z on the outer
  // equator): e_φ × e_z points outward.
  for (int i = 0; i < nmajor; ++i) {
    for (int j = 0; j < nminor; ++j) {
      mesh.addFace({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      mesh.addFace({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  }
  return mesh;
}

PolygonalMesh MeshFactory::createPrism(const std::vector<double>& xy, double h) {
  requirePositive(h, "prism height");
  if (xy.size() % 2 != 0) throw ModelError("MeshFactory: prism xy needs an even count");
  const int n = static_cast<int>(xy.size() / 2);
  requireAtLeast(n, 3, "prism polygon size");
  double area2 = 0;  // twice the signed polygon area: its sign gives the winding
  for (int i = 0; i < n; ++i) {
    const int k = (i + 1) % n;
    area2 += xy[2 * i] * xy[2 * k + 1] - xy[2 * k] * xy[2 * i + 1];
  }
  if (area2 == 0) throw ModelError("MeshFactory: prism polygon has zero area");
  PolygonalMesh mesh;
  for (double z : {-h / 2, h / 2}) {
    for (int i = 0; i < n; ++i) {
      const int s = area2 > 0 ? i : n - 1 - i;  // store counter-clockwise
      mesh.addVertex(xy[2 * s], xy[2 * s + 1], z);
    }
  }
  std::vector<int> bottom, top;
  for (int i = 0; i < n; ++i) {
    bottom.push_back(n - 1 - i);
    top.push_back(n + i);
    // Counter-clockwise outline: edge direction × e_z points outward.
    mesh.addFace({i, (i + 1) % n, n + (i + 1) % n, n + i});
  }
  mesh.addFace(bottom);
  mesh.addFace(top);
  return mesh;
}

PolygonalMesh MeshFactory::createPlane(double wx, double wy, int nx, int ny) {
  requirePositive(wx, "plane width x");
  requirePositive(wy, "plane width y");
  requireAtLeast(nx, 1, "nx");
  requireAtLeast(ny, 1, "ny");
  PolygonalMesh mesh;
  for (int j = 0; j <= ny; ++j) {
    for (int i = 0; i <= nx; ++i) {
      mesh.addVertex(wx * (static_cast<double>(i) / nx - 0.5),
                     wy * (static_cast<double>(j) / ny - 0.5), 0);
    }
  }
  auto id = [&](int i, int j) { return j * (nx + 1) + i; };
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i)
      mesh.addFace({id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)});
  }
  return mesh;
}

PolygonalMesh MeshFactory::createTriangularPlane(double wx, double wy, int nx, int ny) {
  PolygonalMesh mesh = createPlane(wx, wy, nx, ny);
  mesh.triangulate();
  return mesh;
}

}  // namespace sinew
