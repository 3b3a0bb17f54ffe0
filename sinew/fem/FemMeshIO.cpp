// FEM mesh file I/O (guide §6.2.2): the checks and numbering shared by all
// readers (buildFem), the line reader, the file-path entry points of every
// reader and writer, and readFem/writeFem, which pick the format by the
// file extension.
#include "sinew/fem/FemMeshIO.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <climits>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "sinew/Error.h"
#include "sinew/fem/FemMeshIOData.h"
#include "sinew/geometry/MeshIOFormats.h"

namespace sinew {

namespace femio {

// ---------------------------------------------------------------- LineReader

LineReader::LineReader(std::istream& in, std::string file, char comment)
    : myIn(in), myFile(std::move(file)), myComment(comment) {}

bool LineReader::nextLine() {
  myTokens.clear();
  myNextToken = 0;
  if (!meshio::getLine(myIn, myText)) return false;
  ++myLine;
  if (myComment)
    if (auto c = myText.find(myComment); c != std::string::npos) myText.erase(c);
  myTokens = meshio::splitTokens(myText);
  return true;
}

bool LineReader::next() {
  while (nextLine())
    if (!myTokens.empty()) return true;
  return false;
}

void LineReader::expect(const std::string& what) {
  if (!next()) fail("file ends before " + what);
}

std::string_view LineReader::nextToken(const std::string& what) {
  while (myNextToken >= myTokens.size()) expect(what);
  myTokenLine = myLine;
  return myTokens[myNextToken++];
}

void LineReader::fail(const std::string& what) const { throw ParseError(myFile, std::max(myLine, 1), what); }

double LineReader::toDouble(std::string_view tok) const {
  auto v = meshio::parseDouble(tok);
  if (!v || !std::isfinite(*v)) fail("bad number '" + std::string(tok) + "'");
  return *v;
}

long long LineReader::toInt(std::string_view tok) const {
  auto v = meshio::parseInt(tok);
  if (!v) fail("bad integer '" + std::string(tok) + "'");
  return *v;
}

long long LineReader::toCount(std::string_view tok) const {
  const long long v = toInt(tok);
  if (v < 0) fail("negative count or number '" + std::string(tok) + "'");
  return v;
}

Vector3d LineReader::toPoint(size_t first) const {
  if (myTokens.size() < first + 3) fail("expected 3 coordinates");
  return {toDouble(myTokens[first]), toDouble(myTokens[first + 1]), toDouble(myTokens[first + 2])};
}

void LineReader::requireTokens(size_t n, const std::string& what) const {
  if (myTokens.size() != n)
    fail("expected " + std::to_string(n) + " values (" + what + "), got " + std::to_string(myTokens.size()));
}

// ---------------------------------------------------------------- building

namespace {

// File numbers start at 0 or 1: a file that uses 0 is 0-based.
template <class Rec>
long long numberBase(const std::vector<Rec>& recs) {
  for (const auto& r : recs)
    if (r.number == 0) return 0;
  return 1;
}

// New components are numbered after the existing ones.
template <class T>
long long firstFreeNumber(const ComponentList<T>& list) {
  long long next = 0;
  for (const auto& c : list) next = std::max<long long>(next, c.getNumber() + 1LL);
  return next;
}

int modelNumber(long long fileNum, long long base, long long offset, const std::string& file, int line) {
  const long long n = fileNum - base + offset;
  if (fileNum < base || n > INT_MAX)
    throw ParseError(file, line, "number " + std::to_string(fileNum) + " is out of range");
  return static_cast<int>(n);
}

struct Checked {
  std::unordered_map<long long, int> nodeIndex;  // file number → index in d.nodes
};

Checked checkData(const MeshData& d) {
  Checked c;
  c.nodeIndex.reserve(d.nodes.size());
  for (size_t i = 0; i < d.nodes.size(); ++i)
    if (!c.nodeIndex.emplace(d.nodes[i].number, static_cast<int>(i)).second)
      throw ParseError(d.nodeFile, d.nodes[i].line, "node " + std::to_string(d.nodes[i].number) + " appears twice");
  std::unordered_set<long long> elemNumbers;
  std::array<Vector3d, ReferenceElement::kMaxNodes> pos;
  for (const auto& e : d.elements) {
    const std::string what = "element " + std::to_string(e.number);
    if (!elemNumbers.insert(e.number).second) throw ParseError(d.elemFile, e.line, what + " appears twice");
    const ReferenceElement& ref = ReferenceElement::get(e.type);
    if (static_cast<int>(e.nodes.size()) != ref.numNodes())
      throw ParseError(d.elemFile, e.line, what + ": " + ref.getName() + " needs " + std::to_string(ref.numNodes()) +
                                               " nodes, got " + std::to_string(e.nodes.size()));
    for (size_t k = 0; k < e.nodes.size(); ++k) {
      auto it = c.nodeIndex.find(e.nodes[k]);
      if (it == c.nodeIndex.end())
        throw ParseError(d.elemFile, e.line, what + ": node " + std::to_string(e.nodes[k]) + " does not exist");
      if (std::find(e.nodes.begin(), e.nodes.begin() + k, e.nodes[k]) != e.nodes.begin() + k)
        throw ParseError(d.elemFile, e.line, what + ": node " + std::to_string(e.nodes[k]) + " appears twice");
      pos[k] = d.nodes[it->second].pos;
    }
    // An element inverted or flat at rest: its node order contradicts the
    // format's (§6.2.4). FemModel3d::addElement would reject it too.
    double v = 0;
    try {
      v = computeVolume(ref, NodePositions(pos.data(), e.nodes.size()));
    } catch (const Error&) {
      v = -1;
    }
    if (!(v > 0))
      throw ParseError(d.elemFile, e.line, what + ": " + ref.getName() + " is inverted or flat at rest");
  }
  return c;
}

}  // namespace

void buildFem(FemModel3d& fem, const MeshData& d) {
  const Checked c = checkData(d);
  const long long nodeBase = numberBase(d.nodes), elemBase = numberBase(d.elements);
  const long long nodeOffset = firstFreeNumber(fem.nodes()), elemOffset = firstFreeNumber(fem.elements());
  std::vector<int> nodeNums, elemNums;  // all numbers checked before anything is added
  for (const auto& r : d.nodes) nodeNums.push_back(modelNumber(r.number, nodeBase, nodeOffset, d.nodeFile, r.line));
  for (const auto& r : d.elements)
    elemNums.push_back(modelNumber(r.number, elemBase, elemOffset, d.elemFile, r.line));

  std::vector<FemNode3d*> nodes;
  std::vector<FemElement3d*> elems;
  const ElementRecord* current = nullptr;
  try {
    for (size_t i = 0; i < d.nodes.size(); ++i)
      nodes.push_back(&fem.addNumberedNode(std::make_unique<FemNode3d>(d.nodes[i].pos), nodeNums[i]));
    std::vector<FemNode3d*> en;
    for (size_t i = 0; i < d.elements.size(); ++i) {
      current = &d.elements[i];
      en.clear();
      for (long long num : current->nodes) en.push_back(nodes[c.nodeIndex.at(num)]);
      auto e = std::make_unique<FemElement3d>(ReferenceElement::get(current->type), en);
      elems.push_back(&fem.addNumberedElement(std::move(e), elemNums[i]));
    }
  } catch (const ModelError& err) {
    // Not expected after checkData; undo so that the model stays as it was.
    for (auto it = elems.rbegin(); it != elems.rend(); ++it) fem.elements().remove(**it);
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) fem.nodes().remove(**it);
    if (current) throw ParseError(d.elemFile, current->line, err.what());
    throw ParseError(d.nodeFile, 0, err.what());
  }
}

const TypeCode* findTypeCode(const std::vector<TypeCode>& codes, long long id) {
  for (const auto& c : codes)
    if (c.id == id) return &c;
  return nullptr;
}

const TypeCode& findTypeCode(const std::vector<TypeCode>& codes, FemElementType type) {
  return *std::find_if(codes.begin(), codes.end(), [&](const TypeCode& c) { return c.type == type; });
}

// ---------------------------------------------------------------- writing

std::ifstream openForReading(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path.string(), 0, "cannot open file for reading");
  return in;
}

