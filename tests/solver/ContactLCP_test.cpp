// ContactLCP, the Gauss–Seidel friction solver over the sparse Delassus
// operator: Coulomb's stick and slip for a particle on a plane against the
// closed form, redundant contact rows sharing the load without changing the
// motion, and the start from given normal impulses.
#include <gtest/gtest.h>

#include "Verification.h"
#include "sinew/solver/ContactLCP.h"
#include "sinew/solver/KKTSolver.h"

namespace sinew {
namespace {

/// A particle of mass m on the plane z = 0 under gravity, its velocity v0
/// at the step's start, step h: S = m I, b_f = m v0 + h m g. Each of
/// `copies` contacts gives a normal row along z and two friction rows along
/// x and y, bounded by μ times that contact's normal impulse.
struct ParticleOnPlane {
  double m = 2, h = 0.01, g = 9.8, mu = 0.5;
  SparseMatrixd S;
  Eigen::VectorXd bf;
  ConstraintRows N;
  FrictionRows D;
  ParticleOnPlane(const Eigen::Vector3d& v0, int copies) {
    S.resize(3, 3);
    for (int k = 0; k < 3; ++k) S.insert(k, k) = m;
    S.makeCompressed();
    bf = m * v0 + h * Eigen::Vector3d(0, 0, -m * g);
    for (int c = 0; c < copies; ++c) {
      N.entries.emplace_back(c, 2, 1.0);
      N.rhs.push_back(0);
      N.compliance.push_back(0);
      for (int d = 0; d < 2; ++d) {
        D.rows.entries.emplace_back(D.numRows(), d, 1.0);
        D.rows.rhs.push_back(0);
        D.rows.compliance.push_back(0);
        D.normalRow.push_back(c);
        D.mu.push_back(mu);
      }
    }
  }
};

TEST(ContactLCP, ParticleSticksWhenItsMomentumIsWithinTheFrictionCone) {
  // m |v_t| = 0.02 ≤ μ m g h = 0.098: the particle stops; the friction
  // impulse takes exactly its tangential momentum.
  ParticleOnPlane p(Eigen::Vector3d(0.01, 0, 0), 1);
  ContactLCP lcp;
  Eigen::VectorXd u, theta, phi;
  ASSERT_TRUE(lcp.solve(p.S, true, p.bf, p.N, &p.D, u, theta, phi));
  EXPECT_TRUE(lcp.lastConverged());
  EXPECT_NEAR(theta[0], p.m * p.g * p.h, 1e-12);
  VERIFY_NEAR("contact LCP: sticking particle, friction impulse [N s]", "−m v_t (Coulomb, |m v_t| ≤ μ m g h)", phi[0],
              -p.m * 0.01, 1e-12);
  EXPECT_NEAR(phi[1], 0, 1e-15);
  EXPECT_LT(u.norm(), 1e-12);
}

TEST(ContactLCP, ParticleSlidesWithTheCoulombImpulseAgainstItsSlip) {
  // m |v_t| = 2 > μ m g h: it slides, losing μ g h of its speed.
  ParticleOnPlane p(Eigen::Vector3d(0.6, 0.8, 0), 1);
  ContactLCP lcp;
  Eigen::VectorXd u, theta, phi;
  ASSERT_TRUE(lcp.solve(p.S, true, p.bf, p.N, &p.D, u, theta, phi));
  EXPECT_TRUE(lcp.lastConverged());
  const double bound = p.mu * p.m * p.g * p.h;
  // Box friction: each row at its own bound against its own slip.
  EXPECT_NEAR(phi[0], -bound, 1e-12);
  EXPECT_NEAR(phi[1], -bound, 1e-12);
  VERIFY_NEAR("contact LCP: sliding particle, speed after the step [m/s]", "v_x − μ g h (box friction, Coulomb)", u[0],
              0.6 - bound / p.m, 1e-12);
  EXPECT_NEAR(u[1], 0.8 - bound / p.m, 1e-12);
  EXPECT_NEAR(u[2], 0, 1e-12);
}

TEST(ContactLCP, RedundantContactsShareTheLoadAndGiveTheSameMotion) {
  // Four contacts at one point (as a box face on a face repeats its rows):
  // the impulses are no longer unique, the motion is. Their normal
  // impulses sum to the weight's, and the total friction bound is μ times
  // that sum, so the particle still stops (stick) or loses μ g h (slip).
  for (double vt : {0.01, 1.0}) {
    ParticleOnPlane one(Eigen::Vector3d(vt, 0, 0), 1), four(Eigen::Vector3d(vt, 0, 0), 4);
    ContactLCP lcp;
    Eigen::VectorXd u1, t1, p1, u4, t4, p4;
    ASSERT_TRUE(lcp.solve(one.S, true, one.bf, one.N, &one.D, u1, t1, p1));
    ASSERT_TRUE(lcp.solve(four.S, true, four.bf, four.N, &four.D, u4, t4, p4));
    EXPECT_TRUE(lcp.lastConverged()) << vt;
    EXPECT_NEAR(t4.sum(), t1[0], 1e-12) << vt;
    EXPECT_LT((u4 - u1).norm(), 1e-12) << vt;
    for (int k = 0; k < four.D.numRows(); ++k)
      EXPECT_LE(std::abs(p4[k]), four.mu * t4[four.D.normalRow[k]] + 1e-15) << vt;
  }
}

TEST(ContactLCP, StartsFromGivenNormalImpulses) {
  // Started from the exact frictionless normal impulse, a sticking
  // particle needs one sweep to find its friction and one to see it done.
  ParticleOnPlane p(Eigen::Vector3d(0.01, 0, 0), 1);
  ContactLCP lcp;
  Eigen::VectorXd u, theta(1), phi;
  theta[0] = p.m * p.g * p.h;
  ASSERT_TRUE(lcp.solve(p.S, true, p.bf, p.N, &p.D, u, theta, phi, true));
  EXPECT_LE(lcp.lastSweeps(), 2);
  EXPECT_LT(u.norm(), 1e-12);
  EXPECT_NEAR(phi[0], -p.m * 0.01, 1e-12);
}

}  // namespace
}  // namespace sinew

