// FemFactory::createFromMesh and createIcosahedralSphere (guide §6.2.3):
// tetrahedral meshes of closed surfaces, made by the tetgen 1.5 program.
//
// TetGen is AGPL-3+, so Sinew (Apache-2.0) does not link it (DESIGN §5): the
// surface is written to a scratch directory as a .smesh file, the `tetgen`
// program (Debian package tetgen, or $SINEW_TETGEN) meshes it in a process
// of its own, and its .node/.ele files are read back by TetGenReader.
// TetGen trusts its input: on an open or self-intersecting surface it may
// loop or abort. So the surface is checked here first (closed, manifold,
// oriented, not degenerate), then TetGen's own detector (tetgen -d) looks
// for intersecting faces, and only then is the volume meshed. A tetgen run
// that exits non-zero or is killed by a signal becomes a ModelError; being a
// separate process, its crash does not end ours.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <system_error>
#include <unordered_map>

#include "sinew/Error.h"
#include "sinew/fem/ExternalProgram.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemMeshBuilder.h"
#include "sinew/fem/FemMeshIO.h"
#include "sinew/geometry/MeshFactory.h"


namespace sinew {

using fem_detail::FemMeshBuilder;
namespace fs = std::filesystem;

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

/// The program createFromMesh runs: $SINEW_TETGEN if set, else "tetgen";
/// a name without '/' is looked up on $PATH.
std::string tetgenName() {
  const char* env = std::getenv("SINEW_TETGEN");
  return env && *env ? env : "tetgen";
}

/// The triangles as a TetGen .smesh file: a piecewise linear complex of one
/// facet per triangle, points numbered from 0, no holes or regions.
/// max_digits10 digits, so that TetGen meshes exactly these points.
void writeSmesh(const PolygonalMesh& tri, const fs::path& file, const Fail& fail) {
  std::ofstream out(file);
  out.precision(std::numeric_limits<double>::max_digits10);
  out << tri.numVertices() << " 3 0 0\n";
  for (int i = 0; i < tri.numVertices(); ++i) {
    const Vector3d& p = tri.getVertex(i);
    out << i << ' ' << p.x() << ' ' << p.y() << ' ' << p.z() << '\n';
  }
  out << tri.numFaces() << " 0\n";
  for (const auto& f : tri.getFaces()) out << "3 " << f[0] << ' ' << f[1] << ' ' << f[2] << '\n';
  out << "0\n0\n";  // holes, regions
  out.close();
  if (!out) fail("cannot write the surface for tetgen to " + file.string());
}

/// Runs tetgen on `input` with `switches`, always -p (a PLC), -z (numbered
/// from 0, as written) and -Q (quiet). A non-zero exit or a signal (TetGen
/// 1.5 aborts on inputs it cannot mesh) fails with its last output lines.
void runTetGen(const fs::path& program, const std::string& switches, const fs::path& input, const Fail& fail) {
  const fs::path log = input.parent_path() / ("tetgen-" + switches + ".log");
  fem_detail::ProgramResult r;
  try {
    r = fem_detail::runProgram(program, {"-pzQ" + switches, input.string()}, log);
  } catch (const std::system_error& e) {
    fail(std::string("cannot run tetgen: ") + e.what());
  }
  if (!r.succeeded())
    fail("tetgen -pzQ" + switches + " failed (" + r.describeEnd() + "): " + r.lastLines(4));
}

/// TetGen's intersection detector (-d), a run of its own before meshing
/// (meshing such a surface makes TetGen abort). It writes a .face file of
/// the faces that cross another face only if there are any.
void checkSelfIntersections(const PolygonalMesh& tri, const fs::path& program, const fs::path& input,
                            const Fail& fail) {
  runTetGen(program, "d", input, fail);
  const fs::path faceFile = fs::path(input).replace_extension(".1.face");
  if (!fs::exists(faceFile)) return;
  std::ifstream in(faceFile);
  long long count = 0;
  std::array<int, 3> key{-1, -1, -1};
  int number = 0;
  in >> count >> number;  // header: count, markers
  in >> number >> key[0] >> key[1] >> key[2];  // the first face, points numbered as written (-z)
  if (!in || count <= 0) fail("tetgen -d reported intersections in an unreadable " + faceFile.filename().string());
  std::map<std::array<int, 3>, int> faceOf;
  for (int f = 0; f < tri.numFaces(); ++f) {
    std::array<int, 3> k;
    std::copy_n(tri.getFace(f).begin(), 3, k.begin());
    std::sort(k.begin(), k.end());
    faceOf[k] = f;
  }
  std::sort(key.begin(), key.end());
  const auto it = faceOf.find(key);
  fail("the surface intersects itself: " + std::to_string(count) + " faces cross others" +
       (it == faceOf.end() ? "" : " (face " + std::to_string(it->second) + " is one)"));
}

/// TetGen's mesh of the surface, read by the project's TetGen reader.
TetMesh readTetMesh(const fs::path& nodeFile, const fs::path& eleFile, const Fail& fail) {
  FemModel3d read("tetgen");
  try {
    TetGenReader::read(read, nodeFile, eleFile);
  } catch (const ParseError& e) {
    fail(std::string("cannot read tetgen's mesh: ") + e.what());
  }
  TetMesh mesh;
  std::unordered_map<const FemNode3d*, int> index;
  for (const auto& n : read.nodes()) {
    index[&n] = static_cast<int>(mesh.points.size());
    mesh.points.push_back(n.getRestPosition());
  }
  for (const auto& e : read.elements()) {
    const auto& n = e.getNodes();
    mesh.tets.push_back({index.at(n[0]), index.at(n[1]), index.at(n[2]), index.at(n[3])});
  }
  return mesh;
}

TetMesh tetrahedralize(const PolygonalMesh& tri, double quality, const Fail& fail) {
  const fs::path program = FemFactory::findTetGenProgram();
  if (program.empty()) fail(FemFactory::tetgenNotFoundMessage());
  std::optional<fem_detail::ScratchDirectory> dir;
  try {
    dir.emplace("sinew-tetgen");
  } catch (const fs::filesystem_error& e) {
    fail(std::string("cannot make a directory for tetgen's files: ") + e.what());
  }
  const fs::path input = dir->path() / "surface.smesh";
  writeSmesh(tri, input, fail);
  checkSelfIntersections(tri, program, input, fail);
  std::ostringstream switches;
  switches.precision(17);
  switches << "F";  // no .face file: the boundary is the input surface
  if (quality > 0) switches << "q" << quality;
  runTetGen(program, switches.str(), input, fail);
  return readTetMesh(dir->path() / "surface.1.node", dir->path() / "surface.1.ele", fail);
}

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

std::filesystem::path FemFactory::findTetGenProgram() { return fem_detail::findExecutable(tetgenName()); }

std::string FemFactory::tetgenNotFoundMessage() {
  if (std::getenv("SINEW_TETGEN") && *std::getenv("SINEW_TETGEN"))
    return "the tetgen program was not found: SINEW_TETGEN is '" + tetgenName() +
           "', which is not an executable file or a program on PATH; install Debian's tetgen package or set "
           "SINEW_TETGEN";
  return "the tetgen program was not found on PATH; install Debian's tetgen package or set SINEW_TETGEN";
}

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
