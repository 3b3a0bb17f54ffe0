// FemFactory::createFromMesh and createIcosahedralSphere (guide §6.2.3):
// tetrahedral meshes of closed surfaces, made by TetGen 1.5.
//
// TetGen's header is large and its licence is AGPL-3+ (DESIGN §5), so it is
// included here and nowhere else. TetGen trusts its input: on an open or
// self-intersecting surface it may loop, crash or call exit(). So the
// surface is checked here first (closed, manifold, oriented, not
// degenerate), then TetGen's own detector (-d) looks for intersecting
// faces, and only then is the volume meshed. TetGen built as a library
// throws an int on failure; every such throw becomes a ModelError.
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <sstream>

#include "sinew/Error.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemMeshBuilder.h"
#include "sinew/geometry/MeshFactory.h"

#ifdef SINEW_HAVE_TETGEN
#define TETLIBRARY
#include <tetgen.h>
#endif

namespace sinew {

using fem_detail::FemMeshBuilder;

namespace {

using Fail = std::function<void(const std::string&)>;

std::string edgeName(int a, int b) { return "edge " + std::to_string(a) + "–" + std::to_string(b); }

/// Every edge is used by exactly two faces, once in each direction (closed,
/// edge-manifold, consistently oriented).
void checkEdges(const PolygonalMesh& surface, const Fail& fail) {
  std::map<std::pair<int, int>, std::vector<int>> uses;  // directed edge → faces
  for (int f = 0; f < surface.numFaces(); ++f) {
    const auto& v = surface.getFace(f);
    for (size_t k = 0; k < v.size(); ++k) uses[{v[k], v[(k + 1) % v.size()]}].push_back(f);
  }
  int boundaryEdges = 0;
  std::string firstBoundary;
  for (const auto& [e, faces] : uses) {
    const auto back = uses.find({e.second, e.first});
    const size_t nback = back == uses.end() ? 0 : back->second.size();
    if (faces.size() + nback > 2)
      fail("the surface is not manifold: " + edgeName(e.first, e.second) + " is shared by " +
           std::to_string(faces.size() + nback) + " faces");
    if (faces.size() == 2)
      fail("the surface is not consistently oriented: faces " + std::to_string(faces[0]) + " and " +
           std::to_string(faces[1]) + " both use " + edgeName(e.first, e.second) + " in the same direction");
    if (nback == 0 && boundaryEdges++ == 0)
      firstBoundary = edgeName(e.first, e.second) + " of face " + std::to_string(faces[0]);
  }
  if (boundaryEdges > 0)
    fail("the surface is not closed: it has " + std::to_string(boundaryEdges) + " boundary edges (" + firstBoundary +
         " is used by no other face)");
}

/// The faces round each vertex form one fan: no two cones touch at a
/// vertex. With checkEdges passed, the link of a vertex (b → c for each
/// triangle (v, b, c)) is a permutation; one cycle means one fan.
void checkVertices(const PolygonalMesh& tri, const Fail& fail) {
  std::vector<std::map<int, int>> link(tri.numVertices());
  for (const auto& f : tri.getFaces())
    for (int k = 0; k < 3; ++k) link[f[k]][f[(k + 1) % 3]] = f[(k + 2) % 3];
  for (int v = 0; v < tri.numVertices(); ++v) {
    if (link[v].empty()) continue;
    size_t steps = 0;
    const int start = link[v].begin()->first;
    int b = start;
    do b = link[v].at(b), ++steps;
    while (b != start);
    if (steps != link[v].size())
      fail("the surface is not manifold at vertex " + std::to_string(v) + ": its faces form more than one fan");
  }
}

void checkSurface(const PolygonalMesh& tri, const Fail& fail) {
  if (tri.numFaces() == 0) fail("the surface has no faces");
  for (int f = 0; f < tri.numFaces(); ++f)
    if (!(tri.computeFaceArea(f) > 0)) fail("face " + std::to_string(f) + " of the surface has no area");
  checkEdges(tri, fail);
  checkVertices(tri, fail);
  if (!(tri.computeVolume() > 0))
    fail("the surface encloses a volume of " + std::to_string(tri.computeVolume()) +
         ": its faces must be ordered counter-clockwise seen from outside");
}

/// A mesh TetGen made: points (the surface vertices first) and tetrahedra.
struct TetMesh {
  std::vector<Vector3d> points;
  std::vector<std::array<int, 4>> tets;
};

#ifdef SINEW_HAVE_TETGEN

std::string tetgenFailure(int code) {
  switch (code) {
    case 1: return "TetGen ran out of memory";
    case 3: return "TetGen found a self-intersection of the surface";
    case 4: return "TetGen found a feature smaller than its tolerance";
    case 5: return "TetGen found two faces too close together";
    case 10: return "TetGen rejected the input";
    default: return "TetGen failed (internal error " + std::to_string(code) + ")";
  }
}

/// The triangles as a TetGen piecewise linear complex (one facet each).
void fillInput(const PolygonalMesh& tri, tetgenio& in) {
  in.firstnumber = 0;
  in.numberofpoints = tri.numVertices();
  in.pointlist = new REAL[3 * tri.numVertices()];
  for (int i = 0; i < tri.numVertices(); ++i)
    for (int k = 0; k < 3; ++k) in.pointlist[3 * i + k] = tri.getVertex(i)[k];
  in.numberoffacets = tri.numFaces();
  in.facetlist = new tetgenio::facet[tri.numFaces()];
  for (int f = 0; f < tri.numFaces(); ++f) {
    tetgenio::facet& facet = in.facetlist[f];
    facet.numberofpolygons = 1;
    facet.polygonlist = new tetgenio::polygon[1];
    facet.numberofholes = 0;
    facet.holelist = nullptr;
    facet.polygonlist[0].numberofvertices = 3;
    facet.polygonlist[0].vertexlist = new int[3];
    std::copy_n(tri.getFace(f).begin(), 3, facet.polygonlist[0].vertexlist);
  }
}

/// Runs TetGen with `switches` (always quiet, zero-based); failures throw.
void runTetGen(const std::string& switches, tetgenio& in, tetgenio& out, const Fail& fail) {
  std::string s = "Qz" + switches;
  try {
    tetrahedralize(s.data(), &in, &out);
  } catch (int code) {
    fail(tetgenFailure(code));
  }
}

/// TetGen's intersection detector (-d): it reports the faces that cross
/// another face. Meshing such a surface would crash TetGen, so it is run
/// first.
void checkSelfIntersections(const PolygonalMesh& tri, tetgenio& in, const Fail& fail) {
  tetgenio out;
  runTetGen("pd", in, out, fail);
  if (out.numberoftrifaces == 0) return;
  std::map<std::array<int, 3>, int> faceOf;
  for (int f = 0; f < tri.numFaces(); ++f) {
    std::array<int, 3> key;
    std::copy_n(tri.getFace(f).begin(), 3, key.begin());
    std::sort(key.begin(), key.end());
    faceOf[key] = f;
  }
  std::array<int, 3> key;
  std::copy_n(out.trifacelist, 3, key.begin());
  std::sort(key.begin(), key.end());
  const auto it = faceOf.find(key);
  fail("the surface intersects itself: " + std::to_string(out.numberoftrifaces) + " faces cross others" +
       (it == faceOf.end() ? "" : " (face " + std::to_string(it->second) + " is one)"));
}

TetMesh tetrahedralize(const PolygonalMesh& tri, double quality, const Fail& fail) {
  tetgenio in, out;
  fillInput(tri, in);
  checkSelfIntersections(tri, in, fail);
  std::ostringstream switches;
  switches.precision(17);
  switches << "p";
  if (quality > 0) switches << "q" << quality;
  runTetGen(switches.str(), in, out, fail);
  TetMesh mesh;
  for (int i = 0; i < out.numberofpoints; ++i)
    mesh.points.emplace_back(out.pointlist[3 * i], out.pointlist[3 * i + 1], out.pointlist[3 * i + 2]);
  for (int t = 0; t < out.numberoftetrahedra; ++t)
    mesh.tets.push_back({out.tetrahedronlist[4 * t], out.tetrahedronlist[4 * t + 1], out.tetrahedronlist[4 * t + 2],
                         out.tetrahedronlist[4 * t + 3]});
  return mesh;
}

#else

TetMesh tetrahedralize(const PolygonalMesh&, double, const Fail& fail) {
  fail("Sinew was built without TetGen (SINEW_WITH_TETGEN=OFF)");
  return {};
}

#endif

/// The surface as triangles over its used vertices only (TetGen would mesh
/// a stray vertex as an input point).
PolygonalMesh usedTriangles(const PolygonalMesh& surface) {
  PolygonalMesh tri;
  std::vector<int> index(surface.numVertices(), -1);
  for (const auto& f : surface.getFaces())
    for (int v : f)
      if (index[v] < 0) index[v] = tri.addVertex(surface.getVertex(v));
  for (const auto& f : surface.getFaces()) {
    std::vector<int> g;
    for (int v : f) g.push_back(index[v]);
    tri.addFace(g);
  }
  tri.triangulate();
  return tri;
}

double tetVolume(const TetMesh& m, const std::array<int, 4>& t) {
  const Vector3d& a = m.points[t[0]];
  return (m.points[t[1]] - a).dot((m.points[t[2]] - a).cross(m.points[t[3]] - a)) / 6;
}

}  // namespace

FemModel3d& FemFactory::createFromMesh(FemModel3d& fem, const PolygonalMesh& surface, double quality) {
  const Fail fail = [&](const std::string& what) { throw ModelError("createFromMesh: " + what, fem.describe()); };
  // Below 1, TetGen's refinement need not stop (a bound of 0.7 never does).
  if (!std::isfinite(quality) || quality < 0 || (quality > 0 && quality < 1))
    fail("quality must be 0 (no refinement) or at least 1, got " + std::to_string(quality));
  const PolygonalMesh tri = usedTriangles(surface);
  checkSurface(tri, fail);
  const TetMesh mesh = tetrahedralize(tri, quality, fail);
  // The tetrahedra fill the surface: a cavity or a nested shell, which
  // TetGen would fill too, shows as a different volume.
  double volume = 0;
  for (const auto& t : mesh.tets) volume += std::abs(tetVolume(mesh, t));
  const double enclosed = tri.computeVolume();
  if (mesh.tets.empty() || std::abs(volume - enclosed) > 1e-9 * enclosed)
    fail("the tetrahedra fill a volume of " + std::to_string(volume) + ", not the " + std::to_string(enclosed) +
         " the surface encloses (nested or overlapping shells?)");
  // Nodes for the points the tetrahedra use, in TetGen's order.
  FemMeshBuilder b;
  std::vector<int> node(mesh.points.size(), -1);
  for (const auto& t : mesh.tets)
    for (int i : t) node[i] = 0;
  for (size_t i = 0; i < node.size(); ++i)
    if (node[i] == 0) node[i] = b.addPoint(mesh.points[i]);
  for (size_t k = 0; k < mesh.tets.size(); ++k) {
    const auto& t = mesh.tets[k];
    if (!(std::abs(tetVolume(mesh, t)) > 0)) fail("TetGen made a flat tetrahedron " + std::to_string(k));
    b.addElement({node[t[0]], node[t[1]], node[t[2]], node[t[3]]});  // in either handedness
  }
  return b.emit(fem, false);
}

FemModel3d& FemFactory::createIcosahedralSphere(FemModel3d& fem, double r, int ndivisions, double quality) {
  fem_detail::requirePositive(fem, "createIcosahedralSphere", "r", r);
  fem_detail::requireAtLeast(fem, "createIcosahedralSphere", "ndivisions", ndivisions, 0);
  return createFromMesh(fem, MeshFactory::createIcosahedralSphere(r, ndivisions), quality);
}

}  // namespace sinew