namespace sinew {
namespace {

/// n particles of mass m (S = m I) for a KKTSolver solve, and their
/// contacts: each a normal row along z on particle i, less particle
/// `below` if there is one, and two friction rows along x and y.
struct ParticleContacts {
  SparseMatrixd S;
  Eigen::VectorXd bf;
  ConstraintRows G, N;
  FrictionRows D;
  ParticleContacts(int n, double m) : S(3 * n, 3 * n), bf(Eigen::VectorXd::Zero(3 * n)) {
    for (int k = 0; k < 3 * n; ++k) S.insert(k, k) = m;
    S.makeCompressed();
  }
  void addContact(int i, int below, double mu) {
    const int row = N.numRows();
    addRow(N, row, i, below, 2);
    for (int d = 0; d < 2; ++d) {
      addRow(D.rows, D.numRows(), i, below, d);
      D.normalRow.push_back(row);
      D.mu.push_back(mu);
    }
  }

 private:
  static void addRow(ConstraintRows& rows, int row, int i, int below, int axis) {
    rows.entries.emplace_back(row, 3 * i + axis, 1.0);
    if (below >= 0) rows.entries.emplace_back(row, 3 * below + axis, -1.0);
    rows.rhs.push_back(0);
    rows.compliance.push_back(0);
  }
};

TEST(ContactLCP, ManyContactsBetweenBodiesAloneTakeTheSparsePathWithCoulombsSolution) {
  // 120 particles on the plane z = 0, each with its own contact (240
  // friction rows): KKTSolver finds normals and friction by ContactLCP
  // alone, from no impulse, and each particle sticks or slides as alone:
  // even ones (m |v_t| = 0.02 ≤ μ m g h) stop, odd ones (m |v_t| = 2) lose
  // μ g h of their speed along each box-friction row.
  const int n = 120;
  const double m = 2, h = 0.01, g = 9.8, mu = 0.5;
  ParticleContacts p(n, m);
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d v0 = i % 2 ? Eigen::Vector3d(0.6, 0.8, 0) : Eigen::Vector3d(0.01, 0, 0);
    p.bf.segment<3>(3 * i) = m * v0 + h * Eigen::Vector3d(0, 0, -m * g);
    p.addContact(i, -1, mu);
  }
  KKTSolver kkt;
  kkt.setFriction(&p.D);
  Eigen::VectorXd u, lambda, theta;
  ASSERT_TRUE(kkt.solve(p.S, true, p.bf, p.G, p.N, u, lambda, theta));
  EXPECT_EQ(kkt.backendName(), "ContactLCP");
  const double bound = mu * m * g * h;
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(theta[i], m * g * h, 1e-12);
    EXPECT_NEAR(u[3 * i + 2], 0, 1e-12);
    if (i % 2) {
      EXPECT_NEAR(u[3 * i], 0.6 - bound / m, 1e-12);
      EXPECT_NEAR(u[3 * i + 1], 0.8 - bound / m, 1e-12);
    } else {
      EXPECT_LT(u.segment<3>(3 * i).norm(), 1e-12);
      EXPECT_NEAR(kkt.frictionImpulses()[2 * i], -m * 0.01, 1e-12);
    }
  }
}

