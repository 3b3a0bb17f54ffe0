// Object file format .off reader and writer (Guide §2.5.5).
//
// Layout: an "OFF" line (COFF/NOFF/CNOFF variants add per-vertex values that
// are ignored), a "nv nf ne" count line, nv vertex lines, then nf face lines
// "n i0 ... i(n-1)" with 0-based indices, optionally followed by a colour.
// '#' starts a comment anywhere.
#include "sinew/Error.h"
#include "sinew/geometry/MeshIOFormats.h"
#include "sinew/geometry/PolygonalMesh.h"

namespace sinew::meshio {

namespace {

// Next line with content, comments removed; returns its tokens (empty at EOF).
std::vector<std::string_view> nextRecord(std::istream& in, std::string& text, int& line) {
  while (getLine(in, text)) {
    ++line;
    if (auto hash = text.find('#'); hash != std::string::npos) text.erase(hash);
    auto tok = splitTokens(text);
    if (!tok.empty()) return tok;
  }
  return {};
}

long long parseCount(std::string_view tok, const std::string& file, int line) {
  auto n = parseInt(tok);
  if (!n || *n < 0) throw ParseError(file, line, "bad count '" + std::string(tok) + "'");
  return *n;
}

}  // namespace

MeshData readOff(std::istream& in, const std::string& file) {
  std::string text;
  int line = 0;
  auto tok = nextRecord(in, text, line);
  const bool magic = !tok.empty() &&
                     (tok[0] == "OFF" || tok[0] == "COFF" || tok[0] == "NOFF" || tok[0] == "CNOFF");
  if (!magic) throw ParseError(file, line, "missing OFF header");
  // Some writers put the counts on the header line itself.
  if (tok.size() > 1) {
    tok.erase(tok.begin());
  } else {
    tok = nextRecord(in, text, line);
  }
  if (tok.size() < 2) throw ParseError(file, line, "expected vertex and face counts");
  const long long nv = parseCount(tok[0], file, line);
  const long long nf = parseCount(tok[1], file, line);

  MeshData d;
  for (long long i = 0; i < nv; ++i) {
    tok = nextRecord(in, text, line);
    if (tok.empty()) throw ParseError(file, line, "file ends before all vertices");
    d.vertices.push_back(parseVector(tok, 0, file, line));
  }
  for (long long f = 0; f < nf; ++f) {
    tok = nextRecord(in, text, line);
    if (tok.empty()) throw ParseError(file, line, "file ends before all faces");
    const long long n = parseCount(tok[0], file, line);
    if (static_cast<long long>(tok.size()) < n + 1) throw ParseError(file, line, "face too short");
    std::vector<int> face;
    for (long long k = 1; k <= n; ++k) {
      auto idx = parseInt(tok[k]);
      if (!idx || *idx < 0 || *idx >= nv) throw ParseError(file, line, "bad vertex index");
      face.push_back(static_cast<int>(*idx));
    }
    checkIndices(face, d.vertices.size(), 3, true, file, line);
    d.faces.push_back(std::move(face));
  }
  return d;
}

void writeOff(std::ostream& out, const MeshBase& mesh, const MeshIOOptions& opts) {
  const auto& pm = dynamic_cast<const PolygonalMesh&>(mesh);
  out << "OFF\n" << pm.numVertices() << ' ' << pm.numFaces() << " 0\n";
  for (const auto& v : pm.getVertices()) out << formatVector(v, opts.precision) << '\n';
  for (const auto& f : pm.getFaces()) {
    out << f.size();
    for (int v : f) out << ' ' << v;
    out << '\n';
  }
}

}  // namespace sinew::meshio
