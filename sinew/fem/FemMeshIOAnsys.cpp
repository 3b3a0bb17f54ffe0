// ANSYS .node/.elem reader and writer (guide §6.2.2, Table 6.4), in the
// layout of ArtiSynth's AnsysReader and AnsysWriter.
//
// .node: one node per line, "number x y z" (further fields, the rotation
// angles of ANSYS NWRITE, are ignored); ANSYS fixed-width output may run a
// negative number into the one before it ("1.5-2.0"), which is split.
// .elem: per element a row of 14 integers — the nodes I J K L M N O P, the
// attributes MAT TYPE REAL SECNUM ESYS, and the element number — then, for
// 10- and 20-node elements, one row with the remaining nodes. Numbers start
// at 1; a 0 node field is empty.
//
// Node orders (sinew[i] = ansys[perm[i]]):
//  - 8-field rows hold the linear types in ANSYS's degenerate SOLID185 forms
//    (tet I J K K L L L L, pyramid I J K L M M M M, prism I J K K M N O O;
//    ArtiSynth writes a tet as I J K L 0 0 0 0). As ArtiSynth does, the
//    reader keeps the distinct non-zero nodes in order and takes the type
//    from their count. The bottom face I J K (L) runs counter-clockwise seen
//    from the top, so tet, pyramid and wedge are Sinew's order unchanged.
//  - Hex (SOLID185 I…P): ArtiSynth's AnsysReader builds HexElement(L, K, J,
//    I, P, O, N, M), a half turn of the brick about x; we do the same, so
//    files match ArtiSynth's.
//  - QuadTet (SOLID187: I J K L, then Q R S T U V on edges IJ JK KI IL JL
//    KL): Sinew's order unchanged.
//  - QuadHex (SOLID186: I…P, then Q R S T on edges IJ JK KL LI, U V W X on
//    MN NO OP PM, Y Z A B on IM JN KO LP): the corner half turn above, with
//    the edge nodes following it (ArtiSynth's createQuadHex).
// Degenerate 20-node forms (quadratic wedges and pyramids) are not read.
#include <algorithm>
#include <cctype>
#include <optional>

#include "sinew/Error.h"
#include "sinew/fem/FemMeshIO.h"
#include "sinew/fem/FemMeshIOData.h"

namespace sinew {

namespace {

using femio::NodeOrder;

const NodeOrder kHexOrder{3, 2, 1, 0, 7, 6, 5, 4};
const NodeOrder kQuadHexOrder{3, 2, 1, 0, 7, 6, 5, 4, 10, 9, 8, 11, 14, 13, 12, 15, 19, 18, 17, 16};

// "1.5-2.0e-3+4" → "1.5", "-2.0e-3", "+4": a sign after a digit or a point
// starts a new number (but not an exponent's sign).
std::vector<std::string_view> splitRunTogether(std::string_view tok) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 1; i < tok.size(); ++i) {
    const char prev = tok[i - 1];
    if ((tok[i] == '-' || tok[i] == '+') && (std::isdigit(static_cast<unsigned char>(prev)) || prev == '.')) {
      out.push_back(tok.substr(start, i - start));
      start = i;
    }
  }
  out.push_back(tok.substr(start));
  return out;
}

void readNodes(femio::LineReader& lr, femio::MeshData& d) {
  while (lr.next()) {
    std::vector<std::string_view> f;
    for (auto tok : lr.tokens())
      for (auto piece : splitRunTogether(tok)) f.push_back(piece);
    if (f.size() < 4 || f.size() > 7) lr.fail("expected 'number x y z', got " + std::to_string(f.size()) + " values");
    const long long num = lr.toCount(f[0]);
    if (num < 1) lr.fail("ANSYS node numbers start at 1");
    d.nodes.push_back({num, {lr.toDouble(f[1]), lr.toDouble(f[2]), lr.toDouble(f[3])}, lr.line()});
  }
}

struct Row {
  long long number;
  std::vector<long long> fields;
  int line, lastLine;
  bool continued = false;
};

