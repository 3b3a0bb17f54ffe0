#include "sinew/fem/FemSurface.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <unordered_map>

#include "sinew/fem/PointFem3dAttachment.h"

namespace sinew {

namespace {
constexpr double kTol = 1e-9;  // ideal elements have unit-size coordinates

/// Whether the nodes of the plane (nrm, d) are all on its inner side.
bool supportsAll(const std::vector<Vector3d>& X, const Vector3d& nrm, double d) {
  for (const Vector3d& x : X)
    if (nrm.dot(x) > d + kTol) return false;
  return true;
}

/// The nodes on plane (nrm, d), sorted by angle about their centre so that
/// they run counter-clockwise seen from the side nrm points to.
std::vector<int> orderedFaceNodes(const std::vector<Vector3d>& X, const Vector3d& nrm, double d) {
  std::vector<int> face;
  Vector3d c = Vector3d::Zero();
  for (int m = 0; m < static_cast<int>(X.size()); ++m)
    if (std::abs(nrm.dot(X[m]) - d) < kTol) face.push_back(m), c += X[m];
  c /= face.size();
  const Vector3d u = (X[face[0]] - c).normalized(), v = nrm.cross(u);
  auto angle = [&](int m) { return std::atan2((X[m] - c).dot(v), (X[m] - c).dot(u)); };
  std::sort(face.begin(), face.end(), [&](int a, int b) { return angle(a) < angle(b); });
  return face;
}

/// The faces of the convex ideal element: planes through three nodes that
/// have every node on one side, the normal pointing away from the centre.
std::vector<std::vector<int>> deriveFaces(const ReferenceElement& type) {
  const std::vector<Vector3d>& X = type.getIdealNodePositions();
  const int n = static_cast<int>(X.size());
  Vector3d centre = Vector3d::Zero();
  for (const Vector3d& x : X) centre += x / n;
  std::vector<Vector3d> normals;
  std::vector<std::vector<int>> faces;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = j + 1; k < n; ++k) {
        Vector3d nrm = (X[j] - X[i]).cross(X[k] - X[i]);
        if (nrm.norm() < kTol) continue;
        nrm.normalize();
        if (nrm.dot(centre - X[i]) > 0) nrm = -nrm;
        const double d = nrm.dot(X[i]);
        if (!supportsAll(X, nrm, d)) continue;
        if (std::any_of(normals.begin(), normals.end(), [&](const Vector3d& m) { return (m - nrm).norm() < kTol; }))
          continue;
        normals.push_back(nrm);
        faces.push_back(orderedFaceNodes(X, nrm, d));
      }
  return faces;
}

/// Whether the node at cyclic position i is a mid-side node: the midpoint
/// of its two neighbours in the ideal element.
bool isMidSide(const std::vector<Vector3d>& X, const std::vector<int>& face, size_t i) {
  const size_t n = face.size();
  const Vector3d& prev = X[face[(i + n - 1) % n]];
  const Vector3d& next = X[face[(i + 1) % n]];
  return (X[face[i]] - 0.5 * (prev + next)).norm() < kTol;
}

void addFan(const std::vector<int>& poly, std::vector<std::array<int, 3>>& tris) {
  for (size_t k = 1; k + 1 < poly.size(); ++k) tris.push_back({poly[0], poly[k], poly[k + 1]});
}

struct FaceKeyHash {
  size_t operator()(const std::vector<const FemNode3d*>& key) const {
    size_t h = 0;
    for (const FemNode3d* n : key) h = h * 1000003u ^ std::hash<const void*>()(n);
    return h;
  }
};
}  // namespace

const std::vector<std::vector<int>>& getElementFaces(const ReferenceElement& type) {
  // Derived on first use; the reference elements live for the program.
  static std::map<const ReferenceElement*, std::vector<std::vector<int>>> cache;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(&type);
  if (it == cache.end()) it = cache.emplace(&type, deriveFaces(type)).first;
  return it->second;
}

void triangulateElementFace(const ReferenceElement& type, const std::vector<int>& face,
                            std::vector<std::array<int, 3>>& tris) {
  const std::vector<Vector3d>& X = type.getIdealNodePositions();
  std::vector<int> mids;
  for (size_t i = 0; i < face.size(); ++i)
    if (isMidSide(X, face, i)) mids.push_back(face[i]);
  if (mids.empty()) {
    addFan(face, tris);
    return;
  }
  // A corner triangle at each corner, then the polygon of mid-side nodes.
  const size_t n = face.size();
  for (size_t i = 0; i < n; ++i)
    if (!isMidSide(X, face, i)) tris.push_back({face[(i + n - 1) % n], face[i], face[(i + 1) % n]});
  addFan(mids, tris);
}

std::vector<BoundaryTriangle> findBoundaryTriangles(const ComponentList<FemElement3d>& elements,
                                                    const ElementFilter* filter) {
  auto faceKey = [](const FemElement3d& e, const std::vector<int>& face) {
    std::vector<const FemNode3d*> key;
    for (int i : face) key.push_back(&e.getNode(i));
    std::sort(key.begin(), key.end());
    return key;
  };
  auto passes = [&](const FemElement3d& e) { return !filter || filter->elementIsValid(e); };
  std::unordered_map<std::vector<const FemNode3d*>, int, FaceKeyHash> uses;
  for (const FemElement3d& e : elements)
    if (passes(e))
      for (const auto& face : getElementFaces(e.getReferenceElement())) ++uses[faceKey(e, face)];
  // Emitted in element and face order, so the mesh does not depend on hashing.
  std::vector<BoundaryTriangle> out;
  std::vector<std::array<int, 3>> tris;
  for (FemElement3d& e : elements) {
    if (!passes(e)) continue;
    for (const auto& face : getElementFaces(e.getReferenceElement())) {
      if (uses[faceKey(e, face)] != 1) continue;
      tris.clear();
      triangulateElementFace(e.getReferenceElement(), face, tris);
      for (const auto& t : tris) out.push_back({{&e.getNode(t[0]), &e.getNode(t[1]), &e.getNode(t[2])}, &e});
    }
  }
  return out;
}

bool elementContains(const FemElement3d& e, const Vector3d& p) {
  Eigen::AlignedBox3d box;
  for (auto* n : e.getNodes()) box.extend(n->getPosition());
  if (!box.contains(p) && box.exteriorDistance(p) > 1e-12) return false;
  Vector3d s;
  return computeNaturalCoordinates(e, p, s);
}

}  // namespace sinew
