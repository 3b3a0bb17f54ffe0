// FemFactory (guide §6.2.1, §6.2.3; issue 4): grids of every element type
// fill their box exactly, conform (every interior face shared by two
// elements, quadratic edge nodes shared) and pass the patch test at model
// level under a static uniaxial stretch; cylinders, tubes, tori and
// ellipsoids converge to their analytic volumes; extrusions fill their
// slabs; bad arguments throw.
#include "sinew/fem/FemFactory.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <set>

#include "FemTestUtil.h"
#include "sinew/fem/FemMeshBuilder.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/geometry/MeshFactory.h"

namespace sinew {
namespace {

using T = FemElementType;
constexpr double kPi = std::numbers::pi;

/// The faces of each linear element type, as corner indices in cyclic order.
const std::vector<std::vector<int>>& cornerFaces(int numCorners) {
  static const std::map<int, std::vector<std::vector<int>>> faces{
      {4, {{0, 1, 2}, {0, 1, 3}, {1, 2, 3}, {0, 2, 3}}},
      {5, {{0, 1, 2, 3}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}}},
      {6, {{0, 1, 2}, {3, 4, 5}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}}},
      {8, {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}}};
  return faces.at(numCorners);
}

int numCorners(const FemElement3d& e) {
  return ReferenceElement::get(fem_detail::linearTypeOf(e.getType())).numNodes();
}

struct FaceCount {
  int interior = 0, boundary = 0, overShared = 0;
  double boundaryArea = 0;
};

/// Counts element faces by their corner nodes: a conforming mesh has each
/// face once (boundary) or twice (interior), never more.
FaceCount countFaces(const FemModel3d& fem) {
  std::map<std::vector<const FemNode3d*>, std::pair<int, double>> faces;
  for (const auto& e : fem.elements())
    for (const auto& f : cornerFaces(numCorners(e))) {
      std::vector<const FemNode3d*> key;
      std::vector<Vector3d> x;
      for (int i : f) {
        key.push_back(&e.getNode(i));
        x.push_back(e.getNode(i).getRestPosition());
      }
      std::sort(key.begin(), key.end());
      // Exact for planar faces: half the cross product of the diagonals.
      const double area =
          x.size() == 3 ? 0.5 * (x[1] - x[0]).cross(x[2] - x[0]).norm() : 0.5 * (x[2] - x[0]).cross(x[3] - x[1]).norm();
      auto& entry = faces[key];
      ++entry.first;
      entry.second = area;
    }
  FaceCount c;
  for (const auto& [key, entry] : faces) {
    if (entry.first == 1) {
      ++c.boundary;
      c.boundaryArea += entry.second;
    } else if (entry.first == 2) {
      ++c.interior;
    } else {
      ++c.overShared;
    }
  }
  return c;
}

/// No two nodes at one place (so neighbouring elements share their nodes).
bool nodesDistinct(const FemModel3d& fem, double tol = 1e-9) {
  std::vector<Vector3d> x;
  for (const auto& n : fem.nodes()) x.push_back(n.getRestPosition());
  std::sort(x.begin(), x.end(), [](const Vector3d& a, const Vector3d& b) { return a.x() < b.x(); });
  for (size_t i = 0; i < x.size(); ++i)
    for (size_t j = i + 1; j < x.size() && x[j].x() - x[i].x() < tol; ++j)
      if ((x[j] - x[i]).norm() < tol) return false;
  return true;
}

double minElementVolume(const FemModel3d& fem) {
  double v = INFINITY;
  for (const auto& e : fem.elements()) v = std::min(v, e.getRestVolume());
  return v;
}

/// Element counts per cell and closed-form node counts of the grids.
struct GridCounts {
  int elements, nodes, boundaryFaces;
};

