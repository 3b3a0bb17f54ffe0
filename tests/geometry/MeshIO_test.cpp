// Tests of mesh file I/O (Guide §2.5.5; ME-17, ME-18): exact write→read
// round trips for every format, the .obj index forms, binary STL and PLY,
// and error reporting with file and line.
#include "sinew/geometry/MeshIO.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "sinew/Error.h"
#include "sinew/geometry/MeshFactory.h"

using namespace sinew;
using Eigen::Vector3d;
namespace fs = std::filesystem;

namespace {

// Gives each test its own scratch directory, removed afterwards.
class MeshIOTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    myDir = fs::temp_directory_path() /
            ("sinew_meshio_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::create_directories(myDir);
  }
  void TearDown() override { fs::remove_all(myDir); }

  fs::path path(const std::string& name) const { return myDir / name; }
  fs::path writeText(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }

  fs::path myDir;
};

// A mixed quad/triangle mesh whose coordinates are not short decimals, so
// only full-precision output can round-trip them exactly.
PolygonalMesh awkwardMesh() {
  PolygonalMesh mesh = MeshFactory::createQuadBox(1.0 / 3, 0.1, 7e-5, 2, 1, 1);
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = Eigen::AngleAxisd(0.3, Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  X.translation() = Vector3d(1e8 / 3, -0.1, 2.5e-300);
  mesh.transform(X);
  mesh.addVertex(std::sqrt(2.0), 0, 0);  // an extra triangle face
  mesh.addFace({0, 1, mesh.numVertices() - 1});
  return mesh;
}

// Same faces at the same corner positions, whatever the vertex numbering.
void expectSameGeometry(const PolygonalMesh& a, const PolygonalMesh& b) {
  ASSERT_EQ(a.numVertices(), b.numVertices());
  ASSERT_EQ(a.numFaces(), b.numFaces());
  for (int f = 0; f < a.numFaces(); ++f) {
    ASSERT_EQ(a.getFace(f).size(), b.getFace(f).size());
    for (size_t k = 0; k < a.getFace(f).size(); ++k) {
      EXPECT_EQ(a.getVertex(a.getFace(f)[k]), b.getVertex(b.getFace(f)[k])) << "face " << f;
    }
  }
}

void expectSameMesh(const PolygonalMesh& a, const PolygonalMesh& b) {
  ASSERT_EQ(a.numVertices(), b.numVertices());
  for (int i = 0; i < a.numVertices(); ++i)
    EXPECT_EQ(a.getVertex(i), b.getVertex(i)) << "vertex " << i;
  EXPECT_EQ(a.getFaces(), b.getFaces());
}

template <class Fn>
void expectParseErrorAt(int line, Fn&& fn) {
  try {
    fn();
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
  }
}

void put32(std::string& s, std::uint32_t v) {
  s.append(reinterpret_cast<const char*>(&v), 4);
}
void putF(std::string& s, float v) {
  s.append(reinterpret_cast<const char*>(&v), 4);
}

}  // namespace

TEST_F(MeshIOTest, IndexedFormatsRoundTripExactly) {
  const PolygonalMesh mesh = awkwardMesh();
  for (const char* name : {"m.obj", "m.ply", "m.off"}) {
    writeMesh(mesh, path(name));
    SCOPED_TRACE(name);
    expectSameMesh(readPolygonalMesh(path(name)), mesh);
  }
  MeshIOOptions binary;
  binary.binary = true;
  writeMesh(mesh, path("b.ply"), binary);
  expectSameMesh(readPolygonalMesh(path("b.ply")), mesh);
  MeshIOOptions zero;
  zero.zeroIndexed = true;
  writeMesh(mesh, path("z.obj"), zero);
  expectSameMesh(readPolygonalMesh(path("z.obj"), zero), mesh);
}

