// The KKT solve of seed 000 eq. (1.6) on a block-diagonal S: the Schur
// complement path that Auto takes must give the full KKT path's solution,
// with compliant rows, unilateral rows in and out of the active set, and
// redundant rows; a coupled S must keep the KKT path.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <functional>
#include <random>

#include "sinew/solver/KKTSolver.h"

namespace sinew {
namespace {

/// SPD blocks of the given sizes on the diagonal (both triangles stored).
SparseMatrixd blockDiagonal(const std::vector<int>& sizes, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<Eigen::Triplet<double>> t;
  int off = 0;
  for (int n : sizes) {
    Eigen::MatrixXd B = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return U(rng); });
    Eigen::MatrixXd S = B * B.transpose() + n * Eigen::MatrixXd::Identity(n, n);
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r) t.emplace_back(off + r, off + c, S(r, c));
    off += n;
  }
  SparseMatrixd S(off, off);
  S.setFromTriplets(t.begin(), t.end());
  return S;
}

/// `rows` rows, each on the dofs [a, a+6) and [b, b+6) of two random blocks
/// of a system of 6-dof blocks, with the given compliance and right-hand side.
ConstraintRows randomRows(int rows, int blocks, double compliance, std::mt19937& rng, int islands = 1) {
  // With islands > 1 the blocks fall into that many runs of blocks/islands,
  // and each row joins two blocks of one run.
  std::uniform_real_distribution<double> U(-1, 1);
  const int per = blocks / islands;
  std::uniform_int_distribution<int> pick(0, blocks - 1), within(0, per - 1);
  ConstraintRows C;
  for (int i = 0; i < rows; ++i) {
    int a = pick(rng), b;
    if (islands == 1) {
      b = (a + 1 + pick(rng) % (blocks - 1)) % blocks;
    } else {
      const int first = a / per * per;
      a = first + within(rng);
      b = first + (a - first + 1 + within(rng) % (per - 1)) % per;
    }
    for (int k = 0; k < 6; ++k) C.entries.emplace_back(i, 6 * a + k, U(rng));
    for (int k = 0; k < 6; ++k) C.entries.emplace_back(i, 6 * b + k, U(rng));
    C.rhs.push_back(U(rng));
    C.compliance.push_back(compliance);
  }
  return C;
}

struct Solution {
  Eigen::VectorXd u, lambda, theta;
  std::string backend;
};

Solution solveWith(LinearSolverType type, const SparseMatrixd& S, const Eigen::VectorXd& b, const ConstraintRows& G,
                   const ConstraintRows& N) {
  KKTSolver kkt(type);
  Solution s;
  EXPECT_TRUE(kkt.solve(S, true, b, G, N, s.u, s.lambda, s.theta));
  s.backend = kkt.backendName();
  return s;
}

void expectSame(const Solution& a, const Solution& b, double tol) {
  EXPECT_LT((a.u - b.u).lpNorm<Eigen::Infinity>(), tol);
  EXPECT_LT((a.lambda - b.lambda).lpNorm<Eigen::Infinity>(), tol);
  EXPECT_LT((a.theta - b.theta).lpNorm<Eigen::Infinity>(), tol);
}

TEST(KKTSolver, SchurPathMatchesKKTPathWithCompliantAndUnilateralRows) {
  std::mt19937 rng(7);
  const int blocks = 12;
  SparseMatrixd S = blockDiagonal(std::vector<int>(blocks, 6), rng);
  Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(6 * blocks, -3, 2);
  ConstraintRows G = randomRows(20, blocks, 0, rng), N = randomRows(10, blocks, 0, rng);
  for (int i = 0; i < 5; ++i) G.compliance[i] = 1e-3;
  Solution kkt = solveWith(LinearSolverType::EigenLDLT, S, b, G, N);
  Solution schur = solveWith(LinearSolverType::Auto, S, b, G, N);
  EXPECT_EQ(schur.backend, "Schur");
  expectSame(schur, kkt, 1e-10);
  // Some unilateral rows are inactive (θ = 0), some active (θ > 0).
  EXPECT_GT((schur.theta.array() == 0).count(), 0);
  EXPECT_GT((schur.theta.array() > 0).count(), 0);
}