GridCounts gridCounts(T type, int nx, int ny, int nz) {
  const int cells = nx * ny * nz, corners = (nx + 1) * (ny + 1) * (nz + 1);
  const int edges = nx * (ny + 1) * (nz + 1) + (nx + 1) * ny * (nz + 1) + (nx + 1) * (ny + 1) * nz;
  const int zFaces = nx * ny * (nz + 1), faces = zFaces + nx * (ny + 1) * nz + (nx + 1) * ny * nz;
  const int quads = 2 * (nx * ny + ny * nz + nz * nx);
  switch (type) {
    case T::Hex:
      return {cells, corners, quads};
    case T::QuadHex:
      return {cells, corners + edges, quads};
    // Wedges split every z face across one diagonal.
    case T::Wedge:
      return {2 * cells, corners, quads + 2 * nx * ny};
    case T::QuadWedge:
      return {2 * cells, corners + edges + zFaces, quads + 2 * nx * ny};
    // Kuhn tetrahedra add a diagonal on every face and in every cell.
    case T::Tet:
      return {6 * cells, corners, 2 * quads};
    case T::QuadTet:
      return {6 * cells, corners + edges + faces + cells, 2 * quads};
    // Pyramids add a centre per cell and an edge from it to each corner.
    case T::Pyramid:
      return {6 * cells, corners + cells, quads};
    default:
      return {6 * cells, corners + cells + edges + 8 * cells, quads};
  }
}

class FemFactoryGrid : public ::testing::TestWithParam<T> {};

TEST_P(FemFactoryGrid, FillsTheBoxConformingly) {
  const double wx = 1.2, wy = 0.5, wz = 0.4, density = 250;
  const int nx = 3, ny = 2, nz = 4;
  FemModel3d fem("fem");
  FemFactory::createGrid(fem, GetParam(), wx, wy, wz, nx, ny, nz);
  fem.setDensity(density);
  const GridCounts expected = gridCounts(GetParam(), nx, ny, nz);
  EXPECT_EQ(fem.numElements(), expected.elements);
  // Quadratic grids: one node per edge of the linear grid, shared.
  EXPECT_EQ(fem.numNodes(), expected.nodes);
  EXPECT_TRUE(nodesDistinct(fem));
  for (const auto& e : fem.elements()) ASSERT_EQ(e.getType(), GetParam());
  EXPECT_GT(minElementVolume(fem), 0);
  EXPECT_NEAR(fem.getRestVolume(), wx * wy * wz, 1e-14);
  EXPECT_NEAR(fem.getMass(), density * wx * wy * wz, 1e-11);
  const FaceCount faces = countFaces(fem);
  EXPECT_EQ(faces.overShared, 0);
  EXPECT_EQ(faces.boundary, expected.boundaryFaces);
  EXPECT_NEAR(faces.boundaryArea, 2 * (wx * wy + wy * wz + wz * wx), 1e-13);
  for (const auto& n : fem.nodes()) {
    const Vector3d x = n.getRestPosition().cwiseAbs();
    EXPECT_TRUE(x.x() <= wx / 2 + 1e-15 && x.y() <= wy / 2 + 1e-15 && x.z() <= wz / 2 + 1e-15);
  }
}

/// The patch test at model level: a bar clamped at x = −L/2 and pulled at
/// x = L/2 by a uniform traction σ (ν = 0), applied as nodal forces by the
/// face's consistent weights, stretches uniformly: u = (σ/E)(x + L/2) e_x.
/// Consistent weights of a face of area A: linear faces A/3 or A/4 per
/// corner; the 6-node triangle 0 per corner and A/3 per edge node; the
/// 8-node quad −A/12 per corner and A/3 per edge node.
TEST_P(FemFactoryGrid, StaticStretchGivesUniformStrain) {
  const double L = 1.2, W = 0.5, H = 0.4, E = 1000, sigma = 2;
  FemModel3d fem("fem");
  fem.setGravity(Vector3d::Zero());
  FemFactory::createGrid(fem, GetParam(), L, W, H, 3, 2, 2);
  fem.setMaterial(LinearMaterial(E, 0.0));
  const double tol = 1e-12;
  std::map<FemNode3d*, double> load;
  for (const auto& e : fem.elements()) {
    const int nc = numCorners(e);
    std::vector<int> corners, edges;
    for (int i = 0; i < e.numNodes(); ++i)
      if (e.getNode(i).getRestPosition().x() > L / 2 - tol) (i < nc ? corners : edges).push_back(i);
    if (corners.size() < 3) continue;  // touches the end at an edge or a corner only
    Vector3d lo = Vector3d::Constant(INFINITY), hi = -lo;
    for (int i : corners) {
      lo = lo.cwiseMin(e.getNode(i).getRestPosition());
      hi = hi.cwiseMax(e.getNode(i).getRestPosition());
    }
    // End faces are axis-aligned rectangles, or half rectangles (Kuhn).
    const double A = (hi.y() - lo.y()) * (hi.z() - lo.z()) / (corners.size() == 3 ? 2 : 1);
    const bool quadratic = !edges.empty();
    const double wCorner = quadratic ? (corners.size() == 3 ? 0 : -A / 12) : A / corners.size();
    for (int i : corners) load[&e.getNode(i)] += sigma * wCorner;
    for (int i : edges) load[&e.getNode(i)] += sigma * A / 3;
  }
  double total = 0;
  for (const auto& [node, f] : load) {
    node->setExternalForce(Vector3d(f, 0, 0));
    total += f;
  }
  EXPECT_NEAR(total, sigma * W * H, 1e-13);
  for (auto& n : fem.nodes())
    if (n.getRestPosition().x() < -L / 2 + tol) n.setDynamic(false);
  fem.solveStatic();
  const double strain = sigma / E;
  double maxErr = 0;
  for (const auto& n : fem.nodes()) {
    const Vector3d X = n.getRestPosition();
    const Vector3d expected(strain * (X.x() + L / 2), 0, 0);
    maxErr = std::max(maxErr, (n.getPosition() - X - expected).norm());
  }
  // Exact to round-off, except for the QuadpyramidElement: its 5-point rule
  // (ArtiSynth's) does not integrate ∫∇N_i dV of the 13-node pyramid
  // exactly, so a uniform stress leaves residual forces on its edge nodes
  // and the patch test fails by a measured 0.145% of the end displacement.
  const double bound = GetParam() == T::QuadPyramid ? 2e-3 : 1e-12;
  EXPECT_LT(maxErr, bound * strain * L) << "max nodal error " << maxErr;
}

