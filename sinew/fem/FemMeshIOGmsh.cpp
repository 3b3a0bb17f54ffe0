// Gmsh .msh ASCII reader and writer, versions 2.2 and 4.1 (guide §6.2.2; not
// in Table 6.4 but among ArtiSynth's readers), after the Gmsh reference
// manual, "MSH file format" and "Legacy formats".
//
// 2.2: $Nodes "count", then "tag x y z"; $Elements "count", then "tag type
// ntags tags… nodes…". 4.1: $Nodes "blocks count minTag maxTag", per block
// "dim entity parametric count", the tags, then the coordinates (plus dim
// parametric values if parametric is 1); $Elements "blocks count minTag
// maxTag", per block "dim entity type count" and lines "tag nodes…". Other
// sections are skipped. Elements of dimension 0–2 (types 1–3, 8–10, 15, 16,
// 20–28), which Gmsh writes for the boundaries of physical groups, are passed
// over; any other unsupported type is an error.
//
// Node orders (sinew[i] = gmsh[perm[i]]), from the manual's "Node ordering"
// figures and the edge tables of Gmsh's MTetrahedron, MHexahedron, MPrism and
// MPyramid (the higher-order nodes follow the edges in table order):
//  - 4 tet, 6 prism (0 1 2 turning towards 3 4 5), 7 pyramid: unchanged.
//  - 5 hex: face 0123 at w = −1 turning towards 4567; Sinew lists the top
//    face first: {4 5 6 7 0 1 2 3}.
//  - 11 tet10: edges 01 12 20 30 32 31; Sinew wants 03 13 23: swap 8↔9.
//  - 17 hex20: edges 01 03 04 12 15 23 26 37 45 47 56 67.
//  - 18 prism15: edges 01 02 03 12 14 25 34 35 45.
//  - 19 pyramid13: edges 01 03 04 12 14 23 24 34.
#include <algorithm>
#include <limits>

#include "sinew/Error.h"
#include "sinew/fem/FemMeshIO.h"
#include "sinew/fem/FemMeshIOData.h"

namespace sinew {

namespace {

const std::vector<femio::TypeCode>& gmshTypes() {
  using T = FemElementType;
  static const std::vector<femio::TypeCode> types{
      {4, T::Tet, {}},
      {5, T::Hex, {4, 5, 6, 7, 0, 1, 2, 3}},
      {6, T::Wedge, {}},
      {7, T::Pyramid, {}},
      {11, T::QuadTet, {0, 1, 2, 3, 4, 5, 6, 7, 9, 8}},
      {17, T::QuadHex, {4, 5, 6, 7, 0, 1, 2, 3, 16, 18, 19, 17, 8, 11, 13, 9, 10, 12, 14, 15}},
      {18, T::QuadWedge, {0, 1, 2, 3, 4, 5, 6, 9, 7, 12, 14, 13, 8, 10, 11}},
      {19, T::QuadPyramid, {0, 1, 2, 3, 4, 5, 8, 10, 6, 7, 9, 11, 12}},
  };
  return types;
}

bool isLowerDimensional(long long id) {
  return (id >= 1 && id <= 3) || (id >= 8 && id <= 10) || id == 15 || id == 16 || (id >= 20 && id <= 28);
}

class MshParser {
 public:
  MshParser(femio::LineReader& lr, femio::MeshData& d) : myLr(lr), myData(d) {}

  void run() {
    while (myLr.next()) {
      const std::string key(myLr.tokens()[0]);
      if (key == "$MeshFormat") {
        meshFormat();
      } else if (key == "$Nodes" || key == "$Elements") {
        if (myVersion == 0) myLr.fail(key + " before $MeshFormat");
        if (key == "$Nodes") myVersion == 2 ? nodes2() : nodes4();
        else myVersion == 2 ? elements2() : elements4();
        endSection(key);
      } else if (key[0] == '$') {
        skipSection(key);
      } else {
        myLr.fail("unexpected '" + key + "' outside a section");
      }
    }
    if (myVersion == 0) myLr.fail("not a Gmsh file: no $MeshFormat section");
  }

