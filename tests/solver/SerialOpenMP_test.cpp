// SerialOpenMP (sinew/solver/SerialOpenMP.h): while one lives, the OpenMP
// runtime that CHOLMOD brings in runs every region on one thread
// (max-active-levels 0), and the old setting comes back after it, also
// when a CHOLMOD factorization has used it.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include "SparseTestMatrices.h"
#include "sinew/solver/LinearSolver.h"
#include "sinew/solver/SerialOpenMP.h"

namespace sinew {
namespace {

using GetLevels = int (*)();
using SetLevels = void (*)(int);

struct Runtime {
  GetLevels get = reinterpret_cast<GetLevels>(dlsym(RTLD_DEFAULT, "omp_get_max_active_levels"));
  SetLevels set = reinterpret_cast<SetLevels>(dlsym(RTLD_DEFAULT, "omp_set_max_active_levels"));
};

TEST(SerialOpenMP, MakesRegionsSerialWhileItLivesAndRestoresTheSetting) {
  const Runtime omp;
  if (!omp.get || !omp.set) GTEST_SKIP() << "no OpenMP runtime in this process (SuiteSparse without OpenMP)";
  const int before = omp.get();
  omp.set(3);
  {
    const SerialOpenMP outer;
    EXPECT_EQ(omp.get(), 0);
    {
      const SerialOpenMP inner;
      EXPECT_EQ(omp.get(), 0);
    }
    EXPECT_EQ(omp.get(), 0) << "the inner scope restores what it found: 0";
  }
  EXPECT_EQ(omp.get(), 3);
  omp.set(before);
}

TEST(SerialOpenMP, ACholmodFactorizationLeavesTheSettingAsItWas) {
  const Runtime omp;
  if (!omp.get || !omp.set || !LinearSolver::hasSuiteSparse()) GTEST_SKIP() << "no CHOLMOD with OpenMP";
  const int before = omp.get();
  omp.set(2);
  // A 3D Laplacian of 1,000 unknowns, as CHOLMOD's supernodal path takes.
  const SparseMatrixd A = test::gridLaplacian(10, 0.1);
  auto s = LinearSolver::create(LinearSolverType::Cholmod, A.rows(), 0);
  ASSERT_TRUE(s->factor(A, 0, true));
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(A.rows(), -1.0, 2.0);
  Eigen::VectorXd x;
  s->solve(b, x);
  EXPECT_LT((A * x - b).norm() / b.norm(), 1e-12);
  EXPECT_EQ(omp.get(), 2);
  omp.set(before);
}

}  // namespace
}  // namespace sinew
