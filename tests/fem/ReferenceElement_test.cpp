// Reference elements (guide §6.1.2.2, Table 6.1): shape functions,
// quadrature, mass weights, extrapolation and the node-count factory.
#include <gtest/gtest.h>

#include <cmath>

#include "FemTestUtil.h"
#include "sinew/Error.h"

namespace sinew {
namespace {

using namespace femtest;

struct TypeFacts {
  FemElementType type;
  const char* name;
  int nodes, points, order;
  int exactDegree;  ///< total degree its rule integrates exactly
  double volume;    ///< of the ideal element
};

const TypeFacts kFacts[] = {
    {FemElementType::Tet, "TetElement", 4, 1, 1, 1, 1.0 / 6},
    {FemElementType::Hex, "HexElement", 8, 8, 1, 3, 8},
    {FemElementType::Wedge, "WedgeElement", 6, 6, 1, 2, 1},
    {FemElementType::Pyramid, "PyramidElement", 5, 5, 1, 2, 8.0 / 3},
    {FemElementType::QuadTet, "QuadtetElement", 10, 4, 2, 2, 1.0 / 6},
    {FemElementType::QuadHex, "QuadhexElement", 20, 14, 2, 5, 8},
    {FemElementType::QuadWedge, "QuadwedgeElement", 15, 9, 2, 2, 1},
    {FemElementType::QuadPyramid, "QuadpyramidElement", 13, 5, 2, 2, 8.0 / 3},
};

bool isPyramid(const ReferenceElement& e) {
  return e.getType() == FemElementType::Pyramid || e.getType() == FemElementType::QuadPyramid;
}

/// The ideal element's map from natural to physical coordinates: the
/// identity, except for pyramids, whose top face collapses to the apex.
Vector3d idealPosition(const ReferenceElement& e, const Vector3d& s) {
  if (!isPyramid(e)) return s;
  return {0.5 * s.x() * (1 - s.z()), 0.5 * s.y() * (1 - s.z()), s.z()};
}

/// Random natural coordinates inside the element's domain.
Vector3d randomNaturalPoint(const ReferenceElement& e, Noise& noise) {
  Vector3d v = noise.vec().cwiseAbs();
  switch (e.getDomain()) {
    case ReferenceElement::Domain::Tetrahedron: return v / (v.sum() + std::abs(noise()) + 0.1);
    case ReferenceElement::Domain::Prism:
      return {v.x() / (v.x() + v.y() + 0.2), v.y() / (v.x() + v.y() + 0.2), noise()};
    case ReferenceElement::Domain::Cube: break;
  }
  return noise.vec();
}

double factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }
double lineMonomial(int a) { return a % 2 ? 0 : 2.0 / (a + 1); }  // ∫ x^a over [−1, 1]

/// ∫ x^a y^b z^c over the ideal element, in closed form.
double idealMonomialIntegral(const ReferenceElement& e, int a, int b, int c) {
  if (isPyramid(e)) {
    // Cross-section at height z is the square of half-width h = (1 − z)/2:
    // ∫∫ x^a y^b = (2h^(a+1)/(a+1))(2h^(b+1)/(b+1)); expand h^m binomially.
    if (a % 2 || b % 2) return 0;
    int m = a + b + 2;
    double sum = 0;
    for (int k = 0; k <= m; ++k)
      sum += factorial(m) / (factorial(k) * factorial(m - k)) * std::pow(-1.0, k) * lineMonomial(c + k);
    return 4.0 / ((a + 1) * (b + 1)) * std::pow(0.5, m) * sum;
  }
  switch (e.getDomain()) {
    case ReferenceElement::Domain::Tetrahedron: return factorial(a) * factorial(b) * factorial(c) / factorial(a + b + c + 3);
    case ReferenceElement::Domain::Prism: return factorial(a) * factorial(b) / factorial(a + b + 2) * lineMonomial(c);
    case ReferenceElement::Domain::Cube: break;
  }
  return lineMonomial(a) * lineMonomial(b) * lineMonomial(c);
}

/// ∫ x^a y^b z^c over the ideal element by the element's own quadrature.
double quadratureMonomialIntegral(const ReferenceElement& e, int a, int b, int c) {
  double sum = 0;
  for (int k = 0; k < e.numIntegrationPoints(); ++k) {
    Matrix3d J = Matrix3d::Zero();
    Vector3d x = Vector3d::Zero();
    for (int i = 0; i < e.numNodes(); ++i) {
      J += e.getIdealNodePositions()[i] * e.getShapeGradients(k).col(i).transpose();
      x += e.getShapeValues(k)[i] * e.getIdealNodePositions()[i];
    }
    sum += e.getIntegrationPoints()[k].weight * J.determinant() * std::pow(x.x(), a) * std::pow(x.y(), b) *
           std::pow(x.z(), c);
  }
  return sum;
}

TEST(ReferenceElement, TableOneCountsNamesAndFactory) {
  for (const TypeFacts& f : kFacts) {
    const ReferenceElement& e = ReferenceElement::get(f.type);
    EXPECT_STREQ(e.getName(), f.name);
    EXPECT_EQ(e.numNodes(), f.nodes);
    EXPECT_EQ(e.numIntegrationPoints(), f.points);
    EXPECT_EQ(e.getOrder(), f.order);
    EXPECT_EQ(&ReferenceElement::forNumNodes(f.nodes), &e) << f.name;
    EXPECT_EQ(e.warpingPointIndex(), f.points);
  }
  for (int n : {0, 3, 7, 9, 21}) EXPECT_THROW(ReferenceElement::forNumNodes(n), ModelError);
}

TEST(ReferenceElement, NodeCoordsFollowArtiSynthOrdering) {
  auto coords = [](FemElementType t) { return ReferenceElement::get(t).getNodeCoords(); };
  EXPECT_EQ(coords(FemElementType::Tet)[1], Vector3d(1, 0, 0));
  EXPECT_EQ(coords(FemElementType::Tet)[3], Vector3d(0, 0, 1));
  EXPECT_EQ(coords(FemElementType::Hex)[0], Vector3d(-1, -1, 1));
  EXPECT_EQ(coords(FemElementType::Hex)[2], Vector3d(1, 1, 1));
  EXPECT_EQ(coords(FemElementType::Hex)[4], Vector3d(-1, -1, -1));
  EXPECT_EQ(coords(FemElementType::Wedge)[3], Vector3d(0, 0, 1));
  EXPECT_EQ(coords(FemElementType::Pyramid)[4], Vector3d(0, 0, 1));
  // Quadtet edge nodes: midpoints of 01, 12, 20, 03, 13, 23.
  const auto q = coords(FemElementType::QuadTet);
  const int edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
  for (int k = 0; k < 6; ++k) EXPECT_EQ(q[4 + k], 0.5 * (q[edges[k][0]] + q[edges[k][1]]));
  // Ideal positions are the natural coordinates mapped to the ideal shape.
  for (FemElementType t : allElementTypes()) {
    const ReferenceElement& e = ReferenceElement::get(t);
    for (int i = 0; i < e.numNodes(); ++i)
      EXPECT_LT((e.getIdealNodePositions()[i] - idealPosition(e, e.getNodeCoords()[i])).norm(), 1e-15);
  }
  EXPECT_EQ(ReferenceElement::get(FemElementType::QuadPyramid).getIdealNodePositions()[9], Vector3d(-0.5, -0.5, 0));
  // Every quadratic element's corners are those of its linear counterpart.
  for (auto [quad, lin] : {std::pair{FemElementType::QuadTet, FemElementType::Tet},
                           std::pair{FemElementType::QuadHex, FemElementType::Hex},
                           std::pair{FemElementType::QuadWedge, FemElementType::Wedge},
                           std::pair{FemElementType::QuadPyramid, FemElementType::Pyramid}})
    for (size_t i = 0; i < coords(lin).size(); ++i) EXPECT_EQ(coords(quad)[i], coords(lin)[i]);
}

TEST(ReferenceElement, ShapeFunctionsAreKroneckerDeltaAtNodes) {
  for (FemElementType t : allElementTypes()) {
    const ReferenceElement& e = ReferenceElement::get(t);
    ReferenceElement::ShapeValues N;
    ReferenceElement::ShapeGradients dN;
    for (int j = 0; j < e.numNodes(); ++j) {
      e.computeShape(e.getNodeCoords()[j], N, dN);
      for (int i = 0; i < e.numNodes(); ++i) EXPECT_NEAR(N[i], i == j ? 1 : 0, 1e-14) << e.getName() << i << j;
    }
  }
}

TEST(ReferenceElement, PartitionOfUnityAndLinearGeometry) {
  Noise noise(5);
  for (FemElementType t : allElementTypes()) {
    const ReferenceElement& e = ReferenceElement::get(t);
    ReferenceElement::ShapeValues N;
    ReferenceElement::ShapeGradients dN;
    for (int trial = 0; trial < 20; ++trial) {
      Vector3d s = randomNaturalPoint(e, noise);
      e.computeShape(s, N, dN);
      EXPECT_NEAR(N.sum(), 1, 1e-14) << e.getName();
      EXPECT_LT(dN.rowwise().sum().norm(), 1e-13) << e.getName();
      // Interpolating the ideal node positions gives the ideal (affine, or
      // for pyramids collapsed) map: the functions reproduce linear fields.
      Vector3d x = Vector3d::Zero();
      for (int i = 0; i < e.numNodes(); ++i) x += N[i] * e.getIdealNodePositions()[i];
      EXPECT_LT((x - idealPosition(e, s)).norm(), 1e-14) << e.getName();
    }
  }
}

TEST(ReferenceElement, GradientsMatchFiniteDifferences) {
  Noise noise(6);
  const double h = 1e-6;
  for (FemElementType t : allElementTypes()) {
    const ReferenceElement& e = ReferenceElement::get(t);
    ReferenceElement::ShapeValues N, Np, Nm;
    ReferenceElement::ShapeGradients dN, unused;
    Vector3d s = randomNaturalPoint(e, noise);
    e.computeShape(s, N, dN);
    for (int c = 0; c < 3; ++c) {
      e.computeShape(s + h * Vector3d::Unit(c), Np, unused);
      e.computeShape(s - h * Vector3d::Unit(c), Nm, unused);
      EXPECT_LT((dN.row(c).transpose() - (Np - Nm) / (2 * h)).norm(), 1e-8) << e.getName() << " dir " << c;
    }
  }
}

TEST(ReferenceElement, QuadratureIntegratesVolumeAndPolynomialsExactly) {
  for (const TypeFacts& f : kFacts) {
    const ReferenceElement& e = ReferenceElement::get(f.type);
    EXPECT_NEAR(computeVolume(e, e.getIdealNodePositions()), f.volume, 1e-14) << f.name;
    for (int a = 0; a <= f.exactDegree; ++a)
      for (int b = 0; a + b <= f.exactDegree; ++b)
        for (int c = 0; a + b + c <= f.exactDegree; ++c)
          EXPECT_NEAR(quadratureMonomialIntegral(e, a, b, c), idealMonomialIntegral(e, a, b, c), 1e-14)
              << f.name << " x^" << a << " y^" << b << " z^" << c;
  }
}

TEST(ReferenceElement, WarpingPointIsTheCentroid) {
  for (const TypeFacts& f : kFacts) {
    const ReferenceElement& e = ReferenceElement::get(f.type);
    Vector3d centroid(quadratureMonomialIntegral(e, 1, 0, 0), quadratureMonomialIntegral(e, 0, 1, 0),
                      quadratureMonomialIntegral(e, 0, 0, 1));
    centroid /= f.volume;
    EXPECT_LT((idealPosition(e, e.getWarpingCoords()) - centroid).norm(), 1e-14) << f.name;
  }
}

TEST(ReferenceElement, MassWeightsArePositiveAndSumToOne) {
  for (FemElementType t : allElementTypes()) {
    const Eigen::VectorXd& w = ReferenceElement::get(t).getNodeMassWeights();
    EXPECT_NEAR(w.sum(), 1, 1e-14);
    EXPECT_GT(w.minCoeff(), 0);
  }
  // Symmetric linear elements lump equally.
  for (auto [t, n] : {std::pair{FemElementType::Tet, 4}, std::pair{FemElementType::Hex, 8},
                      std::pair{FemElementType::Wedge, 6}})
    EXPECT_LT((ReferenceElement::get(t).getNodeMassWeights().array() - 1.0 / n).abs().maxCoeff(), 1e-14);
  // The 10-node tet's consistent mass diagonal is V/420·(6 corner, 32 edge),
  // so HRZ lumping gives 6/216 = 1/36 per corner and 32/216 = 4/27 per edge.
  const Eigen::VectorXd& w = ReferenceElement::get(FemElementType::QuadTet).getNodeMassWeights();
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(w[i], i < 4 ? 1.0 / 36 : 4.0 / 27, 1e-14);
  // The same lumping tabulated by ArtiSynth for the 20-node hex (corner 7/248,
  // edge 2/31) and the 15-node wedge (corner 1/34, triangle edge 4/51,
  // vertical edge 2/17).
  const Eigen::VectorXd& wh = ReferenceElement::get(FemElementType::QuadHex).getNodeMassWeights();
  for (int i = 0; i < 20; ++i) EXPECT_NEAR(wh[i], i < 8 ? 7.0 / 248 : 2.0 / 31, 1e-14);
  const Eigen::VectorXd& ww = ReferenceElement::get(FemElementType::QuadWedge).getNodeMassWeights();
  for (int i = 0; i < 15; ++i) EXPECT_NEAR(ww[i], i < 6 ? 1.0 / 34 : (i < 12 ? 4.0 / 51 : 2.0 / 17), 1e-14);
}

TEST(ReferenceElement, ExtrapolationReproducesLinearFields) {
  for (FemElementType t : allElementTypes()) {
    const ReferenceElement& e = ReferenceElement::get(t);
    const Eigen::MatrixXd& E = e.getNodalExtrapolationMatrix();
    ASSERT_EQ(E.rows(), e.numNodes());
    ASSERT_EQ(E.cols(), e.numIntegrationPoints());
    // A single point can only carry a constant; every other type carries
    // fields linear over the ideal element.
    Vector3d grad = t == FemElementType::Tet ? Vector3d::Zero() : Vector3d(0.7, -0.2, 0.5);
    auto field = [&](const Vector3d& s) { return 0.3 + grad.dot(idealPosition(e, s)); };
    Eigen::VectorXd atPoints(e.numIntegrationPoints());
    for (int k = 0; k < e.numIntegrationPoints(); ++k) atPoints[k] = field(e.getIntegrationPoints()[k].coords);
    Eigen::VectorXd atNodes = E * atPoints;
    for (int i = 0; i < e.numNodes(); ++i)
      EXPECT_NEAR(atNodes[i], field(e.getNodeCoords()[i]), 1e-13) << e.getName() << " node " << i;
  }
}

}  // namespace
}  // namespace sinew
