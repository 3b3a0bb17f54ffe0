// FEM mesh readers and writers (guide §6.2.2, Table 6.4): a write→read round
// trip of every element type of every format; each format's node order,
// checked against its reference element; hand-written files (1-based and
// 0-based numbers, comments, continuation lines, boundary elements passed
// over); and malformed files, each reported with its file and line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "sinew/Error.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemMeshIO.h"

namespace sinew {
namespace {

namespace fs = std::filesystem;
using T = FemElementType;

enum class Fmt { Ansys, TetGen, Abaqus, Vtk, Gmsh22, Gmsh41 };
const Fmt kAllFormats[] = {Fmt::Ansys, Fmt::TetGen, Fmt::Abaqus, Fmt::Vtk, Fmt::Gmsh22, Fmt::Gmsh41};

const char* name(Fmt f) {
  switch (f) {
    case Fmt::Ansys: return "ANSYS";
    case Fmt::TetGen: return "TetGen";
    case Fmt::Abaqus: return "Abaqus";
    case Fmt::Vtk: return "VTK";
    case Fmt::Gmsh22: return "Gmsh 2.2";
    default: return "Gmsh 4.1";
  }
}

std::vector<T> supportedTypes(Fmt f) {
  switch (f) {
    case Fmt::Ansys: return {T::Tet, T::Pyramid, T::Wedge, T::Hex, T::QuadTet, T::QuadHex};
    case Fmt::TetGen: return {T::Tet, T::QuadTet};
    case Fmt::Abaqus: return {T::Tet, T::Pyramid, T::Wedge, T::Hex, T::QuadTet, T::QuadWedge, T::QuadHex};
    default: return {T::Tet, T::Hex, T::Wedge, T::Pyramid, T::QuadTet, T::QuadHex, T::QuadWedge, T::QuadPyramid};
  }
}

// A file pair as text: (.node, .elem/.ele) or (the one file, unused).
struct Files {
  std::string a, b;
};

Files writeFiles(Fmt f, const FemModel3d& fem) {
  std::ostringstream a, b;
  switch (f) {
    case Fmt::Ansys: AnsysWriter::write(fem, a, b); break;
    case Fmt::TetGen: TetGenWriter::write(fem, a, b); break;
    case Fmt::Abaqus: AbaqusWriter::write(fem, a); break;
    case Fmt::Vtk: VtkAsciiWriter::write(fem, a); break;
    case Fmt::Gmsh22: GmshWriter::write(fem, a, GmshWriter::Version::V22); break;
    case Fmt::Gmsh41: GmshWriter::write(fem, a, GmshWriter::Version::V41); break;
  }
  return {a.str(), b.str()};
}

void readFiles(Fmt f, FemModel3d& fem, const Files& files, const std::string& stem = "m") {
  std::istringstream a(files.a), b(files.b);
  switch (f) {
    case Fmt::Ansys: AnsysReader::read(fem, a, b, stem + ".node", stem + ".elem"); break;
    case Fmt::TetGen: TetGenReader::read(fem, a, b, stem + ".node", stem + ".ele"); break;
    case Fmt::Abaqus: AbaqusReader::read(fem, a, stem + ".inp"); break;
    case Fmt::Vtk: VtkAsciiReader::read(fem, a, stem + ".vtk"); break;
    default: GmshReader::read(fem, a, stem + ".msh"); break;
  }
}

// One element of type t: the ideal element sheared, moved and slightly
// perturbed, so that no other node order has the same geometry. Nodes and
// element get explicit numbers with gaps.
void addSkewedElement(FemModel3d& fem, T t, int firstNode, int elemNumber, const Vector3d& offset) {
  Matrix3d A;
  A << 0.5, 0.1, 0.05, 0.02, 0.6, 0.1, 0.03, 0.04, 0.7;
  std::vector<FemNode3d*> nodes;
  int k = 0;
  for (const Vector3d& x : ReferenceElement::get(t).getIdealNodePositions()) {
    const Vector3d wobble(std::sin(k + 1.0), std::cos(2.0 * k), std::sin(3.0 * k + 0.5));
    nodes.push_back(&fem.addNumberedNode(std::make_unique<FemNode3d>(A * x + offset + 0.01 * wobble), firstNode + 2 * k));
    ++k;
  }
  fem.addNumberedElement(std::make_unique<FemElement3d>(ReferenceElement::get(t), nodes), elemNumber);
}

// Same nodes (by number, exact positions), same elements (by number, type and
// node numbers in order), same rest volume.
void expectSameModel(const FemModel3d& a, const FemModel3d& b, const std::string& what) {
  ASSERT_EQ(a.numNodes(), b.numNodes()) << what;
  ASSERT_EQ(a.numElements(), b.numElements()) << what;
  for (const auto& n : a.nodes()) {
    const FemNode3d* m = b.getNodeByNumber(n.getNumber());
    ASSERT_NE(m, nullptr) << what << ": node " << n.getNumber();
    EXPECT_EQ(m->getRestPosition(), n.getRestPosition()) << what << ": node " << n.getNumber();
    EXPECT_EQ(m->getPosition(), n.getPosition()) << what << ": node " << n.getNumber();
  }
  for (const auto& e : a.elements()) {
    const FemElement3d* f = b.getElementByNumber(e.getNumber());
    ASSERT_NE(f, nullptr) << what << ": element " << e.getNumber();
    ASSERT_EQ(f->getType(), e.getType()) << what << ": element " << e.getNumber();
    for (int k = 0; k < e.numNodes(); ++k)
      EXPECT_EQ(f->getNode(k).getNumber(), e.getNode(k).getNumber()) << what << ": element " << e.getNumber();
  }
  EXPECT_NEAR(b.getRestVolume(), a.getRestVolume(), 1e-12 * a.getRestVolume()) << what;
}

TEST(FemIO, RoundTripOfEveryElementTypeOfEveryFormat) {
  for (Fmt f : kAllFormats) {
    // TetGen's .ele file holds one node count: tets and quadtets apart.
    std::vector<std::vector<T>> groups{supportedTypes(f)};
    if (f == Fmt::TetGen) groups = {{T::Tet}, {T::QuadTet}};
    for (const auto& types : groups) {
      FemModel3d fem("fem");
      int i = 0;
      for (T t : types) {
        addSkewedElement(fem, t, 10 + 100 * i, 3 * i + 1, Vector3d(1.5 * i, 0.2 * i, -0.1 * i));
        ++i;
      }
      // Grids add elements numbered after the ones above.
      if (std::count(types.begin(), types.end(), T::Hex)) FemFactory::createHexGrid(fem, 1.0, 0.5, 0.3, 3, 2, 1);
      if (std::count(types.begin(), types.end(), T::Tet)) FemFactory::createTetGrid(fem, 0.3, 0.7, 0.2, 2, 1, 2);
      FemModel3d back("back");
      readFiles(f, back, writeFiles(f, fem));
      if (f == Fmt::Vtk) {
        // VTK numbers points and cells by their index.
        ASSERT_EQ(back.numNodes(), fem.numNodes());
        ASSERT_EQ(back.numElements(), fem.numElements());
        for (int n = 0; n < fem.numNodes(); ++n) EXPECT_EQ(back.getNode(n).getPosition(), fem.getNode(n).getPosition());
        for (int e = 0; e < fem.numElements(); ++e) {
          ASSERT_EQ(back.getElement(e).getType(), fem.getElement(e).getType());
          for (int k = 0; k < fem.getElement(e).numNodes(); ++k)
            EXPECT_EQ(back.getElement(e).getNode(k).getIndex(), fem.getElement(e).getNode(k).getIndex());
        }
        EXPECT_NEAR(back.getRestVolume(), fem.getRestVolume(), 1e-12 * fem.getRestVolume());
      } else {
        expectSameModel(fem, back, name(f));
      }
    }
  }
}

TEST(FemIO, WritersRejectTypesTheFormatCannotHold) {
  FemModel3d fem("fem");
  addSkewedElement(fem, T::QuadPyramid, 0, 0, Vector3d::Zero());
  std::ostringstream a, b;
  EXPECT_THROW(AnsysWriter::write(fem, a, b), Error);
  EXPECT_THROW(TetGenWriter::write(fem, a, b), Error);
  EXPECT_THROW(AbaqusWriter::write(fem, a), Error);
  FemModel3d mixed("mixed");
  addSkewedElement(mixed, T::Tet, 0, 0, Vector3d::Zero());
  addSkewedElement(mixed, T::QuadTet, 100, 1, Vector3d(2, 0, 0));
  EXPECT_THROW(TetGenWriter::write(mixed, a, b), Error);  // one node count per .ele
}

// ---------------------------------------------------------------- node orders

// Each format's reference element, as its documentation draws it: corners,
// then the midpoints of the listed edges, in the format's order.
struct FormatElement {
  std::vector<Vector3d> corners;
  std::vector<std::pair<int, int>> edges;
  std::vector<Vector3d> nodes() const {
    std::vector<Vector3d> x = corners;
    for (auto [a, b] : edges) x.push_back(0.5 * (corners[a] + corners[b]));
    return x;
  }
};

const std::vector<Vector3d> kTetCorners{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
const std::vector<Vector3d> kHexCorners{{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                        {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
const std::vector<Vector3d> kWedgeCorners{{0, 0, -1}, {1, 0, -1}, {0, 1, -1}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
const std::vector<Vector3d> kPyramidCorners{{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {0, 0, 1}};

// The edge lists: ANSYS SOLID186/187, Abaqus C3D10/15/20 and VTK quadratic
// cells; Gmsh's MTetrahedron/MHexahedron/MPrism/MPyramid tables; TetGen -o2.
const std::vector<std::pair<int, int>> kTetEdges{{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
const std::vector<std::pair<int, int>> kHexEdges{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                                 {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
const std::vector<std::pair<int, int>> kWedgeEdges{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5},
                                                   {5, 3}, {0, 3}, {1, 4}, {2, 5}};
const std::vector<std::pair<int, int>> kPyramidEdges{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 4}, {1, 4}, {2, 4}, {3, 4}};
const std::vector<std::pair<int, int>> kGmshTetEdges{{0, 1}, {1, 2}, {2, 0}, {3, 0}, {3, 2}, {3, 1}};
const std::vector<std::pair<int, int>> kGmshHexEdges{{0, 1}, {0, 3}, {0, 4}, {1, 2}, {1, 5}, {2, 3},
                                                     {2, 6}, {3, 7}, {4, 5}, {4, 7}, {5, 6}, {6, 7}};
const std::vector<std::pair<int, int>> kGmshWedgeEdges{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 4},
                                                       {2, 5}, {3, 4}, {3, 5}, {4, 5}};
const std::vector<std::pair<int, int>> kGmshPyramidEdges{{0, 1}, {0, 3}, {0, 4}, {1, 2},
                                                         {1, 4}, {2, 3}, {2, 4}, {3, 4}};
const std::vector<std::pair<int, int>> kTetGenEdges{{2, 3}, {0, 3}, {0, 1}, {1, 2}, {1, 3}, {0, 2}};

FormatElement formatElement(Fmt f, T t) {
  const bool gmsh = f == Fmt::Gmsh22 || f == Fmt::Gmsh41;
  switch (t) {
    case T::Tet: return {kTetCorners, {}};
    case T::Hex: return {kHexCorners, {}};
    case T::Pyramid: return {kPyramidCorners, {}};
    case T::Wedge:
      // vtkWedge: (0,1,2) turns away from (3,4,5).
      if (f == Fmt::Vtk) return {{{0, 0, -1}, {0, 1, -1}, {1, 0, -1}, {0, 0, 1}, {0, 1, 1}, {1, 0, 1}}, {}};
      return {kWedgeCorners, {}};
    case T::QuadTet: return {kTetCorners, f == Fmt::TetGen ? kTetGenEdges : gmsh ? kGmshTetEdges : kTetEdges};
    case T::QuadHex: return {kHexCorners, gmsh ? kGmshHexEdges : kHexEdges};
    case T::QuadWedge: return {kWedgeCorners, gmsh ? kGmshWedgeEdges : kWedgeEdges};
    default: return {kPyramidCorners, gmsh ? kGmshPyramidEdges : kPyramidEdges};
  }
}

std::string point(const Vector3d& x, const char* sep = " ") {
  std::ostringstream s;
  s << x.x() << sep << x.y() << sep << x.z();
  return s.str();
}

// A one-element file written by hand from the format's documentation (nodes
// numbered 1…n in the format's order), independent of the writers.
Files handWritten(Fmt f, T t, const std::vector<Vector3d>& x) {
  const int n = static_cast<int>(x.size());
  std::ostringstream a, b;
  auto list = [&](std::ostream& out, int from, int to, const char* sep) {
    for (int i = from; i <= to; ++i) out << sep << i;
  };
  switch (f) {
    case Fmt::Ansys: {
      for (int i = 0; i < n; ++i) a << i + 1 << ' ' << point(x[i]) << '\n';
      const char* degenerate = n == 4 ? " 1 2 3 3 4 4 4 4" : n == 5 ? " 1 2 3 4 5 5 5 5" : n == 6 ? " 1 2 3 3 4 5 6 6" : "";
      if (*degenerate) b << degenerate;
      else list(b, 1, 8, " ");
      b << " 1 1 1 1 0 1\n";
      if (n > 8) list(b, 9, n, " ");
      b << '\n';
      break;
    }
    case Fmt::TetGen:
      a << n << " 3 0 0\n";
      for (int i = 0; i < n; ++i) a << i + 1 << ' ' << point(x[i]) << '\n';
      b << "1 " << n << " 0\n1";
      list(b, 1, n, " ");
      b << '\n';
      break;
    case Fmt::Abaqus: {
      a << "*NODE\n";
      for (int i = 0; i < n; ++i) a << i + 1 << ", " << point(x[i], ", ") << '\n';
      a << "*ELEMENT, TYPE=C3D" << n << "\n1";
      list(a, 1, std::min(n, 15), ", ");
      if (n > 15) {
        a << ",\n" << 16;
        list(a, 17, n, ", ");
      }
      a << '\n';
      break;
    }
    case Fmt::Vtk: {
      const int id = t == T::Tet ? 10 : t == T::Hex ? 12 : t == T::Wedge ? 13 : t == T::Pyramid ? 14
                   : t == T::QuadTet ? 24 : t == T::QuadHex ? 25 : t == T::QuadWedge ? 26 : 27;
      a << "# vtk DataFile Version 3.0\none cell\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS " << n << " double\n";
      for (int i = 0; i < n; ++i) a << point(x[i]) << '\n';
      a << "CELLS 1 " << n + 1 << '\n' << n;
      for (int i = 0; i < n; ++i) a << ' ' << i;
      a << "\nCELL_TYPES 1\n" << id << '\n';
      break;
    }
    default: {
      const int id = t == T::Tet ? 4 : t == T::Hex ? 5 : t == T::Wedge ? 6 : t == T::Pyramid ? 7
                   : t == T::QuadTet ? 11 : t == T::QuadHex ? 17 : t == T::QuadWedge ? 18 : 19;
      a << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n" << n << '\n';
      for (int i = 0; i < n; ++i) a << i + 1 << ' ' << point(x[i]) << '\n';
      a << "$EndNodes\n$Elements\n1\n1 " << id << " 2 0 1";
      list(a, 1, n, " ");
      a << "\n$EndElements\n";
    }
  }
  return {a.str(), b.str()};
}

TEST(FemIO, EachFormatsNodeOrderMapsToSinews) {
  // Read a file holding the format's reference element: Sinew's node i must
  // sit at its ideal position — turned half about x for ANSYS's and Abaqus's
  // bricks, which ArtiSynth maps that way — so every point has J = I (or R).
  for (Fmt f : {Fmt::Ansys, Fmt::TetGen, Fmt::Abaqus, Fmt::Vtk, Fmt::Gmsh22}) {
    for (T t : supportedTypes(f)) {
      const std::string what = std::string(name(f)) + " " + ReferenceElement::get(t).getName();
      FemModel3d fem("fem");
      ASSERT_NO_THROW(readFiles(f, fem, handWritten(f, t, formatElement(f, t).nodes()))) << what;
      ASSERT_EQ(fem.numElements(), 1) << what;
      const FemElement3d& e = fem.getElement(0);
      EXPECT_EQ(e.getType(), t) << what;
      const bool turned = (f == Fmt::Ansys || f == Fmt::Abaqus) && (t == T::Hex || t == T::QuadHex);
      const Vector3d R = turned ? Vector3d(1, -1, -1) : Vector3d(1, 1, 1);
      const auto& ideal = e.getReferenceElement().getIdealNodePositions();
      for (int k = 0; k < e.numNodes(); ++k)
        EXPECT_LT((e.getNode(k).getRestPosition() - R.cwiseProduct(ideal[k])).norm(), 1e-14) << what << " node " << k;
      EXPECT_GT(e.getRestVolume(), 0) << what;
      // And the writer gives the same file order back.
      FemModel3d back("back");
      readFiles(f, back, writeFiles(f, fem));
      expectSameModel(fem, back, what);
    }
  }
}

// ---------------------------------------------------------------- hand-written files

struct Expected {
  int number;
  const char* type;
  double volume;
};

// The model holds exactly these elements (by persistent number), of these
// types and rest volumes, and numNodes nodes.
void expectElements(const FemModel3d& fem, int numNodes, const std::vector<Expected>& elems) {
  ASSERT_EQ(fem.numNodes(), numNodes);
  ASSERT_EQ(fem.numElements(), static_cast<int>(elems.size()));
  for (const Expected& x : elems) {
    const FemElement3d* e = fem.getElementByNumber(x.number);
    ASSERT_NE(e, nullptr) << "element " << x.number;
    EXPECT_STREQ(e->getTypeName(), x.type) << "element " << x.number;
    EXPECT_NEAR(e->getRestVolume(), x.volume, 1e-14) << "element " << x.number;
  }
}

TEST(FemIO, TetGenFilesWithCommentsAttributesAndEitherBase) {
  // 1-based, with comments, an attribute and boundary markers per point and
  // a region attribute per tetrahedron.
  const std::string node1 =
      "# two tetrahedra\n"
      "5  3  1  1   # count, dimension, attributes, markers\n"
      "1   0 0 0   7.5  1\n"
      "2   1 0 0   7.5  1\n"
      "\n"
      "3   0 1 0   7.5  0\n"
      "4   0 0 1   7.5  1\n"
      "5   1 1 1   7.5  0  # the apex\n";
  const std::string ele1 = "2 4 1\n# number, nodes, region\n1  1 2 3 4  1\n2  2 3 4 5  1\n";
  FemModel3d fem("fem");
  std::istringstream n1(node1), e1(ele1);
  TetGenReader::read(fem, n1, e1, "a.node", "a.ele");
  expectElements(fem, 5, {{0, "TetElement", 1.0 / 6}, {1, "TetElement", 1.0 / 3}});
  EXPECT_EQ(fem.getNodeByNumber(4)->getRestPosition(), Vector3d(1, 1, 1));  // file number 5

  // The same mesh 0-based, without attributes: the same model.
  std::istringstream n0("5 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n4 1 1 1\n"),
      e0("2 4 0\n0 0 1 2 3\n1 1 2 3 4\n");
  FemModel3d fem0("fem0");
  TetGenReader::read(fem0, n0, e0, "b.node", "b.ele");
  expectSameModel(fem, fem0, "0-based");
}

TEST(FemIO, AnsysFilesInArtiSynthsLayout) {
  // A unit cube (ANSYS I…P: bottom face counter-clockwise seen from above)
  // with two tetrahedra on top, one in ANSYS's degenerate form I J K K L L L
  // L, one as ArtiSynth writes it, I J K L 0 0 0 0; node numbers skip 9.
  const std::string nodes =
      "1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n"
      "5 0 0 1\n6 1 0 1\n7 1 1 1\n8 0 1 1\n"
      "10 0.0000000000000E+00-1.0000000000000E-01 2.0000000000000E+00\n";  // runs together, as fixed width may
  const std::string elems =
      "     1     2     3     4     5     6     7     8     1     1     1     1     0     1\n"
      "     5     6     8     8    10    10    10    10     1     1     1     1     0     2\n"
      "     6     7     8    10     0     0     0     0     1     1     1     1     0     4\n";
  FemModel3d fem("fem");
  std::istringstream n(nodes), e(elems);
  AnsysReader::read(fem, n, e, "c.node", "c.elem");
  // Element numbers skip 3, node numbers 9.
  expectElements(fem, 9, {{0, "HexElement", 1.0}, {1, "TetElement", 1.0 / 6}, {3, "TetElement", 1.0 / 6}});
  EXPECT_EQ(fem.getNodeByNumber(9)->getRestPosition(), Vector3d(0, -0.1, 2));
}

TEST(FemIO, AbaqusFileWithKeywordsInAnyCaseAndContinuedRows) {
  const std::string inp =
      "** a brick and a tetrahedron\n"
      "*Heading\n"
      " unit cube\n"
      "*Node, nset=all\n"
      " 1, 0., 0., 0.\n 2, 1., 0., 0.\n 3, 1., 1., 0.\n 4, 0., 1., 0.\n"
      " 5, 0., 0., 1.\n 6, 1., 0., 1.\n 7, 1., 1., 1.\n 8, 0., 1., 1.\n"
      " 9, 0., 0., 2.\n"
      "*Element, type=C3D8R, elset=cube\n"
      " 1, 1, 2, 3, 4,\n"
      "    5, 6, 7, 8\n"
      "*element, TYPE=c3d4\n"
      " 7, 5, 6, 8, 9\n"
      "*Element, type=S3R, elset=skin\n"  // a surface element: passed over
      " 20, 1, 2, 3\n"
      "*NSET, NSET=fixed\n"
      " 1, 2, 3, 4\n"
      "*Material, name=tissue\n"
      "*Elastic\n"
      " 1000., 0.3\n";
  FemModel3d fem("fem");
  readFiles(Fmt::Abaqus, fem, {inp, ""}, "d");
  expectElements(fem, 9, {{0, "HexElement", 1.0}, {6, "TetElement", 1.0 / 6}});
}

TEST(FemIO, VtkFileWithAWedgeAndABoundaryTriangle) {
  // A cube and, on its top, a wedge in VTK's order: base (4,7,5) turning
  // away from (8,10,9). Numbers wrap across lines; the triangle is passed over.
  const std::string vtk =
      "# vtk DataFile Version 3.0\n"
      "cube and wedge\n"
      "ASCII\n"
      "\n"
      "DATASET UNSTRUCTURED_GRID\n"
      "POINTS 11 float\n"
      "0 0 0  1 0 0  1 1 0  0 1 0\n"
      "0 0 1  1 0 1  1 1 1  0 1 1\n"
      "0 0 2  1 0 2\n0 1 2\n"
      "CELLS 3 20\n"
      "8 0 1 2 3 4 5 6 7\n"
      "3 0 1 2\n"
      "6 4 7 5\n 8 10 9\n"
      "CELL_TYPES 3\n"
      "12 5 13\n"
      "CELL_DATA 3\nSCALARS id int 1\nLOOKUP_TABLE default\n0 1 2\n";
  FemModel3d fem("fem");
  readFiles(Fmt::Vtk, fem, {vtk, ""}, "e");
  expectElements(fem, 11, {{0, "HexElement", 1.0}, {1, "WedgeElement", 0.5}});

  // The same cells in version 5.1's OFFSETS/CONNECTIVITY arrays.
  const std::string vtk51 =
      "# vtk DataFile Version 5.1\nv5\nASCII\nDATASET UNSTRUCTURED_GRID\n"
      "POINTS 11 float\n0 0 0 1 0 0 1 1 0 0 1 0 0 0 1 1 0 1 1 1 1 0 1 1 0 0 2 1 0 2 0 1 2\n"
      "CELLS 4 17\nOFFSETS vtktypeint64\n0 8 11 17\nCONNECTIVITY vtktypeint64\n"
      "0 1 2 3 4 5 6 7\n0 1 2\n4 7 5 8 10 9\nCELL_TYPES 3\n12\n5\n13\n";
  FemModel3d fem51("fem51");
  readFiles(Fmt::Vtk, fem51, {vtk51, ""}, "f");
  expectSameModel(fem, fem51, "VTK 5.1");
}

// A tetrahedron on a unit cube, with a boundary triangle and a point.
const char* kGmsh22 =
    "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
    "$PhysicalNames\n1\n3 1 \"body\"\n$EndPhysicalNames\n"
    "$Nodes\n9\n"
    "1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 0 0 1\n6 1 0 1\n7 1 1 1\n8 0 1 1\n12 0 0 2\n"
    "$EndNodes\n"
    "$Elements\n4\n"
    "1 15 2 0 1 1\n"
    "2 2 2 0 1 1 2 3\n"
    "3 5 2 1 1 1 2 3 4 5 6 7 8\n"
    "5 4 2 1 1 5 6 8 12\n"
    "$EndElements\n"
    "$Comments\nanything $Nodes\n$EndComments\n";

TEST(FemIO, GmshFilesOfBothVersions) {
  FemModel3d fem("fem");
  readFiles(Fmt::Gmsh22, fem, {kGmsh22, ""}, "g");
  expectElements(fem, 9, {{2, "HexElement", 1.0}, {4, "TetElement", 1.0 / 6}});
  EXPECT_EQ(fem.getNodeByNumber(11)->getRestPosition(), Vector3d(0, 0, 2));

  // The same mesh in 4.1: entities, two node blocks (one parametric), and
  // element blocks of dimension 0, 2 and 3.
  const std::string v41 =
      "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
      "$Entities\n1 0 0 1\n1 0 0 0 0\n1 0 0 0 1 1 2 0 0\n$EndEntities\n"
      "$Nodes\n2 9 1 12\n"
      "0 1 0 1\n1\n0 0 0\n"
      "2 1 1 8\n2\n3\n4\n5\n6\n7\n8\n12\n"
      "1 0 0 0.1 0.2\n1 1 0 0 0\n0 1 0 0 0\n0 0 1 0 0\n1 0 1 0 0\n1 1 1 0 0\n0 1 1 0 0\n0 0 2 0 0\n"
      "$EndNodes\n"
      "$Elements\n3 4 1 5\n"
      "0 1 15 1\n1 1\n"
      "2 1 2 1\n2 1 2 3\n"
      "3 1 5 1\n3 1 2 3 4 5 6 7 8\n"
      "3 1 4 1\n5 5 6 8 12\n"  // a fourth block, so the header's count of 3 is wrong
      "$EndElements\n";
  FemModel3d bad("bad");
  EXPECT_THROW(readFiles(Fmt::Gmsh41, bad, {v41, ""}, "h"), ParseError);
  std::string good = v41;
  good.replace(good.find("$Elements\n3 4"), 13, "$Elements\n4 4");
  FemModel3d fem41("fem41");
  readFiles(Fmt::Gmsh41, fem41, {good, ""}, "h");
  expectSameModel(fem, fem41, "Gmsh 4.1");
}

TEST(FemIO, NodesAndElementsAddedUnderGivenNumbers) {
  FemModel3d fem("fem");
  fem.addNumberedNode(std::make_unique<FemNode3d>(Vector3d(1, 0, 0)), 5);
  EXPECT_THROW(fem.addNumberedNode(std::make_unique<FemNode3d>(Vector3d(2, 0, 0)), 5), ModelError);  // taken
  EXPECT_THROW(fem.addNumberedNode(std::make_unique<FemNode3d>(Vector3d(2, 0, 0)), -1), ModelError);
  EXPECT_EQ(fem.addNode(Vector3d(0, 1, 0)).getNumber(), 6);  // plain adds continue after the largest
  fem.addNumberedNode(std::make_unique<FemNode3d>(Vector3d(0, 0, 0)), 2);  // a free number below it
  fem.addNumberedNode(std::make_unique<FemNode3d>(Vector3d(0, 0, 1)), 0);
  EXPECT_EQ(fem.getNodeByNumber(2)->getRestPosition(), Vector3d(0, 0, 0));
  std::vector<FemNode3d*> tet{fem.getNodeByNumber(2), fem.getNodeByNumber(5), fem.getNodeByNumber(6),
                              fem.getNodeByNumber(0)};
  EXPECT_EQ(fem.addNumberedElement(FemElement3d::createElement(tet), 40).getNumber(), 40);
  EXPECT_EQ(fem.getElementByNumber(40)->getTypeName(), std::string("TetElement"));
  std::swap(tet[1], tet[2]);  // inverted: rejected as addElement rejects it
  EXPECT_THROW(fem.addNumberedElement(FemElement3d::createElement(tet), 41), ModelError);
  EXPECT_NEAR(fem.getMass(), fem.getDensity() / 6, 1e-12);  // lumped as addElement lumps
}

TEST(FemIO, ReadingIntoAModelWithNodesNumbersTheNewOnesAfterThem) {
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 1, 1, 1, 1, 1, 1);  // nodes 0–7, element 0
  std::istringstream n("4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"), e("1 4 0\n1 1 2 3 4\n");
  TetGenReader::read(fem, n, e, "t.node", "t.ele");
  ASSERT_EQ(fem.numNodes(), 12);
  EXPECT_EQ(fem.getNodeByNumber(9)->getRestPosition(), Vector3d(1, 0, 0));  // file node 2
  EXPECT_EQ(fem.getElementByNumber(1)->getNode(3).getNumber(), 11);
  EXPECT_NEAR(fem.getRestVolume(), 1 + 1.0 / 6, 1e-14);
}

TEST(FemIO, ReadFemAndWriteFemChooseTheFormatByExtension) {
  const fs::path dir = fs::temp_directory_path() / ("sinew_femio_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  FemModel3d fem("fem");
  FemFactory::createTetGrid(fem, 1.0, 0.5, 0.5, 2, 1, 1);
  for (const char* file : {"a.inp", "b.vtk", "c.msh", "d.elem", "e.ele", "F.INP"}) {
    writeFem(fem, dir / file);
    FemModel3d back("back");
    readFem(back, dir / file);
    expectSameModel(fem, back, file);
  }
  // A .node file picks ANSYS when a .elem sits beside it, else TetGen.
  FemModel3d viaNode("viaNode"), viaNode2("viaNode2");
  readFem(viaNode, dir / "d.node");
  readFem(viaNode2, dir / "e.node");
  expectSameModel(fem, viaNode, "d.node");
  expectSameModel(fem, viaNode2, "e.node");
  EXPECT_THROW(writeFem(fem, dir / "x.node"), Error);
  try {
    FemModel3d m("m");
    readFem(m, dir / "x.stl");
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 0);
  }
  fs::remove_all(dir);
}

// ---------------------------------------------------------------- malformed files

// Reading must throw a ParseError naming `file` and `line`, and leave the
// model as it was.
void expectParseError(const std::string& file, int line, const std::function<void(FemModel3d&)>& read) {
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 1, 1, 1, 1, 1, 1);
  try {
    read(fem);
    ADD_FAILURE() << "no ParseError for " << file << ":" << line;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), file) << e.what();
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(std::string(e.what()).find(file + ":" + std::to_string(line) + ":"), std::string::npos) << e.what();
  }
  EXPECT_EQ(fem.numNodes(), 8) << file << ":" << line;
  EXPECT_EQ(fem.numElements(), 1) << file << ":" << line;
}

void expectTwoFileError(Fmt f, const std::string& nodes, const std::string& elems, const std::string& file, int line) {
  expectParseError(file, line, [&](FemModel3d& fem) {
    std::istringstream a(nodes), b(elems);
    if (f == Fmt::Ansys) AnsysReader::read(fem, a, b, "x.node", "x.elem");
    else TetGenReader::read(fem, a, b, "x.node", "x.ele");
  });
}

void expectOneFileError(Fmt f, const std::string& text, int line) {
  const std::string file = f == Fmt::Abaqus ? "x.inp" : f == Fmt::Vtk ? "x.vtk" : "x.msh";
  expectParseError(file, line, [&](FemModel3d& fem) { readFiles(f, fem, {text, ""}, "x"); });
}

TEST(FemIO, MissingFilesAreReportedWithLineZero) {
  const fs::path missing = fs::temp_directory_path() / "sinew_femio_no_such_file.inp";
  expectParseError(missing.string(), 0, [&](FemModel3d& fem) { AbaqusReader::read(fem, missing); });
  expectParseError(missing.string(), 0, [&](FemModel3d& fem) { readFem(fem, missing); });
}

TEST(FemIO, MalformedTetGenFilesNameFileAndLine) {
  const std::string nodes = "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n";
  const std::string ele = "1 4 0\n1 1 2 3 4\n";
  expectTwoFileError(Fmt::TetGen, "4 3 0 0\n1 0 0 0\n2 1 0 0\n# only three\n3 0 1 0\n", ele, "x.node", 5);  // truncated
  expectTwoFileError(Fmt::TetGen, "4 3 0 0\n1 0 0 0\n2 1 zero 0\n3 0 1 0\n4 0 0 1\n", ele, "x.node", 3);
  expectTwoFileError(Fmt::TetGen, "4 2 0 0\n", ele, "x.node", 1);                         // dimension
  expectTwoFileError(Fmt::TetGen, nodes + "5 1 1 1\n", ele, "x.node", 6);                  // more than counted
  expectTwoFileError(Fmt::TetGen, "4 3 0 1\n1 0 0 0\n2 1 0 0 1\n3 0 1 0 1\n4 0 0 1 1\n", ele, "x.node", 2);
  expectTwoFileError(Fmt::TetGen, nodes, "1 4 0\n1 1 2 3 9\n", "x.ele", 2);              // no node 9
  expectTwoFileError(Fmt::TetGen, nodes, "1 4 0\n1 1 2 3\n", "x.ele", 2);                 // wrong count
  expectTwoFileError(Fmt::TetGen, nodes, "1 6 0\n", "x.ele", 1);                          // 6-node tets
  expectTwoFileError(Fmt::TetGen, nodes, "2 4 0\n1 1 2 3 4\n", "x.ele", 2);               // truncated
  expectTwoFileError(Fmt::TetGen, nodes, "1 4 0\n\n1 1 3 2 4\n", "x.ele", 3);             // inverted
  expectTwoFileError(Fmt::TetGen, "4 3 0 0\n1 0 0 0\n1 1 0 0\n3 0 1 0\n4 0 0 1\n", ele, "x.node", 3);  // repeated
  expectTwoFileError(Fmt::TetGen, "", ele, "x.node", 1);                                  // empty
}

TEST(FemIO, MalformedAnsysFilesNameFileAndLine) {
  const std::string nodes = "1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n";
  const std::string tet = "1 2 3 3 4 4 4 4 1 1 1 1 0 1\n";
  expectTwoFileError(Fmt::Ansys, "1 0 0 0\n2 1 0 x\n", tet, "x.node", 2);
  expectTwoFileError(Fmt::Ansys, "1 0 0\n", tet, "x.node", 1);
  expectTwoFileError(Fmt::Ansys, "0 0 0 0\n", tet, "x.node", 1);  // numbers start at 1
  expectTwoFileError(Fmt::Ansys, nodes, tet + "1 2 3 3 4 4 4 1 1 1 1 0 2\n", "x.elem", 2);  // 13 numbers
  expectTwoFileError(Fmt::Ansys, nodes, "1 2 3 4 1 1 1\n", "x.elem", 1);
  expectTwoFileError(Fmt::Ansys, nodes, tet + "1 2 3 3 5 5 5 5 1 1 1 1 0 2\n", "x.elem", 2);  // no node 5
  expectTwoFileError(Fmt::Ansys, nodes, "1 2 3 3 3 3 3 3 1 1 1 1 0 1\n", "x.elem", 1);  // 3 distinct nodes
  expectTwoFileError(Fmt::Ansys, nodes, "1 2 3 3 4 4 4 4 1 1 1 1 0 1\n9 9\n9\n", "x.elem", 3);  // 3 rows
  expectTwoFileError(Fmt::Ansys, nodes, "1 3 2 2 4 4 4 4 1 1 1 1 0 1\n", "x.elem", 1);  // inverted
  expectTwoFileError(Fmt::Ansys, nodes, "1 2 3 3 4 4 4 4 1 1 1 1 0 1\n1 2 3 3 4 4 4 4 1 1 1 1 0 1\n", "x.elem",
                     2);  // element 1 twice
}

TEST(FemIO, MalformedAbaqusFilesNameFileAndLine) {
  const std::string nodes = "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 0, 1, 0\n4, 0, 0, 1\n";
  expectOneFileError(Fmt::Abaqus, nodes + "*ELEMENT, TYPE=C3D27\n1, 1, 2, 3, 4\n", 6);  // unknown type
  expectOneFileError(Fmt::Abaqus, nodes + "*ELEMENT, TYPE=FOO\n", 6);
  expectOneFileError(Fmt::Abaqus, nodes + "*ELEMENT\n", 6);                              // no TYPE
  expectOneFileError(Fmt::Abaqus, "*NODE\n1, 0, 0, 0\n2, 1, 0, zero\n", 3);              // not a number
  expectOneFileError(Fmt::Abaqus, nodes + "*ELEMENT, TYPE=C3D4\n1, 1, 2, 3, 4, 5\n", 7);  // too many nodes
  expectOneFileError(Fmt::Abaqus, nodes + "*ELEMENT, TYPE=C3D4\n1, 1, 2, 3, 7\n", 7);     // no node 7
  expectOneFileError(Fmt::Abaqus, nodes + "*ELEMENT, TYPE=C3D4\n1, 1, 2,\n", 7);          // truncated
  expectOneFileError(Fmt::Abaqus, nodes + "*ELEMENT, TYPE=C3D4\n1, 1, 2,\n*END STEP\n", 7);
  expectOneFileError(Fmt::Abaqus, nodes + "** c\n*ELEMENT, TYPE=C3D4\n1, 2, 1, 3, 4\n", 8);  // inverted
  expectOneFileError(Fmt::Abaqus, nodes + "*INCLUDE, INPUT=more.inp\n", 6);
  expectOneFileError(Fmt::Abaqus, "*NODE\n1\n", 2);                                      // no coordinates
}

TEST(FemIO, MalformedVtkFilesNameFileAndLine) {
  const std::string head = "# vtk DataFile Version 3.0\nt\nASCII\nDATASET UNSTRUCTURED_GRID\n";
  const std::string pts = "POINTS 4 double\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n";  // lines 5–9
  expectOneFileError(Fmt::Vtk, "# vtk DataFile Version 3.0\nt\nBINARY\n", 3);
  expectOneFileError(Fmt::Vtk, "# not vtk\n", 1);
  expectOneFileError(Fmt::Vtk, head + "DATASET POLYDATA\n", 5);
  expectOneFileError(Fmt::Vtk, head + "POINTS 4 double\n0 0 0\n1 0 0\n0 1\n", 8);          // truncated
  expectOneFileError(Fmt::Vtk, head + "POINTS 2 double\n0 0 0\n1 0 nan\n", 7);            // not a number
  expectOneFileError(Fmt::Vtk, head + pts + "CELLS 1 5\n4 0 1 2 3\nCELL_TYPES 1\n11\n", 13);  // voxel
  expectOneFileError(Fmt::Vtk, head + pts + "CELLS 1 5\n4 0 1 2 3\nCELL_TYPES 1\n99\n", 13);  // unknown
  expectOneFileError(Fmt::Vtk, head + pts + "CELLS 1 5\n4 0 1 2 3\nCELL_TYPES 2\n10 10\n", 12);  // count
  expectOneFileError(Fmt::Vtk, head + pts + "CELLS 1 6\n4 0 1 2 3\nCELL_TYPES 1\n10\n", 10);  // size
  expectOneFileError(Fmt::Vtk, head + pts + "CELLS 1 5\n4 0 1 2 7\nCELL_TYPES 1\n10\n", 11);  // no point 7
  expectOneFileError(Fmt::Vtk, head + pts + "CELLS 1 4\n3 0 1 2\nCELL_TYPES 1\n10\n", 11);    // 3 points
  expectOneFileError(Fmt::Vtk, head + pts + "CELLS 1 5\n4 0 2 1 3\nCELL_TYPES 1\n10\n", 11);  // inverted
  expectOneFileError(Fmt::Vtk, head + pts + "CELLS 1 5\n4 0 1 2 3\n", 11);                    // no types
}

TEST(FemIO, MalformedGmshFilesNameFileAndLine) {
  const std::string fmt = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
  const std::string nodes = "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n";  // lines 4–10
  expectOneFileError(Fmt::Gmsh22, "$MeshFormat\n2.2 1 8\n$EndMeshFormat\n", 2);  // binary
  expectOneFileError(Fmt::Gmsh22, "$MeshFormat\n3.0 0 8\n$EndMeshFormat\n", 2);  // version
  expectOneFileError(Fmt::Gmsh22, nodes, 1);                                     // no $MeshFormat
  expectOneFileError(Fmt::Gmsh22, "", 1);
  expectOneFileError(Fmt::Gmsh22, fmt + "$Nodes\n4\n1 0 0 0\n2 1 0 0\n", 7);      // truncated
  expectOneFileError(Fmt::Gmsh22, fmt + "$Nodes\n1\n1 0 0 0\n$Elements\n", 7);   // no $EndNodes
  expectOneFileError(Fmt::Gmsh22, fmt + "$Nodes\n1\n1 0 O 0\n$EndNodes\n", 6);   // letter O
  expectOneFileError(Fmt::Gmsh22, fmt + nodes + "$Elements\n1\n1 99 2 0 1 1 2 3 4\n$EndElements\n", 13);
  expectOneFileError(Fmt::Gmsh22, fmt + nodes + "$Elements\n1\n1 12 2 0 1 1 2 3 4\n$EndElements\n", 13);
  expectOneFileError(Fmt::Gmsh22, fmt + nodes + "$Elements\n1\n1 4 2 0 1 1 2 3\n$EndElements\n", 13);
  expectOneFileError(Fmt::Gmsh22, fmt + nodes + "$Elements\n1\n1 4 2 0 1 1 2 3 8\n$EndElements\n", 13);
  expectOneFileError(Fmt::Gmsh22, fmt + nodes + "$Elements\n1\n1 4 2 0 1 2 1 3 4\n$EndElements\n", 13);
  expectOneFileError(Fmt::Gmsh22, fmt + nodes + "$Elements\n2\n1 4 2 0 1 1 2 3 4\n$EndElements\n", 14);
  expectOneFileError(Fmt::Gmsh22, fmt + "$Comments\nunfinished\n", 5);
  const std::string fmt41 = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n";
  expectOneFileError(Fmt::Gmsh41, fmt41 + "$Nodes\n1 2 1 2\n3 1 0 1\n1\n0 0 0\n$EndNodes\n", 8);  // count
  expectOneFileError(Fmt::Gmsh41, fmt41 + "$Nodes\n1 1 1 1\n3 1 1 1\n1\n0 0 0\n$EndNodes\n", 8);  // parametric
}

}  // namespace
}  // namespace sinew
