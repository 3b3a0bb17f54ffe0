// Reading and writing mesh files, with the format chosen by the file suffix
// (Guide §2.5.5, Table 2.1; checklist ME-17, ME-18, ME-19).
//
//   suffix  format                        kinds read/written
//   .obj    Alias Wavefront               polygonal, polyline, point
//   .stl    STereoLithography             polygonal (ASCII or binary read)
//   .ply    Polygon file format           polygonal, point (ASCII or binary read)
//   .off    Object file format            polygonal
//
// .obj indices are 1-based unless MeshIOOptions::zeroIndexed is set; vertex
// coordinates are written with 17 significant digits by default, which
// round-trips every double exactly. STL stores unconnected triangles, so the
// reader merges vertices with bit-identical coordinates to restore sharing.
// Errors: an unknown suffix, an unsupported mesh/format pair or an I/O
// failure throws sinew::Error naming the file; a malformed file throws
// sinew::ParseError with the 1-based line (0 inside binary data).
#pragma once

#include <filesystem>
#include <memory>

#include "sinew/geometry/MeshBase.h"
#include "sinew/geometry/PointMesh.h"
#include "sinew/geometry/PolygonalMesh.h"
#include "sinew/geometry/PolylineMesh.h"

namespace sinew {

struct MeshIOOptions {
  /// .obj only: indices start at 0 instead of 1 (read and write).
  bool zeroIndexed = false;
  /// Significant digits for written coordinates.
  int precision = 17;
  /// .stl and .ply only: write binary (little-endian) instead of ASCII.
  bool binary = false;
};

/// Reads any supported file. The mesh kind follows the contents: faces give a
/// PolygonalMesh, else polylines a PolylineMesh, else a PointMesh (.stl and
/// .off always give a PolygonalMesh).
std::unique_ptr<MeshBase> readMesh(const std::filesystem::path& path,
                                   const MeshIOOptions& opts = {});

/// Reads a surface; throws Error if the file holds polylines but no faces.
PolygonalMesh readPolygonalMesh(const std::filesystem::path& path, const MeshIOOptions& opts = {});
/// Reads the polylines of a .obj file.
PolylineMesh readPolylineMesh(const std::filesystem::path& path, const MeshIOOptions& opts = {});
/// Reads the vertices (and per-vertex normals, if present) of a .obj or .ply file.
PointMesh readPointMesh(const std::filesystem::path& path, const MeshIOOptions& opts = {});

/// Writes a mesh in the format given by the suffix.
void writeMesh(const MeshBase& mesh, const std::filesystem::path& path,
               const MeshIOOptions& opts = {});

}  // namespace sinew