femio::ElementRecord toElement(const Row& r, const std::string& file) {
  const std::string what = "element " + std::to_string(r.number);
  if (r.fields.size() == 8) {
    std::vector<long long> nodes;
    for (long long n : r.fields)
      if (n != 0 && std::find(nodes.begin(), nodes.end(), n) == nodes.end()) nodes.push_back(n);
    switch (nodes.size()) {
      case 4: return {r.number, FemElementType::Tet, nodes, r.line};
      case 5: return {r.number, FemElementType::Pyramid, nodes, r.line};
      case 6: return {r.number, FemElementType::Wedge, nodes, r.line};
      case 8: return {r.number, FemElementType::Hex, femio::toSinewOrder(nodes, kHexOrder), r.line};
      default:
        throw ParseError(file, r.line, what + ": " + std::to_string(nodes.size()) +
                                           " distinct nodes is no element type (4, 5, 6 or 8 expected)");
    }
  }
  if (r.fields.size() == 10) return {r.number, FemElementType::QuadTet, r.fields, r.line};
  if (r.fields.size() == 20)
    return {r.number, FemElementType::QuadHex, femio::toSinewOrder(r.fields, kQuadHexOrder), r.line};
  throw ParseError(file, r.lastLine,
                   what + " has " + std::to_string(r.fields.size()) + " node fields (8, 10 or 20 expected)");
}

void readElements(femio::LineReader& lr, femio::MeshData& d) {
  std::optional<Row> row;
  while (lr.next()) {
    std::vector<long long> v;
    for (auto tok : lr.tokens()) v.push_back(lr.toCount(tok));
    if (v.size() == 14) {
      if (row) d.elements.push_back(toElement(*row, lr.file()));
      row = Row{v[13], {v.begin(), v.begin() + 8}, lr.line(), lr.line()};
      continue;
    }
    if (!row)
      lr.fail("expected 14 numbers (8 nodes, 5 attributes, the element number), got " + std::to_string(v.size()));
    if (row->continued) lr.fail("unexpected row of " + std::to_string(v.size()) + " numbers");
    row->fields.insert(row->fields.end(), v.begin(), v.end());
    row->lastLine = lr.line();
    row->continued = true;
  }
  if (row) d.elements.push_back(toElement(*row, lr.file()));
}

std::vector<long long> ansysFields(const FemElement3d& e) {
  std::vector<long long> s;
  for (const auto* n : e.getNodes()) s.push_back(femio::fileNumber(*n));
  switch (e.getType()) {
    case FemElementType::Tet: return {s[0], s[1], s[2], s[2], s[3], s[3], s[3], s[3]};
    case FemElementType::Pyramid: return {s[0], s[1], s[2], s[3], s[4], s[4], s[4], s[4]};
    case FemElementType::Wedge: return {s[0], s[1], s[2], s[2], s[3], s[4], s[5], s[5]};
    case FemElementType::Hex: return femio::toFileOrder(s, kHexOrder);
    case FemElementType::QuadHex: return femio::toFileOrder(s, kQuadHexOrder);
    default: return s;  // QuadTet
  }
}

void writeFields(std::ostream& out, const long long* v, size_t n, int width) {
  for (size_t i = 0; i < n; ++i) {
    const std::string s = std::to_string(v[i]);
    out << std::string(width > static_cast<int>(s.size()) ? width - s.size() : 1, ' ') << s;
  }
}

}  // namespace

FemModel3d& AnsysReader::read(FemModel3d& fem, std::istream& nodes, std::istream& elems, const std::string& nodeName,
                              const std::string& elemName) {
  femio::MeshData d{nodeName, elemName, {}, {}};
  femio::LineReader nodeLines(nodes, nodeName);
  readNodes(nodeLines, d);
  femio::LineReader elemLines(elems, elemName);
  readElements(elemLines, d);
  femio::buildFem(fem, d);
  return fem;
}

void AnsysWriter::write(const FemModel3d& fem, std::ostream& nodes, std::ostream& elems) {
  femio::requireTypes(fem, {FemElementType::Tet, FemElementType::Pyramid, FemElementType::Wedge, FemElementType::Hex,
                            FemElementType::QuadTet, FemElementType::QuadHex},
                      "ANSYS");
  long long maxNumber = 0;
  for (const auto& n : fem.nodes()) {
    nodes << femio::fileNumber(n) << ' ' << femio::formatPoint(n.getPosition()) << '\n';
    maxNumber = std::max(maxNumber, femio::fileNumber(n));
  }
  // ANSYS's fixed-width fields (6 wide, as ArtiSynth writes them), widened
  // so that neighbouring numbers never run together.
  const int width = std::max<int>(6, static_cast<int>(std::to_string(maxNumber).size()) + 1);
  const long long attributes[5] = {1, 1, 1, 1, 0};
  for (const auto& e : fem.elements()) {
    const std::vector<long long> f = ansysFields(e);
    writeFields(elems, f.data(), 8, width);
    writeFields(elems, attributes, 5, width);
    elems << "     " << femio::fileNumber(e) << '\n';
    if (f.size() > 8) {
      writeFields(elems, f.data() + 8, f.size() - 8, width);
      elems << '\n';
    }
  }
}

}  // namespace sinew
