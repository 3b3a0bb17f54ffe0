// Element force and stiffness kernels (guide §6.1.2.2, §6.1.3): the patch
// test, equilibrium of uniform stress, stiffness and forces against finite
// differences, stiffness warping, volumes and inverted elements.
#include <gtest/gtest.h>

#include "FemTestUtil.h"
#include "sinew/Error.h"
#include "Verification.h"

namespace sinew {
namespace {

using namespace femtest;

/// A material with a prescribed uniform stress, to test equilibrium.
class UniformStressMaterial : public FemMaterial {
 public:
  UniformStressMaterial(const Matrix3d& sigma, bool linear) : mySigma(sigma), myLinear(linear) {}
  const PropertyList& getAllPropertyInfo() const override { return HasProperties::staticPropertyInfo(); }
  void computeStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint&) const override {
    sigma = mySigma;
    if (D) D->setZero();
  }
  double computeStrainEnergyDensity(const DeformedPoint&) const override { return 0; }
  bool isLinear() const override { return myLinear; }
  bool isInvertible() const override { return true; }
  std::unique_ptr<FemMaterial> clone() const override { return std::make_unique<UniformStressMaterial>(*this); }
  void scaleModuli(double f) override { mySigma *= f; }

 private:
  Matrix3d mySigma;
  bool myLinear;
};

Eigen::VectorXd forces(const ReferenceElement& e, const std::vector<Vector3d>& rest, const std::vector<Vector3d>& x,
                       const FemMaterial& mat) {
  ElementVector f;
  computeElementForces(e, rest, x, mat, f);
  return f;
}

Vector3d netForce(const Eigen::VectorXd& f) { return f.reshaped(3, f.size() / 3).rowwise().sum(); }

Vector3d netMoment(const Eigen::VectorXd& f, const std::vector<Vector3d>& about) {
  Vector3d m = Vector3d::Zero();
  for (size_t i = 0; i < about.size(); ++i) m += about[i].cross(f.segment<3>(3 * i));
  return m;
}

TEST(ElementKernels, PatchTestReproducesUniformStrain) {
  // u = A X + b on a distorted element gives F = I + A at every point, so
  // the element reproduces any uniform strain; stresses and their nodal
  // extrapolation are then uniform too.
  Noise noise(21);
  NeoHookeanMaterial mat(200000, 0.35);
  for (FemElementType t : allElementTypes()) {
    const ReferenceElement& e = ReferenceElement::get(t);
    std::vector<Vector3d> X = distortedRestNodes(e, 3);
    Matrix3d A = 0.3 * noise.mat();
    Vector3d b = noise.vec();
    std::vector<Vector3d> x;
    for (const Vector3d& Xi : X) x.push_back(Xi + A * Xi + b);
    Matrix3d F = Matrix3d::Identity() + A;
    PointKinematics pk;
    double worst = 0;
    for (int k = 0; k <= e.numIntegrationPoints(); ++k) {  // the warping point too
      computePointKinematics(e, k, X, x, pk);
      worst = std::max(worst, (pk.F - F).norm());
      EXPECT_NEAR(pk.J, F.determinant(), 1e-13);
    }
    VERIFY_BELOW(std::string("FEM patch test: |F − (I + A)| on a distorted ") + e.getName(),
                 "u = A X + b is reproduced exactly at every integration point", worst, 1e-13);
    EXPECT_NEAR(computeVolume(e, x), F.determinant() * computeVolume(e, X), 1e-13);

    std::vector<IntegrationPointState> states(e.numIntegrationPoints());
    computeIntegrationPointStates(e, X, x, mat, states);
    Matrix3d sigma = mat.computeStress(DeformedPoint(F));
    std::vector<Matrix3d> stresses, nodal(e.numNodes());
    for (const IntegrationPointState& s : states) {
      EXPECT_LT((s.stress - sigma).norm(), 1e-9 * sigma.norm());
      EXPECT_LT((s.strain - greenStrain(F)).norm(), 1e-13);
      stresses.push_back(s.stress);
    }
    extrapolateToNodes(e, stresses, nodal);
    for (const Matrix3d& s : nodal) EXPECT_LT((s - sigma).norm(), 1e-9 * sigma.norm()) << e.getName();
  }
}

TEST(ElementKernels, UniformStressForcesAreInEquilibrium) {
  // Nodal forces of a uniform stress sum to zero force and zero moment about
  // the configuration they are integrated over: the current one for large
  // strain, the rest one for small strain.
  Matrix3d sigma;
  sigma << 3, 1, -2, 1, -4, 0.5, -2, 0.5, 2;
  sigma *= 1e4;
  for (FemElementType t : allElementTypes()) {
    const ReferenceElement& e = ReferenceElement::get(t);
    std::vector<Vector3d> X = distortedRestNodes(e, 4), x = deformedNodes(X, 5);
    for (bool linear : {false, true}) {
      Eigen::VectorXd f = forces(e, X, x, UniformStressMaterial(sigma, linear));
      double scale = f.norm();
      EXPECT_GT(scale, 1e3);
      EXPECT_LT(netForce(f).norm(), 1e-12 * scale) << e.getName();
      EXPECT_LT(netMoment(f, linear ? X : x).norm(), 1e-12 * scale) << e.getName() << " linear " << linear;
    }
  }
}

/// Calls fn(element, rest, current, material) for every element type, on a
/// distorted element under a large non-uniform deformation, and every
/// material whose forces have an exact derivative there (stiffness warping
/// drops ∂R/∂x, so corotated materials are checked at rotated rest states).
template <class Fn>
void forEachElementAndMaterial(unsigned seed, Fn fn) {
  for (FemElementType t : allElementTypes()) {
    const ReferenceElement& e = ReferenceElement::get(t);
    std::vector<Vector3d> X = distortedRestNodes(e, seed), x = deformedNodes(X, seed + 1);
    for (const NamedMaterial& m : allMaterials())
      if (!m.mat->isCorotated()) fn(e, X, x, m);
  }
}

TEST(ElementKernels, StiffnessMatchesFiniteDifferenceOfForcesAndIsSymmetric) {
  forEachElementAndMaterial(6, [](const ReferenceElement& e, const std::vector<Vector3d>& X,
                                  const std::vector<Vector3d>& x, const NamedMaterial& m) {
    ElementVector f;
    ElementMatrix K;
    computeElementForcesAndStiffness(e, X, x, *m.mat, f, K);
    EXPECT_LT((f - forces(e, X, x, *m.mat)).norm(), 1e-12 * (1 + f.norm()));
    Eigen::MatrixXd Kfd = -finiteDifferenceJacobian(x, 3 * e.numNodes(), [&](const std::vector<Vector3d>& y) {
      return forces(e, X, y, *m.mat);
    });
    double scale = 1 + Kfd.norm();
    EXPECT_LT((K - Kfd).norm(), 1e-7 * scale) << e.getName() << " " << m.name;
    EXPECT_LT((K - K.transpose()).norm(), 1e-12 * scale) << e.getName() << " " << m.name;
  });
}

TEST(ElementKernels, ForcesAreTheNegativeGradientOfTheStrainEnergy) {
  forEachElementAndMaterial(8, [](const ReferenceElement& e, const std::vector<Vector3d>& X,
                                  const std::vector<Vector3d>& x, const NamedMaterial& m) {
    Eigen::VectorXd f = forces(e, X, x, *m.mat);
    Eigen::MatrixXd dE = finiteDifferenceJacobian(x, 1, [&](const std::vector<Vector3d>& y) {
      return Eigen::VectorXd::Constant(1, computeElementStrainEnergy(e, X, y, *m.mat));
    });
    EXPECT_LT((f + dE.transpose()).norm(), 1e-7 * (1 + f.norm())) << e.getName() << " " << m.name;
  });
}

TEST(ElementKernels, CorotatedLinearIgnoresRigidMotionAndWarpsTheStiffness) {
  LinearMaterial corot(400000, 0.3, true), plain(400000, 0.3, false);
  Matrix3d Q = axisRotation(0, 1.2) * axisRotation(2, -2.0);
  Vector3d t(1, -2, 0.5);
  for (FemElementType type : allElementTypes()) {
    const ReferenceElement& e = ReferenceElement::get(type);
    std::vector<Vector3d> X = distortedRestNodes(e, 10), x;
    for (const Vector3d& Xi : X) x.push_back(Q * Xi + t);
    ElementVector f, f0;
    ElementMatrix K, K0;
    computeElementForcesAndStiffness(e, X, x, corot, f, K);
    computeElementForcesAndStiffness(e, X, X, plain, f0, K0);
    double scale = K0.norm();
    // A large rigid rotation stresses nothing...
    EXPECT_LT(f.norm(), 1e-12 * scale) << e.getName();
    // ...while the plain small-strain element would resist it.
    EXPECT_GT(forces(e, X, x, plain).norm(), 0.1 * scale);
    // K = R K0 Rᵀ with R = Q on every node block, exact at this state.
    Eigen::MatrixXd Qn = Eigen::MatrixXd::Zero(3 * e.numNodes(), 3 * e.numNodes());
    for (int i = 0; i < e.numNodes(); ++i) Qn.block<3, 3>(3 * i, 3 * i) = Q;
    EXPECT_LT((K - Qn * K0 * Qn.transpose()).norm(), 1e-12 * scale) << e.getName();
    Eigen::MatrixXd Kfd = -finiteDifferenceJacobian(x, 3 * e.numNodes(), [&](const std::vector<Vector3d>& y) {
      return forces(e, X, y, corot);
    });
    EXPECT_LT((K - Kfd).norm(), 1e-7 * scale) << e.getName();
  }
}

TEST(ElementKernels, ExactCorotatedTangentMatchesFiniteDifferenceOfForces) {
  // Under a large strained rotation, stiffness warping misses ∂R/∂x by a
  // visible part of K; with `exactTangent` K = −∂f/∂x for every element
  // type, and for the one-point tet it is also symmetric (its forces are
  // the gradient of its energy).
  LinearMaterial warped(400000, 0.3, true), exact(400000, 0.3, true);
  exact.setExactTangent(true);
  ASSERT_TRUE(exact.hasExactRotationTangent());
  ASSERT_FALSE(warped.hasExactRotationTangent());
  Matrix3d Q = axisRotation(1, 0.9) * axisRotation(2, -1.3);
  for (FemElementType type : allElementTypes()) {
    const ReferenceElement& e = ReferenceElement::get(type);
    std::vector<Vector3d> X = distortedRestNodes(e, 12), x = deformedNodes(X, 13);
    for (Vector3d& xi : x) xi = Q * xi;
    ElementVector f, fw;
    ElementMatrix K, Kw;
    computeElementForcesAndStiffness(e, X, x, exact, f, K);
    computeElementForcesAndStiffness(e, X, x, warped, fw, Kw);
    EXPECT_LT((f - fw).norm(), 1e-14 * f.norm()) << e.getName() << ": the forces do not change";
    Eigen::MatrixXd Kfd = -finiteDifferenceJacobian(x, 3 * e.numNodes(), [&](const std::vector<Vector3d>& y) {
      return forces(e, X, y, exact);
    });
    const double scale = Kfd.norm();
    EXPECT_LT((K - Kfd).norm(), 1e-7 * scale) << e.getName();
    EXPECT_GT((Kw - Kfd).norm(), 1e-2 * scale) << e.getName();
    if (type == FemElementType::Tet) EXPECT_LT((K - K.transpose()).norm(), 1e-12 * scale);
    ElementMatrix Ks = K;
    symmetrizeStiffness(Ks);
    EXPECT_LT((Ks - Ks.transpose()).norm(), 1e-15 * scale);
    EXPECT_LT((Ks + Ks.transpose() - K - K.transpose()).norm(), 1e-12 * scale) << e.getName();
  }
}

TEST(ElementKernels, InvertedElementIsReportedWithItsIntegrationPoint) {
  NeoHookeanMaterial neo(100000, 0.3);
  ElementVector f;
  // A tet whose apex is pushed through its base.
  const ReferenceElement& tet = ReferenceElement::get(FemElementType::Tet);
  std::vector<Vector3d> X = tet.getNodeCoords(), x = X;
  x[3] = Vector3d(0.2, 0.2, -0.5);
  try {
    computeElementForces(tet, X, x, neo, f);
    FAIL() << "no error";
  } catch (const InvertedElementError& err) {
    EXPECT_EQ(err.integrationPoint(), 0);
    EXPECT_FALSE(err.atRest());
    EXPECT_NEAR(err.determinant(), -0.5, 1e-15);
    InvertedElementError named(err, "models/fem/elements/7");
    EXPECT_EQ(named.path(), "models/fem/elements/7");
    EXPECT_EQ(std::string(named.what()).rfind("models/fem/elements/7: inverted element", 0), 0u) << named.what();
  }
  // Small-strain materials stay defined when inverted.
  EXPECT_NO_THROW(computeElementForces(tet, X, x, LinearMaterial(), f));

  // A hex with one corner folded inwards: the first point with det F ≤ 0 is
  // reported, and it is not the first point.
  const ReferenceElement& hex = ReferenceElement::get(FemElementType::Hex);
  X = hex.getNodeCoords();
  x = X;
  x[6] = Vector3d(-0.7, -0.7, 0.7);
  try {
    computeElementForces(hex, X, x, neo, f);
    FAIL() << "no error";
  } catch (const InvertedElementError& err) {
    int k = err.integrationPoint();
    EXPECT_GT(k, 0);
    PointKinematics pk;
    for (int j = 0; j <= k; ++j) {
      computePointKinematics(hex, j, X, x, pk);
      if (j < k) EXPECT_GT(pk.J, 0);
    }
    EXPECT_LT(pk.J, 0);
    EXPECT_EQ(err.determinant(), pk.J);
  }

  // Nodes given in the wrong order invert the rest shape: reported for any
  // material, at rest.
  X = tet.getNodeCoords();
  std::swap(X[1], X[2]);
  try {
    computeElementForces(tet, X, X, LinearMaterial(), f);
    FAIL() << "no error";
  } catch (const InvertedElementError& err) {
    EXPECT_TRUE(err.atRest());
    EXPECT_LT(err.determinant(), 0);
  }
}

TEST(ElementKernels, WrongNodeCountIsAModelError) {
  const ReferenceElement& hex = ReferenceElement::get(FemElementType::Hex);
  std::vector<Vector3d> four = ReferenceElement::get(FemElementType::Tet).getNodeCoords();
  ElementVector f;
  EXPECT_THROW(computeElementForces(hex, four, four, LinearMaterial(), f), ModelError);
}

}  // namespace
}  // namespace sinew
