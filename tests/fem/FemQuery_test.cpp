// Node and element lookups for attachments (guide §6.4.5, §6.4.6): the
// FemQuery feature queries on a hex grid's surface, shells among the
// nearest-element queries, and node number files (formats, round trip,
// errors naming file and line).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "sinew/Error.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemQuery.h"
#include "sinew/fem/FemSurface.h"
#include "sinew/fem/NodeNumberReader.h"

namespace sinew {
namespace {

const double deg = M_PI / 180;

/// The guide's grid: 1 × 0.5 × 0.5 of 8 × 4 × 4 hexes, nodes every 0.125.
struct Grid {
  FemModel3d fem{"fem"};
  Grid() { FemFactory::createHexGrid(fem, 1.0, 0.5, 0.5, 8, 4, 4); }
  FemNode3d& at(double x, double y, double z) { return *fem.findNearestNode(Vector3d(x, y, z), 1e-8); }
};

bool allOn(const std::vector<FemNode3d*>& nodes, int axis, double value) {
  for (auto* n : nodes)
    if (std::abs(n->getPosition()[axis] - value) > 1e-12) return false;
  return true;
}

TEST(FemQuery, PatchOfAFaceAndItsBorder) {
  Grid g;
  // The guide's example: from a node on the left face, 10°.
  const auto patch = FemQuery::findPatchNodes(g.fem, g.at(-0.5, 0, 0), 10 * deg);
  EXPECT_EQ(patch.size(), 25u);
  EXPECT_TRUE(allOn(patch, 0, -0.5));
  for (size_t k = 1; k < patch.size(); ++k) EXPECT_LT(patch[k - 1]->getNumber(), patch[k]->getNumber());
  const auto border = FemQuery::findPatchBoundaryNodes(g.fem, g.at(-0.5, 0, 0), 10 * deg);
  EXPECT_EQ(border.size(), 16u);
  for (auto* n : border) {
    const Vector3d x = n->getPosition();
    EXPECT_NEAR(x.x(), -0.5, 1e-12);
    EXPECT_TRUE(std::abs(std::abs(x.y()) - 0.25) < 1e-12 || std::abs(std::abs(x.z()) - 0.25) < 1e-12);
  }
  // Past 90° the patch crosses the box's edges: the whole surface.
  EXPECT_EQ(FemQuery::findPatchNodes(g.fem, g.at(-0.5, 0, 0), 95 * deg).size(), 9u * 25 - 7u * 9);
  EXPECT_TRUE(FemQuery::findPatchBoundaryNodes(g.fem, g.at(-0.5, 0, 0), 95 * deg).empty());
  // A node on an edge starts the patches on both sides.
  const auto both = FemQuery::findPatchNodes(g.fem, g.at(-0.5, -0.25, 0), 10 * deg);
  EXPECT_EQ(both.size(), 25u + 9 * 5 - 5);
}

TEST(FemQuery, EdgeLinesFollowTheBoxEdges) {
  Grid g;
  // From the middle of an edge along z: its 5 nodes, stopping at the
  // corners, where every way on turns by 90°.
  const auto line = FemQuery::findEdgeLineNodes(g.fem, g.at(-0.5, -0.25, 0), 60 * deg, 30 * deg, false);
  EXPECT_EQ(line.size(), 5u);
  EXPECT_TRUE(allOn(line, 0, -0.5));
  EXPECT_TRUE(allOn(line, 1, -0.25));
  // Turning corners and branching: all 12 edges of the box.
  const auto all = FemQuery::findEdgeLineNodes(g.fem, g.at(-0.5, -0.25, 0), 60 * deg, 100 * deg, true);
  EXPECT_EQ(all.size(), 4u * 9 + 4 * 5 + 4 * 5 - 8 * 2);
  // A face node has no feature edge: itself alone.
  EXPECT_EQ(FemQuery::findEdgeLineNodes(g.fem, g.at(-0.5, 0, 0), 60 * deg, 30 * deg, true).size(), 1u);
}

TEST(FemQuery, BadInputIsAModelError) {
  Grid g;
  EXPECT_THROW(FemQuery::findPatchNodes(g.fem, g.at(0, 0, 0), 10 * deg), ModelError);  // an interior node
  EXPECT_THROW(FemQuery::findPatchNodes(g.fem, g.at(-0.5, 0, 0), -1), ModelError);
  EXPECT_THROW(FemQuery::findEdgeLineNodes(g.fem, g.at(-0.5, 0, 0), 1, std::nan(""), false), ModelError);
}

TEST(FemQuery, ShellsAmongTheNearestElements) {
  // A hex block beside a sheet of shells (in the plane z = 1): the guide's
  // nearest-element queries take shells as well as volumes.
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 1, 1, 1, 2, 2, 2);
  std::vector<FemNode3d*> sheet;
  for (Vector3d p : {Vector3d(2, -1, 1), Vector3d(4, -1, 1), Vector3d(4, 1, 1), Vector3d(2, 1, 1)})
    sheet.push_back(&fem.addNode(p));
  auto& shell = fem.addShellElement(ShellElement3d::createElement(sheet, 0.01, true));
  Vector3d near;
  EXPECT_EQ(fem.findNearestShellElement(&near, Vector3d(3, 0.5, 1.7)), &shell);
  EXPECT_LT((near - Vector3d(3, 0.5, 1)).norm(), 1e-14);
  // Nearer the sheet than the block: the shell; nearer the block: a hex.
  EXPECT_EQ(fem.findNearestElement(&near, Vector3d(2.5, 0, 1.2)), &shell);
  EXPECT_LT((near - Vector3d(2.5, 0, 1)).norm(), 1e-14);
  FemElement3dBase* e = fem.findNearestElement(&near, Vector3d(0.9, 0, 0));
  ASSERT_NE(e, nullptr);
  EXPECT_FALSE(e->isShell());
  EXPECT_LT((near - Vector3d(0.5, 0, 0)).norm(), 1e-14);
  EXPECT_EQ(fem.findNearestSurfaceElement(&near, Vector3d(3, 0, 0.9)), &shell);
  // Volumes only: the hex nearest the point, on the block's face x = 0.5.
  FemElement3d* hex = fem.findNearestVolumetricElement(&near, Vector3d(3, 0, 0.4));
  ASSERT_NE(hex, nullptr);
  EXPECT_LT((near - Vector3d(0.5, 0, 0.4)).norm(), 1e-14);
  // A filter sees shells too: without the shell, the block is nearest.
  struct NoShells : ElementFilter {
    bool elementIsValid(const FemElement3dBase& e) const override { return !e.isShell(); }
  } noShells;
  EXPECT_EQ(fem.findNearestElement(&near, Vector3d(2.5, 0, 1.2), &noShells)->isShell(), false);
  EXPECT_EQ(fem.findNearestShellElement(&near, Vector3d(3, 0, 1), &noShells), nullptr);
  // A model of shells alone, and one with nothing: nullptr, near = p.
  FemModel3d shells("shells");
  FemFactory::createShellQuadGrid(shells, 1, 1, 2, 2, 0.01);
  FemElement3dBase* s = shells.findNearestElement(&near, Vector3d(0.1, 0.2, 0.5));
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->isShell());
  EXPECT_LT((near - Vector3d(0.1, 0.2, 0)).norm(), 1e-14);
  EXPECT_EQ(shells.findNearestSurfaceElement(nullptr, Vector3d(0.1, 0.2, 0.5)), s);
  FemModel3d none("none");
  EXPECT_EQ(none.findNearestShellElement(&near, Vector3d::Zero()), nullptr);
  EXPECT_EQ(none.findNearestElement(&near, Vector3d(1, 2, 3)), nullptr);
  EXPECT_EQ(near, Vector3d(1, 2, 3));
}

