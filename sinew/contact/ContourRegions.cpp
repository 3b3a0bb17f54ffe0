// CONTOUR_REGION contact between two rigid bodies (guide §8.4.1.1) from the
// TRI_INTERSECTION or the AJL_CONTOUR collider (§8.4.2): the triangles of
// the two collision meshes that cross give the intersection contours (AJL:
// with exact predicates, and the inside vertices from the contours);
// crossings with segment ends within rigidRegionTol of each other, with
// the vertices of each mesh inside the other that connect to them, form a
// contact region. Each region fits a
// plane to its contour, whose normal (oriented from B toward A) all its
// contacts take, with the region's greatest penetration as their depth; the
// contacts are the region's points whose projections onto the plane form
// its convex hull. Unlike vertex penetration this sees an edge crossing an
// edge, and the number of contacts does not grow with mesh resolution.
// The vertices within reach outside the other body are watched, as vertex
// penetration watches them (speculative contact), reduced to hull corners
// the same way, so that a body is caught before its faces cross.
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <numeric>

#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/contact/ContactPoints.h"
#include "sinew/math/UnionFind.h"
#include "sinew/mech/RigidBody.h"

namespace sinew {

namespace {

/// One contact region while it is gathered, in world coordinates.
struct Region {
  std::vector<Vector3d> contour;  ///< crossing segment ends
  std::vector<Vector3d> inside;   ///< vertices of either mesh inside the other
  std::vector<std::pair<int, int>> insideIds;  ///< their (side, vertex)
  Vector3d normalsA = Vector3d::Zero(), normalsB = Vector3d::Zero();  ///< sums of crossing face normals
  double depth = 0;               ///< deepest inside vertex
};

/// The 2D convex hull (Andrew's monotone chain) of pts, as indices,
/// counter-clockwise, leaving out points within `flat` of the line through
/// their neighbours (collinear up to round-off and the merge distance).
std::vector<int> convexHull(const std::vector<Eigen::Vector2d>& pts, double flat) {
  std::vector<int> idx(pts.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(), [&](int a, int b) {
    return pts[a].x() < pts[b].x() || (pts[a].x() == pts[b].x() && pts[a].y() < pts[b].y());
  });
  if (idx.size() < 3) return idx;
  // a's distance to the right of the line o → b, less flat: a stays on
  // the hull only where it sticks out by more than flat.
  auto cross = [&](int o, int a, int b) {
    const Eigen::Vector2d u = pts[a] - pts[o], v = pts[b] - pts[o];
    const double len = v.norm();
    return len > 0 ? (u.x() * v.y() - u.y() * v.x()) / len - flat : -1.0;
  };
  std::vector<int> hull(2 * idx.size());
  int k = 0;
  for (int i : idx) {  // lower hull
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], i) <= 0) --k;
    hull[k++] = i;
  }
  for (int j = static_cast<int>(idx.size()) - 2, lower = k + 1; j >= 0; --j) {  // upper hull
    const int i = idx[j];
    while (k >= lower && cross(hull[k - 2], hull[k - 1], i) <= 0) --k;
    hull[k++] = i;
  }
  hull.resize(k - 1);  // the last point repeats the first
  return hull;
}

/// The region's normal: that of the plane fitted to its contour, oriented
/// along Σ n_B − Σ n_A (B's outward normals point toward A); that sum
/// itself when the contour is one point. A contour along one line (an
/// edge lying on a face) fixes no plane: its normal is then the face's,
/// the side whose crossing faces agree (the longer sum of their normals),
/// across the line. Zero where not even that can be told: the caller
/// leaves such a region to the watched vertices.
Vector3d regionNormal(const Region& r) {
  Vector3d s = r.normalsB - r.normalsA;
  if (!(s.norm() > 0)) s = Vector3d::UnitZ();
  s.normalize();
  if (r.contour.size() < 2) return s;
  Vector3d c = Vector3d::Zero();
  for (const Vector3d& p : r.contour) c += p;
  c /= static_cast<double>(r.contour.size());
  Matrix3d cov = Matrix3d::Zero();
  for (const Vector3d& p : r.contour) cov += (p - c) * (p - c).transpose();
  Eigen::SelfAdjointEigenSolver<Matrix3d> es(cov);
  const Vector3d& lambda = es.eigenvalues();  // ascending
  if (!(lambda[1] > 1e-8 * lambda[2])) {
    const double spread = 1e-9 * (1 + c.norm());
    if (!(lambda[2] > spread * spread * static_cast<double>(r.contour.size()))) return s;  // one point
    // Not the sum s across the line: the edge's two faces tilt it (6° for
    // an edge at 30° and 60°), and any part along the line reads the
    // line's length as depth (a box edge resting on a box read 0.38 m).
    const Vector3d line = es.eigenvectors().col(2);
    const Vector3d face = r.normalsB.norm() >= r.normalsA.norm() ? r.normalsB : Vector3d(-r.normalsA);
    const Vector3d across = face - face.dot(line) * line;
    return across.norm() > 1e-6 * face.norm() ? Vector3d(across.normalized()) : Vector3d::Zero();
  }
  Vector3d n = es.eigenvectors().col(0);
  return n.dot(s) < 0 ? Vector3d(-n) : n;
}