INSTANTIATE_TEST_SUITE_P(FemFactory, FemFactoryGrid, ::testing::ValuesIn(femtest::allElementTypes()),
                         [](const auto& info) { return std::string(ReferenceElement::get(info.param).getName()); });

TEST(FemFactory, NamedGridsAreCreateGridOfTheirType) {
  using Fn = FemModel3d& (*)(FemModel3d&, double, double, double, int, int, int);
  const std::vector<std::pair<Fn, T>> named{{FemFactory::createHexGrid, T::Hex},
                                            {FemFactory::createTetGrid, T::Tet},
                                            {FemFactory::createWedgeGrid, T::Wedge},
                                            {FemFactory::createPyramidGrid, T::Pyramid},
                                            {FemFactory::createQuadtetGrid, T::QuadTet},
                                            {FemFactory::createQuadhexGrid, T::QuadHex},
                                            {FemFactory::createQuadwedgeGrid, T::QuadWedge},
                                            {FemFactory::createQuadpyramidGrid, T::QuadPyramid}};
  for (const auto& [fn, type] : named) {
    FemModel3d a, b;
    fn(a, 1, 2, 3, 2, 1, 1);
    FemFactory::createGrid(b, type, 1, 2, 3, 2, 1, 1);
    ASSERT_EQ(a.numNodes(), b.numNodes());
    ASSERT_EQ(a.numElements(), b.numElements());
    for (int i = 0; i < a.numNodes(); ++i) EXPECT_EQ(a.getNode(i).getRestPosition(), b.getNode(i).getRestPosition());
    EXPECT_EQ(a.getElement(0).getType(), type);
  }
}

TEST(FemFactory, GridElementsAreNumberedAsArtiSynthNumbersThem) {
  // Cells z fastest, x slowest (nodes x fastest): cell (i, j, k) of an
  // nx × ny × nz grid holds elements from ((i·ny + j)·nz + k)·per, for
  // every type, so that element numbers taken from the guide name the same
  // elements here.
  const int nx = 3, ny = 2, nz = 4;
  for (T type : {T::Hex, T::Tet, T::Wedge, T::Pyramid, T::QuadHex}) {
    SCOPED_TRACE(static_cast<int>(type));
    FemModel3d fem;
    FemFactory::createGrid(fem, type, 3, 2, 4, nx, ny, nz);  // unit cells centred at the origin
    const int per = fem.numElements() / (nx * ny * nz);
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j)
        for (int k = 0; k < nz; ++k)
          for (int e = 0; e < per; ++e) {
            const Vector3d c = fem.getElement(((i * ny + j) * nz + k) * per + e).computeCentroid();
            const Vector3d cell(i - 1.0, j - 0.5, k - 1.5);  // the cell's centre
            EXPECT_LT((c - cell).cwiseAbs().maxCoeff(), 0.5) << "cell " << i << j << k << " element " << e;
          }
  }
  // The guide's §6.6.1 beam (1 × 0.2 × 0.2, 6 × 3 × 3 hexes): its elements
  // 22 and 31 are the two on the beam's axis on either side of the origin.
  FemModel3d beam;
  FemFactory::createHexGrid(beam, 1, 0.2, 0.2, 6, 3, 3);
  EXPECT_LT((beam.getElement(22).computeCentroid() - Vector3d(-1.0 / 12, 0, 0)).norm(), 1e-12);
  EXPECT_LT((beam.getElement(31).computeCentroid() - Vector3d(1.0 / 12, 0, 0)).norm(), 1e-12);
}

