// Static solves of FEM models (issue 4): a cantilever under a tip load
// against Timoshenko beam theory, and Newton's quadratic convergence with a
// consistent tangent.
#include <gtest/gtest.h>

#include "TestModels.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/fem/NeoHookeanMaterial.h"
#include "Verification.h"

namespace sinew {
namespace {

/// A cantilever along x, length L, square section h × h of (nx, n, n) hex
/// cells, clamped at x = −L/2, with a total load P along −z spread over the
/// tip face by the bilinear face weights. Returns the mean tip deflection.
struct Cantilever {
  test::TestRoot r;
  FemModel3d& fem;
  double L = 1, h = 0.1;
  Cantilever(int nx, int n, const FemMaterial& mat, double P, FemElementType type = FemElementType::Hex)
      : fem(r.mech.addModel(std::make_unique<FemModel3d>("fem"))) {
    FemFactory::createGrid(fem, type, L, h, h, nx, n, n);
    fem.setMaterial(mat);
    int tipNodes = 0;
    for (auto& node : fem.nodes()) tipNodes += node.getRestPosition().x() > L / 2 - 1e-12;
    for (auto& node : fem.nodes()) {
      const Vector3d x = node.getRestPosition();
      if (x.x() < -L / 2 + 1e-12) node.setDynamic(false);
      if (x.x() > L / 2 - 1e-12) {
        // Hexes: trapezoid weights on the n + 1 nodes of each face
        // direction; other meshes share P equally (Saint-Venant: the beam
        // sees only the total).
        auto w = [&](double s) { return (std::abs(std::abs(s) - h / 2) < 1e-12 ? 0.5 : 1.0) / n; };
        const double share = type == FemElementType::Hex ? w(x.y()) * w(x.z()) : 1.0 / tipNodes;
        node.setExternalForce(Vector3d(0, 0, -P * share));
      }
    }
  }
  double tipDeflection() const {
    double sum = 0;
    int count = 0;
    for (auto& node : fem.nodes())
      if (node.getRestPosition().x() > L / 2 - 1e-12) {
        sum += node.getRestPosition().z() - node.getPosition().z();
        ++count;
      }
    return sum / count;
  }
};

/// Counts the Newton steps that raise the relative residual to a power of at
/// least 1.5 once it is below 1e-2 (until round-off, 1e-10); fails the test
/// for any step that does not.
int quadraticSteps(const std::vector<double>& r) {
  int count = 0;
  for (size_t k = 0; k + 1 < r.size(); ++k) {
    const double rk = r[k] / r[0], rk1 = r[k + 1] / r[0];
    if (rk < 1e-2 && rk1 > 1e-10) {
      EXPECT_LT(rk1, std::pow(rk, 1.5)) << "iteration " << k;
      ++count;
    }
  }
  return count;
}

TEST(FemStatic, CantileverTipLoadMatchesTimoshenko) {
  // δ = P L³/(3 E I) + P L/(κ G A), κ = 5/6 and G = E/2 for ν = 0 (no
  // Poisson coupling, so the clamped end is a true clamp of beam theory).
  // Fully integrated hexahedra lock a little in bending: 60 × 6 × 6 cubes
  // give 0.986 of it (40 × 4 × 4: 0.969).
  const double E = 1e6, P = 0.025;
  Cantilever c(60, 6, LinearMaterial(E, 0.0, false), P);
  const auto residuals = c.r.mech.solveStatic();
  const double I = std::pow(c.h, 4) / 12, A = c.h * c.h;
  const double expected = P * std::pow(c.L, 3) / (3 * E * I) + P * c.L / (5.0 / 6 * E / 2 * A);
  VERIFY_NEAR("FEM cantilever: tip deflection / Timoshenko beam value (60×6×6 hexes)",
              "δ = P L³/(3 E I) + P L/(κ G A), κ = 5/6", c.tipDeflection() / expected, 1.0, 0.02);
  // A linear material is one Newton step: the next residual is round-off.
  EXPECT_LT(residuals[1], 1e-6 * residuals[0]);
}

TEST(FemStatic, QuadraticTetCantileverMatchesTimoshenko) {
  // The same beam of quadratic tetrahedra (20 × 2 × 2 cells, each split
  // into tets with mid-edge nodes), which do not lock in bending.
  const double E = 1e6, P = 0.025;
  Cantilever c(20, 2, LinearMaterial(E, 0.0, false), P, FemElementType::QuadTet);
  c.r.mech.solveStatic();
  const double I = std::pow(c.h, 4) / 12, A = c.h * c.h;
  const double expected = P * std::pow(c.L, 3) / (3 * E * I) + P * c.L / (5.0 / 6 * E / 2 * A);
  // The issue asks 2 %; these elements give 1e-4 (measured), so hold them to 0.5 %.
  VERIFY_NEAR("FEM cantilever: tip deflection / Timoshenko beam value (20×2×2 cells of quadratic tets)",
              "δ = P L³/(3 E I) + P L/(κ G A), κ = 5/6", c.tipDeflection() / expected, 1.0, 0.005);
}

TEST(FemStatic, NewtonConvergesQuadraticallyWithAConsistentTangent) {
  // A neo-Hookean cantilever bent by 10% of its length. Once the relative
  // residual is below 1e-2, each Newton step raises it to a power of at
  // least 1.5 (quadratic convergence with its constant; measured 1.7 and
  // more) until round-off (1e-10) is reached.
  Cantilever c(10, 2, NeoHookeanMaterial(1e6, 0.3), 2.5);
  const auto r = c.r.mech.solveStatic();
  ASSERT_GE(r.size(), 4u);
  EXPECT_GE(quadraticSteps(r), 1);
  EXPECT_GT(c.tipDeflection(), 0.05);
}

TEST(FemStatic, CorotatedLinearConvergesQuadraticallyWithTheExactTangent) {
  // A corotated linear tet cantilever bent through a large rotation (tip
  // deflection over a quarter of its length). Stiffness warping leaves the
  // rotation's derivative out of the tangent, so Newton converges only
  // linearly; LinearMaterial's exactTangent restores the quadratic rate.
  LinearMaterial exact(1e6, 0.3, true);
  exact.setExactTangent(true);
  Cantilever ce(10, 2, exact, 20.0, FemElementType::Tet);
  const auto re = ce.r.mech.solveStatic();
  EXPECT_GE(quadraticSteps(re), 1);
  EXPECT_GT(ce.tipDeflection(), 0.25 * ce.L);

  Cantilever cw(10, 2, LinearMaterial(1e6, 0.3, true), 20.0, FemElementType::Tet);
  const auto rw = cw.r.mech.solveStatic(0, 1e-10, 100);
  EXPECT_GT(rw.size(), re.size() + 3) << "stiffness warping needs more Newton steps";
  // The same equilibrium, as the forces are the same.
  EXPECT_NEAR(cw.tipDeflection(), ce.tipDeflection(), 1e-8);
}

}  // namespace
}  // namespace sinew
