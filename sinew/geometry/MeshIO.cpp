// Mesh file dispatch by suffix, conversion of MeshData to mesh kinds, and the
// parsing helpers shared by the format readers (Guide §2.5.5).
#include "sinew/geometry/MeshIO.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "sinew/Error.h"
#include "sinew/geometry/MeshIOFormats.h"

namespace sinew {

namespace meshio {

std::vector<std::string_view> splitTokens(std::string_view line) {
  std::vector<std::string_view> toks;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i) toks.push_back(line.substr(i, j - i));
    i = j;
  }
  return toks;
}

std::optional<double> parseDouble(std::string_view tok) {
  if (!tok.empty() && tok.front() == '+') tok.remove_prefix(1);  // from_chars rejects '+'
  double v = 0;
  auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  if (ec != std::errc() || end != tok.data() + tok.size() || tok.empty()) return std::nullopt;
  return v;
}

std::optional<long long> parseInt(std::string_view tok) {
  if (!tok.empty() && tok.front() == '+') tok.remove_prefix(1);
  long long v = 0;
  auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  if (ec != std::errc() || end != tok.data() + tok.size() || tok.empty()) return std::nullopt;
  return v;
}

Eigen::Vector3d parseVector(const std::vector<std::string_view>& tok, size_t first,
                            const std::string& file, int line) {
  if (tok.size() < first + 3) throw ParseError(file, line, "expected 3 coordinates");
  Eigen::Vector3d v;
  for (int d = 0; d < 3; ++d) {
    auto x = parseDouble(tok[first + d]);
    if (!x) throw ParseError(file, line, "bad number '" + std::string(tok[first + d]) + "'");
    v[d] = *x;
  }
  return v;
}

void checkIndices(const std::vector<int>& idx, size_t numVerts, size_t minSize, bool cyclic,
                  const std::string& file, int line) {
  if (idx.size() < minSize) {
    throw ParseError(file, line, "needs at least " + std::to_string(minSize) + " vertices");
  }
  for (size_t k = 0; k < idx.size(); ++k) {
    if (idx[k] < 0 || static_cast<size_t>(idx[k]) >= numVerts) {
      throw ParseError(file, line, "vertex index out of range");
    }
    const bool hasNext = cyclic || k + 1 < idx.size();
    if (hasNext && idx[k] == idx[(k + 1) % idx.size()]) {
      throw ParseError(file, line, "vertex repeated in a row");
    }
  }
}

std::string formatVector(const Eigen::Vector3d& v, int precision) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%.*g %.*g %.*g", precision, v.x(), precision, v.y(), precision,
                v.z());
  return buf;
}

bool getLine(std::istream& in, std::string& line) {
  if (!std::getline(in, line)) return false;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

void putLE(std::ostream& out, const void* data, size_t size) {
  char buf[8];
  std::memcpy(buf, data, size);
  if constexpr (std::endian::native == std::endian::big) std::reverse(buf, buf + size);
  out.write(buf, static_cast<std::streamsize>(size));
}

void getLE(const char* src, void* data, size_t size, bool srcLittleEndian) {
  char buf[8];
  std::memcpy(buf, src, size);
  const bool hostLittle = std::endian::native == std::endian::little;
  if (hostLittle != srcLittleEndian) std::reverse(buf, buf + size);
  std::memcpy(data, buf, size);
}

}  // namespace meshio

namespace {

enum class Format { Obj, Stl, Ply, Off };

Format formatOf(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".obj") return Format::Obj;
  if (ext == ".stl") return Format::Stl;
  if (ext == ".ply") return Format::Ply;
  if (ext == ".off") return Format::Off;
  throw Error(path.string() + ": unsupported mesh file format '" + ext + "'");
}