 private:
  void meshFormat() {
    myLr.expect("the $MeshFormat line");
    if (myLr.tokens().size() != 3) myLr.fail("expected 'version file-type data-size'");
    const std::string v(myLr.tokens()[0]);
    if (myLr.tokens()[1] != "0") myLr.fail("only ASCII .msh files are read (file-type 0)");
    if (v == "2" || v == "2.0" || v == "2.1" || v == "2.2") myVersion = 2;
    else if (v == "4.1") myVersion = 4;
    else myLr.fail("unsupported .msh version " + v + " (2.2 and 4.1 are read)");
    endSection("$MeshFormat");
  }

  void endSection(const std::string& key) {
    const std::string end = "$End" + key.substr(1);
    myLr.expect(end);
    if (myLr.tokens()[0] != end) myLr.fail("expected " + end);
  }

  void skipSection(const std::string& key) {
    const std::string end = "$End" + key.substr(1);
    do myLr.expect(end);
    while (myLr.tokens()[0] != end);
  }

  long long count(size_t i) const { return myLr.toCount(myLr.tokens()[i]); }

  // A line holding one count.
  long long countLine(const std::string& what) {
    myLr.expect(what);
    myLr.requireTokens(1, what);
    return count(0);
  }

  void nodes2() {
    const long long n = countLine("the node count");
    for (long long i = 0; i < n; ++i) {
      myLr.expect("node " + std::to_string(i + 1) + " of " + std::to_string(n));
      myLr.requireTokens(4, "tag x y z");
      myData.nodes.push_back({count(0), myLr.toPoint(1), myLr.line()});
    }
  }

  void nodes4() {
    myLr.expect("the $Nodes header");
    myLr.requireTokens(4, "blocks, nodes, min tag, max tag");
    const long long blocks = count(0), total = count(1);
    for (long long b = 0; b < blocks; ++b) {
      myLr.expect("node block " + std::to_string(b + 1));
      myLr.requireTokens(4, "entity dimension, entity tag, parametric, nodes");
      const long long dim = count(0), parametric = count(2), n = count(3);
      const size_t first = myData.nodes.size();
      for (long long i = 0; i < n; ++i) {
        myLr.expect("a node tag");
        myLr.requireTokens(1, "node tag");
        myData.nodes.push_back({count(0), Vector3d::Zero(), myLr.line()});
      }
      for (long long i = 0; i < n; ++i) {
        myLr.expect("node coordinates");
        myLr.requireTokens(parametric ? 3 + dim : 3, "x y z and parametric coordinates");
        myData.nodes[first + i].pos = myLr.toPoint(0);
        myData.nodes[first + i].line = myLr.line();
      }
    }
    if (static_cast<long long>(myData.nodes.size()) != total)
      myLr.fail("the node blocks hold " + std::to_string(myData.nodes.size()) + " nodes, the header says " +
                std::to_string(total));
  }

  // One element "tag nodes…" whose node tags start at token `first`.
  void element(long long typeId, size_t first) {
    if (isLowerDimensional(typeId)) return;  // boundary elements: not part of the volume mesh
    const femio::TypeCode* t = femio::findTypeCode(gmshTypes(), typeId);
    if (!t) myLr.fail("unsupported Gmsh element type " + std::to_string(typeId));
    const size_t need = ReferenceElement::get(t->type).numNodes();
    myLr.requireTokens(first + need, "tag, " + std::string(first > 1 ? "type, tags, " : "") + std::to_string(need) +
                                         " nodes");
    std::vector<long long> nodes;
    for (size_t k = first; k < first + need; ++k) nodes.push_back(count(k));
    myData.elements.push_back({count(0), t->type, femio::toSinewOrder(nodes, t->order), myLr.line()});
  }

  void elements2() {
    const long long n = countLine("the element count");
    for (long long i = 0; i < n; ++i) {
      myLr.expect("element " + std::to_string(i + 1) + " of " + std::to_string(n));
      if (myLr.tokens().size() < 3) myLr.fail("expected 'tag type ntags tags… nodes…'");
      element(count(1), 3 + count(2));
    }
  }

