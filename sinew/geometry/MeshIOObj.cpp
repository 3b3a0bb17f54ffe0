// Alias Wavefront .obj reader and writer (Guide §2.5.5).
//
// Reads v, vn, f and l records; face and line entries may use the v, v/vt,
// v//vn and v/vt/vn forms, and negative indices count back from the latest
// vertex. Other records (vt, o, g, s, usemtl, mtllib, ...) carry nothing a
// mesh here stores and are skipped.
#include <climits>

#include "sinew/Error.h"
#include "sinew/geometry/MeshIOFormats.h"
#include "sinew/geometry/PointMesh.h"
#include "sinew/geometry/PolygonalMesh.h"
#include "sinew/geometry/PolylineMesh.h"

namespace sinew::meshio {

namespace {

// Resolves one "v[/vt[/vn]]" entry to a 0-based vertex index.
int parseObjIndex(std::string_view tok, size_t numVerts, bool zeroIndexed, const std::string& file,
                  int line) {
  const std::string_view head = tok.substr(0, tok.find('/'));
  auto idx = parseInt(head);
  if (!idx) throw ParseError(file, line, "bad vertex index '" + std::string(tok) + "'");
  if (*idx > INT_MAX || *idx < -INT_MAX) throw ParseError(file, line, "vertex index out of range");
  if (*idx < 0) return static_cast<int>(static_cast<long long>(numVerts) + *idx);  // relative
  if (*idx == 0 && !zeroIndexed) throw ParseError(file, line, "vertex index 0 in a 1-based file");
  return static_cast<int>(zeroIndexed ? *idx : *idx - 1);
}

struct PendingFeature {
  std::vector<int> idx;
  int line;
  bool isFace;
};

}  // namespace

MeshData readObj(std::istream& in, const std::string& file, bool zeroIndexed) {
  MeshData d;
  // Faces may refer forward to vertices defined later, so positive indices
  // are checked once the whole file has been read.
  std::vector<PendingFeature> pending;
  std::string text;
  int line = 0;
  while (getLine(in, text)) {
    ++line;
    const auto tok = splitTokens(text);
    if (tok.empty() || tok[0].front() == '#') continue;
    const std::string_view key = tok[0];
    if (key == "v") {
      d.vertices.push_back(parseVector(tok, 1, file, line));
    } else if (key == "vn") {
      d.normals.push_back(parseVector(tok, 1, file, line));
    } else if (key == "f" || key == "l") {
      PendingFeature feat{{}, line, key == "f"};
      for (size_t k = 1; k < tok.size(); ++k) {
        feat.idx.push_back(parseObjIndex(tok[k], d.vertices.size(), zeroIndexed, file, line));
      }
      pending.push_back(std::move(feat));
    }
  }
  for (auto& feat : pending) {
    checkIndices(feat.idx, d.vertices.size(), feat.isFace ? 3 : 2, feat.isFace, file, feat.line);
    (feat.isFace ? d.faces : d.lines).push_back(std::move(feat.idx));
  }
  // Normals are kept only as one per vertex (point clouds); face-varying
  // normals are for shading, which these meshes recompute.
  if (d.normals.size() != d.vertices.size()) d.normals.clear();
  return d;
}

void writeObj(std::ostream& out, const MeshBase& mesh, const MeshIOOptions& opts) {
  const int base = opts.zeroIndexed ? 0 : 1;
  out << "# Sinew mesh\n";
  for (const auto& v : mesh.getVertices()) out << "v " << formatVector(v, opts.precision) << '\n';
  auto writeList = [&](const char* key, const std::vector<std::vector<int>>& lists) {
    for (const auto& l : lists) {
      out << key;
      for (int i : l) out << ' ' << i + base;
      out << '\n';
    }
  };
  if (auto* pm = dynamic_cast<const PolygonalMesh*>(&mesh)) {
    writeList("f", pm->getFaces());
  } else if (auto* lm = dynamic_cast<const PolylineMesh*>(&mesh)) {
    writeList("l", lm->getLines());
  } else if (auto* tm = dynamic_cast<const PointMesh*>(&mesh); tm && tm->hasNormals()) {
    for (const auto& n : tm->getNormals()) out << "vn " << formatVector(n, opts.precision) << '\n';
  }
}

}  // namespace sinew::meshio