/// A column of `n` particles of mass m resting on each other and on the
/// ground (contacts along z), at rest at the step's start: the exact
/// impulses carry the weight above each contact, (n − i) m g h, and leave
/// every particle at rest. Gauss–Seidel from zero passes the load down
/// one contact a sweep and converges slowly.
struct ParticleColumn {
  double m = 1, h = 1e-3, g = 9.8;
  SparseMatrixd S;
  Eigen::VectorXd bf;
  ConstraintRows N;
  explicit ParticleColumn(int n) {
    S.resize(3 * n, 3 * n);
    for (int k = 0; k < 3 * n; ++k) S.insert(k, k) = m;
    S.makeCompressed();
    bf = Eigen::VectorXd::Zero(3 * n);
    for (int i = 0; i < n; ++i) {
      bf[3 * i + 2] = -h * m * g;
      N.entries.emplace_back(i, 3 * i + 2, 1.0);
      if (i > 0) N.entries.emplace_back(i, 3 * (i - 1) + 2, -1.0);
      N.rhs.push_back(0);
      N.compliance.push_back(0);
    }
  }
};

/// Velocities after `sweeps` sweeps from no impulse, the stopping rules
/// kept out of play: runs of 99 sweeps (the stall check first looks after
/// 100), each continuing from the last one's impulses.
Eigen::VectorXd sweptVelocities(const ParticleColumn& p, int sweeps) {
  ContactLCP lcp;
  lcp.settings().tolerance = 0;
  lcp.settings().conjugateGradient = false;
  Eigen::VectorXd u, theta, phi;
  for (int done = 0; done < sweeps; done += lcp.lastSweeps()) {
    lcp.settings().maxSweeps = std::min(99, sweeps - done);
    EXPECT_TRUE(lcp.solve(p.S, true, p.bf, p.N, nullptr, u, theta, phi, done > 0));
  }
  return u;
}

TEST(ContactLCP, StopsSweepingWhenTheSweepsLeftCouldNotHalveTheChange) {
  // Fifteen particles asked for 1e-14: out of reach in 2000 sweeps. Once
  // the change per sweep is below 1e-4 of the scale and the rate of its
  // shrinking, carried on, would not halve it by the limit, the solve
  // stops, stalled, a little short of the limit, its velocities within
  // twice those of sweeping on to it.
  ParticleColumn p(15);
  ContactLCP lcp;
  lcp.settings().tolerance = 1e-14;
  lcp.settings().conjugateGradient = false;  // the rule as plain sweeps meet it
  Eigen::VectorXd u, theta, phi;
  ASSERT_TRUE(lcp.solve(p.S, true, p.bf, p.N, nullptr, u, theta, phi));
  EXPECT_TRUE(lcp.lastStalled());
  EXPECT_FALSE(lcp.lastConverged());
  EXPECT_LT(lcp.lastSweeps(), 2000);
  EXPECT_GT(lcp.lastSweeps(), 1500);
  const double toLimit = sweptVelocities(p, 2000).lpNorm<Eigen::Infinity>();
  EXPECT_LT(u.lpNorm<Eigen::Infinity>(), 2 * toLimit);
  EXPECT_LT(u.lpNorm<Eigen::Infinity>(), 1e-6 * p.g * p.h);
  // Sixty particles: the load is still being passed down the column when
  // the sweeps run out, the change per sweep above 1e-4 of the scale all
  // along. That is slow progress, not a stall: all 2000 sweeps are taken.
  ParticleColumn tall(60);
  ASSERT_TRUE(lcp.solve(tall.S, true, tall.bf, tall.N, nullptr, u, theta, phi));
  EXPECT_FALSE(lcp.lastStalled());
  EXPECT_EQ(lcp.lastSweeps(), 2000);
  EXPECT_LT((u - sweptVelocities(tall, 2000)).lpNorm<Eigen::Infinity>(), 1e-15);
}

