// Contact detection of the CollisionManager (guide §8.4.1.2): the
// collidables, their meshes and trees, the broad phase over their world
// boxes and vertex penetration between the pairs a behaviour enables.
#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/contact/ContactPoints.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/mech/DistanceGridComp.h"
#include "sinew/mech/MechModel.h"

namespace sinew {

namespace {
bool collides(Collidability k) { return k == Collidability::All || k == Collidability::External; }
bool collidesInternally(Collidability k) { return k == Collidability::All || k == Collidability::Internal; }

/// The model whose `meshes` list holds mc, or null.
const FemModel3d* owningModel(const FemMeshComp& mc) {
  const Component* list = mc.getParent();
  return list ? dynamic_cast<const FemModel3d*>(list->getParent()) : nullptr;
}

void computeVertexAreas(const PolygonalMesh& mesh, std::vector<double>& areas) {
  areas.assign(mesh.numVertices(), 0.0);
  for (int f = 0; f < mesh.numFaces(); ++f) {
    const double third = mesh.computeFaceArea(f) / mesh.getFaces()[f].size();
    for (int v : mesh.getFaces()[f]) areas[v] += third;
  }
}

/// Near an edge or a corner of B the nearest feature's pseudo-normal blends
/// the faces that meet there, which would push sideways two boxes stacked
/// edge on edge. When B's faces within `eps` of the nearest distance are
/// not coplanar, the contact takes the face that A's vertex faces most
/// directly: the one whose normal is most opposed to A's vertex normal nA.
/// Returns false when the nearest feature's normal stands.
bool chooseFace(const TriangleBVTree& tree, const Vector3d& p, const Vector3d& nA, double dist, double eps,
                std::vector<int>& cands, Vector3d& normal, double& depth) {
  cands.clear();
  tree.trianglesWithin(p, std::abs(dist) + eps, cands);
  if (cands.size() < 2) return false;
  const Vector3d& n0 = tree.faceNormal(cands[0]);
  bool coplanar = true;
  int best = cands[0];
  for (int t : cands) {
    coplanar = coplanar && (tree.faceNormal(t) - n0).squaredNorm() < 1e-18;
    if (tree.faceNormal(t).dot(nA) < tree.faceNormal(best).dot(nA)) best = t;
  }
  if (coplanar) return false;
  normal = tree.faceNormal(best);
  depth = -(p - tree.triangleVertex(best, 0)).dot(normal);
  return true;
}

/// Barycentric coordinates of p (on or near the plane) in triangle abc.
Vector3d barycentric(const Vector3d& p, const Vector3d& a, const Vector3d& b, const Vector3d& c) {
  const Vector3d e0 = b - a, e1 = c - a, d = p - a;
  const double d00 = e0.dot(e0), d01 = e0.dot(e1), d11 = e1.dot(e1), d20 = d.dot(e0), d21 = d.dot(e1);
  const double den = d00 * d11 - d01 * d01;
  if (!(std::abs(den) > 0)) return Vector3d(1, 0, 0);
  const double v = (d11 * d20 - d01 * d21) / den, w = (d00 * d21 - d01 * d20) / den;
  return Vector3d(1 - v - w, v, w);
}

}  // namespace

Collidable::Group CollisionManager::groupOf(const Component& c) const {
  return dynamic_cast<const RigidBody*>(&c) || dynamic_cast<const CollisionPlane*>(&c) ? Collidable::Group::Rigid
                                                                                        : Collidable::Group::Deformable;
}

void CollisionManager::requireCollidable(const Component& c) const {
  if (!dynamic_cast<const RigidBody*>(&c) && !dynamic_cast<const FemModel3d*>(&c) &&
      !dynamic_cast<const FemMeshComp*>(&c) && !dynamic_cast<const CollisionPlane*>(&c))
    throw ModelError(
        "not a collidable: collision behaviors name rigid bodies, FEM models, FEM meshes and collision planes",
        c.describe());
}

const CollisionManager::TreeScan& CollisionManager::treeScan() const {
  if (const std::uint64_t epoch = propertyEpoch(); myTreeScan.epoch != epoch) {
    myTreeScan = TreeScan();
    // Bodies, planes and FEM models (not their meshes: those join only when
    // a behaviour names them, or their model self-collides).
    auto scan = [this](auto& self, Component& c) -> void {
      if (auto* mech = dynamic_cast<const MechModel*>(&c)) myTreeScan.mechs.push_back(mech);
      TreeScan::Candidate k;
      k.comp = &c;
      if ((k.rigid = dynamic_cast<RigidBody*>(&c)) || (k.plane = dynamic_cast<CollisionPlane*>(&c))) {
        myTreeScan.candidates.push_back(std::move(k));
      } else if ((k.fem = dynamic_cast<FemModel3d*>(&c))) {
        myTreeScan.candidates.push_back(std::move(k));
        return;
      }
      if (auto* cc = dynamic_cast<CompositeComponent*>(&c))
        for (int i = 0; i < cc->numComponents(); ++i) self(self, *cc->getComponent(i));
    };
    scan(scan, myMech);
    for (auto& k : myTreeScan.candidates) k.mechs = mechsAbove(*k.comp);
    myTreeScan.epoch = epoch;
  }
  return myTreeScan;
}

std::vector<CollisionManager::Collider> CollisionManager::collidables() const {
  const TreeScan& tree = treeScan();
  std::vector<Collider> out;
  for (const auto& c : tree.candidates) {
    const bool collidable =
        c.plane || (c.rigid && collides(c.rigid->getCollidable())) ||
        (c.fem && c.fem->numElements() + c.fem->numShellElements() > 0 && collides(c.fem->getCollidable()));
    if (!collidable) continue;
    Collider k;
    k.comp = c.comp;
    k.rigid = c.rigid;
    k.plane = c.plane;
    if (c.fem) {
      k.mesh = &c.fem->getSurfaceMeshComp();
      k.compound = c.fem;
    }
    k.mechs = c.mechs;
    out.push_back(std::move(k));
  }
  // Meshes of an FEM model (an embedded sphere) collide when a behaviour
  // names them, or with each other when their model self-collides (§8.3.2).
  std::vector<FemMeshComp*> meshes;
  auto addMesh = [&](FemMeshComp* mc) {
    if (std::find(meshes.begin(), meshes.end(), mc) == meshes.end()) meshes.push_back(mc);
  };
  for (const MechModel* m : tree.mechs)
    if (const CollisionManager* cm = m->findCollisionManager())
      for (const auto& p : cm->myPairs)
        for (FemMeshComp* mc : {p.meshA, p.meshB})
          if (mc) addMesh(mc);
  for (const auto& c : tree.candidates) {
    if (!c.fem) continue;
    const CollisionManager* cm = managerOf(c.mechs.empty() ? nullptr : c.mechs.front());
    if (!cm || !cm->getSelfBehavior(*c.fem)) continue;
    for (auto& mc : c.fem->getMeshComps())
      if (!c.fem->isSurfaceMeshComp(mc) && collidesInternally(mc.getCollidable())) addMesh(&mc);
  }
  for (FemMeshComp* mc : meshes) {
    Collider k;
    k.comp = mc;
    k.mesh = mc;
    k.compound = owningModel(*mc);
    k.submesh = !k.compound || !static_cast<const FemModel3d*>(k.compound)->isSurfaceMeshComp(*mc);
    k.mechs = mechsAbove(*mc);
    out.push_back(std::move(k));
  }
  for (const Collider& k : out)
    if (k.mesh && !dynamic_cast<PolygonalMesh*>(&k.mesh->getMesh()))
      throw ModelError("a collidable FEM mesh must be a polygonal mesh", k.mesh->describe());
  return out;
}

const CollisionBehavior* CollisionManager::pairBehavior(const Collider& a, const Collider& b,
                                                       const CollisionManager** owner) const {
  const CollisionManager* m = managerFor(a, b);
  *owner = m;
  if (!m) return nullptr;  // the lowest MechModel holding both sets no behaviour
  if (a.compound && a.compound == b.compound) {
    // Internal: two meshes of one model. Its surface encloses the others,
    // so it takes no part.
    if (!a.submesh || !b.submesh) return nullptr;
    if (!collidesInternally(a.mesh->getCollidable()) || !collidesInternally(b.mesh->getCollidable())) return nullptr;
    if (const CollisionBehavior* p = m->getBehavior(*a.comp, *b.comp)) return p->isEnabled() ? p : nullptr;
    return m->getSelfBehavior(*a.compound);
  }
  for (const Collider* c : {&a, &b})
    if (c->submesh && !collides(c->mesh->getCollidable())) return nullptr;
  return m->getActingBehavior(*a.comp, *b.comp);
}

const CollisionManager::Geometry* CollisionManager::geometryOf(const Collider& c) {
  if (c.plane) return nullptr;  // no mesh: its contacts are computed exactly
  auto& g = myGeometry[c.comp];
  if (c.mesh) {
    if (g && g->detection == myDetections) return g.get();
    const auto* mesh = static_cast<const PolygonalMesh*>(&c.mesh->getMesh());
    // updateContacts has moved the vertices: the tree of the last detection
    // is refitted to them (§8.4.2), or built if the mesh is another.
    if (g && g->fem == mesh && g->tree->refit(*mesh)) {
      g->detection = myDetections;
      computeVertexAreas(*mesh, g->vertexAreas);
      return g.get();
    }
    g = std::make_unique<Geometry>();
    g->fem = mesh;
    g->detection = myDetections;
    computeVertexAreas(*g->fem, g->vertexAreas);
    try {
      // An FEM mesh may be open (a sheet of shells, §8.1.4): its vertices
      // still collide with closed meshes.
      g->tree = std::make_unique<TriangleBVTree>(*g->fem, /*allowOpen=*/true);
    } catch (const ModelError& e) {
      g.reset();
      throw ModelError(e.what(), c.mesh->describe());
    }
    return g.get();
  }
  thread_local std::vector<const MeshBase*> sources;  // scratch: asked for every pair of every detection
  sources.clear();
  for (auto& mc : c.rigid->meshes())
    if (mc.isCollidable() && dynamic_cast<const PolygonalMesh*>(mc.getMesh().get())) sources.push_back(mc.getMesh().get());
  if (sources.empty()) {
    g.reset();
    return nullptr;
  }
  if (g && g->sources == sources) return g.get();
  g = std::make_unique<Geometry>();
  g->sources = sources;
  for (const MeshBase* m : sources) g->mesh.addMesh(static_cast<const PolygonalMesh&>(*m));
  g->mesh.triangulate();
  for (int i = 0; i < g->mesh.numVertices(); ++i) g->radius = std::max(g->radius, g->mesh.getVertex(i).norm());
  computeVertexAreas(g->mesh, g->vertexAreas);
  try {
    g->tree = std::make_unique<TriangleBVTree>(g->mesh);
  } catch (const ModelError& e) {
    g.reset();
    throw ModelError(e.what(), c.rigid->describe());
  }
  return g.get();
}

bool CollisionManager::pulled(const Collider& a, const Collider& b, int vertex) const {
  return std::find(mySeparating.begin(), mySeparating.end(), std::make_tuple(a.comp, b.comp, vertex)) !=
         mySeparating.end();
}

ContactPoint CollisionManager::vertexContact(const Collider& a, const Collider& b, int vertex,
                                             const Vector3d& position) const {
  ContactPoint c;
  c.collidableA = a.comp;
  c.collidableB = b.comp;
  c.bodyA = a.rigid;
  c.bodyB = b.rigid;
  c.vertex = vertex;
  c.position = position;
  return c;
}

bool CollisionManager::intersectPair(const Collider& a, const Collider& b, MeshIntersection& out) {
  const Geometry* ga = geometryOf(a);
  const Geometry* gb = geometryOf(b);
  if (!ga || !gb) return false;
  const RigidTransform3d TAW = poseOf(a.rigid), TBA = TAW.inverseTimes(poseOf(b.rigid));
  out = intersectMeshes(*ga->tree, *gb->tree, TBA.R, TBA.p);
  std::vector<std::vector<Vector3d>> contours;
  for (const IntersectionContour& c : out.contours) {
    contours.emplace_back();
    for (const Vector3d& p : c.points) contours.back().push_back(TAW.transformPoint(p));
  }
  // A vertex of one side in the other's tree coordinates.
  const RigidTransform3d TBW = poseOf(b.rigid), TAB = TBW.inverseTimes(TAW);
  for (int side = 0; side < 2; ++side)
    for (const MeshRegion& r : out.regions[side]) {
      PenetrationRegion pr;
      pr.collidable = side ? b.comp : a.comp;
      pr.other = side ? a.comp : b.comp;
      pr.vertices = r.vertices;
      const TriangleBVTree& self = side ? *gb->tree : *ga->tree;
      const TriangleBVTree& other = side ? *ga->tree : *gb->tree;
      const RigidTransform3d toOther = side ? TBA : TAB;
      out.nearest[side].resize(self.vertices().size());
      for (int v : r.vertices) {
        TriangleBVTree::Nearest& n = out.nearest[side][v];
        n = other.nearest(toOther.transformPoint(self.vertices()[v]));
        const double d = std::max(0.0, -n.distance);
        pr.depths.push_back(d);
        pr.maxDepth = std::max(pr.maxDepth, d);
      }
      for (int c : r.contours) pr.contours.push_back(contours[c]);
      pr.area = r.area;
      myRegions.push_back(std::move(pr));
    }
  return true;
}

void CollisionManager::detectVertices(const Collider& a, const Collider& b, double margin, double eps,
                                      const MeshIntersection* ajl, int side, const std::vector<char>* skip) {
  const Geometry* ga = geometryOf(a);
  const Geometry* gb = geometryOf(b);
  // An open mesh (shells) has no inside for A's vertices to be in.
  if (!ga || !gb || !gb->tree->isClosed()) return;
  const RigidTransform3d TAW = poseOf(a.rigid), TBW = poseOf(b.rigid);
  // Vertices of A in B's coordinates: T_B⁻¹ T_A (world for an FEM side).
  const RigidTransform3d TAB = TBW.inverseTimes(TAW);
  const PolygonalMesh& meshA = ga->surface();
  TriangleBVTree::Nearest n;
  std::vector<int> cands;
  // Two meshes of one model that share nodes touch there without
  // colliding: A's vertices on B's nodes are left out.
  const bool internal = a.compound && a.compound == b.compound;
  std::unordered_set<const FemNode3d*> nodesB;
  if (internal)
    for (int v = 0; v < b.mesh->numVertexAttachments(); ++v)
      for (const FemNode3d* node : b.mesh->getVertexNodes(v)) nodesB.insert(node);
  auto onB = [&](int v) {
    for (const FemNode3d* node : a.mesh->getVertexNodes(v))
      if (nodesB.count(node)) return true;
    return false;
  };
  // AJL_CONTOUR: the contours decide which vertices penetrate, and each
  // takes its share of its region's area; the distance query gives only
  // depth and normal (and finds the watched vertices outside).
  const std::vector<char>* inside = ajl ? &ajl->inside[side] : nullptr;
  std::vector<double> share;
  if (ajl) {
    share.assign(meshA.numVertices(), -1.0);
    for (const MeshRegion& r : ajl->regions[side])
      for (int v : r.vertices) share[v] = r.area / static_cast<double>(r.vertices.size());
  }
  for (int i = 0; i < meshA.numVertices(); ++i) {
    if (skip && static_cast<size_t>(i) < skip->size() && (*skip)[i]) continue;
    const bool in = inside && (*inside)[i];
    if (inside && !in && margin == 0) continue;
    const Vector3d pB = TAB.transformPoint(meshA.getVertex(i));
    if (in) n = ajl->nearest[side][i];  // queried once, by intersectPair
    else if (!gb->tree->within(pB, margin, n)) continue;
    if (pulled(a, b, i) || (internal && onB(i))) continue;
    ContactPoint c = vertexContact(a, b, i, TBW.transformPoint(pB));
    Vector3d normal;
    double depth;
    // A deforming B has no sharp edges to choose between.
    if (b.mesh || !chooseFace(*gb->tree, pB, TAB.R * ga->tree->vertexNormal(i), n.distance, eps, cands, normal, depth)) {
      // Inside: toward the nearest surface point; outside or on the
      // surface: the outward pseudo-normal there.
      const Vector3d toSurface = n.point - pB;
      const bool deep = n.distance < 0 && toSurface.norm() > 1e-12 * (1 + pB.norm());
      normal = deep ? toSurface.normalized() : n.normal;
      depth = -n.distance;
    }
    c.normal = TBW.R * normal;
    c.depth = depth;
    c.vertexArea = ga->vertexAreas[i];
    if (ajl) c.contactArea = share[i];
    if (a.mesh) addMasters(*a.mesh, i, 1.0, c.nodesA);
    if (b.mesh) {
      const int t = n.triangle;
      const Vector3d w = barycentric(n.point, gb->tree->triangleVertex(t, 0), gb->tree->triangleVertex(t, 1),
                                     gb->tree->triangleVertex(t, 2));
      for (int k = 0; k < 3; ++k) addMasters(*b.mesh, gb->tree->triangleVertexIndex(t, k), w[k], c.nodesB);
    }
    myContacts.push_back(std::move(c));
  }
}

void CollisionManager::setColliderType(ColliderType t) {
  if (t == ColliderType::Inherited) throw ModelError("the collision manager's colliderType cannot be INHERITED", describe());
  myColliderType = t;
}

void CollisionManager::setDistanceGridMaxResolution(int r) {
  if (r < 2) throw ModelError("distanceGridMaxResolution must be at least 2", describe());
  if (r == myGridResolution) return;
  myGridResolution = r;
  for (auto& [comp, g] : myGeometry)
    if (g) g->grid.reset();  // rebuilt at the new resolution when next needed
}

void CollisionManager::setDistanceGridFitWithOBB(bool fit) {
  if (fit == myGridOBB) return;
  myGridOBB = fit;
  for (auto& [comp, g] : myGeometry)
    if (g) g->grid.reset();
}

const DistanceGrid* CollisionManager::getDistanceGrid(RigidBody& body) {
  Collider c;
  c.comp = &body;
  c.rigid = &body;
  if (!geometryOf(c)) return nullptr;
  Geometry* g = myGeometry[&body].get();  // the one geometryOf built or kept
  // The body's own settings (its DistanceGridComp, §4.6), or the manager's.
  const DistanceGridComp* comp = body.findDistanceGridComp();
  const long version = comp ? comp->getVersion() : -1;
  if (g->grid && g->gridVersion != version) g->grid.reset();
  if (!g->grid) {
    try {
      g->grid = comp ? std::make_unique<DistanceGrid>(g->mesh, comp->getResolution(), comp->getMaxResolution(),
                                                      comp->getMarginFraction(), comp->getFitWithOBB())
                     : std::make_unique<DistanceGrid>(g->mesh, myGridResolution, 0.1, myGridOBB);
    } catch (const ModelError& e) {
      throw ModelError(e.what(), comp ? comp->describe() : body.describe());
    }
    g->gridVersion = version;
  }
  return g->grid.get();
}

void CollisionManager::detectVerticesByGrid(const Collider& a, const Collider& b, double margin) {
  // The grid is B's, in B's coordinates; an FEM side has none (its mesh
  // deforms), so only a rigid B is tested against.
  if (!b.rigid) return;
  const Geometry* ga = geometryOf(a);
  const DistanceGrid* grid = getDistanceGrid(*b.rigid);
  if (!ga || !grid) return;
  const RigidTransform3d TAW = poseOf(a.rigid), TBW = poseOf(b.rigid);
  const RigidTransform3d TAB = TBW.inverseTimes(TAW);
  const PolygonalMesh& meshA = ga->surface();
  Vector3d normal;
  for (int i = 0; i < meshA.numVertices(); ++i) {
    const Vector3d pB = TAB.transformPoint(meshA.getVertex(i));
    const double d = grid->distance(pB, &normal);
    if (!(d < margin)) continue;  // outside the grid: +∞
    if (pulled(a, b, i)) continue;
    ContactPoint c = vertexContact(a, b, i, TBW.transformPoint(pB));
    c.normal = TBW.R * normal;
    c.depth = -d;
    c.vertexArea = ga->vertexAreas[i];
    if (a.mesh) addMasters(*a.mesh, i, 1.0, c.nodesA);
    myContacts.push_back(std::move(c));
  }
}

void CollisionManager::detectPair(const Collider& a, const Collider& b, const CollisionBehavior& behav,
                                  const CollisionManager& owner, double reach) {
  using M = CollisionBehavior::Method;
  using V = CollisionBehavior::VertexPenetrations;
  const ColliderType collider =
      behav.getColliderType() == ColliderType::Inherited ? myColliderType : behav.getColliderType();
  // The behaviour's method, or (like every setting a behaviour leaves
  // unset) the detecting manager's (§8.4.1.3; docs/contact.md, nested
  // MechModels).
  M method = behav.isMethodSet() ? behav.getMethod() : myMethod;
  if (method == M::Inactive) {
    // No contact, but a penetration map still has its data (§8.5), by the
    // colour map of the manager whose behaviours govern the pair, as
    // updateContacts asks it.
    MeshIntersection shown;
    if (owner.colorMapOf(behav) == CollisionBehavior::ColorMapType::PenetrationDepth &&
        collider == ColliderType::AjlContour && !a.plane && !b.plane)
      intersectPair(a, b, shown);
    return;
  }
  const bool byGrid = collider == ColliderType::SignedDistance;
  if (byGrid && a.deformable() && b.deformable())
    throw ModelError("the SIGNED_DISTANCE collider needs a rigid body in the pair (" + a.comp->describe() + ", " +
                         b.comp->describe() + "): grids are built for fixed meshes only",
                     describe());
  const double mu = resolved(behav.getFriction(), myFriction), tol = penetrationTol(behav);
  const double creep = stictionCreep(behav);
  // FEM contacts without friction or softness are bilateral (§8.4.1.2).
  const bool asBilateral =
      behav.isBilateralVertexContactSet() ? behav.getBilateralVertexContact() : myBilateralVertexContact;
  const bool bilateral = (a.deformable() || b.deformable()) && asBilateral && !(mu > 0) && !isSoft(behav);
  // Hard unilateral contacts also watch vertices outside, up to the
  // tolerance plus the distance the pair can close within the step
  // (`reach`), so that a body is caught as it arrives instead of after
  // sinking (speculative contact); compliant and bilateral contacts act
  // only on penetration.
  const double margin = isSoft(behav) || bilateral ? 0 : tol + reach;
  // DEFAULT: contour regions between two rigid bodies, and between a
  // rigid body and a collision plane (whatever the collider: a plane needs
  // none); vertex penetration otherwise, and between two rigid meshes under
  // the SIGNED_DISTANCE collider, which finds no regions.
  const bool rigidPair = !a.deformable() && !b.deformable();
  const bool byDefault = method == M::Default;
  if (byDefault) method = rigidPair && (a.plane || b.plane || !byGrid) ? M::ContourRegion : M::VertexPenetration;
  // Every contact found for the pair takes the behaviour's settings, and
  // with constraint reduction only the independent ones stay (§8.6.1).
  const size_t first = myContacts.size();
  auto settle = [&](bool twoWay) {
    for (size_t k = first; k < myContacts.size(); ++k) {
      myContacts[k].behavior = &behav;
      myContacts[k].twoWay = twoWay;
      myContacts[k].mu = mu;
      myContacts[k].stictionCreep = creep;
      myContacts[k].bilateral = bilateral;
    }
    if (behav.getReduceConstraints() || myReduceConstraints) {
      reduceContacts(first);
      myCarry.reduced = true;
    }
  };
  if (a.plane || b.plane) {
    // Only the body has vertices; the plane is exact (PlaneContacts.cpp).
    const Collider& body = a.plane ? b : a;
    if (method == M::ContourRegion && !body.rigid)
      throw ModelError("CONTOUR_REGION contact is for rigid bodies (" + body.comp->describe() +
                           "); FEM models use VERTEX_PENETRATION",
                       describe());
    detectPlane(body, a.plane ? a : b, margin, rigidPointTol(behav), method == M::ContourRegion);
    settle(false);
    return;
  }
  // AUTO (§8.4.1.3): the FEM's vertices against a rigid body, both ways
  // between FEM models, the first collidable's between rigid bodies — but
  // both ways where DEFAULT fell back to vertex penetration for want of
  // regions (SIGNED_DISTANCE), which stands in for them: a plate added
  // before a ball would otherwise test only its own corners.
  V v = behav.isVertexPenetrationsSet() ? behav.getVertexPenetrations() : myVertexPenetrations;
  if (v == V::Auto) {
    if (a.deformable() != b.deformable()) v = a.deformable() ? V::FirstCollidable : V::SecondCollidable;
    else v = a.deformable() || byDefault ? V::BothCollidables : V::FirstCollidable;
  }
  MeshIntersection ajl;
  const bool byContours = collider == ColliderType::AjlContour;
  if (byContours && !intersectPair(a, b, ajl)) return;
  if (method == M::ContourRegion) {
    if (byGrid)
      throw ModelError("CONTOUR_REGION contact needs the TRI_INTERSECTION or AJL_CONTOUR collider, not SIGNED_DISTANCE",
                       describe());
    std::array<std::vector<char>, 2> inRegion;
    detectContourRegions(a, b, rigidPointTol(behav), rigidRegionTol(behav),  // rigid pairs: never bilateral
                         byContours ? &ajl : nullptr, &inRegion);
    if (margin > 0) detectApproach(a, b, margin, tol, rigidPointTol(behav), inRegion, first);  // the regions from `first`
    settle(false);
    return;
  }
  if (method == M::VertexEdgePenetration && !byContours)
    throw ModelError("VERTEX_EDGE_PENETRATION needs the AJL_CONTOUR collider (" + a.comp->describe() + ", " +
                         b.comp->describe() + ")",
                     describe());
  const MeshIntersection* contours = byContours ? &ajl : nullptr;
  if (v != V::SecondCollidable) byGrid ? detectVerticesByGrid(a, b, margin) : detectVertices(a, b, margin, tol, contours, 0);
  const size_t second = myContacts.size();
  if (v != V::FirstCollidable) byGrid ? detectVerticesByGrid(b, a, margin) : detectVertices(b, a, margin, tol, contours, 1);
  if (method == M::VertexEdgePenetration) detectEdgeContacts(a, b, ajl);
  dropRepeatedContacts(first, second, tol);
  settle(v == V::BothCollidables);
}

void CollisionManager::dropRepeatedContacts(size_t first, size_t second, double tol) {
  // Where vertices of both meshes meet (corner on corner), the second
  // contact repeats the first's row with the normal reversed: drop it.
  size_t kept = second;
  for (size_t k = second; k < myContacts.size(); ++k) {
    bool repeat = false;
    for (size_t j = first; j < second && !repeat; ++j)
      repeat = (myContacts[j].position - myContacts[k].position).norm() <= tol &&
               myContacts[j].normal.dot(myContacts[k].normal) < -0.99;
    if (repeat) continue;
    if (kept != k) myContacts[kept] = std::move(myContacts[k]);  // a self-move would empty its node lists
    ++kept;
  }
  myContacts.resize(kept);
}

std::vector<const CollisionManager*> CollisionManager::governingManagers(const std::vector<Collider>& all) const {
  std::vector<const CollisionManager*> managers{this};
  for (const Collider& c : all)
    for (const MechModel* m : c.mechs)
      if (const CollisionManager* cm = managerOf(m))
        if (std::find(managers.begin(), managers.end(), cm) == managers.end()) managers.push_back(cm);
  return managers;
}

bool CollisionManager::drawsPenetrationMaps(const std::vector<const CollisionManager*>& managers) {
  for (const CollisionManager* cm : managers) {
    const auto draws = [cm](const CollisionBehavior& b) {
      return cm->colorMapOf(b) == CollisionBehavior::ColorMapType::PenetrationDepth;
    };
    for (const CollisionBehavior& b : *cm->myBehaviors)
      if (draws(b)) return true;
    for (const auto& row : cm->myDefaults)
      for (const auto& d : row)
        if (draws(*d)) return true;
  }
  return false;
}

std::pair<double, double> CollisionManager::penetrationTolRange(
    const std::vector<const CollisionManager*>& managers) const {
  // (Detection takes a behaviour's tolerance, or this model's, as penetrationTol() does.)
  double lo = myMech.getPenetrationTol(), hi = lo;
  auto take = [&](const CollisionBehavior& b) {
    const double tol = penetrationTol(b);
    lo = std::min(lo, tol);
    hi = std::max(hi, tol);
  };
  for (const CollisionManager* cm : managers) {
    for (const auto& row : cm->myDefaults)
      for (const auto& b : row) take(*b);
    for (const auto& p : cm->myPairs) take(*p.behav);
  }
  return {lo, hi};
}

void CollisionManager::updateContacts(double h) {
  // The base goes first: a detection that throws leaves none behind.
  myCarry.valid = false;
  myContacts.clear();
  myRegions.clear();
  myCarry.pairs.clear();
  ++myDetections;
  if (!detects()) return;  // a manager above finds this model's contacts (§8.3.5)
  const std::vector<Collider> all = collidables();
  const PairScan scan = detectPairs(h, all, nullptr, true);
  recordCarryBase(h, all, scan.leastTol, scan.softPair);
}

CollisionManager::PairScan CollisionManager::detectPairs(double h, const std::vector<Collider>& all,
                                                         const std::function<bool(size_t, size_t)>& only,
                                                         bool record) {
  const std::vector<const CollisionManager*> managers = governingManagers(all);
  const bool maps = drawsPenetrationMaps(managers);
  // Broad phase: world boxes of the collision meshes, grown by the margin.
  // `speed` bounds how fast any point of a collidable's mesh moves.
  std::vector<Eigen::AlignedBox3d> boxes(all.size());
  std::vector<double> speed(all.size(), 0.0);
  std::vector<char> dynamic(all.size(), 0);
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].plane) continue;  // fixed and unbounded: tested against the other's box below
    if (all[i].rigid) {
      const Geometry* g = geometryOf(all[i]);
      if (!g) continue;
      const Twist& tw = all[i].rigid->getVelocity();
      speed[i] = tw.head<3>().norm() + tw.tail<3>().norm() * g->radius;
      dynamic[i] = all[i].rigid->isDynamic();
      const RigidTransform3d& T = all[i].rigid->getPose();
      const Eigen::AlignedBox3d& lb = g->tree->bounds();
      for (int k = 0; k < 8; ++k)
        boxes[i].extend(T.transformPoint(lb.corner(static_cast<Eigen::AlignedBox3d::CornerType>(k))));
    } else {
      // The box from the vertices: the tree is built only for a pair that
      // passes the broad phase. Every node of the model bounds the speed
      // of the mesh's points.
      all[i].mesh->updateVertexPositions();
      const MeshBase& m = all[i].mesh->getMesh();
      for (int v = 0; v < m.numVertices(); ++v) boxes[i].extend(m.getVertex(v));
      const FemModel3d* fem = owningModel(*all[i].mesh);
      if (fem)
        for (int k = 0; k < fem->numNodes(); ++k) {
          speed[i] = std::max(speed[i], fem->getNode(k).getVelocity().norm());
          dynamic[i] = dynamic[i] || fem->getNode(k).isDynamic();
        }
    }
  }
  // The boxes are first tested grown by the largest tolerance any
  // behaviour allows, before the pair's behaviour is looked up, then by the
  // behaviour's own: most pairs of a crowd are far apart.
  PairScan scan;
  const auto [leastTol, anyTol] = penetrationTolRange(managers);
  scan.leastTol = leastTol;
  auto apart = [&](size_t i, size_t j, double grow) {
    if (all[i].plane || all[j].plane) {
      // The box's lowest corner along the plane's normal, within reach.
      const CollisionPlane& plane = all[i].plane ? *all[i].plane : *all[j].plane;
      const Eigen::AlignedBox3d& box = all[i].plane ? boxes[j] : boxes[i];
      return plane.distance(box.center()) - plane.getNormal().cwiseAbs().dot(0.5 * box.sizes()) > grow;
    }
    Eigen::AlignedBox3d bi = boxes[i];
    bi.min().array() -= grow;
    bi.max().array() += grow;
    return !bi.intersects(boxes[j]);
  };
  for (size_t i = 0; i < all.size(); ++i)
    for (size_t j = i + 1; j < all.size(); ++j) {
      if (only && !only(i, j)) continue;
      // Two bodies that cannot move have no contact to solve, only, where
      // a behaviour draws one, a penetration map (parametric bodies, §8.5).
      const bool still = !(dynamic[i] || dynamic[j]);
      if ((all[i].plane && all[j].plane) || (still && !maps)) continue;
      if ((!all[i].plane && boxes[i].isEmpty()) || (!all[j].plane && boxes[j].isEmpty())) continue;
      const double reach = h * (speed[i] + speed[j]);
      if (apart(i, j, anyTol + reach)) continue;
      const CollisionManager* owner = nullptr;
      const CollisionBehavior* behav = pairBehavior(all[i], all[j], &owner);
      if (!behav) continue;
      if (still && (owner ? owner : this)->colorMapOf(*behav) != CollisionBehavior::ColorMapType::PenetrationDepth)
        continue;
      if (apart(i, j, penetrationTol(*behav) + reach)) continue;
      // A pair set by hand keeps its order (first collidable, §8.4.1.3).
      const Collider *a = &all[i], *b = &all[j];
      for (const auto& p : owner->myPairs)
        if (p.behav == behav && p.b && p.a == b->comp) std::swap(a, b);
      scan.softPair = scan.softPair || isSoft(*behav);
      const size_t first = myContacts.size();
      myCarry.reduced = false;
      ++myPairDetections;
      detectPair(*a, *b, *behav, *owner, reach);
      if (record)
        myCarry.pairs.push_back({static_cast<int>(a - all.data()), static_cast<int>(b - all.data()), first,
                                 myContacts.size(), myCarry.reduced});
    }
  return scan;
}

}  // namespace sinew
