#include "sinew/solver/KKTSolver.h"

#include <algorithm>
#include <cmath>

#include "sinew/solver/ProjectedGaussSeidel.h"

namespace sinew {

void ConstraintRows::entryLists(EntryLists& lists, size_t first) const {
  lists.resize(first + numRows());
  for (size_t i = first; i < lists.size(); ++i) lists[i].clear();
  for (const auto& e : entries) lists[first + e.row()].emplace_back(e.col(), e.value());
}

Eigen::VectorXd ConstraintRows::times(const Eigen::VectorXd& v) const {
  Eigen::VectorXd w = Eigen::VectorXd::Zero(numRows());
  for (const auto& e : entries) w[e.row()] += e.value() * v[e.col()];
  return w;
}

std::string KKTSolver::backendName() const {
  if (myUsedContact) return "ContactLCP";
  if (myUsedSchur) return "Schur";
  if (myKKTSolver) return myKKTSolver->name();
  if (mySolver) return mySolver->name();
  return toString(myType);
}

bool KKTSolver::assembleKKT(const SparseMatrixd& S, bool sPatternChanged, const ConstraintRows& G,
                            const ConstraintRows& N, const std::vector<int>& krow, int m) {
  const int n = static_cast<int>(S.rows());
  // The structure: every constraint entry's KKT row and column.
  std::vector<int> rows, cols;
  rows.reserve(G.entries.size() + N.entries.size());
  cols.reserve(rows.capacity());
  for (auto& e : G.entries) rows.push_back(n + e.row()), cols.push_back(e.col());
  for (auto& e : N.entries)
    if (krow[e.row()] >= 0) rows.push_back(krow[e.row()]), cols.push_back(e.col());
  Plan& P = myPlan;
  const bool same = P.valid && !sPatternChanged && P.n == n && P.m == m && P.sNnz == S.nonZeros() &&
                    P.rows == rows && P.cols == cols;
  if (!same) {
    myTrips.clear();
    for (int c = 0; c < S.outerSize(); ++c)
      for (SparseMatrixd::InnerIterator it(S, c); it; ++it) myTrips.emplace_back(it.row(), it.col(), 0.0);
    for (size_t k = 0; k < rows.size(); ++k) {
      myTrips.emplace_back(rows[k], cols[k], 0.0);
      myTrips.emplace_back(cols[k], rows[k], 0.0);
    }
    for (int i = 0; i < m; ++i) myTrips.emplace_back(n + i, n + i, 0.0);
    myKKT.resize(n + m, n + m);
    myKKT.setFromTriplets(myTrips.begin(), myTrips.end());
    P.sPos.clear();
    for (int c = 0; c < S.outerSize(); ++c)
      for (SparseMatrixd::InnerIterator it(S, c); it; ++it) P.sPos.push_back(valuePosition(myKKT, it.row(), c));
    P.cPosLo.resize(rows.size());
    P.cPosUp.resize(rows.size());
    for (size_t k = 0; k < rows.size(); ++k) {
      P.cPosLo[k] = valuePosition(myKKT, rows[k], cols[k]);
      P.cPosUp[k] = valuePosition(myKKT, cols[k], rows[k]);
    }
    P.diagPos.resize(m);
    for (int i = 0; i < m; ++i) P.diagPos[i] = valuePosition(myKKT, n + i, n + i);
    P.rows = std::move(rows);
    P.cols = std::move(cols);
    P.n = n;
    P.m = m;
    P.sNnz = S.nonZeros();
    P.valid = true;
  }
  // Values: [S −Gᵀ; −G −R], symmetric and quasi-definite.
  double* v = myKKT.valuePtr();
  std::fill(v, v + myKKT.nonZeros(), 0.0);
  const double* sv = S.valuePtr();
  for (size_t k = 0; k < P.sPos.size(); ++k) v[P.sPos[k]] += sv[k];
  size_t k = 0;
  for (auto& e : G.entries) {
    v[P.cPosLo[k]] -= e.value();
    v[P.cPosUp[k]] -= e.value();
    ++k;
  }
  for (auto& e : N.entries) {
    if (krow[e.row()] < 0) continue;
    v[P.cPosLo[k]] -= e.value();
    v[P.cPosUp[k]] -= e.value();
    ++k;
  }
  const int mg = G.numRows();
  for (int i = 0; i < mg; ++i) v[P.diagPos[i]] -= G.compliance[i];
  for (int i = 0; i < N.numRows(); ++i)
    if (krow[i] >= 0) v[P.diagPos[krow[i] - n]] -= N.compliance[i];
  return !same;
}

bool KKTSolver::useSchur(const SparseMatrixd& S, bool sPatternChanged) {
  if (myType != LinearSolverType::Auto) return false;
  if (sPatternChanged || !myBlocksKnown) {
    std::vector<int> starts;
    myBlockDiagonal = SchurKKTSolver::findDiagonalBlocks(S, starts);
    myBlocksKnown = true;
  }
  return myBlockDiagonal;
}

bool KKTSolver::solveEqualities(const SparseMatrixd& S, bool sPatternChanged, const Eigen::VectorXd& bf,
                                const ConstraintRows& G, const ConstraintRows& N, const std::vector<char>& active,
                                Eigen::VectorXd& u, Eigen::VectorXd& lambda, Eigen::VectorXd& theta) {
  myActive = active;
  myUsedSchur = useSchur(S, sPatternChanged) && mySchur.solve(S, sPatternChanged, bf, G, N, active, u, lambda, theta);
  if (myUsedSchur) return true;
  const int n = static_cast<int>(S.rows());
  const int mg = G.numRows();
  // Unilateral rows in the active set follow the bilateral ones.
  std::vector<int> krow(N.numRows(), -1);
  int m = mg;
  for (int i = 0; i < N.numRows(); ++i)
    if (active[i]) krow[i] = n + m++;
  bool changed = assembleKKT(S, sPatternChanged, G, N, krow, m);
  myKrow = krow;
  if (!myKKTSolver) {
    myKKTSolver = LinearSolver::create(myType, n + m, m);
    changed = true;
  }
  if (!myKKTSolver->factor(myKKT, m, changed)) return false;

  myRhs.resize(n + m);
  myRhs.head(n) = bf;
  for (int i = 0; i < mg; ++i) myRhs[n + i] = -G.rhs[i];
  for (int i = 0; i < N.numRows(); ++i)
    if (krow[i] >= 0) myRhs[krow[i]] = -N.rhs[i];
  // No guess: an iterative backend (a matrix without rows on this path)
  // starts from zero, not from the last solution, which is not state.
  mySol.resize(0);
  myKKTSolver->solve(myRhs, mySol);
  u = mySol.head(n);
  lambda = mySol.segment(n, mg);
  theta.setZero(N.numRows());
  for (int i = 0; i < N.numRows(); ++i)
    if (krow[i] >= 0) theta[i] = mySol[krow[i]];
  return true;
}

bool KKTSolver::solve(const SparseMatrixd& S, bool sPatternChanged, const Eigen::VectorXd& bf,
                      const ConstraintRows& G, const ConstraintRows& N, Eigen::VectorXd& u,
                      Eigen::VectorXd& lambda, Eigen::VectorXd& theta) {
  myPhi.resize(0);
  // The fallback below analyses S's pattern when it next runs.
  myContactStale = myContactStale || sPatternChanged;
  myUsedContact = false;
  // Many contacts between rigid bodies alone (a pile): Gauss–Seidel over
  // the sparse operator, normal and friction rows together, from the last
  // step's impulses (solveAsPile). The exact path costs more there: its pivoting on the normal
  // rows cycles among redundant face-on-face rows through a factorization
  // a pass, and its friction pass needs one response solve per row (with
  // ContactLCP's stall rule, the 100-box pile's first 2 s went from 19.9
  // to 6.7 ms a step). A tall stack would rather have the exact path: 30
  // cubes (240 friction rows) take 16 ms a step here and sway at 1 cm/s.
  if (myFriction && myFriction->numRows() >= kSparseFrictionRows && contactsAlone(S, G, sPatternChanged))
    return solveAsPile(S, bf, G, N, u, lambda, theta);
  myContact.settings().conjugateGradient = false;
  myContact.settings().maxSweeps = ContactLCP::Settings().maxSweeps;  // the fallbacks: its own limit
  bool converged = true;
  if (!solveLCP(S, sPatternChanged, bf, G, N, u, lambda, theta, &converged)) return false;
  if (!converged) {
    // Pivoting cycled (redundant rows) or ran to its pass limit: the
    // impulses of its last pass can be arbitrarily large. Gauss–Seidel
    // over the rows' Delassus matrix instead, friction included: with
    // friction rows, no bilateral rows and a block-diagonal S (rigid
    // bodies and particles) as a pile's contacts are, where
    // five tilted boxes stacked, whose pivoting cycled at most steps while
    // they swayed, took up to 2000 sweeps from no impulse each time (593 ->
    // 388 us a step over 5 s, eleven boxes about 3.4 -> 1.4 ms);
    // elsewhere from no impulse, to ContactLCP's own limit.
    ++myLCPFallbacks;
    if (myFriction && myFriction->numRows() > 0 && contactsAlone(S, G, false))
      return solveAsPile(S, bf, G, N, u, lambda, theta);
    return solveByDelassus(S, bf, G, N, u, lambda, theta, false);
  }
  if (!myFriction || myFriction->numRows() == 0) return true;
  // Friction only takes kinetic energy from the frictionless solution (up
  // to the work of the normal rows' right-hand sides). A friction pass that
  // adds more than a trace has met responses that a nearly singular
  // factorization made meaningless (redundant contacts: a box face on a
  // face gives eight rows for three free directions) and is discarded.
  myU0 = u, myLambda0 = lambda, myTheta0 = theta;
  const double ke0 = 0.5 * u.dot(S * u);
  const bool ok = solveFriction(S, bf, G, N, u, lambda, theta);
  const double ke = 0.5 * u.dot(S * u), allowed = ke0 * (1 + 1e-6) + 1e-12;
  if (ok && myFrictionIterations == 1 && ke <= allowed) return true;
  // With frictionIterations above 1, friction that follows the pushes may
  // raise a compliant contact's push, which then does work: with S u =
  // b_f + Gᵀλ + Nᵀθ + Dᵀφ on both solutions, ½uᵀSu − ½u₀ᵀSu₀ = ½(G(u +
  // u₀))ᵀΔλ + ½(N(u + u₀))ᵀΔθ + ½(D(u + u₀))ᵀφ, whose last term friction
  // keeps negative. The compliant unilateral rows' part of the second term
  // is allowed; bilateral and hard unilateral rows get none.
  if (ok && myFrictionIterations > 1) {
    const Eigen::VectorXd w = N.times(u), w0 = N.times(myU0);
    double work = 0;
    for (int i = 0; i < N.numRows(); ++i)
      if (N.compliance[i] > 0) work += 0.5 * (w[i] + w0[i]) * (theta[i] - myTheta0[i]);
    if (ke <= allowed + std::max(work, 0.0) * (1 + 1e-6)) return true;
  }
  u = myU0, lambda = myLambda0, theta = myTheta0;
  ++myFrictionFallbacks;
  // Friction by Gauss–Seidel over the contact and friction rows' Delassus
  // operator, from the exact frictionless normal impulses.
  return solveByDelassus(S, bf, G, N, u, lambda, theta, true);
}

bool KKTSolver::solveAsPile(const SparseMatrixd& S, const Eigen::VectorXd& bf, const ConstraintRows& G,
                            const ConstraintRows& N, Eigen::VectorXd& u, Eigen::VectorXd& lambda,
                            Eigen::VectorXd& theta) {
  // Started from the last step's impulses where the contacts were found
  // again (setWarmStart).
  const bool warm = myWarmTheta && myWarmTheta->size() == N.numRows();
  if (warm) theta = *myWarmTheta;
  const bool warmPhi = warm && myWarmPhi && myWarmPhi->size() == myFriction->numRows();
  // Conjugate steps here (stacks pass their load down in half the
  // time), not in the cold fallbacks of the exact path, where on the
  // 10-box pile they left boxes rocking and the dense passes that followed
  // cost six times as much.
  myContact.settings().conjugateGradient = true;
  // A sweep budget, as the iterative peers have (ODE QuickStep 20,
  // Bullet 10): where the load runs down tall columns, Gauss–Seidel
  // would need hundreds of sweeps to reach even a relative 1e-4, and the
  // stall rule let the 100-box pile's steps take 890 on average (16 ms a
  // step). Warm started, 100 sweeps a step leave the 30-cube stack
  // swaying no more than 2000 did (6 mm/s against 7 after 3 s).
  myContact.settings().maxSweeps = myContactSweeps;
  return solveByDelassus(S, bf, G, N, u, lambda, theta, warm, warmPhi ? myWarmPhi : nullptr);
}

bool KKTSolver::solveAgain(const Eigen::VectorXd& bf, const ConstraintRows& G, const ConstraintRows& N,
                           Eigen::VectorXd& u, Eigen::VectorXd& lambda, Eigen::VectorXd& theta) {
  if (!canSolveAgain() || N.numRows() > 0) return false;
  if (!mySchur.solveAgain(bf, G, u, lambda)) return false;
  theta.resize(0);
  return true;
}

bool KKTSolver::delassusMatrix(const SparseMatrixd& S, const ConstraintRows& G, const ConstraintRows& N,
                               const ConstraintRows::EntryLists& rows, const std::vector<int>& which,
                               Eigen::MatrixXd& W) {
  if (static_cast<int>(myActive.size()) != N.numRows()) return false;
  for (int k : which)
    for (auto [col, value] : rows[k])
      if (col < 0 || col >= S.rows()) return false;
  if (myUsedSchur && mySchur.delassus(rows, which, G.numRows(), N.numRows(), W)) return true;
  // One response per row (the KKT path, or where the Schur path's rank
  // update would cost more).
  const int nb = static_cast<int>(which.size());
  W.resize(nb, nb);
  Eigen::VectorXd e = Eigen::VectorXd::Zero(S.rows()), uj, lj, tj;
  for (int j = 0; j < nb; ++j) {
    for (auto [col, value] : rows[which[j]]) e[col] += value;
    if (!solveResponse(S, e, G, N, uj, lj, tj)) return false;
    for (auto [col, value] : rows[which[j]]) e[col] = 0;
    for (int i = 0; i < nb; ++i) W(i, j) = rowTimes(rows[which[i]], uj);
  }
  return true;
}

bool KKTSolver::solveResponse(const SparseMatrixd& S, const Eigen::VectorXd& bf, const ConstraintRows& G,
                              const ConstraintRows& N, Eigen::VectorXd& u, Eigen::VectorXd& lambda,
                              Eigen::VectorXd& theta) {
  if (static_cast<int>(myActive.size()) != N.numRows()) return false;
  if (myUsedSchur) return mySchur.solveResponse(bf, G, N, u, lambda, theta);
  const int n = static_cast<int>(S.rows()), mg = G.numRows();
  if (!myKKTSolver || myKKT.rows() < n + mg) return false;
  myRhs.setZero(myKKT.rows());
  myRhs.head(n) = bf;
  // No guess: an iterative backend (a matrix without rows on this path)
  // starts from zero, not from the last solution, which is not state.
  mySol.resize(0);
  myKKTSolver->solve(myRhs, mySol);
  u = mySol.head(n);
  lambda = mySol.segment(n, mg);
  theta.setZero(N.numRows());
  for (int i = 0; i < N.numRows(); ++i)
    if (myKrow[i] >= 0) theta[i] = mySol[myKrow[i]];
  return true;
}

bool KKTSolver::solveFriction(const SparseMatrixd& S, const Eigen::VectorXd& bf, const ConstraintRows& G,
                              const ConstraintRows& N, Eigen::VectorXd& u, Eigen::VectorXd& lambda,
                              Eigen::VectorXd& theta) {
  const FrictionRows& D = *myFriction;
  const int nd = D.numRows(), n = static_cast<int>(S.rows());
  ConstraintRows::EntryLists& rowEntries = myRowEntries;
  D.rows.entryLists(rowEntries);
  auto slip = [&](int k) {  // w = D u + R φ − b of row k
    return rowTimes(rowEntries[k], u, D.rows.compliance[k] * myPhi[k] - D.rows.rhs[k]);
  };
  myPhi.setZero(nd);
  Eigen::VectorXd bfx, e(n), bound, x, r, dx, du, dl, dt;
  Eigen::MatrixXd& W = myW;
  std::vector<int> rows;
  // The friction impulses for the normal impulses found (bounds μθ), with
  // the normal rows' active set held; if they made a contact pull or
  // penetrate, the normal problem again under them, and if the pushes
  // changed so that friction exceeds μθ, the bounds again, and so on.
  // Three passes at most (frictionIterations more where asked): a pass
  // that still fails returns false, and the caller solves normals and
  // friction together (solveByDelassus).
  const bool follow = myFrictionIterations > 1;  // sliding rows follow their final push
  const int passes = follow ? std::max(3, myFrictionIterations) : 3;
  for (int pass = 0; pass < passes; ++pass) {
    rows.clear();
    for (int k = 0; k < nd; ++k)
      if (theta[D.normalRow[k]] > 0 || myPhi[k] != 0) rows.push_back(k);
    const int nb = static_cast<int>(rows.size());
    if (nb == 0) return true;
    // The rows' Delassus matrix W = D A⁻¹ Dᵀ + R with the normal rows held.
    if (!delassusMatrix(S, G, N, rowEntries, rows, W)) return false;
    bound.resize(nb);
    x.resize(nb);
    r.resize(nb);
    for (int i = 0; i < nb; ++i) {
      const int k = rows[i];
      W(i, i) += D.rows.compliance[k];
      bound[i] = D.mu[k] * std::max(theta[D.normalRow[k]], 0.0);
      x[i] = myPhi[k];
      r[i] = slip(k);
    }
    dx = x;
    PGSBounds box{-bound, bound, {}};
    projectedGaussSeidel(W, box, r, x, 1e-10 * std::max(bound.maxCoeff(), 1e-300) * W.diagonal().maxCoeff());
    dx = x - dx;
    // u, λ, θ move by the response to the impulses Dᵀ dx.
    e.setZero();
    for (int i = 0; i < nb; ++i)
      for (auto [col, v] : rowEntries[rows[i]]) e[col] += v * dx[i];
    if (!solveResponse(S, e, G, N, du, dl, dt)) return false;
    u += du;
    lambda += dl;
    theta += dt;
    for (int i = 0; i < nb; ++i) myPhi[rows[i]] = x[i];
    // Do the normal rows still hold (active ones push, the others do not
    // penetrate), and does friction stay within μ times the pushes now?
    const Eigen::VectorXd w = N.times(u);
    const double tol = 1e-9 * std::max(1.0, theta.cwiseAbs().maxCoeff());
    bool holds = true, coulomb = true;
    for (int i = 0; i < N.numRows() && holds; ++i)
      holds = myActive[i] ? theta[i] >= -tol : w[i] + N.compliance[i] * theta[i] - N.rhs[i] >= -tol;
    for (int k = 0; k < nd && coulomb; ++k)
      coulomb = std::abs(myPhi[k]) <= D.mu[k] * (std::max(theta[D.normalRow[k]], 0.0) + tol);
    // A row at its bound slides: with `follow`, its friction must be μ
    // times the push it has now (to 1e-6 of it, from below), not the push
    // its bound was taken from; a row at a zero bound whose contact now
    // pushes, and a contact that pushes now but had no rows in this pass,
    // take part in another pass.
    if (follow) {
      for (int i = 0; i < nb && coulomb; ++i)
        if (std::abs(x[i]) >= bound[i]) {
          const double now = D.mu[rows[i]] * std::max(theta[D.normalRow[rows[i]]], 0.0);
          coulomb = now - bound[i] <= 1e-6 * now;
        }
      std::vector<char> inPass(nd, 0);
      for (int k : rows) inPass[k] = 1;
      for (int k = 0; k < nd && coulomb; ++k) coulomb = inPass[k] || !(theta[D.normalRow[k]] > tol);
    }
    if (holds && coulomb) {
      if (follow && !clampFriction(S, G, N, rowEntries, u, lambda, theta)) return false;
      theta = theta.cwiseMax(0.0);
      return true;
    }
    if (holds) continue;  // the bounds again, from these pushes
    bfx = bf;
    for (int k = 0; k < nd; ++k)
      for (auto [col, v] : rowEntries[k]) bfx[col] += v * myPhi[k];
    bool converged = true;
    if (!solveLCP(S, false, bfx, G, N, u, lambda, theta, &converged) || !converged) return false;
  }
  return false;  // no consistent pass: the caller falls back
}

bool KKTSolver::clampFriction(const SparseMatrixd& S, const ConstraintRows& G, const ConstraintRows& N,
                              const ConstraintRows::EntryLists& rowEntries, Eigen::VectorXd& u,
                              Eigen::VectorXd& lambda, Eigen::VectorXd& theta) {
  // A row the checks let exceed μθ by their tolerance comes down to it,
  // u, λ and θ following.
  const FrictionRows& D = *myFriction;
  Eigen::VectorXd e = Eigen::VectorXd::Zero(S.rows()), du, dl, dt;
  bool clamped = false;
  for (int k = 0; k < D.numRows(); ++k) {
    const double b = D.mu[k] * std::max(theta[D.normalRow[k]], 0.0), c = std::clamp(myPhi[k], -b, b);
    if (c == myPhi[k]) continue;
    for (auto [col, v] : rowEntries[k]) e[col] += v * (c - myPhi[k]);
    myPhi[k] = c;
    clamped = true;
  }
  if (!clamped) return true;
  if (!solveResponse(S, e, G, N, du, dl, dt)) return false;
  u += du;
  lambda += dl;
  theta += dt;
  return true;
}

bool KKTSolver::solveLCP(const SparseMatrixd& S, bool sPatternChanged, const Eigen::VectorXd& bf,
                         const ConstraintRows& G, const ConstraintRows& N, Eigen::VectorXd& u,
                         Eigen::VectorXd& lambda, Eigen::VectorXd& theta, bool* converged) {
  if (converged) *converged = true;
  if (G.numRows() == 0 && N.numRows() == 0) {
    myUsedSchur = false;
    if (!mySolver) {
      mySolver = LinearSolver::create(myType, static_cast<int>(S.rows()), 0);
      sPatternChanged = true;
    }
    if (!mySolver->factor(S, 0, sPatternChanged)) return false;
    mySolver->solve(bf, u);
    lambda.resize(0);
    theta.resize(0);
    return true;
  }
  // Block principal pivoting on the unilateral rows: start with the rows
  // that are touching or violated, drop rows that pull, add rows that
  // would be violated.
  std::vector<char> active(N.numRows());
  for (int i = 0; i < N.numRows(); ++i) active[i] = N.rhs[i] >= 0;
  Eigen::VectorXd w;
  // An active set met again means the pivoting cycles (it does on
  // redundant rows, whose impulses a nearly singular factorization makes
  // arbitrary): stop there.
  std::vector<std::vector<char>> seen;
  // At most maxPivotPasses() passes, each a factorization, where the
  // caller's Gauss–Seidel fallback can take the problem (solveByDelassus):
  // on a pile's face-on-face contacts the pivoting can wander for hundreds
  // of passes without meeting an active set twice (990 passes, 0.49 s, in
  // one step of the 100-box pile, whose fallback, the sparse ContactLCP,
  // takes about ten passes' time). Past the fallback's reach the
  // pivoting's own limit stands.
  const int rows = N.numRows() + (myFriction ? myFriction->numRows() : 0);
  const bool fallback = rows <= myMaxDenseRows || contactsAlone(S, G, sPatternChanged);
  const int maxIter = fallback ? std::min(2 * N.numRows() + 5, myMaxPivotPasses) : 2 * N.numRows() + 5;
  for (int iter = 0; iter < maxIter; ++iter) {
    if (std::find(seen.begin(), seen.end(), active) != seen.end()) break;
    seen.push_back(active);
    if (!solveEqualities(S, sPatternChanged, bf, G, N, active, u, lambda, theta)) return false;
    sPatternChanged = false;
    if (N.numRows() == 0) return true;
    bool changed = false;
    // w = N u + R θ − b over all rows.
    w = N.times(u);
    for (int i = 0; i < N.numRows(); ++i) {
      w[i] += N.compliance[i] * theta[i] - N.rhs[i];
      const double tol = 1e-12 * (1 + std::abs(N.rhs[i]));
      if (active[i] && theta[i] < -tol) { active[i] = 0; changed = true; }
      else if (!active[i] && w[i] < -tol) { active[i] = 1; changed = true; }
    }
    if (!changed) {
      for (int i = 0; i < N.numRows(); ++i) theta[i] = std::max(theta[i], 0.0);
      return true;
    }
  }
  if (converged) *converged = false;
  return true;  // the last pass, for a caller that asks no more
}

}  // namespace sinew