TEST(ContactLCP, ConjugateStepsPassTheLoadDownAColumnInAFractionOfTheSweeps) {
  // Sixty particles resting on each other: plain sweeps pass the weight
  // down one contact a sweep and are still doing so after 2000 (above).
  // With the conjugate steps (the default) the column gets 100 times
  // nearer rest in no more sweeps, the bottom contact carrying the weight,
  // and with no more kinetic energy than the particles had before the
  // contacts acted.
  const int n = 60;
  ParticleColumn p(n);
  ContactLCP lcp;
  ASSERT_TRUE(lcp.settings().conjugateGradient);
  Eigen::VectorXd u, theta, phi;
  ASSERT_TRUE(lcp.solve(p.S, true, p.bf, p.N, nullptr, u, theta, phi));
  EXPECT_LT(lcp.lastSweeps(), 2000);
  const Eigen::VectorXd swept = sweptVelocities(p, 2000);
  EXPECT_LT(u.lpNorm<Eigen::Infinity>(), 1e-2 * swept.lpNorm<Eigen::Infinity>());
  // The ground's impulse is the column's momentum change (the contacts
  // between particles cancel), exactly; and nearly its weight times h.
  const double weight = n * p.m * p.g * p.h;
  EXPECT_NEAR(theta[0], weight + p.m * u.sum(), 1e-12 * weight);
  EXPECT_NEAR(theta[0], weight, 2e-3 * weight);
  const Eigen::VectorXd uFree = p.bf / p.m;
  EXPECT_LE(u.dot(p.S * u), uFree.dot(p.S * uFree));
}