/// Ten independent unilateral rows on twelve rigid blocks, some of them
/// pushing at the solution and some not: one LCP solution, which block
/// pivoting needs more than one pass to reach.
struct UnilateralProblem {
  std::mt19937 rng{7};
  SparseMatrixd S = blockDiagonal(std::vector<int>(12, 6), rng);
  Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(72, -3, 2);
  ConstraintRows G, N = randomRows(10, 12, 0, rng);
};

TEST(KKTSolver, PivotingThatRunsToItsPassLimitFallsBackToTheSameSolution) {
  // Independent unilateral rows have one LCP solution. Pivoting allowed a
  // single pass cannot reach it here; the solve then goes to Gauss–Seidel
  // (counted by lcpFallbacks(); here ContactLCP's, over the sparse operator
  // of rigid blocks alone) and must end at the same impulses and
  // velocities, with θ ≥ 0, N u − b ≥ 0 and θ complementary to it.
  UnilateralProblem p;
  const SparseMatrixd& S = p.S;
  const Eigen::VectorXd& b = p.b;
  const ConstraintRows &G = p.G, &N = p.N;
  KKTSolver exact(LinearSolverType::Auto), limited(LinearSolverType::Auto);
  limited.setMaxPivotPasses(1);
  Solution a, c;
  ASSERT_TRUE(exact.solve(S, true, b, G, N, a.u, a.lambda, a.theta));
  ASSERT_TRUE(limited.solve(S, true, b, G, N, c.u, c.lambda, c.theta));
  EXPECT_EQ(exact.lcpFallbacks(), 0);
  EXPECT_EQ(limited.lcpFallbacks(), 1);
  EXPECT_GT((a.theta.array() == 0).count(), 0);
  EXPECT_GT((a.theta.array() > 0).count(), 0);
  const Eigen::VectorXd w = N.times(c.u) - Eigen::Map<const Eigen::VectorXd>(N.rhs.data(), N.numRows());
  const double scale = a.theta.cwiseAbs().maxCoeff();
  EXPECT_GE(c.theta.minCoeff(), 0.0);
  EXPECT_GT(w.minCoeff(), -1e-8);
  EXPECT_LT(c.theta.cwiseProduct(w).cwiseAbs().maxCoeff(), 1e-8 * scale);
  EXPECT_LT((c.theta - a.theta).lpNorm<Eigen::Infinity>(), 1e-6 * scale);
  EXPECT_LT((c.u - a.u).lpNorm<Eigen::Infinity>(), 1e-6 * a.u.lpNorm<Eigen::Infinity>());
}

TEST(KKTSolver, PivotingKeepsItsOwnLimitWhereNoFallbackTakesTheProblem) {
  // The same LCP on the general KKT path (no sparse ContactLCP there): with
  // the dense fallback allowed, one pivoting pass goes to it and ends at the
  // solution; with the dense fallback out of reach (fewer rows allowed
  // than the problem has), the pass limit does not apply, the pivoting
  // runs on and ends at the solution itself, with no fallback counted.
  UnilateralProblem p;
  const SparseMatrixd& S = p.S;
  const Eigen::VectorXd& b = p.b;
  const ConstraintRows &G = p.G, &N = p.N;
  KKTSolver exact(LinearSolverType::EigenLDLT), dense(LinearSolverType::EigenLDLT), none(LinearSolverType::EigenLDLT);
  dense.setMaxPivotPasses(1);
  none.setMaxPivotPasses(1);
  none.setMaxDenseRows(5);
  Solution a, d, c;
  ASSERT_TRUE(exact.solve(S, true, b, G, N, a.u, a.lambda, a.theta));
  ASSERT_TRUE(dense.solve(S, true, b, G, N, d.u, d.lambda, d.theta));
  ASSERT_TRUE(none.solve(S, true, b, G, N, c.u, c.lambda, c.theta));
  EXPECT_EQ(exact.lcpFallbacks(), 0);
  EXPECT_EQ(dense.lcpFallbacks(), 1);
  EXPECT_EQ(none.lcpFallbacks(), 0);
  const double scale = a.theta.cwiseAbs().maxCoeff();
  EXPECT_LT((d.theta - a.theta).lpNorm<Eigen::Infinity>(), 1e-6 * scale);
  EXPECT_LT((c.theta - a.theta).lpNorm<Eigen::Infinity>(), 1e-12 * scale);
  EXPECT_LT((c.u - a.u).lpNorm<Eigen::Infinity>(), 1e-12 * a.u.lpNorm<Eigen::Infinity>());
}

