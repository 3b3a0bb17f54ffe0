// The blocked sparse Cholesky of the Schur path: on random SPD matrices
// with a random group pattern (uniform and mixed group sizes), its solution
// must match a dense factorization's, its pivot ratio must flag a nearly
// singular matrix, a matrix that is not positive definite must fail, and
// its half solve for many right-hand sides must give the Delassus product.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "sinew/solver/BlockCholesky.h"

namespace sinew {
namespace {

struct Pattern {
  std::vector<int> sizes, start;
  std::vector<std::pair<int, int>> pairs;
  int n = 0;
};

/// `groups` groups of the given sizes; a chain of couplings plus random extra ones.
Pattern randomPattern(const std::vector<int>& sizes, int extra, std::mt19937& rng) {
  Pattern p;
  p.sizes = sizes;
  for (int s : sizes) p.start.push_back(p.n), p.n += s;
  const int ng = static_cast<int>(sizes.size());
  for (int g = 1; g < ng; ++g) p.pairs.emplace_back(g - 1, g);
  std::uniform_int_distribution<int> pick(0, ng - 1);
  for (int k = 0; k < extra; ++k) p.pairs.emplace_back(pick(rng), pick(rng));
  return p;
}

/// A dense SPD matrix with zeros outside the pattern's blocks.
Eigen::MatrixXd randomMatrix(const Pattern& p, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1, 1);
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(p.n, p.n);
  auto fill = [&](int g, int h) {
    for (int r = 0; r < p.sizes[g]; ++r)
      for (int c = 0; c < p.sizes[h]; ++c) A(p.start[g] + r, p.start[h] + c) = A(p.start[h] + c, p.start[g] + r) = U(rng);
  };
  for (size_t g = 0; g < p.sizes.size(); ++g) fill(static_cast<int>(g), static_cast<int>(g));
  for (auto [g, h] : p.pairs) fill(g, h);
  // Diagonal dominance makes it SPD.
  for (int i = 0; i < p.n; ++i) A(i, i) = A.row(i).cwiseAbs().sum() + 1;
  return A;
}

void load(BlockCholesky& chol, const Pattern& p, const Eigen::MatrixXd& A) {
  std::fill(chol.values().begin(), chol.values().end(), 0.0);
  const int ng = static_cast<int>(p.sizes.size());
  for (int g = 0; g < ng; ++g)
    for (int h = 0; h < ng; ++h)
      for (int r = 0; r < p.sizes[g]; ++r)
        for (int c = 0; c < p.sizes[h]; ++c) {
          const int i = p.start[g] + r, j = p.start[h] + c;
          // Each stored entry once: the lower triangle in the original order.
          if (A(i, j) != 0 && (g > h || (g == h && r >= c))) chol.values()[chol.position(g, r, h, c)] = A(i, j);
        }
}

double solveError(const std::vector<int>& sizes, int extra, unsigned seed) {
  std::mt19937 rng(seed);
  Pattern p = randomPattern(sizes, extra, rng);
  Eigen::MatrixXd A = randomMatrix(p, rng);
  BlockCholesky chol;
  chol.analyze(p.sizes, p.pairs);
  EXPECT_EQ(chol.size(), p.n);
  load(chol, p, A);
  EXPECT_TRUE(chol.factor());
  Eigen::VectorXd b = Eigen::VectorXd::Random(p.n), x(p.n);
  for (size_t g = 0; g < sizes.size(); ++g)
    for (int r = 0; r < sizes[g]; ++r) x[chol.offset(static_cast<int>(g)) + r] = b[p.start[g] + r];
  chol.solve(x.data());
  Eigen::VectorXd y(p.n);
  for (size_t g = 0; g < sizes.size(); ++g)
    for (int r = 0; r < sizes[g]; ++r) y[p.start[g] + r] = x[chol.offset(static_cast<int>(g)) + r];
  return (y - A.llt().solve(b)).lpNorm<Eigen::Infinity>();
}

TEST(BlockCholesky, UniformGroupsMatchDenseFactorization) {
  for (int s = 1; s <= 7; ++s) EXPECT_LT(solveError(std::vector<int>(30, s), 15, 3 + s), 1e-12) << "size " << s;
}

TEST(BlockCholesky, MixedGroupsMatchDenseFactorization) {
  EXPECT_LT(solveError({5, 1, 3, 5, 5, 6, 2, 4, 1, 1, 5, 3}, 8, 11), 1e-12);
  EXPECT_LT(solveError({2, 7}, 0, 12), 1e-12);
  EXPECT_LT(solveError({4}, 0, 13), 1e-12);
}

TEST(BlockCholesky, ManyRightHandSidesGiveTheDelassusProduct) {
  // X = L⁻¹ B for k right-hand sides at once (row-major): XᵀX must be
  // Bᵀ A⁻¹ B of a dense factorization, and each column the one-column
  // solveLower's.
  std::mt19937 rng(21);
  const std::vector<int> sizes{5, 1, 3, 5, 5, 6, 2, 4, 1, 1, 5, 3};
  Pattern p = randomPattern(sizes, 8, rng);
  Eigen::MatrixXd A = randomMatrix(p, rng);
  BlockCholesky chol;
  chol.analyze(p.sizes, p.pairs);
  load(chol, p, A);
  ASSERT_TRUE(chol.factor());
  const int k = 9;
  Eigen::MatrixXd B = Eigen::MatrixXd::Random(p.n, k);  // rows in the original order
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> X(p.n, k);
  for (size_t g = 0; g < sizes.size(); ++g)
    for (int r = 0; r < sizes[g]; ++r) X.row(chol.offset(static_cast<int>(g)) + r) = B.row(p.start[g] + r);
  Eigen::MatrixXd columns = X;
  chol.solveLowerRows(X.data(), k);
  for (int c = 0; c < k; ++c) {
    Eigen::VectorXd x = columns.col(c);
    chol.solveLower(x.data());
    EXPECT_LT((X.col(c) - x).lpNorm<Eigen::Infinity>(), 1e-13) << "column " << c;
  }
  const Eigen::MatrixXd W = X.transpose() * X, dense = B.transpose() * A.llt().solve(B);
  EXPECT_LT((W - dense).lpNorm<Eigen::Infinity>(), 1e-12 * dense.lpNorm<Eigen::Infinity>());
}

TEST(BlockCholesky, ReportsSmallPivotsAndFailsWhenNotPositiveDefinite) {
  // Two groups of two rows whose rows 0 and 2 are the same: a redundant pair.
  BlockCholesky chol;
  chol.analyze({2, 2}, {{0, 1}});
  Eigen::Matrix4d A;
  A << 2, 0, 2, 0,  //
      0, 1, 0, 0,   //
      2, 0, 2, 0,   //
      0, 0, 0, 1;
  Pattern p{{2, 2}, {0, 2}, {{0, 1}}, 4};
  load(chol, p, A + 1e-14 * Eigen::Matrix4d::Identity());
  ASSERT_TRUE(chol.factor());
  EXPECT_LT(chol.minPivotRatio(), 1e-13);
  load(chol, p, A - 1e-3 * Eigen::Matrix4d::Identity());
  EXPECT_FALSE(chol.factor());
}

}  // namespace
}  // namespace sinew