TEST(ContactLCP, APileStartedFromItsLastImpulsesNeedsFewSweeps) {
  // Four columns of 30 particles at rest, each contact with two friction
  // rows (240: KKTSolver's pile path). From no impulse the sweeps pass the
  // weight down a column one contact at a time; started from the impulses
  // of the step before (setWarmStart: here the exact ones, the weight
  // above each contact, and no friction) the sweeps find them at once.
  const int columns = 4, height = 30, n = columns * height;
  const double m = 1, h = 1e-3, g = 9.8, mu = 0.5;
  ParticleContacts p(n, m);
  Eigen::VectorXd theta0(n);
  for (int i = 0; i < n; ++i) {
    const int level = i % height;
    p.bf[3 * i + 2] = -h * m * g;
    theta0[i] = (height - level) * m * g * h;
    p.addContact(i, level > 0 ? i - 1 : -1, mu);
  }
  const SparseMatrixd& S = p.S;
  const Eigen::VectorXd& bf = p.bf;
  const ConstraintRows &G = p.G, &N = p.N;
  const FrictionRows& D = p.D;
  KKTSolver kkt;
  kkt.setFriction(&D);
  kkt.setContactSweeps(2000);  // beyond the default budget, to see how many a cold start takes
  Eigen::VectorXd u, lambda, theta;
  ASSERT_TRUE(kkt.solve(S, true, bf, G, N, u, lambda, theta));
  EXPECT_EQ(kkt.backendName(), "ContactLCP");
  EXPECT_GT(kkt.contactSolver().lastSweeps(), 500);
  const Eigen::VectorXd phi0 = Eigen::VectorXd::Zero(D.numRows());
  kkt.setWarmStart(&theta0, &phi0);
  ASSERT_TRUE(kkt.solve(S, false, bf, G, N, u, lambda, theta));
  EXPECT_TRUE(kkt.contactSolver().lastConverged());
  EXPECT_LE(kkt.contactSolver().lastSweeps(), 2);
  EXPECT_LT(u.lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_LT((theta - theta0).lpNorm<Eigen::Infinity>(), 1e-12);
  // A start of the wrong size (the contacts changed) is no start.
  const Eigen::VectorXd wrong = Eigen::VectorXd::Zero(n - 1);
  kkt.setWarmStart(&wrong, &phi0);
  ASSERT_TRUE(kkt.solve(S, false, bf, G, N, u, lambda, theta));
  EXPECT_GT(kkt.contactSolver().lastSweeps(), 500);
  // Within the default budget a cold start stops at 100 sweeps, short of
  // the solution, yet with no kinetic energy gained (each sweep lowers the
  // objective, which here is the kinetic energy's change).
  kkt.setContactSweeps(KKTSolver().getContactSweeps());
  ASSERT_TRUE(kkt.solve(S, false, bf, G, N, u, lambda, theta));
  EXPECT_EQ(kkt.contactSolver().lastSweeps(), 100);
  EXPECT_FALSE(kkt.contactSolver().lastConverged());
  const Eigen::VectorXd uFree = bf / m;
  EXPECT_LE(u.dot(S * u), uFree.dot(S * uFree));
}


TEST(ContactLCP, PivotingThatStopsOnContactsWithFrictionGoesOnAsAPileDoes) {
  // Two columns of 6 particles, each contact with two friction rows (24:
  // the exact path, not the pile's): the lower five at rest under gravity
  // but for the lowest, which slides along x at 1 mm/s, the top one rising
  // at 1 m/s. The exact solution leaves the lower five at rest, the
  // contact under level k carrying the weight of the levels k to 4, the
  // ground's friction taking the lowest one's momentum (within its bound),
  // and the top one free. Pivoting, which starts with every touching row
  // active, needs a second pass to release the top contact; allowed one,
  // it stops, and the solve falls back to Gauss–Seidel as a pile's
  // contacts are solved: from the last step's impulses, which here are the
  // exact ones and are found at once, and within the sweep budget when
  // there are none.
  const int columns = 2, height = 6, n = columns * height;
  const double m = 1, h = 1e-3, g = 9.8, mu = 0.5, rise = 1, slide = 1e-3;
  ParticleContacts p(n, m);
  Eigen::VectorXd theta0 = Eigen::VectorXd::Zero(n), u0 = Eigen::VectorXd::Zero(3 * n);
  Eigen::VectorXd phi0 = Eigen::VectorXd::Zero(2 * n);
  for (int i = 0; i < n; ++i) {
    const int level = i % height;
    const bool top = level == height - 1;
    p.bf[3 * i + 2] = m * ((top ? rise : 0) - g * h);
    if (level == 0) p.bf[3 * i] = m * slide, phi0[2 * i] = -m * slide;
    if (top) u0[3 * i + 2] = rise - g * h;
    else theta0[i] = (height - 1 - level) * m * g * h;
    p.addContact(i, level > 0 ? i - 1 : -1, mu);
  }
  ASSERT_LT(p.D.numRows(), 200);
  KKTSolver exact;
  exact.setFriction(&p.D);
  Eigen::VectorXd u, lambda, theta;
  ASSERT_TRUE(exact.solve(p.S, true, p.bf, p.G, p.N, u, lambda, theta));
  ASSERT_EQ(exact.lcpFallbacks(), 0);
  ASSERT_LT((theta - theta0).lpNorm<Eigen::Infinity>(), 1e-12);
  ASSERT_LT((u - u0).lpNorm<Eigen::Infinity>(), 1e-12);
  ASSERT_LT((exact.frictionImpulses() - phi0).lpNorm<Eigen::Infinity>(), 1e-12);
  const Eigen::VectorXd uFree = p.bf / m;
  auto withinCoulomb = [&](const KKTSolver& k) {
    for (int f = 0; f < p.D.numRows(); ++f)
      if (std::abs(k.frictionImpulses()[f]) > mu * theta[p.D.normalRow[f]] * (1 + 1e-12)) return false;
    return true;
  };
  KKTSolver kkt;
  kkt.setFriction(&p.D);
  kkt.setMaxPivotPasses(1);
  kkt.setWarmStart(&theta0, &phi0);
  ASSERT_TRUE(kkt.solve(p.S, true, p.bf, p.G, p.N, u, lambda, theta));
  EXPECT_EQ(kkt.lcpFallbacks(), 1);
  EXPECT_EQ(kkt.backendName(), "ContactLCP");
  EXPECT_LE(kkt.contactSolver().lastSweeps(), 2);
  EXPECT_LT((u - u0).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_LT((theta - theta0).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_LT((kkt.frictionImpulses() - phi0).lpNorm<Eigen::Infinity>(), 1e-12);
  // No start (the contacts are new): within the budget (the fallback from
  // no impulse to ContactLCP's own limit took 182 sweeps here), with
  // Coulomb's bound held, the top contact pushing no more than a trace,
  // and no kinetic energy gained.
  kkt.setWarmStart(nullptr, nullptr);
  kkt.setContactSweeps(50);
  ASSERT_TRUE(kkt.solve(p.S, false, p.bf, p.G, p.N, u, lambda, theta));
  EXPECT_EQ(kkt.lcpFallbacks(), 2);
  EXPECT_LE(kkt.contactSolver().lastSweeps(), 50);
  EXPECT_TRUE(withinCoulomb(kkt));
  EXPECT_GE(theta.minCoeff(), 0.0);
  EXPECT_LT(std::max(theta[height - 1], theta[n - 1]), 1e-3 * theta0.maxCoeff());
  EXPECT_LE(u.dot(p.S * u), uFree.dot(p.S * uFree));
}

}  // namespace
}  // namespace sinew