TEST_F(MeshIOTest, StlRoundTripMergesVerticesBackIntoAClosedMesh) {
  const PolygonalMesh box = MeshFactory::createBox(1.0 / 3, 0.7, 1.1);  // triangles
  writeMesh(box, path("box.stl"));
  const PolygonalMesh back = readPolygonalMesh(path("box.stl"));
  // Vertices are renumbered in order of first use, but every face keeps its
  // exact corners and no vertex is duplicated.
  expectSameGeometry(back, box);
  EXPECT_TRUE(back.isClosed());

  // Binary STL stores floats: use a box whose coordinates floats hold exactly.
  MeshIOOptions binary;
  binary.binary = true;
  const PolygonalMesh quads = MeshFactory::createQuadBox(1, 2, 4);
  writeMesh(quads, path("b.stl"), binary);
  const PolygonalMesh bb = readPolygonalMesh(path("b.stl"));
  EXPECT_EQ(bb.numVertices(), 8);
  EXPECT_EQ(bb.numFaces(), 12);  // quads written as two triangles each
  EXPECT_TRUE(bb.isClosed());
  EXPECT_DOUBLE_EQ(bb.computeVolume(), 8.0);
}

TEST_F(MeshIOTest, HandMadeBinaryStl) {
  // Header deliberately starts with "solid", as many exporters do.
  std::string bytes = "solid but binary";
  bytes.resize(80, '\0');
  put32(bytes, 2);
  const float tris[2][9] = {{0, 0, 0, 1, 0, 0, 0, 1, 0}, {1, 0, 0, 1, 1, 0, 0, 1, 0}};
  for (const auto& t : tris) {
    for (int k = 0; k < 3; ++k) putF(bytes, k == 2 ? 1.f : 0.f);  // normal
    for (float f : t) putF(bytes, f);
    bytes.append(2, '\0');
  }
  auto mesh = readMesh(writeText("two.stl", bytes));
  auto* pm = dynamic_cast<PolygonalMesh*>(mesh.get());
  ASSERT_NE(pm, nullptr);
  EXPECT_EQ(pm->numVertices(), 4);  // the shared edge's corners were merged
  EXPECT_EQ(pm->numFaces(), 2);
  EXPECT_EQ(pm->getVertex(3), Vector3d(1, 1, 0));
  EXPECT_DOUBLE_EQ(pm->computeArea(), 1.0);

  bytes.pop_back();  // truncated: size no longer matches the count
  expectParseErrorAt(0, [&] { readMesh(writeText("bad.stl", bytes)); });
}

TEST_F(MeshIOTest, HandMadeBinaryPlyWithExtraProperties) {
  std::string bytes =
      "ply\nformat binary_little_endian 1.0\ncomment test\n"
      "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
      "property uchar red\n"
      "element face 1\nproperty list uchar int vertex_indices\nproperty float quality\n"
      "end_header\n";
  const float pts[3][3] = {{0, 0, 0}, {2, 0, 0}, {0, 3, 0}};
  for (const auto& p : pts) {
    for (float f : p) putF(bytes, f);
    bytes.push_back('\x7f');
  }
  bytes.push_back('\x03');
  for (std::uint32_t i : {0u, 1u, 2u}) put32(bytes, i);
  putF(bytes, 0.5f);
  const PolygonalMesh mesh = readPolygonalMesh(writeText("t.ply", bytes));
  ASSERT_EQ(mesh.numVertices(), 3);
  EXPECT_EQ(mesh.getVertex(2), Vector3d(0, 3, 0));
  EXPECT_EQ(mesh.getFaces(), (std::vector<std::vector<int>>{{0, 1, 2}}));
  EXPECT_DOUBLE_EQ(mesh.computeArea(), 3.0);
}

TEST_F(MeshIOTest, ObjIndexFormsAndNegativeIndices) {
  const auto file = writeText("forms.obj",
                              "# comment\r\n"
                              "mtllib x.mtl\n"
                              "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                              "vt 0 0\nvn 0 0 1\n"
                              "g tet\ns off\n"
                              "f 1/1 3/1 2/1\n"
                              "f 1//1 4//1 3//1\n"
                              "f 1/1/1 2/1/1 4/1/1\n"
                              "f -3 -2 -1\n");
  const PolygonalMesh tet = readPolygonalMesh(file);
  EXPECT_EQ(tet.numFaces(), 4);
  EXPECT_EQ(tet.getFace(3), (std::vector<int>{1, 2, 3}));
  EXPECT_TRUE(tet.isClosed());
  EXPECT_NEAR(tet.computeVolume(), 1.0 / 6, 1e-15);
}