TEST(KKTSolver, SchurPathHandlesParticlesAndRedundantRows) {
  std::mt19937 rng(3);
  // Two 3-dof particles after four 6-dof bodies; a row repeated twice.
  SparseMatrixd S = blockDiagonal({6, 6, 6, 6, 3, 3}, rng);
  Eigen::VectorXd b = Eigen::VectorXd::Ones(30);
  ConstraintRows G = randomRows(6, 4, 0, rng), N;
  for (int k = 0; k < 3; ++k) G.entries.emplace_back(6, 24 + k, k + 1.0), G.entries.emplace_back(6, 27 + k, -1.0);
  G.rhs.push_back(0.5);
  G.compliance.push_back(0);
  for (int k = 0; k < 3; ++k) G.entries.emplace_back(7, 24 + k, k + 1.0), G.entries.emplace_back(7, 27 + k, -1.0);
  G.rhs.push_back(0.5);
  G.compliance.push_back(0);
  Solution kkt = solveWith(LinearSolverType::EigenLDLT, S, b, G, N);
  Solution schur = solveWith(LinearSolverType::Auto, S, b, G, N);
  EXPECT_EQ(schur.backend, "Schur");
  EXPECT_LT((schur.u - kkt.u).lpNorm<Eigen::Infinity>(), 1e-10);
  // The redundant pair carries the KKT path's total impulse, split into
  // two bounded parts (the regularization keeps them near the even split).
  const double total = kkt.lambda[6] + kkt.lambda[7];
  EXPECT_NEAR(schur.lambda[6] + schur.lambda[7], total, 1e-8);
  EXPECT_NEAR(schur.lambda[6], total / 2, 1e-3 * std::abs(total));
}

TEST(KKTSolver, SolveAgainReusesTheFactorsForNewRightHandSides) {
  // A chord step of position stabilization: the factors of one solve serve
  // a second right-hand side, and give what a fresh solve of it gives.
  std::mt19937 rng(11);
  const int blocks = 10;
  SparseMatrixd S = blockDiagonal(std::vector<int>(blocks, 6), rng);
  ConstraintRows G = randomRows(15, blocks, 0, rng), N;
  KKTSolver kkt;
  Solution first;
  ASSERT_TRUE(kkt.solve(S, true, Eigen::VectorXd::Ones(6 * blocks), G, N, first.u, first.lambda, first.theta));
  ASSERT_TRUE(kkt.canSolveAgain());
  for (int i = 0; i < G.numRows(); ++i) G.rhs[i] = 0.1 * (i - 7);
  const Eigen::VectorXd b2 = Eigen::VectorXd::Zero(6 * blocks);
  Solution again;
  ASSERT_TRUE(kkt.solveAgain(b2, G, N, again.u, again.lambda, again.theta));
  expectSame(again, solveWith(LinearSolverType::EigenLDLT, S, b2, G, N), 1e-10);
  // Rows of another number, compliant rows or unilateral rows are refused.
  ConstraintRows fewer = randomRows(14, blocks, 0, rng);
  EXPECT_FALSE(kkt.solveAgain(b2, fewer, N, again.u, again.lambda, again.theta));
  G.compliance[0] = 1e-3;
  EXPECT_FALSE(kkt.solveAgain(b2, G, N, again.u, again.lambda, again.theta));
  ASSERT_TRUE(kkt.solve(S, false, b2, G, N, again.u, again.lambda, again.theta));
  EXPECT_FALSE(kkt.canSolveAgain());  // its factors hold a compliant row
  G.compliance[0] = 0;
  ConstraintRows U = randomRows(2, blocks, 0, rng);
  ASSERT_TRUE(kkt.solve(S, false, b2, G, U, again.u, again.lambda, again.theta));
  EXPECT_FALSE(kkt.canSolveAgain());
}