/// Joins the crossings with an end within `tol` of an end of another (in
/// the first mesh's coordinates): a sweep along x over the ends sorted by x.
void joinNearCrossings(const std::vector<TriangleBVTree::Crossing>& xs, double tol, UnionFind& uf) {
  struct End {
    Vector3d p;
    int crossing;
  };
  std::vector<End> ends;
  ends.reserve(2 * xs.size());
  for (int k = 0; k < static_cast<int>(xs.size()); ++k) ends.push_back({xs[k].p, k}), ends.push_back({xs[k].q, k});
  std::sort(ends.begin(), ends.end(), [](const End& a, const End& b) { return a.p.x() < b.p.x(); });
  for (size_t i = 0; i < ends.size(); ++i)
    for (size_t j = i + 1; j < ends.size() && ends[j].p.x() - ends[i].p.x() <= tol; ++j)
      if ((ends[j].p - ends[i].p).norm() <= tol) uf.join(ends[i].crossing, ends[j].crossing);
}

}  // namespace

std::vector<int> hullOnPlane(const std::vector<Vector3d>& points, const Vector3d& n, double tol) {
  // Points closer on the plane than tol (rigidPointTol, by default the
  // penetration tolerance; at least a millionth of the set's size) are
  // one: a contour corner over a vertex just below it is one hull corner.
  const Vector3d u = n.unitOrthogonal(), w = n.cross(u);
  Eigen::AlignedBox2d extent;
  for (const Vector3d& p : points) extent.extend(Eigen::Vector2d(u.dot(p), w.dot(p)));
  const double merge = std::max(tol, 1e-6 * extent.diagonal().norm());
  thread_local std::vector<Eigen::Vector2d> flat;  // scratch kept between calls
  thread_local std::vector<int> kept;
  flat.clear(), kept.clear();
  for (size_t i = 0; i < points.size(); ++i) {
    const Eigen::Vector2d x(u.dot(points[i]), w.dot(points[i]));
    if (std::none_of(flat.begin(), flat.end(), [&](const Eigen::Vector2d& y) { return (x - y).norm() <= merge; }))
      flat.push_back(x), kept.push_back(static_cast<int>(i));
  }
  std::vector<int> hull;
  for (int k : convexHull(flat, merge)) hull.push_back(kept[k]);
  return hull;
}

bool addHullContacts(const std::vector<Vector3d>& points, const std::vector<double>& depths, const Vector3d& n,
                     double tol, const std::function<void(int)>& add) {
  if (points.empty()) return false;
  const std::vector<int> hull = hullOnPlane(points, n, tol);
  const int deepest = static_cast<int>(std::max_element(depths.begin(), depths.end()) - depths.begin());
  // The points added are distinct (hull corners, and the deepest only if
  // deeper than every corner): counting the penetrating ones among them
  // tells whether one was left out.
  double deepestCorner = -INFINITY;
  int penetratingKept = 0;
  for (int k : hull) deepestCorner = std::max(deepestCorner, depths[k]), add(k), penetratingKept += depths[k] > 0;
  if (depths[deepest] - deepestCorner > 1e-6 * tol) add(deepest), penetratingKept += depths[deepest] > 0;
  return std::count_if(depths.begin(), depths.end(), [](double d) { return d > 0; }) > penetratingKept;
}

