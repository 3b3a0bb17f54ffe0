// Shared fixtures of the FEM kernel tests: distorted element geometries,
// one instance of every material, the one finite-difference check of a
// material's tangent against its stress (DESIGN §4), and a deformed block
// model with its nodal forces for the model-level checks.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "sinew/fem/ElementKernels.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/IncompNeoHookeanMaterial.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/fem/MooneyRivlinMaterial.h"
#include "sinew/fem/NeoHookeanMaterial.h"
#include "sinew/fem/NullMaterial.h"
#include "sinew/fem/OgdenMaterial.h"
#include "sinew/fem/StVenantKirchoffMaterial.h"
#include "sinew/fem/TensorUtils.h"

namespace sinew::femtest {

inline const std::vector<FemElementType>& allElementTypes() {
  using T = FemElementType;
  static const std::vector<T> all{T::Tet,     T::Hex,     T::Wedge,     T::Pyramid,
                                  T::QuadTet, T::QuadHex, T::QuadWedge, T::QuadPyramid};
  return all;
}

/// Uniform numbers in [−1, 1] from the portable mt19937 bit stream.
class Noise {
 public:
  explicit Noise(unsigned seed) : myRng(seed) {}
  double operator()() { return 2.0 * myRng() / double(std::mt19937::max()) - 1; }
  Vector3d vec() {
    double x = (*this)(), y = (*this)();
    return {x, y, (*this)()};
  }
  Matrix3d mat() {
    Matrix3d A;
    for (int i = 0; i < 9; ++i) A.data()[i] = (*this)();
    return A;
  }

