// VTK legacy ASCII unstructured-grid reader and writer (guide §6.2.2, Table
// 6.4), after "VTK File Formats" (Kitware, vtk.org/wp-content/uploads/2015/04/
// file-formats.pdf) and the cell classes of VTK.
//
// Layout: "# vtk DataFile Version x.y", a title line, ASCII, "DATASET
// UNSTRUCTURED_GRID", then "POINTS n type" and 3n coordinates, "CELLS n size"
// and per cell "k i1 … ik" (up to version 4.2) or OFFSETS and CONNECTIVITY
// arrays (version 5.1), and "CELL_TYPES n" with n types. Numbers may wrap
// across lines. Points are numbered by their index; elements by their index
// among the volume cells. Point and cell data that follow are not read.
//
// Node orders (sinew[i] = vtk[perm[i]]):
//  - VTK_TETRA 10, VTK_QUADRATIC_TETRA 24 (edges 01 12 20 03 13 23),
//    VTK_PYRAMID 14 (base 0123 turning towards the apex 4) and
//    VTK_QUADRATIC_PYRAMID 27 (edges 01 12 23 30 04 14 24 34): Sinew's
//    order unchanged (vtkTetra, vtkQuadraticTetra, vtkPyramid,
//    vtkQuadraticPyramid).
//  - VTK_HEXAHEDRON 12: face 0123 at the bottom turning towards 4567 at the
//    top; Sinew lists the top face first. VTK_QUADRATIC_HEXAHEDRON 25: edges
//    01 12 23 30, 45 56 67 74, 04 15 26 37 (vtkQuadraticHexahedron).
//  - VTK_WEDGE 13: "(0,1,2) is the base of the wedge which, using the right
//    hand rule, forms a triangle whose normal points outward (away from the
//    triangular face (3,4,5))" (vtkWedge.h; ParaView gives such wedges a
//    positive volume, and meshio converts Gmsh prisms to it by swapping 1↔2
//    and 4↔5, meshio PR #863). Sinew's base turns towards its top instead:
//    swap 1↔2 and 4↔5.
//  - VTK_QUADRATIC_WEDGE 26: its parametric coordinates (vtkQuadraticWedge::
//    GetParametricCoords) put (0,1,2) turning towards (3,4,5), unlike the
//    linear wedge — a known inconsistency of VTK's documentation (vtk-examples
//    PR #9) — with edges 01 12 20, 34 45 53, 03 14 25: Sinew's order unchanged.
#include <algorithm>
#include <map>

#include "sinew/Error.h"
#include "sinew/fem/FemMeshIO.h"
#include "sinew/fem/FemMeshIOData.h"

namespace sinew {

namespace {

const std::vector<femio::TypeCode>& vtkTypes() {
  using T = FemElementType;
  static const std::vector<femio::TypeCode> types{
      {10, T::Tet, {}},
      {12, T::Hex, {4, 5, 6, 7, 0, 1, 2, 3}},
      {13, T::Wedge, {0, 2, 1, 3, 5, 4}},
      {14, T::Pyramid, {}},
      {24, T::QuadTet, {}},
      {25, T::QuadHex, {4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 16, 17, 18, 19}},
      {26, T::QuadWedge, {}},
      {27, T::QuadPyramid, {}},
  };
  return types;
}

// Vertices, lines, polygons, triangles, quads and their quadratic forms.
bool isLowerDimensional(long long id) {
  return (id >= 1 && id <= 9) || id == 21 || id == 22 || id == 23 || id == 28 || id == 34 || id == 35 || id == 36;
}

struct Cell {
  std::vector<long long> points;
  int line;
};

class VtkParser {
 public:
  VtkParser(femio::LineReader& lr, femio::MeshData& d) : myLr(lr), myData(d) {}

  void run() {
    header();
    while (myLr.next()) {
      const std::string key(myLr.tokens()[0]);
      if (key == "POINTS") {
        points();
      } else if (key == "CELLS") {
        cells();
      } else if (key == "CELL_TYPES") {
        cellTypes();
      } else if (key == "POINT_DATA" || key == "CELL_DATA" || key == "FIELD" || key == "METADATA") {
        break;  // data arrays: not mesh
      } else {
        myLr.fail("unexpected '" + key + "'");
      }
    }
    if (!myHaveTypes && !myCells.empty()) myLr.fail("file ends before CELL_TYPES");
  }

 private:
  void header() {
    if (!myLr.nextLine() || myLr.text().rfind("# vtk DataFile Version", 0) != 0)
      myLr.fail("not a VTK legacy file (expected '# vtk DataFile Version')");
    if (!myLr.nextLine()) myLr.fail("file ends before the title line");
    myLr.expect("ASCII");
    if (myLr.tokens()[0] != "ASCII") myLr.fail("only ASCII VTK files are read, not '" + myLr.text() + "'");
    myLr.expect("DATASET");
    if (myLr.tokens().size() != 2 || myLr.tokens()[0] != "DATASET" || myLr.tokens()[1] != "UNSTRUCTURED_GRID")
      myLr.fail("expected 'DATASET UNSTRUCTURED_GRID'");
  }

  void points() {
    if (myLr.tokens().size() != 3) myLr.fail("expected 'POINTS count type'");
    const long long n = myLr.toCount(myLr.tokens()[1]);
    myLr.skipRestOfLine();
    for (long long i = 0; i < n; ++i) {
      Vector3d p;
      for (int k = 0; k < 3; ++k) p[k] = myLr.toDouble(myLr.nextToken("all " + std::to_string(n) + " points"));
      myData.nodes.push_back({i, p, myLr.tokenLine()});
    }
  }