void CollisionManager::detectContourRegions(const Collider& a, const Collider& b, double pointTol,
                                            double regionTol, const MeshIntersection* ajl,
                                            std::array<std::vector<char>, 2>* inRegion) {
  if (!a.rigid || !b.rigid)
    throw ModelError("CONTOUR_REGION contact is for two rigid bodies (" + a.comp->describe() + ", " +
                         b.comp->describe() + "); FEM models use VERTEX_PENETRATION",
                     describe());
  const Geometry* ga = geometryOf(a);
  const Geometry* gb = geometryOf(b);
  if (!ga || !gb) return;
  const RigidTransform3d TAW = a.rigid->getPose(), TBW = b.rigid->getPose();
  const RigidTransform3d TBA = TAW.inverseTimes(TBW);
  std::vector<TriangleBVTree::Crossing> xs;
  if (ajl) xs = ajl->crossings;
  else ga->tree->crossings(*gb->tree, TBA.R, TBA.p, xs);
  if (xs.empty()) return;

  // Crossings with segment ends within regionTol of each other form one
  // region (rigidRegionTol): the segments of one contour meet end to end,
  // and separate patches stay apart however coarse the meshes are. The
  // same contour point comes from two triangle tests, equal up to
  // round-off: a tolerance below a billionth of the crossings' extent
  // would break contours apart.
  const int nx = static_cast<int>(xs.size());
  Eigen::AlignedBox3d extent;
  for (const auto& x : xs) extent.extend(x.p), extent.extend(x.q);
  UnionFind uf(nx);
  joinNearCrossings(xs, std::max(regionTol, 1e-9 * extent.diagonal().norm()), uf);
  // The first crossing at each vertex of either mesh: the inside vertices
  // join its region below.
  std::vector<int> firstA(ga->mesh.numVertices(), -1), firstB(gb->mesh.numVertices(), -1);
  for (int k = 0; k < nx; ++k)
    for (int c = 0; c < 3; ++c) {
      int& fa = firstA[ga->tree->triangleVertexIndex(xs[k].tri, c)];
      int& fb = firstB[gb->tree->triangleVertexIndex(xs[k].otherTri, c)];
      if (fa < 0) fa = k;
      if (fb < 0) fb = k;
    }
  std::vector<int> regionOf(nx, -1);
  std::vector<Region> regions;
  for (int k = 0; k < nx; ++k) {
    const int root = uf.find(k);
    if (regionOf[root] < 0) regionOf[root] = static_cast<int>(regions.size()), regions.emplace_back();
    Region& r = regions[regionOf[root]];
    r.contour.push_back(TAW.transformPoint(xs[k].p));
    r.contour.push_back(TAW.transformPoint(xs[k].q));
    r.normalsA += TAW.R * ga->tree->faceNormal(xs[k].tri);
    r.normalsB += TBW.R * gb->tree->faceNormal(xs[k].otherTri);
  }

  // Vertices of each mesh inside the other join the region of a crossing
  // triangle they belong to, or of an inside neighbour (a flood fill over
  // the mesh's edges). AJL_CONTOUR has found them from the contours.
  auto addInside = [&](const Geometry& g, const Geometry& other, const RigidTransform3d& TGW,
                       const RigidTransform3d& TOW, const std::vector<int>& first, int side) {
    const RigidTransform3d TGO = TOW.inverseTimes(TGW);
    const int nv = g.mesh.numVertices();
    std::vector<int> label(nv, -2);  // −2 untested, −1 outside, else region
    std::vector<double> depth(nv, 0);
    TriangleBVTree::Nearest n;
    auto test = [&](int v) {
      if (label[v] != -2) return false;
      label[v] = -1;
      if (ajl) {
        if (!ajl->inside[side][v]) return false;
        n = ajl->nearest[side][v];  // queried once, by intersectPair
      } else if (!other.tree->inside(TGO.transformPoint(g.mesh.getVertex(v)), n)) {
        return false;
      }
      depth[v] = std::max(0.0, -n.distance);
      return true;
    };
    std::vector<int> queue;
    for (int v = 0; v < nv; ++v)
      if (first[v] >= 0 && test(v)) {
        label[v] = regionOf[uf.find(first[v])];
        queue.push_back(v);
      }
    const auto& nbrs = g.tree->vertexEdges();
    for (size_t q = 0; q < queue.size(); ++q)
      for (const auto& [w, edge] : nbrs[queue[q]])
        if (test(w)) label[w] = label[queue[q]], queue.push_back(w);
    for (int v : queue) {
      Region& r = regions[label[v]];
      r.inside.push_back(TGW.transformPoint(g.mesh.getVertex(v)));
      r.insideIds.emplace_back(side, v);
      r.depth = std::max(r.depth, depth[v]);
    }
  };
  addInside(*ga, *gb, TAW, TBW, firstA, 0);
  addInside(*gb, *ga, TBW, TAW, firstB, 1);

  // A region no deeper than round-off is faces that only touch (a box set
  // exactly on another): its contour fixes no plane worth the name, and the
  // watched vertices (detectApproach) hold it instead.
  const double touching = 1e-9 * (TAW.p.norm() + TBW.p.norm() + extent.diagonal().norm());
  int id = 0;
  for (const Region& r : regions) {
    const Vector3d n = regionNormal(r);
    if (n.isZero()) continue;
    // An edge crossing an edge has no vertex inside: its depth is the
    // contour's extent along the normal.
    double lo = INFINITY, hi = -INFINITY;
    for (const Vector3d& p : r.contour) lo = std::min(lo, n.dot(p)), hi = std::max(hi, n.dot(p));
    const double depth = std::max(r.depth, hi - lo);
    if (!(depth > touching)) continue;
    if (inRegion)
      for (auto [side, v] : r.insideIds) {
        std::vector<char>& in = (*inRegion)[side];
        if (in.size() <= static_cast<size_t>(v)) in.resize(v + 1, 0);
        in[v] = 1;
      }
    std::vector<Vector3d> all = r.contour;
    all.insert(all.end(), r.inside.begin(), r.inside.end());
    for (int k : hullOnPlane(all, n, pointTol)) {
      // vertex ids −2, −3, … keep the region's contacts apart in the
      // contact keys (they are no mesh vertex).
      ContactPoint c = vertexContact(a, b, -2 - id++, all[k]);
      c.normal = n;
      c.depth = depth;
      myContacts.push_back(std::move(c));
    }
  }
}