  void elements4() {
    myLr.expect("the $Elements header");
    myLr.requireTokens(4, "blocks, elements, min tag, max tag");
    const long long blocks = count(0), total = count(1);
    long long seen = 0;
    for (long long b = 0; b < blocks; ++b) {
      myLr.expect("element block " + std::to_string(b + 1));
      myLr.requireTokens(4, "entity dimension, entity tag, element type, elements");
      const long long type = count(2), n = count(3);
      for (long long i = 0; i < n; ++i, ++seen) {
        myLr.expect("an element of block " + std::to_string(b + 1));
        element(type, 1);
      }
    }
    if (seen != total)
      myLr.fail("the element blocks hold " + std::to_string(seen) + " elements, the header says " +
                std::to_string(total));
  }

  femio::LineReader& myLr;
  femio::MeshData& myData;
  int myVersion = 0;
};

const femio::TypeCode& gmshTypeOf(FemElementType t) { return femio::findTypeCode(gmshTypes(), t); }

std::vector<long long> gmshNodes(const FemElement3d& e) {
  std::vector<long long> s;
  for (const auto* n : e.getNodes()) s.push_back(femio::fileNumber(*n));
  return femio::toFileOrder(s, gmshTypeOf(e.getType()).order);
}

// "tag[ type 2 0 1] nodes…": version 2.2 writes the type and two tags
// (physical group 0, elementary volume 1), version 4.1 neither.
void writeElementLine(std::ostream& out, const FemElement3d& e, bool withType) {
  out << femio::fileNumber(e);
  if (withType) out << ' ' << gmshTypeOf(e.getType()).id << " 2 0 1";
  for (long long n : gmshNodes(e)) out << ' ' << n;
  out << '\n';
}

void write22(const FemModel3d& fem, std::ostream& out) {
  out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n" << fem.numNodes() << '\n';
  for (const auto& n : fem.nodes()) out << femio::fileNumber(n) << ' ' << femio::formatPoint(n.getPosition()) << '\n';
  out << "$EndNodes\n$Elements\n" << fem.numElements() << '\n';
  for (const auto& e : fem.elements()) writeElementLine(out, e, true);
  out << "$EndElements\n";
}

template <class List>
std::pair<long long, long long> tagRange(const List& list) {
  long long lo = std::numeric_limits<long long>::max(), hi = 0;
  for (const auto& c : list) {
    lo = std::min(lo, femio::fileNumber(c));
    hi = std::max(hi, femio::fileNumber(c));
  }
  return {list.size() ? lo : 0, hi};
}

void write41(const FemModel3d& fem, std::ostream& out) {
  // All nodes and elements in volume entity 1, one element block per type.
  const auto [nlo, nhi] = tagRange(fem.nodes());
  out << "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n"
      << (fem.numNodes() ? 1 : 0) << ' ' << fem.numNodes() << ' ' << nlo << ' ' << nhi << '\n';
  if (fem.numNodes()) {
    out << "3 1 0 " << fem.numNodes() << '\n';
    for (const auto& n : fem.nodes()) out << femio::fileNumber(n) << '\n';
    for (const auto& n : fem.nodes()) out << femio::formatPoint(n.getPosition()) << '\n';
  }
  std::vector<const femio::TypeCode*> used;
  for (const auto& g : gmshTypes())
    for (const auto& e : fem.elements())
      if (e.getType() == g.type) {
        used.push_back(&g);
        break;
      }
  const auto [elo, ehi] = tagRange(fem.elements());
  out << "$EndNodes\n$Elements\n" << used.size() << ' ' << fem.numElements() << ' ' << elo << ' ' << ehi << '\n';
  for (const femio::TypeCode* g : used) {
    long long n = 0;
    for (const auto& e : fem.elements()) n += e.getType() == g->type;
    out << "3 1 " << g->id << ' ' << n << '\n';
    for (const auto& e : fem.elements())
      if (e.getType() == g->type) writeElementLine(out, e, false);
  }
  out << "$EndElements\n";
}

}  // namespace

FemModel3d& GmshReader::read(FemModel3d& fem, std::istream& in, const std::string& name) {
  return femio::readWith<MshParser>(fem, in, name);
}

void GmshWriter::write(const FemModel3d& fem, std::ostream& out, Version v) {
  if (v == Version::V22) write22(fem, out);
  else write41(fem, out);
}

}  // namespace sinew
