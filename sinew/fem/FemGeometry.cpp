// FemModel3d's geometry (guide §6.3) and its node and element queries
// (§6.4.5): the `meshes` list with the generated surface mesh and embedded
// meshes, kept on the nodes after every step (HasSlaveObjects), and the
// nearest-node, nearest-element and surface queries.
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/FemSurface.h"

namespace sinew {

namespace {
/// The boundary triangle nearest to p: its element, and the nearest point.
FemElement3d* nearestFace(const std::vector<BoundaryTriangle>& tris, const Vector3d& p, Vector3d* near) {
  FemElement3d* best = nullptr;
  double bestDist = INFINITY;
  Vector3d bestPoint = p;
  for (const BoundaryTriangle& t : tris) {
    const Vector3d q = nearestPointOnTriangle(p, t.nodes[0]->getPosition(), t.nodes[1]->getPosition(),
                                              t.nodes[2]->getPosition());
    if (const double d = (q - p).squaredNorm(); d < bestDist) bestDist = d, best = t.element, bestPoint = q;
  }
  if (near) *near = bestPoint;
  return best;
}
/// The mesh of boundary triangles, one vertex per node in the order the
/// triangles first reach them; vertexNodes receives those nodes.
PolygonalMesh boundaryMesh(const std::vector<BoundaryTriangle>& tris, std::vector<FemNode3d*>& vertexNodes) {
  PolygonalMesh mesh;
  std::unordered_map<const FemNode3d*, int> vertexOf;
  for (const BoundaryTriangle& t : tris) {
    std::vector<int> face;
    for (FemNode3d* n : t.nodes) {
      auto [it, isNew] = vertexOf.emplace(n, mesh.numVertices());
      if (isNew) mesh.addVertex(n->getPosition()), vertexNodes.push_back(n);
      face.push_back(it->second);
    }
    mesh.addFace(face);
  }
  return mesh;
}

/// Selects the elements of a set.
class ElementSetFilter : public ElementFilter {
 public:
  explicit ElementSetFilter(const std::vector<FemElement3d*>& elems) : mySet(elems.begin(), elems.end()) {}
  bool elementIsValid(const FemElement3dBase& e) const override { return mySet.count(&e) > 0; }

