// Abaqus .inp reader and writer (guide §6.2.2, Table 6.4): the *NODE and
// *ELEMENT sections, as ArtiSynth's AbaqusReader and AbaqusWriter use them.
//
// Keyword lines start with '*' ("**" is a comment); keywords and their
// parameters are case-insensitive. "*NODE" data lines are "number, x, y, z"
// (a missing y or z is 0, as in Abaqus); "*ELEMENT, TYPE=C3Dn…" data lines
// are "number, n1, n2, …", continued on the following lines until the type's
// node count is reached (Abaqus puts at most 16 entries on a line and ends a
// continued line with a comma). Other keywords and their data (materials,
// sets, steps) are not mesh data and are passed over, and so are element
// sections of surface, line and rigid types (S…, CPS…, CPE…, CAX…, M3D…,
// SFM3D…, T2D…, T3D…, B2…, B3…, R3D…), which mesh generators add for
// boundaries. Any other type, and *INCLUDE, is an error.
//
// Node orders (sinew[i] = abaqus[perm[i]]; Abaqus Analysis User's Guide,
// "three-dimensional solid element library", node ordering figures):
//  - C3D4, C3D5, C3D6, and C3D10 (edges 12 23 31 14 24 34), C3D15 (edges
//    12 23 31, 45 56 64, 14 25 36): Sinew's order unchanged.
//  - C3D8 and C3D20: face 1234, then face 5678, then (C3D20) the edges 12 23
//    34 41, 56 67 78 85, 15 26 37 48. As ArtiSynth's AbaqusWriter (which
//    swaps nodes 0↔3, 1↔2, 4↔7, 5↔6, and edges 8↔10, 12↔14, 16↔19, 17↔18),
//    the brick is turned half about x, so files match ArtiSynth's.
#include <algorithm>
#include <cctype>
#include <map>

#include "sinew/Error.h"
#include "sinew/fem/FemMeshIO.h"
#include "sinew/fem/FemMeshIOData.h"

namespace sinew {

namespace {

using femio::NodeOrder;

const NodeOrder kHexOrder{3, 2, 1, 0, 7, 6, 5, 4};
const NodeOrder kQuadHexOrder{3, 2, 1, 0, 7, 6, 5, 4, 10, 9, 8, 11, 14, 13, 12, 15, 19, 18, 17, 16};

struct AbaqusType {
  FemElementType type;
  const char* name;
  const NodeOrder* order;
};

const AbaqusType kTypes[] = {
    {FemElementType::Tet, "C3D4", nullptr},        {FemElementType::Pyramid, "C3D5", nullptr},
    {FemElementType::Wedge, "C3D6", nullptr},      {FemElementType::Hex, "C3D8", &kHexOrder},
    {FemElementType::QuadTet, "C3D10", nullptr},   {FemElementType::QuadWedge, "C3D15", nullptr},
    {FemElementType::QuadHex, "C3D20", &kQuadHexOrder},
};

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return std::string(s.substr(b, s.find_last_not_of(" \t") - b + 1));
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

// Comma-separated fields, trimmed; a trailing comma leaves no empty field.
std::vector<std::string> splitFields(std::string_view line) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= line.size()) {
    const size_t comma = std::min(line.find(',', start), line.size());
    out.push_back(trim(line.substr(start, comma - start)));
    start = comma + 1;
  }
  if (out.size() > 1 && out.back().empty()) out.pop_back();
  return out;
}

// C3D8, C3D8R, C3D20RH, …: the solid types by their node count.
const AbaqusType* solidType(const std::string& t) {
  if (t.rfind("C3D", 0) != 0) return nullptr;
  size_t end = 3;
  while (end < t.size() && std::isdigit(static_cast<unsigned char>(t[end]))) ++end;
  if (end == 3 || !std::all_of(t.begin() + end, t.end(), [](char c) { return std::isalpha(c); })) return nullptr;
  const std::string base = t.substr(0, end);
  for (const auto& k : kTypes)
    if (base == k.name) return &k;
  return nullptr;
}

bool isLowerDimensional(const std::string& t) {
  for (const char* p : {"S", "CPS", "CPE", "CAX", "M3D", "SFM3D", "T2D", "T3D", "B2", "B3", "R3D"})
    if (t.rfind(p, 0) == 0 && t.size() > std::string(p).size() &&
        std::isdigit(static_cast<unsigned char>(t[std::string(p).size()])))
      return true;
  return false;
}

class InpParser {
 public:
  InpParser(femio::LineReader& lr, femio::MeshData& d) : myLr(lr), myData(d) {}

  void run() {
    while (myLr.next()) {
      const std::string line = trim(myLr.text());
      if (line.rfind("**", 0) == 0) continue;
      if (line[0] == '*') {
        finishPendingAtKeyword();
        keyword(line);
      } else if (mySection == Section::Node) {
        node(splitFields(line));
      } else if (mySection == Section::Element) {
        elementData(splitFields(line));
      }
    }
    finishPendingAtKeyword();
  }