TEST(FemFactory, AddsToAModelThatHoldsNodesAlready) {
  FemModel3d fem, alone;
  FemFactory::createQuadhexGrid(fem, 1, 1, 1, 2, 2, 2);
  const int nodes = fem.numNodes(), elements = fem.numElements();
  FemFactory::createEllipsoid(fem, 0.3, 0.2, 0.2, 8, 4, 2);
  FemFactory::createEllipsoid(alone, 0.3, 0.2, 0.2, 8, 4, 2);
  EXPECT_EQ(fem.numNodes(), nodes + alone.numNodes());
  EXPECT_EQ(fem.numElements(), elements + alone.numElements());
  // The new elements use only the new nodes: overlapping bodies stay apart.
  for (int e = elements; e < fem.numElements(); ++e)
    for (const FemNode3d* n : fem.getElement(e).getNodes()) EXPECT_GE(n->getNumber(), nodes);
  EXPECT_NEAR(fem.getRestVolume(), 1.0 + alone.getRestVolume(), 1e-14);
}

/// Area of the regular nt-gon of circumradius r: the cross section that
/// straight-edged elements through nodes on a circle fill.
double polygonArea(double r, int nt) { return 0.5 * nt * r * r * std::sin(2 * kPi / nt); }

TEST(FemFactory, CylinderVolumeConvergesToPiR2L) {
  const double l = 1.0, r = 0.5, exact = kPi * r * r * l;
  double prevErr = 1;
  for (int nt : {10, 20, 40}) {
    FemModel3d fem;
    FemFactory::createCylinder(fem, l, r, nt, 3, 4);
    fem.setDensity(10);
    // nt·nl wedges round the axis, hexes elsewhere.
    EXPECT_EQ(fem.numElements(), nt * 3 * 4);
    EXPECT_EQ(fem.numNodes(), 4 * (1 + 4 * nt));
    EXPECT_GT(minElementVolume(fem), 0);
    // Exactly the inscribed polygonal prism: error (2π/nt)²/6 to leading order.
    EXPECT_NEAR(fem.getRestVolume(), polygonArea(r, nt) * l, 1e-13);
    EXPECT_NEAR(fem.getMass(), 10 * fem.getRestVolume(), 1e-12);
    const double err = 1 - fem.getRestVolume() / exact;
    EXPECT_LT(err, prevErr / 3.9);  // O(1/nt²)
    prevErr = err;
    if (nt == 20) EXPECT_LT(err, 0.0165);  // measured 1.64%
    const FaceCount faces = countFaces(fem);
    EXPECT_EQ(faces.overShared, 0);
    EXPECT_EQ(faces.boundary, 2 * nt * 4 + nt * 3);  // two end caps, the side
    EXPECT_NEAR(faces.boundaryArea, 2 * polygonArea(r, nt) + 2 * nt * r * std::sin(kPi / nt) * l, 1e-12);
  }
  EXPECT_LT(prevErr, 0.0042);  // nt = 40: measured 0.41%
}

class FemFactoryTube : public ::testing::TestWithParam<T> {};

TEST_P(FemFactoryTube, FillsTheAnnularPrismConformingly) {
  const double l = 1.0, rin = 0.05, rout = 0.15;
  const int nt = 12, nl = 4, nr = 2;
  FemModel3d fem;
  FemFactory::createTube(fem, GetParam(), l, rin, rout, nt, nl, nr);
  for (const auto& e : fem.elements()) ASSERT_EQ(e.getType(), GetParam());
  EXPECT_GT(minElementVolume(fem), 0);
  EXPECT_TRUE(nodesDistinct(fem));
  // Every cell is a prism on a planar trapezoid, so each split fills it.
  EXPECT_NEAR(fem.getRestVolume(), (polygonArea(rout, nt) - polygonArea(rin, nt)) * l, 1e-14);
  const FaceCount faces = countFaces(fem);
  EXPECT_EQ(faces.overShared, 0);
  const int split = fem_detail::linearTypeOf(GetParam()) == T::Tet ? 2 : 1;  // boundary quads split in two
  const int endSplit = fem_detail::linearTypeOf(GetParam()) == T::Wedge ? 2 : split;
  EXPECT_EQ(faces.boundary, split * 2 * nt * nl + endSplit * 2 * nt * nr);
}