void CollisionManager::detectApproach(const Collider& a, const Collider& b, double margin, double eps,
                                      double pointTol, const std::array<std::vector<char>, 2>& inRegion,
                                      size_t regionsFrom) {
  // The vertices of both bodies within reach, as vertex penetration finds
  // them, but those a region holds already (the region's own depth decides
  // for them, not a round-off threshold on theirs, so that a vertex just
  // inside is not a region's one step and watched the next), which are not
  // even queried.
  const size_t first = myContacts.size();
  detectVertices(a, b, margin, eps, nullptr, 0, &inRegion[0]);
  const size_t second = myContacts.size();
  detectVertices(b, a, margin, eps, nullptr, 1, &inRegion[1]);
  dropRepeatedContacts(first, second, eps);
  // Scratch kept from call to call (each pair of each detection asks this:
  // their allocations were 3 % of a box sliding down an incline).
  thread_local std::vector<ContactPoint> all;
  thread_local std::vector<char> taken;
  thread_local std::vector<Vector3d> points;
  thread_local std::vector<double> depths;
  thread_local std::vector<size_t> members;
  all.assign(std::make_move_iterator(myContacts.begin() + first), std::make_move_iterator(myContacts.end()));
  myContacts.resize(first);
  // Sets facing one way (one normal), each reduced to its hull's corners
  // as a collision plane reduces the vertices within its reach: a flat
  // face arriving on another keeps four contacts however finely it is
  // meshed, and a curved one its corners and its nearest vertex.
  taken.assign(all.size(), 0);
  for (size_t i = 0; i < all.size(); ++i) {
    if (taken[i]) continue;
    points.clear(), depths.clear(), members.clear();
    for (size_t j = i; j < all.size(); ++j)
      if (!taken[j] && all[j].collidableA == all[i].collidableA && all[j].normal.dot(all[i].normal) > 1 - 1e-6) {
        taken[j] = 1;
        points.push_back(all[j].position);
        depths.push_back(all[j].depth);
        members.push_back(j);
      }
    // Each member is added once at most (a corner, or the deepest inside).
    if (addHullContacts(points, depths, all[i].normal, pointTol,
                        [&](int k) { myContacts.push_back(std::move(all[members[k]])); }))
      myCarry.reduced = true;
  }
  // A corner so kept at a region's point, facing its way, is that point
  // again: a vertex just inside by one test and on the boundary by the
  // region's own (a stack's cube corners at the faces' common corners).
  // Kept, it would load the same place twice and slow the contact solve (a
  // 30-cube stack had eight contacts a face, four of them in pairs). After
  // the reduction, so that a finely meshed face does not put its next
  // vertices in as corners. Facing its way: along the region's normal,
  // turned where the vertex is B's (its contact names B first); 1e-3, as
  // a region's fitted plane may lean a little from a face's own normal.
  const auto regions = myContacts.begin() + static_cast<std::ptrdiff_t>(regionsFrom);
  const auto watched = myContacts.begin() + static_cast<std::ptrdiff_t>(first);
  myContacts.erase(std::remove_if(watched, myContacts.end(),
                                  [&](const ContactPoint& w) {
                                    return std::any_of(regions, watched, [&](const ContactPoint& p) {
                                      const double turn = w.collidableA == p.collidableA ? 1.0 : -1.0;
                                      return (p.position - w.position).norm() <= pointTol &&
                                             turn * p.normal.dot(w.normal) > 1 - 1e-3;
                                    });
                                  }),
                   myContacts.end());
}

}  // namespace sinew
