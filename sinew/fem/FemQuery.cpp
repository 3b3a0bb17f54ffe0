#include "sinew/fem/FemQuery.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "sinew/Error.h"

namespace sinew {

namespace {

/// The surface mesh as faces, their normals, and its edges with the faces
/// on them, each vertex standing for its node.
struct SurfaceGraph {
  const PolygonalMesh& mesh;  ///< the surface, its vertices at the nodes' current positions
  const std::vector<std::vector<int>>& faces;
  std::vector<Vector3d> normals;
  std::vector<FemNode3d*> nodeOf;                   ///< per vertex (null: not at a node)
  std::map<std::pair<int, int>, std::vector<int>> edgeFaces;  ///< (low, high) vertex → faces
  std::vector<std::vector<int>> vertexFaces;

  explicit SurfaceGraph(FemModel3d& fem)
      : mesh(dynamic_cast<const PolygonalMesh&>(fem.getSurfaceMeshComp().getMesh())), faces(mesh.getFaces()) {
    FemMeshComp& comp = fem.getSurfaceMeshComp();
    nodeOf.resize(mesh.numVertices());
    vertexFaces.resize(mesh.numVertices());
    comp.updateVertexPositions();  // the nodes' current positions, embedded vertices too
    for (int v = 0; v < mesh.numVertices(); ++v) nodeOf[v] = comp.getVertexNode(v);
    for (size_t f = 0; f < faces.size(); ++f) {
      const std::vector<int>& face = faces[f];
      for (size_t k = 0; k < face.size(); ++k) {
        const int a = face[k], b = face[(k + 1) % face.size()];
        edgeFaces[edge(a, b)].push_back(static_cast<int>(f));
        vertexFaces[a].push_back(static_cast<int>(f));
      }
      normals.push_back(mesh.computeFaceNormal(static_cast<int>(f)));  // Newell's normal
    }
  }
  const Vector3d& position(int v) const { return mesh.getVertex(v); }
  static std::pair<int, int> edge(int a, int b) { return {std::min(a, b), std::max(a, b)}; }
  /// The bend angle of an edge; NaN for an edge of one face (a border).
  double bend(const std::vector<int>& on) const {
    if (on.size() != 2) return std::nan("");
    return std::acos(std::clamp(normals[on[0]].dot(normals[on[1]]), -1.0, 1.0));
  }
  int vertexOf(const FemNode3d& node) const {
    for (size_t v = 0; v < nodeOf.size(); ++v)
      if (nodeOf[v] == &node) return static_cast<int>(v);
    throw ModelError("node is not on the surface mesh", node.describe());
  }
};

std::vector<FemNode3d*> inNumberOrder(const SurfaceGraph& g, const std::set<int>& vertices) {
  std::vector<FemNode3d*> nodes;
  for (int v : vertices)
    if (g.nodeOf[v]) nodes.push_back(g.nodeOf[v]);
  std::sort(nodes.begin(), nodes.end(), [](auto* a, auto* b) { return a->getNumber() < b->getNumber(); });
  return nodes;
}

void checkAngle(double a, const char* name, const FemNode3d& node0) {
  if (!(a >= 0)) throw ModelError(std::string(name) + " must be a non-negative angle", node0.describe());
}

/// The faces of the patch around node0 (a flag per face).
std::vector<char> patchFaces(const SurfaceGraph& g, const FemNode3d& node0, double maxBend) {
  checkAngle(maxBend, "maxBendAngle", node0);
  std::vector<char> in(g.faces.size(), 0);
  std::vector<int> queue;
  for (int f : g.vertexFaces[g.vertexOf(node0)])
    if (!in[f]) in[f] = 1, queue.push_back(f);
  for (size_t q = 0; q < queue.size(); ++q) {
    const std::vector<int>& face = g.faces[queue[q]];
    for (size_t k = 0; k < face.size(); ++k) {
      const std::vector<int>& on = g.edgeFaces.at(SurfaceGraph::edge(face[k], face[(k + 1) % face.size()]));
      if (!(g.bend(on) <= maxBend)) continue;  // a sharper edge, or a border
      for (int f : on)
        if (!in[f]) in[f] = 1, queue.push_back(f);
    }
  }
  return in;
}

}  // namespace

std::vector<FemNode3d*> FemQuery::findPatchNodes(FemModel3d& fem, const FemNode3d& node0, double maxBendAngle) {
  const SurfaceGraph g(fem);
  const std::vector<char> in = patchFaces(g, node0, maxBendAngle);
  std::set<int> vertices;
  for (size_t f = 0; f < g.faces.size(); ++f)
    if (in[f]) vertices.insert(g.faces[f].begin(), g.faces[f].end());
  return inNumberOrder(g, vertices);
}

std::vector<FemNode3d*> FemQuery::findPatchBoundaryNodes(FemModel3d& fem, const FemNode3d& node0,
                                                         double maxBendAngle) {
  const SurfaceGraph g(fem);
  const std::vector<char> in = patchFaces(g, node0, maxBendAngle);
  std::set<int> vertices;
  for (const auto& [e, on] : g.edgeFaces) {
    const size_t inside = std::count_if(on.begin(), on.end(), [&](int f) { return in[f] != 0; });
    if (inside > 0 && (on.size() == 1 || inside < on.size())) vertices.insert({e.first, e.second});
  }
  return inNumberOrder(g, vertices);
}

std::vector<FemNode3d*> FemQuery::findEdgeLineNodes(FemModel3d& fem, const FemNode3d& node0, double minBendAngle,
                                                    double maxEdgeAngle, bool allowBranching) {
  checkAngle(minBendAngle, "minBendAngle", node0);
  checkAngle(maxEdgeAngle, "maxEdgeAngle", node0);
  const SurfaceGraph g(fem);
  // The feature edges at each vertex.
  std::vector<std::vector<int>> along(g.nodeOf.size());
  for (const auto& [e, on] : g.edgeFaces) {
    const double b = g.bend(on);
    if (std::isnan(b) || b >= minBendAngle) along[e.first].push_back(e.second), along[e.second].push_back(e.first);
  }
  const int v0 = g.vertexOf(node0);
  std::set<int> vertices{v0};
  std::set<std::pair<int, int>> used;
  // Walks from v along its unused feature edges: all of them at the start,
  // then those turning by at most maxEdgeAngle from the arriving direction.
  struct Arrival {
    int vertex;
    Vector3d direction;  // zero at the start: every edge goes
  };
  std::vector<Arrival> stack{{v0, Vector3d::Zero()}};
  while (!stack.empty()) {
    const Arrival at = stack.back();
    stack.pop_back();
    std::vector<std::pair<double, int>> next;  // (turn, vertex)
    for (int w : along[at.vertex]) {
      if (used.count(SurfaceGraph::edge(at.vertex, w))) continue;
      const Vector3d d = (g.position(w) - g.position(at.vertex)).normalized();
      const double turn =
          at.direction.isZero() ? 0 : std::acos(std::clamp(at.direction.dot(d), -1.0, 1.0));
      if (turn <= maxEdgeAngle) next.emplace_back(turn, w);
    }
    if (next.empty()) continue;
    std::sort(next.begin(), next.end());
    if (!allowBranching && !at.direction.isZero()) next.resize(1);
    for (const auto& [turn, w] : next) {
      if (used.count(SurfaceGraph::edge(at.vertex, w))) continue;
      used.insert(SurfaceGraph::edge(at.vertex, w));
      vertices.insert(w);
      stack.push_back({w, (g.position(w) - g.position(at.vertex)).normalized()});
    }
  }
  return inNumberOrder(g, vertices);
}

}  // namespace sinew