 private:
  std::unordered_set<const FemElement3dBase*> mySet;
};

}  // namespace

// ------------------------------------------------------------ queries

FemNode3d* FemModel3d::findNearestNode(const Vector3d& p, double maxDist) const {
  FemNode3d* n = findNearestNode(p);
  return n && (n->getPosition() - p).norm() <= maxDist ? n : nullptr;
}

std::vector<FemNode3d*> FemModel3d::findNearestNodes(const Vector3d& p, double maxDist) const {
  std::vector<FemNode3d*> found;
  for (auto& n : *myNodes)
    if ((n.getPosition() - p).norm() <= maxDist) found.push_back(&n);
  return found;
}

FemElement3d* FemModel3d::findNearestVolumetricElement(Vector3d* near, const Vector3d& p,
                                                       const ElementFilter* filter) {
  for (auto& e : *myElements)
    if ((!filter || filter->elementIsValid(e)) && elementContains(e, p)) {
      if (near) *near = p;
      return &e;
    }
  // Outside: the nearest point of the elements is on their boundary.
  if (!filter) return nearestFace(boundaryTriangles(), p, near);
  return nearestFace(findBoundaryTriangles(*myElements, filter), p, near);
}

ShellElement3d* FemModel3d::findNearestShellElement(Vector3d* near, const Vector3d& p, const ElementFilter* filter) {
  ShellElement3d* best = nullptr;
  double bestDist = INFINITY;
  Vector3d bestPoint = p;
  for (auto& e : *myShells) {
    if (filter && !filter->elementIsValid(e)) continue;
    // The surface through the shell's nodes: one triangle, or a quad's two.
    const int n = e.numNodes();
    for (int k = 1; k + 1 < n; ++k) {
      const Vector3d q = nearestPointOnTriangle(p, e.getNode(0).getPosition(), e.getNode(k).getPosition(),
                                                e.getNode(k + 1).getPosition());
      if (const double d = (q - p).squaredNorm(); d < bestDist) bestDist = d, best = &e, bestPoint = q;
    }
  }
  if (near) *near = bestPoint;
  return best;
}

/// The nearer of a volumetric and a shell candidate, with its point.
FemElement3dBase* FemModel3d::nearerOf(FemElement3d* vol, const Vector3d& volPoint, ShellElement3d* shell,
                                       const Vector3d& shellPoint, const Vector3d& p, Vector3d* near) {
  const bool useShell = shell && (!vol || (shellPoint - p).squaredNorm() < (volPoint - p).squaredNorm());
  if (near) *near = useShell ? shellPoint : volPoint;
  return useShell ? static_cast<FemElement3dBase*>(shell) : vol;
}

FemElement3dBase* FemModel3d::findNearestElement(Vector3d* near, const Vector3d& p, const ElementFilter* filter) {
  Vector3d pv = p, ps = p;
  FemElement3d* vol = findNearestVolumetricElement(&pv, p, filter);
  if (vol && pv == p) {  // inside it
    if (near) *near = p;
    return vol;
  }
  ShellElement3d* shell = findNearestShellElement(&ps, p, filter);
  return nearerOf(vol, pv, shell, ps, p, near);
}

FemElement3dBase* FemModel3d::findNearestSurfaceElement(Vector3d* near, const Vector3d& p) {
  Vector3d pv = p, ps = p;
  FemElement3d* vol = nearestFace(boundaryTriangles(), p, &pv);
  ShellElement3d* shell = findNearestShellElement(&ps, p);
  return nearerOf(vol, pv, shell, ps, p, near);
}

const std::vector<BoundaryTriangle>& FemModel3d::boundaryTriangles() {
  if (!myBoundary) myBoundary = std::make_unique<std::vector<BoundaryTriangle>>(findBoundaryTriangles(*myElements));
  return *myBoundary;
}

// ------------------------------------------------------------ meshes

void FemModel3d::componentStructureChanged() {
  MechSystemBase::componentStructureChanged();
  if (!mySurface) return;  // still being constructed
  if (myElements->size() + myShells->size() != myElementsSeen) {
    myElementsSeen = myElements->size() + myShells->size();
    myBoundary.reset();
    if (mySurface->isGeneratedSurface()) mySurfaceStale = true;
  }
  if (myNodes->size() != myNodesSeen) {
    if (myNodes->size() < myNodesSeen) myNodesRemoved = true;
    myNodesSeen = myNodes->size();
  }
}

void FemModel3d::updateSurface() {
  if (mySurfaceStale) createSurfaceMesh(nullptr);
}

void FemModel3d::updateSlavePos() {
  if (myNodesRemoved) {
    // Meshes may refer to removed nodes; a stale generated surface is
    // rebuilt below instead.
    for (auto& m : *myMeshes)
      if (!(&m == mySurface && mySurfaceStale)) m.resolveNodes(*this);
    myNodesRemoved = false;
  }
  updateSurface();
  for (auto& m : *myMeshes) m.updateVertexPositions();
}

FemMeshComp& FemModel3d::getSurfaceMeshComp() {
  updateSurface();
  return *mySurface;
}

PolygonalMesh& FemModel3d::getSurfaceMesh() { return static_cast<PolygonalMesh&>(getSurfaceMeshComp().getMesh()); }

bool FemModel3d::isSurfaceNode(const FemNode3d& n) {
  updateSurface();
  return mySurfaceNodes.count(&n) > 0;
}

FemMeshComp& FemModel3d::createSurfaceMesh(const ElementFilter* filter) {
  std::vector<BoundaryTriangle> tris = filter ? findBoundaryTriangles(*myElements, filter) : boundaryTriangles();
  // Shell elements (§6.1.2.3) are surface themselves: their corner nodes,
  // counter-clockwise about their normal (the front surface of a regular
  // shell; its thickness lies behind it).
  if (!filter)
    for (auto& e : *myShells) {
      const auto& n = e.getNodes();
      for (size_t k = 1; k + 1 < n.size(); ++k) tris.push_back({{n[0], n[k], n[k + 1]}, nullptr});
    }
  std::vector<FemNode3d*> vertexNodes;
  PolygonalMesh mesh = boundaryMesh(tris, vertexNodes);
  mySurface->clearVertexAttachments();
  static_cast<PolygonalMesh&>(mySurface->getMesh()) = std::move(mesh);
  for (int v = 0; v < static_cast<int>(vertexNodes.size()); ++v) mySurface->addVertexAttachment(v, {vertexNodes[v]}, {1.0});
  mySurface->setGeneratedSurface(true);
  mySurfaceStale = false;
  mySurfaceNodes = {vertexNodes.begin(), vertexNodes.end()};
  return *mySurface;
}

FemMeshComp& FemModel3d::createVolumetricSurfaceMesh(const std::string& name, const std::vector<FemElement3d*>& elems) {
  if (elems.empty()) throw ModelError("createVolumetricSurfaceMesh: no elements given", describe());
  for (const FemElement3d* e : elems)
    if (!e || e->getParent() != myElements)
      throw ModelError("createVolumetricSurfaceMesh: " + (e ? e->describe() : std::string("a null element")) +
                           " is not an element of this model",
                       describe());
  std::vector<FemNode3d*> vertexNodes;
  const ElementSetFilter filter(elems);
  auto mesh = std::make_shared<PolygonalMesh>(boundaryMesh(findBoundaryTriangles(*myElements, &filter), vertexNodes));
  FemMeshComp& comp = myMeshes->add(std::make_unique<FemMeshComp>(std::move(mesh), name));
  comp.setCollidable(Collidability::Internal);  // a subcollidable (§8.3.2)
  for (int v = 0; v < static_cast<int>(vertexNodes.size()); ++v) comp.addVertexAttachment(v, {vertexNodes[v]}, {1.0});
  return comp;
}

FemMeshComp& FemModel3d::setSurfaceMesh(const PolygonalMesh& mesh) {
  mySurface->clearVertexAttachments();
  static_cast<PolygonalMesh&>(mySurface->getMesh()) = mesh;
  mySurface->setGeneratedSurface(false);
  mySurfaceStale = false;
  try {
    attachVertices(*mySurface);
  } catch (...) {
    mySurface->setGeneratedSurface(true);  // back to the generated surface
    mySurfaceStale = true;
    throw;
  }
  mySurfaceNodes.clear();
  for (int v = 0; v < mySurface->numVertexAttachments(); ++v)
    if (FemNode3d* n = mySurface->getVertexNode(v)) mySurfaceNodes.insert(n);
  return *mySurface;
}

FemMeshComp& FemModel3d::addMesh(const std::string& name, std::shared_ptr<MeshBase> mesh) {
  if (!mesh) throw ModelError("addMesh: no mesh given", describe());
  FemMeshComp& comp = myMeshes->add(std::make_unique<FemMeshComp>(std::move(mesh), name));
  comp.setCollidable(Collidability::Internal);  // a subcollidable (§8.3.2)
  try {
    attachVertices(comp);
  } catch (...) {
    myMeshes->remove(comp);
    throw;
  }
  return comp;
}

void FemModel3d::attachVertices(FemMeshComp& comp) {
  if (numElements() == 0) throw ModelError("cannot embed a mesh in an FEM model without elements", comp.describe());
  Eigen::AlignedBox3d box;
  for (auto& n : *myNodes) box.extend(n.getPosition());
  const double tol = 1e-10 * box.diagonal().norm();  // "on a node", relative to the model's size
  const MeshBase& mesh = comp.getMesh();
  for (int v = 0; v < mesh.numVertices(); ++v) {
    const Vector3d& p = mesh.getVertex(v);
    if (!p.allFinite()) throw ModelError("vertex " + std::to_string(v) + " is not finite", comp.describe());
    if (FemNode3d* n = findNearestNode(p, tol)) {
      comp.addVertexAttachment(v, {n}, {1.0});
      continue;
    }
    comp.addVertexAttachment(v, *findNearestVolumetricElement(nullptr, p));
  }
  comp.updateVertexPositions();
}

}  // namespace sinew
