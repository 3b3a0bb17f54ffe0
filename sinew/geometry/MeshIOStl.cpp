// STereoLithography .stl reader (ASCII and binary) and writer (Guide §2.5.5).
//
// STL lists each triangle with its own copy of the corner coordinates; the
// reader merges corners with bit-identical coordinates so the mesh gets back
// its shared vertices (and can be closed). Facets that collapse under the
// merge carry no area and are dropped.
#include <array>
#include <cstdint>
#include <iterator>
#include <map>
#include <sstream>

#include "sinew/Error.h"
#include "sinew/geometry/MeshIOFormats.h"
#include "sinew/geometry/PolygonalMesh.h"

namespace sinew::meshio {

namespace {

constexpr size_t kHeaderSize = 80;
constexpr size_t kTriangleSize = 50;  // 12 floats + 2-byte attribute

// Builds the indexed mesh while merging exactly coincident corners.
class VertexMerger {
 public:
  explicit VertexMerger(MeshData& d) : myData(d) {}
  void addTriangle(const std::array<Eigen::Vector3d, 3>& corners) {
    std::vector<int> face;
    for (const auto& p : corners) face.push_back(index(p));
    if (face[0] == face[1] || face[1] == face[2] || face[2] == face[0]) return;
    myData.faces.push_back(std::move(face));
  }

 private:
  int index(const Eigen::Vector3d& p) {
    const std::array<double, 3> key{p.x(), p.y(), p.z()};
    auto [it, added] = myIds.emplace(key, static_cast<int>(myData.vertices.size()));
    if (added) myData.vertices.push_back(p);
    return it->second;
  }
  MeshData& myData;
  std::map<std::array<double, 3>, int> myIds;
};

bool looksBinary(const std::string& bytes) {
  if (bytes.size() < kHeaderSize + 4) return false;
  std::uint32_t n = 0;
  getLE(bytes.data() + kHeaderSize, &n, 4);
  const bool sizeMatches = bytes.size() == kHeaderSize + 4 + kTriangleSize * static_cast<size_t>(n);
  // A binary header may itself start with "solid", so the size test decides,
  // unless the text also ends its solid like an ASCII file does.
  const bool saysSolid = bytes.compare(0, 5, "solid") == 0;
  return sizeMatches && !(saysSolid && bytes.find("endsolid") != std::string::npos);
}

MeshData readBinary(const std::string& bytes) {
  MeshData d;
  VertexMerger merger(d);
  std::uint32_t n = 0;
  getLE(bytes.data() + kHeaderSize, &n, 4);
  const char* p = bytes.data() + kHeaderSize + 4;
  for (std::uint32_t t = 0; t < n; ++t, p += kTriangleSize) {
    std::array<Eigen::Vector3d, 3> corners;
    for (int c = 0; c < 3; ++c) {
      for (int k = 0; k < 3; ++k) {
        float f = 0;
        getLE(p + 12 * (c + 1) + 4 * k, &f, 4);  // skip the stored normal
        corners[c][k] = f;
      }
    }
    merger.addTriangle(corners);
  }
  return d;
}

MeshData readAscii(std::istream& in, const std::string& file) {
  MeshData d;
  VertexMerger merger(d);
  std::vector<Eigen::Vector3d> corners;
  bool inFacet = false;
  std::string text;
  int line = 0;
  while (getLine(in, text)) {
    ++line;
    const auto tok = splitTokens(text);
    if (tok.empty()) continue;
    const std::string_view key = tok[0];
    if (key == "facet") {
      if (inFacet) throw ParseError(file, line, "facet inside facet");
      inFacet = true;
      corners.clear();
    } else if (key == "vertex") {
      if (!inFacet) throw ParseError(file, line, "vertex outside a facet");
      corners.push_back(parseVector(tok, 1, file, line));
    } else if (key == "endfacet") {
      if (!inFacet || corners.size() != 3) throw ParseError(file, line, "facet needs 3 vertices");
      merger.addTriangle({corners[0], corners[1], corners[2]});
      inFacet = false;
    } else if (key != "solid" && key != "endsolid" && key != "outer" && key != "endloop") {
      throw ParseError(file, line, "unexpected '" + std::string(key) + "'");
    }
  }
  if (inFacet) throw ParseError(file, line, "file ends inside a facet");
  return d;
}

Eigen::Vector3d triangleNormal(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                               const Eigen::Vector3d& c) {
  const Eigen::Vector3d n = (b - a).cross(c - a);
  return n.norm() > 0 ? Eigen::Vector3d(n.normalized()) : Eigen::Vector3d::Zero();
}

void putFloats(std::ostream& out, const Eigen::Vector3d& v) {
  for (int k = 0; k < 3; ++k) {
    const float f = static_cast<float>(v[k]);
    putLE(out, &f, 4);
  }
}

}  // namespace

MeshData readStl(std::istream& in, const std::string& file) {
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (looksBinary(bytes)) return readBinary(bytes);
  // ASCII STL is plain text; a NUL byte means binary data of the wrong size.
  const size_t start = bytes.find_first_not_of(" \t\r\n");
  const bool text = start != std::string::npos && bytes.compare(start, 5, "solid") == 0 &&
                    bytes.find('\0') == std::string::npos;
  if (!text) throw ParseError(file, 0, "binary STL size does not match its triangle count");
  std::istringstream stream(bytes);
  return readAscii(stream, file);
}

void writeStl(std::ostream& out, const MeshBase& mesh, const MeshIOOptions& opts) {
  const auto& pm = dynamic_cast<const PolygonalMesh&>(mesh);
  // STL holds triangles only: polygons are written as their fans.
  if (opts.binary) {
    std::string header = "Sinew binary STL";
    header.resize(kHeaderSize, ' ');
    out.write(header.data(), kHeaderSize);
    std::uint32_t n = 0;
    pm.forEachTriangle([&](const auto&, const auto&, const auto&) { ++n; });
    putLE(out, &n, 4);
    pm.forEachTriangle(
        [&](const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
          putFloats(out, triangleNormal(a, b, c));
          putFloats(out, a);
          putFloats(out, b);
          putFloats(out, c);
          const std::uint16_t attr = 0;
          putLE(out, &attr, 2);
        });
    return;
  }
  out << "solid sinew\n";
  pm.forEachTriangle(
      [&](const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
        out << "  facet normal " << formatVector(triangleNormal(a, b, c), opts.precision) << '\n'
            << "    outer loop\n";
        for (const auto* v : {&a, &b, &c})
          out << "      vertex " << formatVector(*v, opts.precision) << '\n';
        out << "    endloop\n  endfacet\n";
      });
  out << "endsolid sinew\n";
}

}  // namespace sinew::meshio