meshio::MeshData readData(const std::filesystem::path& path, Format fmt,
                          const MeshIOOptions& opts) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string() + ": cannot open mesh file for reading");
  const std::string file = path.string();
  switch (fmt) {
    case Format::Obj:
      return meshio::readObj(in, file, opts.zeroIndexed);
    case Format::Stl:
      return meshio::readStl(in, file);
    case Format::Ply:
      return meshio::readPly(in, file);
    case Format::Off:
      return meshio::readOff(in, file);
  }
  throw Error(file + ": unsupported mesh file format");
}

// Readers have already range-checked every index, so addFace cannot throw.
PolygonalMesh toPolygonal(const meshio::MeshData& d) {
  PolygonalMesh mesh;
  for (const auto& v : d.vertices) mesh.addVertex(v);
  for (const auto& f : d.faces) mesh.addFace(f);
  return mesh;
}

PolylineMesh toPolyline(const meshio::MeshData& d) {
  PolylineMesh mesh;
  for (const auto& v : d.vertices) mesh.addVertex(v);
  for (const auto& l : d.lines) mesh.addLine(l);
  return mesh;
}

PointMesh toPoints(const meshio::MeshData& d) {
  PointMesh mesh;
  for (const auto& v : d.vertices) mesh.addVertex(v);
  if (!d.normals.empty() && d.normals.size() == d.vertices.size()) mesh.setNormals(d.normals);
  return mesh;
}

[[noreturn]] void unsupportedPair(const std::filesystem::path& path, const char* kind) {
  throw Error(path.string() + ": format does not support a " + kind);
}

}  // namespace

std::unique_ptr<MeshBase> readMesh(const std::filesystem::path& path, const MeshIOOptions& opts) {
  const Format fmt = formatOf(path);
  const meshio::MeshData d = readData(path, fmt, opts);
  if (!d.faces.empty() || fmt == Format::Stl || fmt == Format::Off) {
    return std::make_unique<PolygonalMesh>(toPolygonal(d));
  }
  if (!d.lines.empty()) return std::make_unique<PolylineMesh>(toPolyline(d));
  return std::make_unique<PointMesh>(toPoints(d));
}

PolygonalMesh readPolygonalMesh(const std::filesystem::path& path, const MeshIOOptions& opts) {
  const meshio::MeshData d = readData(path, formatOf(path), opts);
  if (d.faces.empty() && !d.lines.empty()) {
    throw Error(path.string() + ": file holds polylines, not a polygonal mesh");
  }
  return toPolygonal(d);
}

PolylineMesh readPolylineMesh(const std::filesystem::path& path, const MeshIOOptions& opts) {
  const Format fmt = formatOf(path);
  if (fmt != Format::Obj) unsupportedPair(path, "PolylineMesh");
  return toPolyline(readData(path, fmt, opts));
}

PointMesh readPointMesh(const std::filesystem::path& path, const MeshIOOptions& opts) {
  const Format fmt = formatOf(path);
  if (fmt != Format::Obj && fmt != Format::Ply) unsupportedPair(path, "PointMesh");
  return toPoints(readData(path, fmt, opts));
}

void writeMesh(const MeshBase& mesh, const std::filesystem::path& path, const MeshIOOptions& opts) {
  const Format fmt = formatOf(path);
  const bool polygonal = dynamic_cast<const PolygonalMesh*>(&mesh) != nullptr;
  const bool points = dynamic_cast<const PointMesh*>(&mesh) != nullptr;
  if (fmt != Format::Obj && !polygonal && !(fmt == Format::Ply && points)) {
    unsupportedPair(path, points ? "PointMesh" : "PolylineMesh");
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error(path.string() + ": cannot open mesh file for writing");
  switch (fmt) {
    case Format::Obj:
      meshio::writeObj(out, mesh, opts);
      break;
    case Format::Stl:
      meshio::writeStl(out, mesh, opts);
      break;
    case Format::Ply:
      meshio::writePly(out, mesh, opts);
      break;
    case Format::Off:
      meshio::writeOff(out, mesh, opts);
      break;
  }
  out.flush();
  if (!out) throw Error(path.string() + ": error while writing mesh file");
}

}  // namespace sinew