 private:
  std::mt19937 myRng;
};

/// The ideal element's nodes moved by an affine map and a non-affine jitter
/// of every node (mid-edge nodes leave their edges, so quadratic elements
/// get curved edges).
inline std::vector<Vector3d> distortedRestNodes(const ReferenceElement& e, unsigned seed = 1) {
  Noise noise(seed);
  Matrix3d A;
  A << 1.2, 0.15, -0.1, 0.05, 0.9, 0.2, -0.1, 0.1, 1.1;
  Vector3d t(0.3, -0.2, 0.5);
  std::vector<Vector3d> x;
  for (const Vector3d& s : e.getIdealNodePositions()) x.push_back(A * (s + 0.06 * noise.vec()) + t);
  return x;
}

/// A large, non-uniform deformation of rest: a stretch and shear, a rotation,
/// and a random displacement of each node.
inline std::vector<Vector3d> deformedNodes(const std::vector<Vector3d>& rest, unsigned seed = 2,
                                           double jitter = 0.05) {
  Noise noise(seed);
  Matrix3d A;
  A << 1.15, 0.1, 0.05, -0.08, 0.92, 0.12, 0.04, -0.06, 1.05;
  Matrix3d R = axisRotation(2, 0.4) * axisRotation(0, -0.3);
  std::vector<Vector3d> x;
  for (const Vector3d& X : rest) x.push_back(R * A * X + Vector3d(0.1, 0.2, -0.3) + jitter * noise.vec());
  return x;
}

struct NamedMaterial {
  std::string name;
  std::shared_ptr<FemMaterial> mat;
};

inline std::shared_ptr<FemMaterial> withLogPotential(std::shared_ptr<IncompressibleMaterial> m) {
  m->setBulkPotential(BulkPotential::LOGARITHMIC);
  return m;
}

/// One of each material, with every parameter at work.
inline std::vector<NamedMaterial> allMaterials() {
  return {
      {"Linear", std::make_shared<LinearMaterial>(400000, 0.3, false)},
      {"LinearCorotated", std::make_shared<LinearMaterial>(400000, 0.3, true)},
      {"StVenantKirchoff", std::make_shared<StVenantKirchoffMaterial>(400000, 0.3)},
      {"NeoHookean", std::make_shared<NeoHookeanMaterial>(400000, 0.3)},
      {"IncompNeoHookean", std::make_shared<IncompNeoHookeanMaterial>(150000, 300000)},
      {"IncompNeoHookeanLog", withLogPotential(std::make_shared<IncompNeoHookeanMaterial>(150000, 300000))},
      {"MooneyRivlin", std::make_shared<MooneyRivlinMaterial>(60000, 20000, 15000, 30000, 10000, 300000)},
      {"Ogden", withLogPotential(std::make_shared<OgdenMaterial>(std::vector<double>{200000, -30000, 5000},
                                                                  std::vector<double>{2.5, -2, 5}, 300000))},
      {"Null", std::make_shared<NullMaterial>()},
  };
}

/// The unit symmetric tensor whose engineering-strain Voigt vector is e_J.
inline Matrix3d unitStrain(int J) {
  Matrix3d E = Matrix3d::Zero();
  int k = kVoigtI[J], l = kVoigtJ[J];
  if (k == l)
    E(k, k) = 1;
  else
    E(k, l) = E(l, k) = 0.5;
  return E;
}

/// The tangent D of mat at (F, R) against central differences of its
/// stress: for large-strain materials along F → (I + hE)F, where the
/// Truesdell relation gives σ̇ = D:E + Eσ + σE − tr(E)σ; for small-strain
/// materials along F → F + hER, where σ̇ = D:E. Large-strain materials must
/// also be objective: a spin F → (I + hW)F gives σ̇ = Wσ − σW.
inline void expectTangentMatchesStress(const FemMaterial& mat, const Matrix3d& F,
                                       const Matrix3d& R = Matrix3d::Identity()) {
  const double h = 1e-6;
  auto stress = [&](const Matrix3d& Fx) { return mat.computeStress(DeformedPoint(Fx, R)); };
  Matrix3d sigma;
  Matrix6d D;
  mat.computeStressAndTangent(sigma, &D, DeformedPoint(F, R));
  const Matrix3d I = Matrix3d::Identity();
  Matrix6d Dfd;
  for (int J = 0; J < 6; ++J) {
    Matrix3d E = unitStrain(J), rate;
    if (mat.isLinear()) {
      rate = (stress(F + h * E * R) - stress(F - h * E * R)) / (2 * h);
    } else {
      rate = (stress((I + h * E) * F) - stress((I - h * E) * F)) / (2 * h);
      rate -= E * sigma + sigma * E - E.trace() * sigma;
    }
    Dfd.col(J) = toVoigt(rate);
  }
  double scale = 1 + Dfd.norm();
  EXPECT_LT((D - Dfd).norm(), 1e-7 * scale) << "D\n" << D << "\nFD\n" << Dfd;
  EXPECT_LT((D - D.transpose()).norm(), 1e-12 * scale);
  if (!mat.isLinear()) {
    Matrix3d W = skew(Vector3d(0.3, -0.5, 0.8));
    Matrix3d spin = (stress((I + h * W) * F) - stress((I - h * W) * F)) / (2 * h);
    EXPECT_LT((spin - (W * sigma - sigma * W)).norm(), 1e-7 * scale);
  }
}

/// Central-difference derivative of a vector function of the 3n node
/// coordinates, column by column.
template <class Fn>
Eigen::MatrixXd finiteDifferenceJacobian(std::vector<Vector3d> x, int rows, Fn fn, double h = 1e-6) {
  Eigen::MatrixXd Jfd(rows, 3 * x.size());
  for (size_t i = 0; i < x.size(); ++i)
    for (int c = 0; c < 3; ++c) {
      double x0 = x[i][c];
      x[i][c] = x0 + h;
      Eigen::VectorXd fp = fn(x);
      x[i][c] = x0 - h;
      Eigen::VectorXd fm = fn(x);
      x[i][c] = x0;
      Jfd.col(3 * i + c) = (fp - fm) / (2 * h);
    }
  return Jfd;
}

/// A 2 × 2 × 2 hex block (standalone model, no damping) deformed by a
/// large non-uniform map, the same for every model built with one seed.
inline std::unique_ptr<FemModel3d> deformedBlock(const FemMaterial& base, unsigned seed = 5) {
  auto fem = std::make_unique<FemModel3d>("fem");
  FemFactory::createHexGrid(*fem, 1.0, 0.8, 0.6, 2, 2, 2);
  fem->setParticleDamping(0);
  fem->setMaterial(base);
  Noise noise(seed);
  Matrix3d A = Matrix3d::Identity() + 0.15 * noise.mat();
  for (auto& n : fem->nodes()) n.setPosition(A * n.getRestPosition() + 0.03 * noise.vec());
  return fem;
}

inline Eigen::VectorXd nodeForces(FemModel3d& fem) {
  Eigen::VectorXd f(3 * fem.numNodes());
  for (auto& n : fem.nodes()) n.zeroForces();
  fem.applyForces(0);
  for (int i = 0; i < fem.numNodes(); ++i) f.segment<3>(3 * i) = fem.getNode(i).getForce();
  return f;
}

inline std::vector<DynamicComponent*> nodeList(FemModel3d& fem) {
  std::vector<DynamicComponent*> comps;
  for (auto& n : fem.nodes()) comps.push_back(&n);
  return comps;
}

}  // namespace sinew::femtest