/// W = J (S⁻¹ − S⁻¹Cᵀ (C S⁻¹ Cᵀ + R)⁻¹ C S⁻¹) Jᵀ for C the bilateral and
/// active unilateral rows, for the rows `which` of nj random rows, on both
/// paths (Schur, one KKT response per row). With islands > 1 (blocks a
/// multiple of it, at least two blocks each) every row keeps to one run of
/// blocks; `bridges` appends to J a row on each pair of blocks given, and
/// `which` may name them (nj + k for the k-th). `choose`, if given, picks
/// the rows from J instead of `which`.
using RowChooser = std::function<std::vector<int>(const ConstraintRows& J)>;
void expectDelassusMatrices(unsigned seed, int blocks, int ng, int nn, int nj, std::vector<int> which,
                            int islands = 1, const std::vector<std::pair<int, int>>& bridges = {},
                            const RowChooser& choose = nullptr) {
  ASSERT_EQ(blocks % islands, 0);
  ASSERT_GE(blocks / islands, 2);
  std::mt19937 rng(seed);
  const int n = 6 * blocks;
  SparseMatrixd S = blockDiagonal(std::vector<int>(blocks, 6), rng);
  ConstraintRows G = randomRows(ng, blocks, 0, rng, islands), N = randomRows(nn, blocks, 0, rng, islands);
  G.compliance[2] = 1e-2;
  ConstraintRows J = randomRows(nj, blocks, 0, rng, islands);
  std::uniform_real_distribution<double> U(-1, 1);
  for (auto [a, c] : bridges) {
    const int row = J.numRows();
    for (int k = 0; k < 6; ++k) J.entries.emplace_back(row, 6 * a + k, U(rng));
    for (int k = 0; k < 6; ++k) J.entries.emplace_back(row, 6 * c + k, U(rng));
    J.rhs.push_back(0);
    J.compliance.push_back(0);
  }
  if (choose) which = choose(J);
  // Islands are formed only above a product of this size: each island
  // case must be above it, or it tests the whole product.
  if (islands > 1) ASSERT_GT(0.5 * which.size() * which.size() * (ng + nn), SchurKKTSolver::kWholeCouplingProduct);
  ConstraintRows::EntryLists lists;
  J.entryLists(lists);
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, -2, 3);
  for (LinearSolverType type : {LinearSolverType::Auto, LinearSolverType::EigenLDLT}) {
    KKTSolver kkt(type);
    Eigen::VectorXd u, lambda, theta;
    ASSERT_TRUE(kkt.solve(S, true, b, G, N, u, lambda, theta));
    EXPECT_EQ(kkt.backendName() == "Schur", type == LinearSolverType::Auto);
    // The rows held: G's and N's active ones (θ > 0), as dense matrices.
    std::vector<int> held;
    for (int i = 0; i < ng; ++i) held.push_back(i);
    for (int i = 0; i < nn; ++i)
      if (theta[i] > 0) held.push_back(ng + i);
    ASSERT_GT(static_cast<int>(held.size()), ng);       // some unilateral rows push
    ASSERT_LT(static_cast<int>(held.size()), ng + nn);  // and some do not
    Eigen::MatrixXd Gd = Eigen::MatrixXd::Zero(ng + nn, n), Jd = Eigen::MatrixXd::Zero(J.numRows(), n);
    for (auto& e : G.entries) Gd(e.row(), e.col()) += e.value();
    for (auto& e : N.entries) Gd(ng + e.row(), e.col()) += e.value();
    for (auto& e : J.entries) Jd(e.row(), e.col()) += e.value();
    Eigen::MatrixXd C(held.size(), n), Jw(which.size(), n);
    Eigen::VectorXd R = Eigen::VectorXd::Zero(held.size());
    for (size_t i = 0; i < held.size(); ++i) {
      C.row(i) = Gd.row(held[i]);
      if (held[i] < ng) R[i] = G.compliance[held[i]];
    }
    for (size_t i = 0; i < which.size(); ++i) Jw.row(i) = Jd.row(which[i]);
    const Eigen::MatrixXd Sinv = Eigen::MatrixXd(S).inverse();
    Eigen::MatrixXd A = C * Sinv * C.transpose();
    A.diagonal() += R;
    const Eigen::MatrixXd expected =
        Jw * (Sinv - Sinv * C.transpose() * A.ldlt().solve(C * Sinv)) * Jw.transpose();
    Eigen::MatrixXd W;
    ASSERT_TRUE(kkt.delassusMatrix(S, G, N, lists, which, W));
    EXPECT_LT((W - expected).norm(), 1e-10 * expected.norm()) << kkt.backendName();
    EXPECT_LT((W - W.transpose()).norm(), 1e-12 * expected.norm());
    // Rows of another number than the solve's are refused.
    ConstraintRows fewer = G;
    fewer.rhs.pop_back();
    fewer.compliance.pop_back();
    if (type == LinearSolverType::Auto) EXPECT_FALSE(kkt.delassusMatrix(S, fewer, N, lists, which, W));
  }
}