INSTANTIATE_TEST_SUITE_P(FemFactory, FemFactoryTube, ::testing::ValuesIn(femtest::allElementTypes()),
                         [](const auto& info) { return std::string(ReferenceElement::get(info.param).getName()); });

TEST(FemFactory, TubeVolumeConverges) {
  const double l = 1.0, rin = 0.05, rout = 0.15, exact = kPi * (rout * rout - rin * rin) * l;
  FemModel3d coarse, fine;
  FemFactory::createHexTube(coarse, l, rin, rout, 8, 8, 2);  // the guide's §10 example resolution
  FemFactory::createTube(fine, l, rin, rout, 32, 8, 2);
  const double errCoarse = 1 - coarse.getRestVolume() / exact, errFine = 1 - fine.getRestVolume() / exact;
  EXPECT_NEAR(errCoarse, 0.0997, 1e-4);  // measured 9.97% with 8 sides
  EXPECT_LT(errFine, 0.0065);            // measured 0.64% with 32
  EXPECT_GT(errFine, 0);
}

TEST(FemFactory, TorusVolumeConvergesToPappus) {
  // V = 2πR · π(rout² − rin²). Straight edges cut chords both round the
  // cross section and round the ring, so the error falls ~4× per doubling.
  const double R = 0.011, rin = 0.003, rout = 0.008;
  const double exact = 2 * kPi * R * kPi * (rout * rout - rin * rin);
  std::vector<double> errs;
  for (int f : {1, 2, 4}) {
    FemModel3d fem;
    FemFactory::createHexTorus(fem, R, rin, rout, 8 * f, 15 * f, 2);
    EXPECT_GT(minElementVolume(fem), 0);
    EXPECT_EQ(fem.numElements(), 8 * f * 15 * f * 2);
    const FaceCount faces = countFaces(fem);
    EXPECT_EQ(faces.overShared, 0);
    EXPECT_EQ(faces.boundary, 2 * 8 * f * 15 * f);  // the outer and inner skins: the ring is closed
    errs.push_back(std::abs(1 - fem.getRestVolume() / exact));
  }
  EXPECT_LT(errs[1], errs[0] / 3.5);
  EXPECT_LT(errs[2], errs[1] / 3.5);
  // LumbarFEMDisk's resolution (nt, nl) = (16, 30): measured 3.26%, of which
  // the 16-gon cross section accounts for 2.55%.
  EXPECT_LT(errs[1], 0.033);
}

TEST(FemFactory, SolidAndPartialTori) {
  const double R = 0.1, rout = 0.05;
  const double exact = 2 * kPi * R * kPi * rout * rout;
  FemModel3d solid, half, quad;
  FemFactory::createTorus(solid, R, 0.0, rout, 16, 32, 3);
  FemFactory::createPartialHexTorus(half, R, 0.0, rout, 16, 16, 3, kPi);
  FemFactory::createTorus(quad, T::QuadHex, R, 0.0, rout, 16, 32, 3);
  EXPECT_GT(minElementVolume(solid), 0);
  EXPECT_LT(std::abs(1 - solid.getRestVolume() / exact), 0.032);  // measured 3.18%
  // The half torus is exactly half of the full one at the same spacing.
  EXPECT_NEAR(half.getRestVolume(), solid.getRestVolume() / 2, 1e-15);
  EXPECT_EQ(countFaces(half).boundary, 16 * 16 + 2 * 16 * 3);  // skin and two end cross sections
  EXPECT_EQ(countFaces(solid).overShared, 0);
  // Straight-edged quadratic elements fill the same volume.
  EXPECT_NEAR(quad.getRestVolume(), solid.getRestVolume(), 1e-15);
  EXPECT_TRUE(nodesDistinct(quad));
  for (T type : femtest::allElementTypes()) {
    FemModel3d fem;
    FemFactory::createTorus(fem, type, R, 0.01, rout, 8, 16, 2);
    EXPECT_EQ(countFaces(fem).overShared, 0);
    EXPECT_GT(minElementVolume(fem), 0);
  }
}

