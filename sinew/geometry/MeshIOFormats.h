// Internal to the mesh file I/O (Guide §2.5.5): the per-format readers and
// writers behind MeshIO.h and the small parsing helpers they share. Readers
// fill a format-neutral MeshData; MeshIO.cpp turns it into the mesh kind the
// caller asked for. Not part of the public API.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sinew/geometry/MeshBase.h"
#include "sinew/geometry/MeshIO.h"

namespace sinew::meshio {

/// What a file held, before choosing the mesh kind.
struct MeshData {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<Eigen::Vector3d> normals;  // per vertex, if the file gave exactly one each
  std::vector<std::vector<int>> faces;
  std::vector<std::vector<int>> lines;
};

MeshData readObj(std::istream& in, const std::string& file, bool zeroIndexed);
MeshData readStl(std::istream& in, const std::string& file);
MeshData readPly(std::istream& in, const std::string& file);
MeshData readOff(std::istream& in, const std::string& file);

void writeObj(std::ostream& out, const MeshBase& mesh, const MeshIOOptions& opts);
void writeStl(std::ostream& out, const MeshBase& mesh, const MeshIOOptions& opts);
void writePly(std::ostream& out, const MeshBase& mesh, const MeshIOOptions& opts);
void writeOff(std::ostream& out, const MeshBase& mesh, const MeshIOOptions& opts);

// ---- shared helpers (MeshIO.cpp) ----

/// Whitespace-separated tokens of a line (views into `line`).
std::vector<std::string_view> splitTokens(std::string_view line);
/// Locale-independent number parsing; nullopt unless the whole token parses.
std::optional<double> parseDouble(std::string_view tok);
std::optional<long long> parseInt(std::string_view tok);
/// Reads the three coordinates tok[first..first+2]; throws ParseError.
Eigen::Vector3d parseVector(const std::vector<std::string_view>& tok, size_t first,
                            const std::string& file, int line);
/// Throws ParseError unless all indices are in range, the polygon has at
/// least minSize entries and no index repeats its neighbour.
void checkIndices(const std::vector<int>& idx, size_t numVerts, size_t minSize, bool cyclic,
                  const std::string& file, int line);
/// Coordinates joined by spaces with `precision` significant digits.
std::string formatVector(const Eigen::Vector3d& v, int precision);
/// Reads one line, stripping a trailing '\r' (CRLF files); false at EOF.
bool getLine(std::istream& in, std::string& line);

/// Little-endian binary helpers (host order is detected at compile time).
void putLE(std::ostream& out, const void* data, size_t size);
void getLE(const char* src, void* data, size_t size, bool srcLittleEndian = true);

}  // namespace sinew::meshio
