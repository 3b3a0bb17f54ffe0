#include "sinew/fem/FemMeshBuilder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

namespace sinew::fem_detail {

namespace {
/// Each linear type of Table 6.1 and its quadratic counterpart.
constexpr std::pair<FemElementType, FemElementType> kQuadraticTypes[] = {
    {FemElementType::Tet, FemElementType::QuadTet},
    {FemElementType::Hex, FemElementType::QuadHex},
    {FemElementType::Wedge, FemElementType::QuadWedge},
    {FemElementType::Pyramid, FemElementType::QuadPyramid}};
}  // namespace

FemElementType linearTypeOf(FemElementType type) {
  for (const auto& [linear, quadratic] : kQuadraticTypes)
    if (type == quadratic) return linear;
  return type;
}

bool isQuadratic(FemElementType type) { return linearTypeOf(type) != type; }

void requirePositive(const FemModel3d& fem, const char* func, const char* name, double value) {
  if (!(value > 0) || !std::isfinite(value))
    throw ModelError(std::string(func) + ": " + name + " must be positive and finite, got " + std::to_string(value),
                     fem.describe());
}

void requireAtLeast(const FemModel3d& fem, const char* func, const char* name, int value, int min) {
  if (value < min)
    throw ModelError(
        std::string(func) + ": " + name + " must be at least " + std::to_string(min) + ", got " + std::to_string(value),
        fem.describe());
}

namespace {

FemElementType quadraticTypeOf(FemElementType linear) {
  for (const auto& [lin, quadratic] : kQuadraticTypes)
    if (linear == lin) return quadratic;
  throw std::logic_error("not a linear element type");
}

/// det(∂x/∂s) at point k of the "all points" list of the element whose
/// nodes are the given points.
double restJacobian(const ReferenceElement& ref, const std::vector<Vector3d>& points, const std::vector<int>& nodes,
                    int k) {
  const auto& dN = ref.getShapeGradients(k);
  Matrix3d J = Matrix3d::Zero();
  for (int i = 0; i < ref.numNodes(); ++i) J += points[nodes[i]] * dN.col(i).transpose();
  return J.determinant();
}

/// Reorders the nodes of a linear element into its mirror image: the tet's
/// nodes 1 and 2, the pyramid's base, the wedge's and the hex's two faces.
void mirror(std::vector<int>& n) {
  switch (n.size()) {
    case 4:
      std::swap(n[1], n[2]);
      break;
    case 5:
      std::swap(n[1], n[3]);
      break;
    case 6:
      std::swap_ranges(n.begin(), n.begin() + 3, n.begin() + 3);
      break;
    default:
      std::swap_ranges(n.begin(), n.begin() + 4, n.begin() + 4);
      break;
  }
}

/// For each edge node of a quadratic type, the two corners it sits between
/// (found from the ideal node positions: the edge node is their midpoint).
const std::vector<std::array<int, 2>>& edgeCorners(FemElementType quadType) {
  static const auto tables = [] {
    std::map<FemElementType, std::vector<std::array<int, 2>>> t;
    for (const auto& [linear, quadratic] : kQuadraticTypes) {
      const auto& x = ReferenceElement::get(quadratic).getIdealNodePositions();
      const int nc = ReferenceElement::get(linear).numNodes();
      auto& edges = t[quadratic];
      for (int e = nc; e < static_cast<int>(x.size()); ++e) {
        std::vector<std::array<int, 2>> found;
        for (int a = 0; a < nc; ++a)
          for (int b = a + 1; b < nc; ++b)
            if ((0.5 * (x[a] + x[b]) - x[e]).norm() < 1e-12) found.push_back({a, b});
        if (found.size() != 1) throw std::logic_error("quadratic element node is not the midpoint of one edge");
        edges.push_back(found[0]);
      }
    }
    return t;
  }();
  return tables.at(quadType);
}

}  // namespace

int FemMeshBuilder::addPoint(const Vector3d& p) {
  myPoints.push_back(p);
  return static_cast<int>(myPoints.size()) - 1;
}

void FemMeshBuilder::addElement(std::vector<int> nodes) {
  const ReferenceElement& ref = ReferenceElement::forNumNodes(static_cast<int>(nodes.size()));
  if (restJacobian(ref, myPoints, nodes, ref.warpingPointIndex()) < 0) mirror(nodes);
  addElementAsGiven(std::move(nodes), ref.getName());
}

void FemMeshBuilder::addElementAsGiven(std::vector<int> nodes, const std::string& what, const std::string& path) {
  const ReferenceElement& ref = ReferenceElement::forNumNodes(static_cast<int>(nodes.size()));
  // Every integration point and the warping point must see a positive volume.
  double detJ = std::numeric_limits<double>::infinity();
  for (int k = 0; k <= ref.numIntegrationPoints(); ++k) detJ = std::min(detJ, restJacobian(ref, myPoints, nodes, k));
  if (!(detJ > 0))
    throw ModelError(what + " would be inverted or flat at rest (det J = " + std::to_string(detJ) + ")", path);
  myElements.push_back(std::move(nodes));
}

void FemMeshBuilder::addCell(const std::array<int, 8>& c, FemElementType linearType) {
  switch (linearType) {
    case FemElementType::Hex:
      addElement({c[4], c[5], c[7], c[6], c[0], c[1], c[3], c[2]});
      break;
    case FemElementType::Wedge:
      addElement({c[0], c[1], c[3], c[4], c[5], c[7]});
      addElement({c[0], c[3], c[2], c[4], c[7], c[6]});
      break;
    case FemElementType::Tet: {
      std::array<int, 3> axes = {0, 1, 2};
      do {
        int corner = 0;
        std::vector<int> n{c[0]};
        for (int axis : axes) n.push_back(c[corner |= 1 << axis]);
        addElement(std::move(n));
      } while (std::next_permutation(axes.begin(), axes.end()));
      break;
    }
    case FemElementType::Pyramid: {
      Vector3d centre = Vector3d::Zero();
      for (int i : c) centre += myPoints[i] / 8;
      const int apex = addPoint(centre);
      // The faces a = 0, 1; b = 0, 1; d = 0, 1, each in cyclic order.
      const int faces[6][4] = {{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}};
      for (const auto& f : faces) addElement({c[f[0]], c[f[1]], c[f[2]], c[f[3]], apex});
      break;
    }
    default:
      throw std::logic_error("addCell needs a linear element type");
  }
}

FemModel3d& FemMeshBuilder::emit(FemModel3d& fem, bool quadratic) const {
  std::vector<FemNode3d*> nodes;
  nodes.reserve(myPoints.size());
  for (const Vector3d& p : myPoints) nodes.push_back(&fem.addNode(p));
  std::map<std::pair<int, int>, FemNode3d*> edgeNodes;  // keyed by the sorted corner points
  for (const auto& e : myElements) {
    std::vector<FemNode3d*> n;
    for (int i : e) n.push_back(nodes[i]);
    if (quadratic) {
      const FemElementType linear = ReferenceElement::forNumNodes(static_cast<int>(e.size())).getType();
      for (const auto& [a, b] : edgeCorners(quadraticTypeOf(linear))) {
        const auto key = std::minmax(e[a], e[b]);
        auto [it, added] = edgeNodes.try_emplace(key, nullptr);
        if (added) it->second = &fem.addNode(0.5 * (myPoints[e[a]] + myPoints[e[b]]));
        n.push_back(it->second);
      }
    }
    fem.addElement(n);
  }
  return fem;
}

}  // namespace sinew::fem_detail
