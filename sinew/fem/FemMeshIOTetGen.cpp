// TetGen .node/.ele reader and writer (guide §6.2.2, Table 6.4), after the
// file formats of the TetGen manual (wias-berlin.de/software/tetgen).
//
// .node: "count 3 [attributes [markers]]", then per point "number x y z",
// the attributes and, if markers is 1, a boundary marker.
// .ele: "count 4|10 [attributes]", then per tetrahedron "number n1 … nk" and
// its attributes (region numbers). Numbers start at 0 or 1 (the first point
// decides, in TetGen; here: a file that uses 0 is 0-based); '#' starts a
// comment anywhere. Attributes and markers are read past.
//
// Node orders (sinew[i] = tetgen[perm[i]]):
//  - 4 nodes: TetGen lists each tetrahedron with positive orientation, the
//    fourth corner on the side to which the first three turn counter-
//    clockwise (checked on tetgen 1.5.0 output) — Sinew's order unchanged.
//  - 10 nodes (tetgen -o2): the corners, then the midpoints of edges 23, 03,
//    01, 12, 13, 02 (0-based corners). This is TetGen 1.5's edge table
//    (tetgenmesh::edge2ver, written by outelements()) and was checked on the
//    output of tetgen 1.5.0 -o2. Sinew wants 01, 12, 20, 03, 13, 23.
#include "sinew/Error.h"
#include "sinew/fem/FemMeshIO.h"
#include "sinew/fem/FemMeshIOData.h"

namespace sinew {

namespace {

const femio::NodeOrder kQuadTetOrder{0, 1, 2, 3, 6, 7, 9, 5, 8, 4};

// "count …" header: returns the values, missing trailing ones as 0.
std::vector<long long> readHeader(femio::LineReader& lr, size_t minTokens, const char* what) {
  lr.expect(what);
  const auto& t = lr.tokens();
  if (t.size() < minTokens || t.size() > 4) lr.fail(std::string("malformed ") + what);
  std::vector<long long> v(4, 0);
  for (size_t i = 0; i < t.size(); ++i) v[i] = lr.toCount(t[i]);
  return v;
}

void expectEnd(femio::LineReader& lr, long long count) {
  if (lr.next()) lr.fail("more lines than the header's count of " + std::to_string(count));
}

void readNodes(femio::LineReader& lr, femio::MeshData& d) {
  const auto h = readHeader(lr, 2, "the .node header (count 3 attributes markers)");
  if (h[1] != 3) lr.fail("TetGen dimension must be 3, got " + std::to_string(h[1]));
  if (h[3] > 1) lr.fail("the boundary marker count must be 0 or 1");
  const size_t values = 4 + h[2] + h[3];
  for (long long i = 0; i < h[0]; ++i) {
    lr.expect("node " + std::to_string(i + 1) + " of " + std::to_string(h[0]));
    lr.requireTokens(values, "number, x, y, z, attributes, markers");
    d.nodes.push_back({lr.toCount(lr.tokens()[0]), lr.toPoint(1), lr.line()});
  }
  expectEnd(lr, h[0]);
}

void readElements(femio::LineReader& lr, femio::MeshData& d) {
  const auto h = readHeader(lr, 2, "the .ele header (count 4|10 attributes)");
  if (h[1] != 4 && h[1] != 10) lr.fail("nodes per tetrahedron must be 4 or 10, got " + std::to_string(h[1]));
  const size_t values = 1 + h[1] + h[2];
  for (long long i = 0; i < h[0]; ++i) {
    lr.expect("tetrahedron " + std::to_string(i + 1) + " of " + std::to_string(h[0]));
    lr.requireTokens(values, "number, nodes, attributes");
    std::vector<long long> nodes;
    for (long long k = 1; k <= h[1]; ++k) nodes.push_back(lr.toCount(lr.tokens()[k]));
    const bool quad = h[1] == 10;
    d.elements.push_back({lr.toCount(lr.tokens()[0]), quad ? FemElementType::QuadTet : FemElementType::Tet,
                          quad ? femio::toSinewOrder(nodes, kQuadTetOrder) : nodes, lr.line()});
  }
  expectEnd(lr, h[0]);
}

}  // namespace

FemModel3d& TetGenReader::read(FemModel3d& fem, std::istream& nodes, std::istream& eles, const std::string& nodeName,
                               const std::string& eleName) {
  femio::MeshData d{nodeName, eleName, {}, {}};
  femio::LineReader nodeLines(nodes, nodeName, '#');
  readNodes(nodeLines, d);
  femio::LineReader eleLines(eles, eleName, '#');
  readElements(eleLines, d);
  femio::buildFem(fem, d);
  return fem;
}

void TetGenWriter::write(const FemModel3d& fem, std::ostream& nodes, std::ostream& eles) {
  femio::requireTypes(fem, {FemElementType::Tet, FemElementType::QuadTet}, "TetGen");
  const bool quad = fem.numElements() > 0 && fem.getElement(0).getType() == FemElementType::QuadTet;
  for (const auto& e : fem.elements())
    if ((e.getType() == FemElementType::QuadTet) != quad)
      throw Error(fem.describe() + ": a TetGen .ele file holds either 4-node or 10-node tetrahedra, not both");

  nodes << fem.numNodes() << "  3  0  0\n";
  for (const auto& n : fem.nodes()) nodes << femio::fileNumber(n) << "  " << femio::formatPoint(n.getPosition()) << '\n';
  nodes << "# written by Sinew\n";

  eles << fem.numElements() << "  " << (quad ? 10 : 4) << "  0\n";
  for (const auto& e : fem.elements()) {
    std::vector<long long> s;
    for (const auto* n : e.getNodes()) s.push_back(femio::fileNumber(*n));
    eles << femio::fileNumber(e) << ' ';
    for (long long num : quad ? femio::toFileOrder(s, kQuadTetOrder) : s) eles << ' ' << num;
    eles << '\n';
  }
  eles << "# written by Sinew\n";
}

}  // namespace sinew