  long long nextCount(const std::string& what) { return myLr.toCount(myLr.nextToken(what)); }

  void cells() {
    if (myLr.tokens().size() != 3) myLr.fail("expected 'CELLS count size'");
    const long long n = myLr.toCount(myLr.tokens()[1]), size = myLr.toCount(myLr.tokens()[2]);
    const int cellsLine = myLr.line();
    myLr.skipRestOfLine();
    const std::string what = "all " + std::to_string(n) + " cells";
    const std::string_view first = n > 0 ? myLr.nextToken(what) : std::string_view();
    if (first == "OFFSETS") return cellArrays(n, size);
    long long used = 0;
    for (long long i = 0; i < n; ++i) {
      const long long k = i == 0 ? myLr.toCount(first) : nextCount(what);
      Cell c{{}, myLr.tokenLine()};
      for (long long j = 0; j < k; ++j) c.points.push_back(nextCount(what));
      used += k + 1;
      myCells.push_back(std::move(c));
    }
    if (used != size)
      throw ParseError(myLr.file(), cellsLine,
                       "CELLS size " + std::to_string(size) + " but the cells hold " + std::to_string(used) + " numbers");
  }

  // Version 5.1: "CELLS nOffsets nConnectivity", "OFFSETS type" and the
  // offsets, "CONNECTIVITY type" and the point indices.
  void cellArrays(long long numOffsets, long long size) {
    myLr.skipRestOfLine();
    std::vector<long long> offsets;
    for (long long i = 0; i < numOffsets; ++i) offsets.push_back(nextCount("all offsets"));
    if (myLr.nextToken("CONNECTIVITY") != "CONNECTIVITY") myLr.fail("expected CONNECTIVITY");
    myLr.skipRestOfLine();
    if (offsets.empty() || offsets.front() != 0 || offsets.back() != size ||
        !std::is_sorted(offsets.begin(), offsets.end()))
      myLr.fail("OFFSETS must rise from 0 to the connectivity size " + std::to_string(size));
    for (size_t i = 0; i + 1 < offsets.size(); ++i) {
      Cell c{{}, myLr.line()};
      for (long long j = offsets[i]; j < offsets[i + 1]; ++j) {
        c.points.push_back(nextCount("all connectivity"));
        if (j == offsets[i]) c.line = myLr.tokenLine();
      }
      myCells.push_back(std::move(c));
    }
  }

  void cellTypes() {
    if (myLr.tokens().size() != 2) myLr.fail("expected 'CELL_TYPES count'");
    const long long n = myLr.toCount(myLr.tokens()[1]);
    if (n != static_cast<long long>(myCells.size()))
      myLr.fail("CELL_TYPES count " + std::to_string(n) + " but " + std::to_string(myCells.size()) + " cells");
    myHaveTypes = true;
    myLr.skipRestOfLine();
    for (const Cell& c : myCells) {
      const long long id = nextCount("all cell types");
      if (isLowerDimensional(id)) continue;  // boundary cells: not part of the volume mesh
      const femio::TypeCode* t = femio::findTypeCode(vtkTypes(), id);
      if (!t) myLr.fail("unsupported VTK cell type " + std::to_string(id));
      const int need = ReferenceElement::get(t->type).numNodes();
      if (static_cast<int>(c.points.size()) != need)
        throw ParseError(myLr.file(), c.line,
                         "VTK cell type " + std::to_string(id) + " needs " + std::to_string(need) + " points, got " +
                             std::to_string(c.points.size()));
      const long long num = static_cast<long long>(myData.elements.size());
      myData.elements.push_back({num, t->type, femio::toSinewOrder(c.points, t->order), c.line});
    }
  }

  femio::LineReader& myLr;
  femio::MeshData& myData;
  std::vector<Cell> myCells;
  bool myHaveTypes = false;
};

}  // namespace

FemModel3d& VtkAsciiReader::read(FemModel3d& fem, std::istream& in, const std::string& name) {
  return femio::readWith<VtkParser>(fem, in, name);
}

void VtkAsciiWriter::write(const FemModel3d& fem, std::ostream& out) {
  std::map<const FemNode3d*, long long> index;
  for (const auto& n : fem.nodes()) index.emplace(&n, static_cast<long long>(index.size()));
  out << "# vtk DataFile Version 3.0\n" << (fem.getName().empty() ? "sinew" : fem.getName())
      << "\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS " << fem.numNodes() << " double\n";
  for (const auto& n : fem.nodes()) out << femio::formatPoint(n.getPosition()) << '\n';
  long long size = 0;
  for (const auto& e : fem.elements()) size += e.numNodes() + 1;
  out << "CELLS " << fem.numElements() << ' ' << size << '\n';
  std::vector<int> ids;
  for (const auto& e : fem.elements()) {
    const femio::TypeCode& t = femio::findTypeCode(vtkTypes(), e.getType());
    std::vector<long long> s;
    for (const auto* n : e.getNodes()) s.push_back(index.at(n));
    out << s.size();
    for (long long i : femio::toFileOrder(s, t.order)) out << ' ' << i;
    out << '\n';
    ids.push_back(t.id);
  }
  out << "CELL_TYPES " << fem.numElements() << '\n';
  for (int id : ids) out << id << '\n';
}

}  // namespace sinew