std::ofstream openForWriting(const std::filesystem::path& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error(path.string() + ": cannot open file for writing");
  return out;
}

void finishWriting(std::ostream& out, const std::filesystem::path& path) {
  out.flush();
  if (!out) throw Error(path.string() + ": error while writing");
}

std::string formatNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string formatPoint(const Vector3d& p, const char* sep) {
  return formatNumber(p.x()) + sep + formatNumber(p.y()) + sep + formatNumber(p.z());
}

void requireTypes(const FemModel3d& fem, std::initializer_list<FemElementType> allowed, const char* format) {
  for (const auto& e : fem.elements())
    if (std::find(allowed.begin(), allowed.end(), e.getType()) == allowed.end())
      throw Error(fem.describe() + ": the " + format + " format cannot hold element " +
                  std::to_string(e.getNumber()) + " (" + e.getTypeName() + ")");
}

}  // namespace femio

// ---------------------------------------------------------------- file paths

namespace {

using Path = std::filesystem::path;

template <class Fn>
FemModel3d& readOne(FemModel3d& fem, const Path& p, Fn read) {
  auto in = femio::openForReading(p);
  return read(fem, in, p.string());
}

template <class Fn>
FemModel3d& readTwo(FemModel3d& fem, const Path& a, const Path& b, Fn read) {
  auto inA = femio::openForReading(a);
  auto inB = femio::openForReading(b);
  return read(fem, inA, inB, a.string(), b.string());
}

template <class Fn>
void writeOne(const Path& p, Fn write) {
  auto out = femio::openForWriting(p);
  write(out);
  femio::finishWriting(out, p);
}

template <class Fn>
void writeTwo(const Path& a, const Path& b, Fn write) {
  auto outA = femio::openForWriting(a);
  auto outB = femio::openForWriting(b);
  write(outA, outB);
  femio::finishWriting(outA, a);
  femio::finishWriting(outB, b);
}

std::string lowerExtension(const Path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

Path withExtension(Path p, const char* ext) { return p.replace_extension(ext); }

}  // namespace

FemModel3d& AnsysReader::read(FemModel3d& fem, const Path& nodeFile, const Path& elemFile) {
  return readTwo(fem, nodeFile, elemFile, [](auto&&... a) -> FemModel3d& { return AnsysReader::read(a...); });
}
FemModel3d& TetGenReader::read(FemModel3d& fem, const Path& nodeFile, const Path& eleFile) {
  return readTwo(fem, nodeFile, eleFile, [](auto&&... a) -> FemModel3d& { return TetGenReader::read(a...); });
}
FemModel3d& AbaqusReader::read(FemModel3d& fem, const Path& file) {
  return readOne(fem, file, [](auto&&... a) -> FemModel3d& { return AbaqusReader::read(a...); });
}
FemModel3d& VtkAsciiReader::read(FemModel3d& fem, const Path& file) {
  return readOne(fem, file, [](auto&&... a) -> FemModel3d& { return VtkAsciiReader::read(a...); });
}
FemModel3d& GmshReader::read(FemModel3d& fem, const Path& file) {
  return readOne(fem, file, [](auto&&... a) -> FemModel3d& { return GmshReader::read(a...); });
}

void AnsysWriter::write(const FemModel3d& fem, const Path& nodeFile, const Path& elemFile) {
  femio::requireTypes(fem, {FemElementType::Tet, FemElementType::Pyramid, FemElementType::Wedge, FemElementType::Hex,
                            FemElementType::QuadTet, FemElementType::QuadHex},
                      "ANSYS");  // before the files are created
  writeTwo(nodeFile, elemFile, [&](auto& n, auto& e) { AnsysWriter::write(fem, n, e); });
}
void TetGenWriter::write(const FemModel3d& fem, const Path& nodeFile, const Path& eleFile) {
  femio::requireTypes(fem, {FemElementType::Tet, FemElementType::QuadTet}, "TetGen");
  writeTwo(nodeFile, eleFile, [&](auto& n, auto& e) { TetGenWriter::write(fem, n, e); });
}
void AbaqusWriter::write(const FemModel3d& fem, const Path& file) {
  writeOne(file, [&](auto& out) { AbaqusWriter::write(fem, out); });
}
void VtkAsciiWriter::write(const FemModel3d& fem, const Path& file) {
  writeOne(file, [&](auto& out) { VtkAsciiWriter::write(fem, out); });
}
void GmshWriter::write(const FemModel3d& fem, const Path& file, Version v) {
  writeOne(file, [&](auto& out) { GmshWriter::write(fem, out, v); });
}

FemModel3d& readFem(FemModel3d& fem, const Path& path) {
  const std::string ext = lowerExtension(path);
  if (ext == ".inp") return AbaqusReader::read(fem, path);
  if (ext == ".vtk") return VtkAsciiReader::read(fem, path);
  if (ext == ".msh") return GmshReader::read(fem, path);
  if (ext == ".elem") return AnsysReader::read(fem, withExtension(path, ".node"), path);
  if (ext == ".ele") return TetGenReader::read(fem, withExtension(path, ".node"), path);
  if (ext == ".node") {
    const Path elem = withExtension(path, ".elem");
    if (std::filesystem::exists(elem)) return AnsysReader::read(fem, path, elem);
    return TetGenReader::read(fem, path, withExtension(path, ".ele"));
  }
  throw ParseError(path.string(), 0, "unknown FEM mesh format '" + ext + "'");
}

void writeFem(const FemModel3d& fem, const Path& path) {
  const std::string ext = lowerExtension(path);
  if (ext == ".inp") return AbaqusWriter::write(fem, path);
  if (ext == ".vtk") return VtkAsciiWriter::write(fem, path);
  if (ext == ".msh") return GmshWriter::write(fem, path);
  if (ext == ".elem") return AnsysWriter::write(fem, withExtension(path, ".node"), path);
  if (ext == ".ele") return TetGenWriter::write(fem, withExtension(path, ".node"), path);
  throw Error(path.string() + ": cannot choose a FEM mesh format for '" + ext + "' (.node: name the .elem or .ele)");
}

}  // namespace sinew