TEST(NodeNumberReader, TheGuidesFormatsAllGiveTheSameNodes) {
  Grid g;
  const std::vector<int> expected{2, 12, 4, 8, 23, 47};
  for (const char* text : {"2 12 4 8 23 47\n", "[ 2 12 4 8 23 47 ]\n",
                           "# this is a node number file\n[ 2 12 4 8\n  23 47\n]\n", "[2 12 4 8 23 47]"}) {
    std::istringstream in(text);
    const auto nodes = NodeNumberReader::read(in, "faceNodes.txt", g.fem);
    ASSERT_EQ(nodes.size(), expected.size()) << text;
    for (size_t k = 0; k < nodes.size(); ++k) EXPECT_EQ(nodes[k], g.fem.getNodeByNumber(expected[k]));
  }
}

TEST(NodeNumberReader, WrittenFilesReadBack) {
  Grid g;
  const auto face = FemQuery::findPatchNodes(g.fem, g.at(-0.5, 0, 0), 10 * deg);
  for (bool brackets : {false, true}) {
    std::stringstream io;
    NodeNumberWriter::write(io, face, 10, brackets);
    EXPECT_EQ(NodeNumberReader::read(io, "face.txt", g.fem), face);
  }
  const auto path = std::filesystem::temp_directory_path() / "sinew_node_numbers.txt";
  NodeNumberWriter::write(path, face);
  EXPECT_EQ(NodeNumberReader::read(path, g.fem), face);
  std::filesystem::remove(path);
  EXPECT_THROW(NodeNumberReader::read("/nonexistent/none.txt", g.fem), ParseError);
}

TEST(NodeNumberReader, MalformedFilesNameFileAndLine) {
  Grid g;
  struct Case {
    const char* text;
    int line;
  };
  for (const Case& c : {Case{"1 2\n3 x4\n", 2}, Case{"1 2\n\n-3\n", 3}, Case{"[ 1 2\n3\n", 2},
                        Case{"1 ] 2\n", 1}, Case{"[ 1 ] 2\n", 1}, Case{"1 [ 2 ]\n", 1}, Case{"# numbers\n1 2\n99999\n", 3},
                        Case{"1 2.5\n", 1}}) {
    std::istringstream in(c.text);
    try {
      NodeNumberReader::read(in, "nodes.txt", g.fem);
      FAIL() << "accepted: " << c.text;
    } catch (const ParseError& e) {
      EXPECT_EQ(e.file(), "nodes.txt");
      EXPECT_EQ(e.line(), c.line) << c.text << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace sinew
