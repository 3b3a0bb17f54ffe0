// Polygon file format .ply reader (ASCII, binary little- and big-endian) and
// writer (Guide §2.5.5).
//
// The header declares elements and their typed properties; the body lists
// the values in that order. Only vertex x, y, z (plus nx, ny, nz for point
// clouds) and the face vertex_indices list are kept, but every declared
// property is read so that unknown ones (colours, texture, edges) are
// skipped correctly in binary files too.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>

#include "sinew/Error.h"
#include "sinew/geometry/MeshIOFormats.h"
#include "sinew/geometry/PointMesh.h"
#include "sinew/geometry/PolygonalMesh.h"

namespace sinew::meshio {

namespace {

enum class PlyType { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };
enum class Encoding { Ascii, BinaryLE, BinaryBE };

std::optional<PlyType> plyType(std::string_view name) {
  static const std::map<std::string_view, PlyType> types = {
      {"char", PlyType::Int8},      {"int8", PlyType::Int8},       {"uchar", PlyType::UInt8},
      {"uint8", PlyType::UInt8},    {"short", PlyType::Int16},     {"int16", PlyType::Int16},
      {"ushort", PlyType::UInt16},  {"uint16", PlyType::UInt16},   {"int", PlyType::Int32},
      {"int32", PlyType::Int32},    {"uint", PlyType::UInt32},     {"uint32", PlyType::UInt32},
      {"float", PlyType::Float32},  {"float32", PlyType::Float32}, {"double", PlyType::Float64},
      {"float64", PlyType::Float64}};
  auto it = types.find(name);
  return it == types.end() ? std::nullopt : std::optional<PlyType>(it->second);
}

struct PlyProperty {
  std::string name;
  PlyType type = PlyType::Float32;
  bool isList = false;
  PlyType countType = PlyType::UInt8;
};

struct PlyElement {
  std::string name;
  long long count = 0;
  std::vector<PlyProperty> props;
};

struct PlyHeader {
  Encoding encoding = Encoding::Ascii;
  std::vector<PlyElement> elements;
  int lines = 0;  // header length, so body line numbers continue from it
};

PlyHeader readHeader(std::istream& in, const std::string& file) {
  PlyHeader h;
  std::string text;
  if (!getLine(in, text) || text != "ply") throw ParseError(file, 1, "missing 'ply' magic line");
  h.lines = 1;
  bool formatSeen = false;
  while (getLine(in, text)) {
    const int line = ++h.lines;
    const auto tok = splitTokens(text);
    if (tok.empty() || tok[0] == "comment" || tok[0] == "obj_info") continue;
    if (tok[0] == "end_header") {
      if (!formatSeen) throw ParseError(file, line, "missing format line");
      return h;
    }
    if (tok[0] == "format" && tok.size() >= 2) {
      formatSeen = true;
      if (tok[1] == "ascii")
        h.encoding = Encoding::Ascii;
      else if (tok[1] == "binary_little_endian")
        h.encoding = Encoding::BinaryLE;
      else if (tok[1] == "binary_big_endian")
        h.encoding = Encoding::BinaryBE;
      else
        throw ParseError(file, line, "unknown format '" + std::string(tok[1]) + "'");
    } else if (tok[0] == "element" && tok.size() == 3) {
      auto n = parseInt(tok[2]);
      if (!n || *n < 0) throw ParseError(file, line, "bad element count");
      h.elements.push_back({std::string(tok[1]), *n, {}});
    } else if (tok[0] == "property" && !h.elements.empty()) {
      PlyProperty p;
      const bool list = tok.size() == 5 && tok[1] == "list";
      if (!list && tok.size() != 3) throw ParseError(file, line, "malformed property");
      auto t = plyType(tok[list ? 3 : 1]);
      auto ct = list ? plyType(tok[2]) : t;
      if (!t || !ct) throw ParseError(file, line, "unknown property type");
      p = {std::string(tok.back()), *t, list, *ct};
      h.elements.back().props.push_back(p);
    } else {
      throw ParseError(file, line, "unexpected header line");
    }
  }
  throw ParseError(file, h.lines, "file ends before end_header");
}

// Supplies the body's values one at a time, from text tokens or raw bytes.
class PlySource {
 public:
  PlySource(std::istream& in, const std::string& file, const PlyHeader& h)
      : myIn(in), myFile(file), myEncoding(h.encoding), myLine(h.lines) {
    if (myEncoding != Encoding::Ascii) {
      myBytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
  }
  /// Line of the latest ASCII value, 0 in binary data.
  int line() const { return myEncoding == Encoding::Ascii ? myLine : 0; }

  double next(PlyType t) { return myEncoding == Encoding::Ascii ? nextText() : nextBinary(t); }

 private:
  double nextText() {
    while (myTok >= myTokens.size()) {
      if (!getLine(myIn, myText)) throw ParseError(myFile, myLine, "unexpected end of file");
      ++myLine;
      myTokens = splitTokens(myText);
      myTok = 0;
    }
    auto v = parseDouble(myTokens[myTok++]);
    if (!v) throw ParseError(myFile, myLine, "bad number");
    return *v;
  }

  template <class T>
  double take() {
    if (myPos + sizeof(T) > myBytes.size()) {
      throw ParseError(myFile, 0, "unexpected end of binary data");
    }
    T v;
    getLE(myBytes.data() + myPos, &v, sizeof(T), myEncoding == Encoding::BinaryLE);
    myPos += sizeof(T);
    return static_cast<double>(v);
  }

  double nextBinary(PlyType t) {
    switch (t) {
      case PlyType::Int8:
        return take<std::int8_t>();
      case PlyType::UInt8:
        return take<std::uint8_t>();
      case PlyType::Int16:
        return take<std::int16_t>();
      case PlyType::UInt16:
        return take<std::uint16_t>();
      case PlyType::Int32:
        return take<std::int32_t>();
      case PlyType::UInt32:
        return take<std::uint32_t>();
      case PlyType::Float32:
        return take<float>();
      case PlyType::Float64:
        return take<double>();
    }
    return 0;
  }

  std::istream& myIn;
  const std::string& myFile;
  Encoding myEncoding;
  int myLine;
  std::string myText;
  std::vector<std::string_view> myTokens;
  size_t myTok = 0;
  std::string myBytes;
  size_t myPos = 0;
};

int toIndex(double v, const std::string& file, int line) {
  if (v != std::floor(v) || std::abs(v) > std::numeric_limits<int>::max()) {
    throw ParseError(file, line, "bad vertex index");
  }
  return static_cast<int>(v);
}

// Where each vertex property goes: 0-2 position, 3-5 normal, -1 dropped.
std::vector<int> vertexSlots(const PlyElement& el) {
  static const std::map<std::string, int> slots = {{"x", 0},  {"y", 1},  {"z", 2},
                                                   {"nx", 3}, {"ny", 4}, {"nz", 5}};
  std::vector<int> out;
  for (const auto& p : el.props) {
    auto it = slots.find(p.name);
    out.push_back(it == slots.end() || p.isList ? -1 : it->second);
  }
  return out;
}

bool hasSlots(const std::vector<int>& slots, int first) {
  int found = 0;
  for (int s : slots) found += (s >= first && s < first + 3);
  return found == 3;
}

void readVertices(const PlyElement& el, PlySource& src, const PlyHeader& h, const std::string& file,
                  MeshData& d) {
  const std::vector<int> slots = vertexSlots(el);
  if (!hasSlots(slots, 0)) throw ParseError(file, h.lines, "vertex element lacks x, y or z");
  const bool normals = hasSlots(slots, 3);
  for (long long i = 0; i < el.count; ++i) {
    double v[6] = {0, 0, 0, 0, 0, 0};
    for (size_t k = 0; k < el.props.size(); ++k) {
      const auto& p = el.props[k];
      const int n = p.isList ? toIndex(src.next(p.countType), file, src.line()) : 1;
      for (int j = 0; j < n; ++j) {
        const double x = src.next(p.type);
        if (slots[k] >= 0) v[slots[k]] = x;
      }
    }
    d.vertices.emplace_back(v[0], v[1], v[2]);
    if (normals) d.normals.emplace_back(v[3], v[4], v[5]);
  }
}

// Reads any element; for faces, keeps the vertex index list and the line
// where each face starts (for error messages).
void readOther(const PlyElement& el, PlySource& src, const std::string& file, MeshData& d,
               std::vector<int>& faceLines) {
  const bool isFace = el.name == "face";
  for (long long i = 0; i < el.count; ++i) {
    std::vector<int> face;
    int startLine = -1;
    for (const auto& p : el.props) {
      const int n = p.isList ? toIndex(src.next(p.countType), file, src.line()) : 1;
      if (startLine < 0) startLine = src.line();
      const bool keep =
          isFace && p.isList && (p.name == "vertex_indices" || p.name == "vertex_index");
      for (int j = 0; j < n; ++j) {
        const double x = src.next(p.type);
        if (keep) face.push_back(toIndex(x, file, src.line()));
      }
    }
    if (isFace) {
      d.faces.push_back(std::move(face));
      faceLines.push_back(startLine);
    }
  }
}

}  // namespace

MeshData readPly(std::istream& in, const std::string& file) {
  const PlyHeader h = readHeader(in, file);
  PlySource src(in, file, h);
  MeshData d;
  std::vector<int> faceLines;
  for (const auto& el : h.elements) {
    if (el.name == "vertex") {
      readVertices(el, src, h, file, d);
    } else {
      readOther(el, src, file, d, faceLines);
    }
  }
  // Faces may precede vertices in element order, so check indices at the end.
  for (size_t f = 0; f < d.faces.size(); ++f) {
    checkIndices(d.faces[f], d.vertices.size(), 3, true, file, faceLines[f]);
  }
  return d;
}

void writePly(std::ostream& out, const MeshBase& mesh, const MeshIOOptions& opts) {
  const auto* pm = dynamic_cast<const PolygonalMesh*>(&mesh);
  const auto* tm = dynamic_cast<const PointMesh*>(&mesh);
  const bool normals = tm && tm->hasNormals();
  size_t maxFace = 0;
  if (pm) {
    for (const auto& f : pm->getFaces()) maxFace = std::max(maxFace, f.size());
  }
  const bool smallCount = maxFace < 256;  // the usual uchar count when it fits
  out << "ply\nformat " << (opts.binary ? "binary_little_endian" : "ascii") << " 1.0\n"
      << "comment Sinew mesh\nelement vertex " << mesh.numVertices() << '\n'
      << "property double x\nproperty double y\nproperty double z\n";
  if (normals) out << "property double nx\nproperty double ny\nproperty double nz\n";
  if (pm) {
    out << "element face " << pm->numFaces() << "\nproperty list " << (smallCount ? "uchar" : "int")
        << " int vertex_indices\n";
  }
  out << "end_header\n";
  for (int i = 0; i < mesh.numVertices(); ++i) {
    if (!opts.binary) {
      out << formatVector(mesh.getVertex(i), opts.precision);
      if (normals) out << ' ' << formatVector(tm->getNormal(i), opts.precision);
      out << '\n';
      continue;
    }
    for (int k = 0; k < 3; ++k) putLE(out, &mesh.getVertex(i)[k], 8);
    for (int k = 0; normals && k < 3; ++k) putLE(out, &tm->getNormal(i)[k], 8);
  }
  if (!pm) return;
  for (const auto& f : pm->getFaces()) {
    if (!opts.binary) {
      out << f.size();
      for (int v : f) out << ' ' << v;
      out << '\n';
      continue;
    }
    const std::uint8_t n8 = static_cast<std::uint8_t>(f.size());
    const std::int32_t n32 = static_cast<std::int32_t>(f.size());
    if (smallCount)
      putLE(out, &n8, 1);
    else
      putLE(out, &n32, 4);
    for (int v : f) {
      const std::int32_t v32 = v;
      putLE(out, &v32, 4);
    }
  }
}

}  // namespace sinew::meshio