TEST_F(MeshIOTest, ObjPolylinesAndPointsGiveTheirMeshKinds) {
  PolylineMesh lines;
  for (int i = 0; i < 4; ++i) lines.addVertex(i * 0.1, i * i / 3.0, 0);
  lines.addLine({0, 1, 2});
  lines.addLine({2, 3});
  writeMesh(lines, path("l.obj"));
  auto any = readMesh(path("l.obj"));
  auto* lm = dynamic_cast<PolylineMesh*>(any.get());
  ASSERT_NE(lm, nullptr);
  EXPECT_EQ(lm->getLines(), lines.getLines());
  EXPECT_EQ(lm->getVertices(), lines.getVertices());
  EXPECT_THROW(readPolygonalMesh(path("l.obj")), Error);

  PointMesh pts;
  pts.addVertex(Vector3d(1.0 / 7, 2, 3), Vector3d(0, 0.6, 0.8));
  pts.addVertex(Vector3d(-1, 0, 1e-17), Vector3d(1, 0, 0));
  for (const char* name : {"p.obj", "p.ply"}) {
    writeMesh(pts, path(name));
    auto back = readMesh(path(name));
    auto* pm = dynamic_cast<PointMesh*>(back.get());
    ASSERT_NE(pm, nullptr) << name;
    EXPECT_EQ(pm->getVertices(), pts.getVertices());
    ASSERT_TRUE(pm->hasNormals());
    EXPECT_EQ(pm->getNormals(), pts.getNormals());
  }
}

TEST_F(MeshIOTest, MalformedObjReportsTheLine) {
  expectParseErrorAt(3, [&] { readMesh(writeText("a.obj", "v 0 0 0\n# fine\nv 1 zero 0\n")); });
  expectParseErrorAt(4,
                     [&] { readMesh(writeText("b.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n")); });
  expectParseErrorAt(2, [&] { readMesh(writeText("c.obj", "v 0 0 0\nf 0 1 1\n")); });
  expectParseErrorAt(4, [&] { readMesh(writeText("d.obj", "v 0 0 0\nv 1 0 0\n\nf 1 2\n")); });
  try {
    readMesh(writeText("e.obj", "v 1 2\n"));
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("e.obj:1:"), std::string::npos) << e.what();
  }
}

TEST_F(MeshIOTest, MalformedStlPlyOffReportTheLine) {
  expectParseErrorAt(4, [&] {
    readMesh(writeText("a.stl", "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0\n"));
  });
  expectParseErrorAt(3, [&] { readMesh(writeText("a.ply", "ply\nformat ascii 1.0\nelement\n")); });
  expectParseErrorAt(7, [&] {
    readMesh(writeText("b.ply",
                       "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
                       "property float y\nproperty float z\nend_header\n"));  // body missing
  });
  expectParseErrorAt(7, [&] {
    readMesh(writeText("a.off", "OFF\n# counts\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n"));
  });
}

TEST_F(MeshIOTest, UnsupportedSuffixPairsAndMissingFiles) {
  const PolygonalMesh box = MeshFactory::createBox(1, 1, 1);
  try {
    writeMesh(box, path("box.xyz"));
    ADD_FAILURE() << "no Error";
  } catch (const ParseError&) {
    ADD_FAILURE() << "wrong error type";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("box.xyz"), std::string::npos);
  }
  EXPECT_THROW(readMesh(path("missing.obj")), Error);
  PolylineMesh lines;
  lines.addVertex(0, 0, 0);
  lines.addVertex(1, 0, 0);
  lines.addLine({0, 1});
  EXPECT_THROW(writeMesh(lines, path("l.stl")), Error);
  EXPECT_THROW(writeMesh(lines, path("l.ply")), Error);
  EXPECT_THROW(readPolylineMesh(path("x.off")), Error);
  writeMesh(box, path("BOX.OBJ"));  // suffixes are case-insensitive
  EXPECT_EQ(readPolygonalMesh(path("BOX.OBJ")).numFaces(), box.numFaces());
}