TEST(FemFactory, EllipsoidVolumeConverges) {
  const double rl = 1.0, rs1 = 0.6, rs2 = 0.4, exact = 4.0 / 3 * kPi * rl * rs1 * rs2;
  std::vector<double> errs;
  for (int f : {1, 2, 4}) {
    FemModel3d fem;
    FemFactory::createEllipsoid(fem, rl, rs1, rs2, 8 * f, 4 * f, 2 * f);
    fem.setDensity(3);
    EXPECT_GT(minElementVolume(fem), 0);
    EXPECT_NEAR(fem.getMass(), 3 * fem.getRestVolume(), 1e-12);
    const FaceCount faces = countFaces(fem);
    EXPECT_EQ(faces.overShared, 0);
    // The skin: quads, and a ring of triangles at each pole.
    EXPECT_EQ(faces.boundary, 8 * f * 4 * f);
    errs.push_back(1 - fem.getRestVolume() / exact);
    EXPECT_GT(errs.back(), 0);  // inscribed
  }
  EXPECT_LT(errs[1], errs[0] / 3.5);
  EXPECT_LT(errs[2], errs[1] / 3.5);
  EXPECT_LT(errs[2], 0.02);  // measured 23%, 6.3%, 1.6% at (8, 4, 2)·1, 2, 4
}

TEST(FemFactory, ExtrudedSquareFillsTheSlab) {
  // Two layers of thickness d centred on the surface (zOffset = d, §6.2.3).
  const double wx = 1.0, wy = 0.8, d = 0.05;
  for (bool triangles : {false, true}) {
    PolygonalMesh square =
        triangles ? MeshFactory::createTriangularPlane(wx, wy, 4, 4) : MeshFactory::createPlane(wx, wy, 4, 4);
    FemModel3d fem;
    FemFactory::createExtrusion(fem, 2, d, d, square);
    fem.setDensity(7);
    EXPECT_EQ(fem.numNodes(), 25 * 3);
    EXPECT_EQ(fem.numElements(), 2 * square.numFaces());
    EXPECT_EQ(fem.getElement(0).getType(), triangles ? T::Wedge : T::Hex);
    EXPECT_NEAR(fem.getRestVolume(), wx * wy * 2 * d, 1e-15);
    EXPECT_NEAR(fem.getMass(), 7 * wx * wy * 2 * d, 1e-13);
    for (const auto& n : fem.nodes()) EXPECT_LE(std::abs(n.getRestPosition().z()), d + 1e-15);
    const FaceCount faces = countFaces(fem);
    EXPECT_EQ(faces.overShared, 0);
    EXPECT_NEAR(faces.boundaryArea, 2 * wx * wy + 2 * (wx + wy) * 2 * d, 1e-13);
  }
}

TEST(FemFactory, ExtrudedSphereIsAClosedShell) {
  const double r = 1, t = 0.1;
  const PolygonalMesh sphere = MeshFactory::createIcosahedralSphere(r, 3);
  FemModel3d fem;
  FemFactory::createExtrusion(fem, 2, t / 2, 0, sphere);
  const FaceCount faces = countFaces(fem);
  EXPECT_EQ(faces.overShared, 0);
  EXPECT_EQ(faces.boundary, 2 * sphere.numFaces());  // inner and outer skins only
  // The 1280-face polyhedron is inscribed in the sphere: measured 0.991.
  EXPECT_NEAR(fem.getRestVolume() / (4.0 / 3 * kPi * (std::pow(r + t, 3) - r * r * r)), 1.0, 0.015);
}

/// Bad arguments throw ModelError and leave the model as it was.
template <class Fn>
void expectModelError(Fn&& build) {
  FemModel3d fem;
  EXPECT_THROW(build(fem), ModelError);
  EXPECT_EQ(fem.numNodes(), 0);
  EXPECT_EQ(fem.numElements(), 0);
}