 private:
  enum class Section { Other, Node, Element };

  void keyword(const std::string& line) {
    const auto fields = splitFields(line);
    std::string name;
    for (char c : upper(fields[0]))
      if (c != ' ' && c != '\t') name += c;
    std::map<std::string, std::string> params;
    for (size_t i = 1; i < fields.size(); ++i) {
      const auto eq = fields[i].find('=');
      params[upper(trim(fields[i].substr(0, eq)))] = eq == std::string::npos ? "" : upper(trim(fields[i].substr(eq + 1)));
    }
    mySection = Section::Other;
    if (name == "*NODE") {
      if (params.count("SYSTEM") && params["SYSTEM"] != "R") myLr.fail("only rectangular *NODE coordinates are read");
      mySection = Section::Node;
    } else if (name == "*ELEMENT") {
      if (!params.count("TYPE")) myLr.fail("*ELEMENT without TYPE");
      const std::string& t = params["TYPE"];
      if (isLowerDimensional(t)) return;  // boundary elements: not part of the volume mesh
      myType = solidType(t);
      if (!myType) myLr.fail("unsupported element type '" + t + "'");
      mySection = Section::Element;
    } else if (name == "*INCLUDE") {
      myLr.fail("*INCLUDE is not supported: merge the included file");
    }
  }

  void node(const std::vector<std::string>& f) {
    if (f.size() < 2 || f.size() > 4) myLr.fail("expected 'number, x, y, z', got " + std::to_string(f.size()) + " values");
    Vector3d p = Vector3d::Zero();
    for (size_t i = 1; i < f.size(); ++i) p[i - 1] = myLr.toDouble(f[i]);
    myData.nodes.push_back({myLr.toCount(f[0]), p, myLr.line()});
  }

  void elementData(const std::vector<std::string>& f) {
    if (myPending.empty()) myPendingLine = myLr.line();
    for (const auto& s : f) myPending.push_back(myLr.toCount(s));
    const size_t need = 1 + ReferenceElement::get(myType->type).numNodes();
    if (myPending.size() > need)
      myLr.fail(std::string(myType->name) + " element " + std::to_string(myPending[0]) + " has " +
                std::to_string(myPending.size() - 1) + " nodes, " + std::to_string(need - 1) + " expected");
    if (myPending.size() < need) return;  // continued on the next line
    std::vector<long long> nodes(myPending.begin() + 1, myPending.end());
    myData.elements.push_back({myPending[0], myType->type,
                               myType->order ? femio::toSinewOrder(nodes, *myType->order) : nodes, myPendingLine});
    myPending.clear();
  }

  void finishPendingAtKeyword() {
    if (myPending.empty()) return;
    throw ParseError(myLr.file(), myPendingLine,
                     std::string(myType->name) + " element " + std::to_string(myPending[0]) + " has only " +
                         std::to_string(myPending.size() - 1) + " of its " +
                         std::to_string(ReferenceElement::get(myType->type).numNodes()) + " nodes");
  }

  femio::LineReader& myLr;
  femio::MeshData& myData;
  Section mySection = Section::Other;
  const AbaqusType* myType = nullptr;
  std::vector<long long> myPending;
  int myPendingLine = 0;
};

}  // namespace

FemModel3d& AbaqusReader::read(FemModel3d& fem, std::istream& in, const std::string& name) {
  return femio::readWith<InpParser>(fem, in, name);
}

void AbaqusWriter::write(const FemModel3d& fem, std::ostream& out) {
  femio::requireTypes(fem, {FemElementType::Tet, FemElementType::Pyramid, FemElementType::Wedge, FemElementType::Hex,
                            FemElementType::QuadTet, FemElementType::QuadWedge, FemElementType::QuadHex},
                      "Abaqus");
  out << "** Written by Sinew: " << fem.describe() << "\n*NODE\n";
  for (const auto& n : fem.nodes()) out << femio::fileNumber(n) << ", " << femio::formatPoint(n.getPosition(), ", ") << '\n';
  for (const auto& k : kTypes) {
    bool header = false;
    for (const auto& e : fem.elements()) {
      if (e.getType() != k.type) continue;
      if (!header) out << "*ELEMENT, TYPE=" << k.name << '\n';
      header = true;
      std::vector<long long> s;
      for (const auto* n : e.getNodes()) s.push_back(femio::fileNumber(*n));
      if (k.order) s = femio::toFileOrder(s, *k.order);
      out << femio::fileNumber(e);
      for (size_t i = 0; i < s.size(); ++i)
        out << (i == 15 ? ",\n" : ", ") << s[i];  // at most 16 entries on a line
      out << '\n';
    }
  }
}

}  // namespace sinew
