#include "sinew/geometry/PolygonalMesh.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "sinew/Error.h"

namespace sinew {

namespace {

// Packs a directed edge (a -> b) into one key for hashing.
std::uint64_t edgeKey(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
         static_cast<std::uint32_t>(b);
}

}  // namespace

std::unique_ptr<MeshBase> PolygonalMesh::clone() const {
  return std::make_unique<PolygonalMesh>(*this);
}

void PolygonalMesh::clear() {
  MeshBase::clear();
  myFaces.clear();
}

int PolygonalMesh::addFace(const std::vector<int>& vidxs) {
  if (vidxs.size() < 3) {
    throw ModelError("a face needs at least 3 vertices, got " + std::to_string(vidxs.size()));
  }
  for (size_t k = 0; k < vidxs.size(); ++k) {
    checkVertexIndex(vidxs[k]);
    // Consecutive repeats make zero-length edges that break edge matching.
    if (vidxs[k] == vidxs[(k + 1) % vidxs.size()]) {
      throw ModelError("face repeats vertex " + std::to_string(vidxs[k]) + " consecutively");
    }
  }
  myFaces.push_back(vidxs);
  return numFaces() - 1;
}

const std::vector<int>& PolygonalMesh::getFace(int fidx) const {
  if (fidx < 0 || fidx >= numFaces()) {
    throw ModelError("face index " + std::to_string(fidx) + " out of range");
  }
  return myFaces[fidx];
}

void PolygonalMesh::removeFace(int fidx) {
  getFace(fidx);  // range check
  myFaces.erase(myFaces.begin() + fidx);
}

void PolygonalMesh::addMesh(const PolygonalMesh& other) {
  const int base = numVertices();
  myVertices.insert(myVertices.end(), other.myVertices.begin(), other.myVertices.end());
  for (auto f : other.myFaces) {
    for (int& v : f) v += base;
    myFaces.push_back(std::move(f));
  }
}

bool PolygonalMesh::isTriangular() const {
  return std::all_of(myFaces.begin(), myFaces.end(),
                     [](const std::vector<int>& f) { return f.size() == 3; });
}

void PolygonalMesh::triangulate() {
  std::vector<std::vector<int>> tris;
  tris.reserve(myFaces.size());
  for (const auto& f : myFaces) {
    for (size_t k = 1; k + 1 < f.size(); ++k) tris.push_back({f[0], f[k], f[k + 1]});
  }
  myFaces = std::move(tris);
}

bool PolygonalMesh::isClosed() const {
  if (myFaces.empty()) return false;
  std::unordered_map<std::uint64_t, int> count;
  for (const auto& f : myFaces) {
    for (size_t k = 0; k < f.size(); ++k) ++count[edgeKey(f[k], f[(k + 1) % f.size()])];
  }
  // Each directed edge must occur once and be matched by its reverse once;
  // that rules out open boundaries, flipped faces and non-manifold fins.
  for (const auto& [key, n] : count) {
    const int a = static_cast<int>(key >> 32);
    const int b = static_cast<int>(key & 0xffffffffu);
    auto rev = count.find(edgeKey(b, a));
    if (n != 1 || rev == count.end() || rev->second != 1) return false;
  }
  return true;
}

Eigen::Vector3d PolygonalMesh::computeFaceNormal(int fidx) const {
  const auto& f = getFace(fidx);
  Eigen::Vector3d n = Eigen::Vector3d::Zero();
  for (size_t k = 0; k < f.size(); ++k) {
    n += myVertices[f[k]].cross(myVertices[f[(k + 1) % f.size()]]);
  }
  const double len = n.norm();
  return len > 0 ? Eigen::Vector3d(n / len) : Eigen::Vector3d::Zero();
}

double PolygonalMesh::computeFaceArea(int fidx) const {
  const auto& f = getFace(fidx);
  double area = 0;
  const Eigen::Vector3d& p0 = myVertices[f[0]];
  for (size_t k = 1; k + 1 < f.size(); ++k) {
    area += 0.5 * (myVertices[f[k]] - p0).cross(myVertices[f[k + 1]] - p0).norm();
  }
  return area;
}

std::vector<Eigen::Vector3d> PolygonalMesh::computeVertexNormals() const {
  std::vector<Eigen::Vector3d> nrmls(myVertices.size(), Eigen::Vector3d::Zero());
  // The un-normalized cross product of a triangle is twice its area times its
  // normal, so summing it weights each face by its area.
  for (const auto& f : myFaces) {
    const Eigen::Vector3d& p0 = myVertices[f[0]];
    Eigen::Vector3d w = Eigen::Vector3d::Zero();
    for (size_t k = 1; k + 1 < f.size(); ++k) {
      w += (myVertices[f[k]] - p0).cross(myVertices[f[k + 1]] - p0);
    }
    for (int v : f) nrmls[v] += w;
  }
  for (auto& n : nrmls) {
    const double len = n.norm();
    if (len > 0) n /= len;
  }
  return nrmls;
}

double PolygonalMesh::computeArea() const {
  double area = 0;
  forEachTriangle([&](const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                      const Eigen::Vector3d& c) { area += 0.5 * (b - a).cross(c - a).norm(); });
  return area;
}

double PolygonalMesh::computeVolume() const {
  // Signed tetrahedra from a reference point to each triangle sum to the
  // enclosed volume (divergence theorem). Using the vertex centroid rather
  // than the origin keeps precision for meshes far from the origin.
  const Eigen::Vector3d ref = computeCentroid();
  double vol6 = 0;
  forEachTriangle(
      [&](const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
        vol6 += (a - ref).dot((b - ref).cross(c - ref));
      });
  return vol6 / 6.0;
}

Eigen::Vector3d PolygonalMesh::computeCentroidOfVolume() const {
  const Eigen::Vector3d ref = computeCentroid();
  double vol6 = 0;
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  forEachTriangle(
      [&](const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
        const Eigen::Vector3d ra = a - ref, rb = b - ref, rc = c - ref;
        const double v6 = ra.dot(rb.cross(rc));
        vol6 += v6;
        moment += v6 * (ra + rb + rc);  // tet centroid is (ref + a + b + c)/4
      });
  if (vol6 == 0) {
    throw ModelError("centre of volume undefined: mesh encloses zero volume");
  }
  return ref + moment / (4.0 * vol6);
}

Eigen::Vector3d PolygonalMesh::translateToCenterOfVolume() {
  const Eigen::Vector3d c = computeCentroidOfVolume();
  translate(-c);
  return c;
}

bool PolygonalMesh::vertexInUse(int idx) const {
  for (const auto& f : myFaces) {
    if (std::find(f.begin(), f.end(), idx) != f.end()) return true;
  }
  return false;
}

void PolygonalMesh::vertexRemoved(int idx) {
  for (auto& f : myFaces) {
    for (int& v : f) {
      if (v > idx) --v;
    }
  }
}

double PolygonalMesh::windingNumber(const Eigen::Vector3d& p) const {
  // Solid angle of each triangle (Van Oosterom and Strackee's formula).
  double omega = 0;
  forEachTriangle([&](const Eigen::Vector3d& A, const Eigen::Vector3d& B, const Eigen::Vector3d& C) {
    const Eigen::Vector3d a = A - p, b = B - p, c = C - p;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    const double num = a.dot(b.cross(c));
    const double den = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
    omega += 2 * std::atan2(num, den);
  });
  return omega / (4 * M_PI);
}

bool PolygonalMesh::pointIsInside(const Eigen::Vector3d& p) const { return windingNumber(p) > 0.5; }

}  // namespace sinew
