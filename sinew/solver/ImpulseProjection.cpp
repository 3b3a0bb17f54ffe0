// The Impulse integrator's direct projection of the velocities where the
// velocity correction's sweeps ran out: G u + known = 0 in the mass norm,
// (G M⁻¹ Gᵀ) λ = −(G u + known), u += M⁻¹ Gᵀ λ, over the velocity rows the
// sweeps used (each joint's K and W kept from prepareDirect), factored by
// BlockCholesky with the joints as its groups; and the impulses of the
// MLCP's projection where that one cannot be used. See ImpulseSolver.h
// and docs/solvers.md ("Speed").
#include <algorithm>

#include "sinew/solver/ImpulseSolver.h"

namespace sinew {

bool ImpulseSolver::projectVelocityRows(std::vector<Accum>& vel) {
  const MechSystem& sys = myS.mySys;
  // Every row hard and bilateral, prepared for the direct correction; else
  // the MLCP's projection (unilateral rows make it an LCP).
  for (size_t k = 0; k < myVelRows.size(); ++k) {
    const Rows& r = myVelRows[k];
    if (myIsSet[k] || (r.numRows() > 0 && !(r.hardBilateral && r.direct == 1))) return false;
  }
  // Groups: the constrainers with rows.
  std::vector<int>& group = myProjGroup;
  group.clear();
  for (size_t k = 0; k < myVelRows.size(); ++k)
    if (myVelRows[k].numRows() > 0) group.push_back(static_cast<int>(k));
  if (group.empty()) return true;
  const int ng = static_cast<int>(group.size());
  analyzeProjection(ng);
  fillProjection(ng);
  // Redundant rows (a closed loop) leave a pivot with few digits: the
  // MLCP's projection regularizes them (the threshold is the Schur path's,
  // SchurKKTSolver::assembleAndFactor, below which it regularizes too).
  if (!myProjection.factor() || myProjection.minPivotRatio() < 1e-13) return false;
  // λ = −A⁻¹ (G u + known), then u += W λ and the impulses.
  Eigen::VectorXd& x = myProjRhs;
  x.resize(myProjection.size());
  for (int g = 0; g < ng; ++g) {
    const Rows& r = myVelRows[group[g]];
    for (int i = 0; i < r.numRows(); ++i) x[myProjection.offset(g) + i] = -velocityOf(r, i);
  }
  myProjection.solve(x.data());
  for (int g = 0; g < ng; ++g) {
    const Rows& r = myVelRows[group[g]];
    const auto lambda = x.segment(myProjection.offset(g), r.numRows());
    for (size_t j = 0; j < r.comps.size(); ++j) {
      const int w = sys.info(r.comps[j]).velSize;
      myU.segment(r.uOffset[j], w).noalias() += r.W.middleRows(r.colStart[j], w) * lambda;
    }
    std::vector<double>& impulse = vel[group[g]].impulse;
    impulse.resize(r.numRows(), 0.0);
    for (int i = 0; i < r.numRows(); ++i) impulse[i] += lambda[i];
  }
  return true;
}

void ImpulseSolver::analyzeProjection(int ng) {
  // Pairs: the groups sharing a component (per component, the groups that
  // touch it).
  std::vector<std::vector<int>>& groupsOf = myProjGroupsOf;
  groupsOf.resize(myS.mySys.numComponents());
  for (auto& g : groupsOf) g.clear();
  for (int g = 0; g < ng; ++g)
    for (int comp : myVelRows[myProjGroup[g]].comps) groupsOf[comp].push_back(g);
  myProjSizesNow.resize(ng);
  for (int g = 0; g < ng; ++g) myProjSizesNow[g] = myVelRows[myProjGroup[g]].numRows();
  myProjPairsNow.clear();
  for (const auto& gs : groupsOf)
    for (size_t a = 0; a < gs.size(); ++a)
      for (size_t b = a + 1; b < gs.size(); ++b) myProjPairsNow.emplace_back(gs[a], gs[b]);
  if (myProjSizesNow == myProjSizes && myProjPairsNow == myProjPairs) return;
  myProjection.analyze(myProjSizesNow, myProjPairsNow);
  myProjSizes = myProjSizesNow;
  myProjPairs = myProjPairsNow;
}

void ImpulseSolver::fillProjection(int ng) {
  // A = G M⁻¹ Gᵀ: K on the diagonal blocks (their lower triangles), and
  // G_g W_h over each component that groups g and h share (twice where
  // they share two).
  const MechSystem& sys = myS.mySys;
  std::vector<double>& a = myProjection.values();
  std::fill(a.begin(), a.end(), 0.0);
  for (int g = 0; g < ng; ++g) {
    const Rows& r = myVelRows[myProjGroup[g]];
    const int m = r.numRows(), base = myProjection.position(g, 0, g, 0);
    for (int c = 0; c < m; ++c)
      for (int i = c; i < m; ++i) a[base + i + c * m] = r.K(i, c);
  }
  for (size_t comp = 0; comp < myProjGroupsOf.size(); ++comp) {
    const auto& gs = myProjGroupsOf[comp];
    for (size_t x = 0; x < gs.size(); ++x)
      for (size_t y = x + 1; y < gs.size(); ++y) {
        const int g = gs[x], h = gs[y];
        const Rows &rg = myVelRows[myProjGroup[g]], &rh = myVelRows[myProjGroup[h]];
        const int c = static_cast<int>(comp);
        const int jg = static_cast<int>(std::find(rg.comps.begin(), rg.comps.end(), c) - rg.comps.begin());
        const int jh = static_cast<int>(std::find(rh.comps.begin(), rh.comps.end(), c) - rh.comps.begin());
        const int w = sys.info(c).velSize;
        const BlockMatrix B = rg.G.middleCols(rg.colStart[jg], w).lazyProduct(rh.W.middleRows(rh.colStart[jh], w));
        // Entry (i, j) of block (g, h): its place, column-major within the
        // block of the group later in the factor's order.
        const int base = myProjection.position(g, 0, h, 0);
        const bool gLater = myProjection.offset(g) > myProjection.offset(h);
        for (int j = 0; j < B.cols(); ++j)
          for (int i = 0; i < B.rows(); ++i) a[base + (gLater ? i + j * B.rows() : j + i * B.cols())] += B(i, j);
      }
  }
}

void ImpulseSolver::addProjectionImpulses(std::vector<Accum>& vel) {
  // The projection solves M u' = M u + Gᵀλ + Nᵀθ at velocity level, so its
  // multipliers are impulses. Its rows are each constrainer's rows at t1,
  // bilateral then unilateral, as the velocity rows are; a constrainer
  // whose rows differ in number keeps its own.
  const Eigen::VectorXd &lambda = myS.myLambda, &theta = myS.myTheta;
  int g = 0, n = 0;
  for (size_t k = 0; k < myVelRows.size() && k < myS.myRowCountsG.size(); ++k) {
    const int ng = myS.myRowCountsG[k], nn = myS.myRowCountsN[k];
    const Rows& r = myVelRows[k];
    if (ng == r.numBilateral && ng + nn == r.numRows() && g + ng <= lambda.size() && n + nn <= theta.size()) {
      std::vector<double>& impulse = vel[k].impulse;
      impulse.resize(r.numRows(), 0.0);
      for (int i = 0; i < ng; ++i) impulse[i] += lambda[g + i];
      for (int i = 0; i < nn; ++i) impulse[ng + i] += theta[n + i];
    }
    g += ng;
    n += nn;
  }
}

}  // namespace sinew