TEST(FemFactory, BadArgumentsThrow) {
  expectModelError([](FemModel3d& f) { FemFactory::createGrid(f, T::Wedge, 0, 1, 1, 1, 1, 1); });
  expectModelError([](FemModel3d& f) { FemFactory::createGrid(f, T::QuadHex, 1, -1, 1, 1, 1, 1); });
  expectModelError([](FemModel3d& f) { FemFactory::createGrid(f, T::Tet, 1, 1, 1, 1, 0, 1); });
  expectModelError([](FemModel3d& f) { FemFactory::createPyramidGrid(f, 1, 1, NAN, 1, 1, 1); });
  expectModelError([](FemModel3d& f) { FemFactory::createCylinder(f, 1, 0, 8, 1, 1); });
  expectModelError([](FemModel3d& f) { FemFactory::createCylinder(f, 1, 1, 2, 1, 1); });
  expectModelError([](FemModel3d& f) { FemFactory::createTube(f, 1, 0.3, 0.3, 8, 1, 1); });
  expectModelError([](FemModel3d& f) { FemFactory::createTube(f, 1, 0.5, 0.3, 8, 1, 1); });
  expectModelError([](FemModel3d& f) { FemFactory::createTube(f, 1, 0.0, 0.3, 8, 1, 1); });
  expectModelError([](FemModel3d& f) { FemFactory::createTorus(f, 1, 0.3, 0.2, 8, 8, 1); });
  expectModelError([](FemModel3d& f) { FemFactory::createTorus(f, 0.2, 0.1, 0.2, 8, 8, 1); });
  expectModelError([](FemModel3d& f) { FemFactory::createTorus(f, T::Tet, 1, 0.0, 0.2, 8, 8, 1); });
  expectModelError([](FemModel3d& f) { FemFactory::createPartialHexTorus(f, 1, 0.1, 0.2, 8, 8, 1, 7); });
  expectModelError([](FemModel3d& f) { FemFactory::createEllipsoid(f, 1, 1, 1, 8, 1, 2); });
  expectModelError([](FemModel3d& f) { FemFactory::createEllipsoid(f, 1, -1, 1, 8, 4, 2); });
  const PolygonalMesh square = MeshFactory::createPlane(1, 1, 2, 2);
  expectModelError([&](FemModel3d& f) { FemFactory::createExtrusion(f, 0, 0.1, 0, square); });
  expectModelError([&](FemModel3d& f) { FemFactory::createExtrusion(f, 1, 0, 0, square); });
  expectModelError([&](FemModel3d& f) { FemFactory::createExtrusion(f, 1, 0.1, 0, PolygonalMesh()); });
  // Three triangles on one edge.
  PolygonalMesh fin;
  for (const Vector3d& p :
       {Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0), Vector3d(0, -1, 0), Vector3d(0, 0, 1)})
    fin.addVertex(p);
  fin.addFace({0, 1, 2});
  fin.addFace({1, 0, 3});
  fin.addFace({0, 1, 4});
  expectModelError([&](FemModel3d& f) { FemFactory::createExtrusion(f, 1, 0.1, 0, fin); });
  PolygonalMesh pentagon;
  for (int i = 0; i < 5; ++i) pentagon.addVertex(std::cos(2 * kPi * i / 5), std::sin(2 * kPi * i / 5), 0);
  pentagon.addFace({0, 1, 2, 3, 4});
  expectModelError([&](FemModel3d& f) { FemFactory::createExtrusion(f, 1, 0.1, 0, pentagon); });
  // A right-angled valley extruded into its concave side: a thin layer is
  // fine, a thick one crosses over above the fold and inverts.
  PolygonalMesh valley;
  for (const Vector3d& p : {Vector3d(-1, 0, 1), Vector3d(0, 0, 0), Vector3d(0, 1, 0), Vector3d(-1, 1, 1),
                            Vector3d(1, 0, 1), Vector3d(1, 1, 1)})
    valley.addVertex(p);
  valley.addFace({0, 1, 2, 3});
  valley.addFace({1, 4, 5, 2});
  FemModel3d thin;
  EXPECT_NO_THROW(FemFactory::createExtrusion(thin, 1, 0.2, 0, valley));
  expectModelError([&](FemModel3d& f) { FemFactory::createExtrusion(f, 1, 2.0, 0, valley); });
}

TEST(FemFactory, ErrorMessagesNameTheArgument) {
  FemModel3d fem("fem");
  try {
    FemFactory::createTube(fem, 1, 0.5, 0.3, 8, 1, 1);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("createTube: need 0 < rin < rout"), std::string::npos) << e.what();
  }
  try {
    FemFactory::createGrid(fem, T::Hex, 1, 1, 1, 1, 0, 1);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("createGrid: ny must be at least 1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sinew