TEST(KKTSolver, DelassusMatrixIsTheResponseWithTheRowsOfTheSolveHeld) {
  // What friction rows see with the normal rows of a contact solve held:
  // a few rows asked for (the Schur path's rank update), and 400 rows
  // over 100 held ones (where that update would cost more than a response
  // per row, which the Schur path then takes).
  expectDelassusMatrices(5, 9, 8, 10, 14, {0, 3, 4, 7, 8, 9, 13});
  std::vector<int> all(400);
  for (int j = 0; j < 400; ++j) all[j] = j;
  expectDelassusMatrices(6, 30, 60, 40, 400, all);
}

TEST(KKTSolver, DelassusMatrixOfSeparateIslandsIsTheResponseWithTheRowsOfTheSolveHeld) {
  // Rows that fall into groups of bodies no row joins (boxes resting apart
  // on the ground): the Schur path forms the held rows' coupling island by
  // island, where the whole rank update would multiply the islands' zeros.
  // Three islands of four blocks, and six of three; every island has rows
  // asked for. (Each case asks for enough rows that the coupling's product
  // is above the size below which it is formed whole.)
  auto range = [](int n) {
    std::vector<int> all(n);
    for (int j = 0; j < n; ++j) all[j] = j;
    return all;
  };
  expectDelassusMatrices(7, 12, 6, 12, 24, range(24), 3);
  expectDelassusMatrices(8, 18, 6, 18, 36, range(36), 6);
  // Rows asked for that join two islands of held rows (blocks 1 and 5 of
  // the runs 0–3 and 4–7, blocks 6 and 9 of the runs 4–7 and 8–11 of a
  // second case), and an island whose held rows have none asked for (the
  // first case asks for no row of blocks 8–11: J's rows there are left out).
  auto twoRuns = [](const ConstraintRows& J) {  // the rows on blocks 0–7, and the bridge
    std::vector<int> rows;
    for (int j = 0; j + 1 < J.numRows(); ++j)
      for (const auto& e : J.entries)
        if (e.row() == j) {
          if (e.col() / 6 < 8) rows.push_back(j);
          break;
        }
    EXPECT_GT(rows.size(), 18u);
    EXPECT_LT(rows.size(), 36u);
    rows.push_back(J.numRows() - 1);
    return rows;
  };
  expectDelassusMatrices(10, 12, 6, 12, 36, {}, 3, {{1, 5}}, twoRuns);
  expectDelassusMatrices(11, 12, 6, 12, 24, range(25), 3, {{6, 9}});
}

TEST(KKTSolver, CoupledMatrixKeepsTheKKTPath) {
  std::mt19937 rng(5);
  SparseMatrixd S = blockDiagonal({6, 6}, rng);
  S.coeffRef(0, 6) = S.coeffRef(6, 0) = 0.1;  // a spring between the two blocks
  S.makeCompressed();
  std::vector<int> starts;
  EXPECT_FALSE(SchurKKTSolver::findDiagonalBlocks(S, starts));
  ConstraintRows G = randomRows(3, 2, 0, rng), N;
  Solution s = solveWith(LinearSolverType::Auto, S, Eigen::VectorXd::Ones(12), G, N);
  EXPECT_NE(s.backend, "Schur");
}

}  // namespace
}  // namespace sinew
