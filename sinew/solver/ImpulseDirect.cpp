// The Impulse integrator's direct correction of a joint's rows (all of
// them bilateral): p = K⁻¹ b and u += W p with W = M⁻¹ Gᵀ and K⁻¹ kept for
// the step, in kernels of fixed size for the common joints (hard rows of
// one or two rigid bodies, in either loop: u += (W K⁻¹) b, with K⁻¹ Σb
// formed once the loop ends, foldPending); and the record that spares
// re-evaluating a joint whose bodies have not moved (remember).
// See ImpulseSolver.h and docs/solvers.md ("Speed").
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "sinew/solver/ImpulseSolver.h"

namespace sinew {

double ImpulseSolver::remember(Seen& s, const std::vector<int>& comps, const std::vector<unsigned>& version,
                               double err) {
  const int n = static_cast<int>(comps.size());
  s.n = n <= Seen::kMaxComps ? n : 0;
  for (int j = 0; j < s.n; ++j) s.comp[j] = comps[j], s.version[j] = version[comps[j]];
  s.err = err;
  return err;
}

namespace {
/// Calls f.template operator()<M, C>() with the block's size fixed where it
/// is that of a common joint (up to six rows over one or two rigid bodies),
/// else with both Dynamic.
template <int C, class F>
void withRows(int m, F&& f) {
  switch (m) {
    case 1: return f.template operator()<1, C>();
    case 2: return f.template operator()<2, C>();
    case 3: return f.template operator()<3, C>();
    case 4: return f.template operator()<4, C>();
    case 5: return f.template operator()<5, C>();
    case 6: return f.template operator()<6, C>();
    default: return f.template operator()<Eigen::Dynamic, Eigen::Dynamic>();
  }
}
template <class F>
void withFixedSize(int m, int c, F&& f) {
  if (c == 6) return withRows<6>(m, f);
  if (c == 12) return withRows<12>(m, f);
  f.template operator()<Eigen::Dynamic, Eigen::Dynamic>();
}
}  // namespace

bool ImpulseSolver::formDirect(const Rows& r, const std::vector<double>* extra) {
  r.direct = 0;
  const int m = r.numRows(), cols = static_cast<int>(r.G.cols());
  if (m == 0 || m > kMaxBlockRows || cols > kMaxDirectCols) return false;
  r.W.resize(cols, m);
  // W, K = G W + diag(extra) and K⁻¹ at the block's size fixed for the
  // common joints (general products and triangular solves cost several
  // times as much on a 5 × 5; this runs for every joint twice a step).
  bool ok = false;
  withFixedSize(m, cols, [&]<int M, int C>() {
    constexpr int MaxM = M == Eigen::Dynamic ? kMaxBlockRows : M;
    using MatM = Eigen::Matrix<double, M, M, 0, MaxM, MaxM>;
    constexpr bool rigidFixed = C == 6 || C == 12;
    const Eigen::Map<const Eigen::Matrix<double, M, C>> G(r.G.data(), m, cols);
    Eigen::Map<Eigen::Matrix<double, C, M>> W(r.W.data(), cols, m);
    if (rigidFixed && r.rigidOnly) {
      for (int j = 0; j < cols / 6; ++j) {
        const Eigen::Map<const Eigen::Matrix<double, 6, 6>> Minv(myMinv[r.comps[j]].data());
        W.template middleRows<6>(6 * j).noalias() = Minv.lazyProduct(G.template middleCols<6>(6 * j).transpose());
      }
    } else {
      for (size_t j = 0; j < r.comps.size(); ++j) {
        const Block& Minv = myMinv[r.comps[j]];
        // Coefficient by coefficient: a general product's dispatch costs
        // more than a 6 × 6 times 6 × m.
        r.W.middleRows(r.colStart[j], Minv.rows()).noalias() =
            Minv.lazyProduct(r.G.middleCols(r.colStart[j], Minv.rows()).transpose());
      }
    }
    MatM K = G.lazyProduct(W);
    // Rows that no impulse moves, and redundant rows (K singular), stay
    // with solveBlock, which leaves them out.
    double scale = 0, least = INFINITY;
    for (int i = 0; i < m; ++i) {
      if (extra) K(i, i) += (*extra)[i];
      scale = std::max(scale, std::abs(K(i, i)));
      least = std::min(least, K(i, i));
    }
    if (!(scale > 0) || !(least > 1e-14 * scale)) return;
    // Conditioning from L's diagonal (cheaper than an rcond estimate, and
    // enough to send nearly redundant rows to solveBlock).
    const Eigen::LLT<MatM> llt(K);
    if (llt.info() != Eigen::Success) return;
    const auto& L = llt.matrixLLT();
    const auto d = L.diagonal();
    if (!(d.minCoeff() > 1e-6 * d.maxCoeff())) return;
    // K⁻¹ = L⁻ᵀ L⁻¹, L⁻¹ by forward substitution column by column (Eigen
    // solves a matrix right-hand side with its general blocked triangular
    // solver, even at a fixed size).
    const int n = M == Eigen::Dynamic ? m : M;  // a compile-time bound for the fixed sizes
    MatM Linv = MatM::Zero(m, m);
    for (int j = 0; j < n; ++j) {
      Linv(j, j) = 1 / L(j, j);
      for (int i = j + 1; i < n; ++i) {
        double sum = 0;
        for (int k = j; k < i; ++k) sum -= L(i, k) * Linv(k, j);
        Linv(i, j) = sum / L(i, i);
      }
    }
    r.K.resize(m, m);
    Eigen::Map<MatM>(r.K.data(), m, m) = K;
    r.Kinv.resize(m, m);
    Eigen::Map<MatM>(r.Kinv.data(), m, m).noalias() = Linv.transpose().lazyProduct(Linv);
    ok = r.Kinv.allFinite();
    if (!ok || !rigidFixed || !r.rigidOnly) return;
    // DirectBlock's rigid kernels: [Gᵀ | W K⁻¹].
    r.Gt.resize(cols, 2 * m);
    Eigen::Map<Eigen::Matrix<double, C, M == Eigen::Dynamic ? Eigen::Dynamic : 2 * M>> Gt(r.Gt.data(), cols, 2 * m);
    Gt.leftCols(m) = G.transpose();
    Gt.rightCols(m).noalias() = W.lazyProduct(Eigen::Map<const MatM>(r.Kinv.data(), m, m));
  });
  if (!ok) return false;
  r.direct = 1;
  return true;
}

template <int M, int C>
struct ImpulseSolver::DirectBlock {
  static constexpr int MaxM = M == Eigen::Dynamic ? kMaxBlockRows : M;
  static constexpr int MaxC = C == Eigen::Dynamic ? kMaxDirectCols : C;
  using VecM = Eigen::Matrix<double, M, 1, 0, MaxM, 1>;
  using VecC = Eigen::Matrix<double, C, 1, 0, MaxC, 1>;
  const Rows& r;
  const int m = r.numRows(), c = static_cast<int>(r.G.cols());
  Eigen::Map<const Eigen::Matrix<double, M, C>> G{r.G.data(), m, c};
  Eigen::Map<const Eigen::Matrix<double, C, M>> W{r.W.data(), c, m};
  Eigen::Map<const Eigen::Matrix<double, M, M>> Kinv{r.Kinv.data(), m, m};

  /// The velocities of component j of the rows (its local columns).
  int width(size_t j) const { return (j + 1 < r.comps.size() ? r.colStart[j + 1] : c) - r.colStart[j]; }

  /// Rigid bodies' blocks of Gᵀ and W (6 local columns each) at a fixed
  /// size: the products then run on u's own segments, with no copy, and
  /// along Gᵀ's contiguous columns (the rows of G).
  static constexpr bool kRigidFixed = C == 6 || C == 12;
  using Block6 = Eigen::Map<const Eigen::Matrix<double, 6, M>, 0, Eigen::OuterStride<C>>;
  Block6 rigidBlock(const Eigen::MatrixXd& X, int j) const {
    return Block6(X.data() + 6 * j, 6, m, Eigen::OuterStride<C>(c));
  }

  /// The rows' velocities known + G u.
  VecM rowVelocities(const ImpulseSolver& s) const {
    if constexpr (kRigidFixed) {
      if (r.rigidOnly) {
        VecM v = Eigen::Map<const VecM>(r.known.data(), m);
        for (int j = 0; j < C / 6; ++j)
          v.noalias() += rigidBlock(r.Gt, j).transpose() * s.myU.template segment<6>(r.uOffset[j]);
        return v;
      }
    }
    VecC u(c);
    if (r.rigidOnly) {  // fixed-size copies, not memcpy calls
      for (size_t j = 0; j < r.comps.size(); ++j)
        u.template segment<6>(6 * j) = s.myU.template segment<6>(r.uOffset[j]);
    } else {
      for (size_t j = 0; j < r.comps.size(); ++j) u.segment(r.colStart[j], width(j)) = s.myU.segment(r.uOffset[j], width(j));
    }
    VecM v = Eigen::Map<const VecM>(r.known.data(), m);
    v.noalias() += G * u;
    return v;
  }
  /// The step of hard rows on rigid bodies (either loop): u += (W K⁻¹) b,
  /// and b added to a.pending (foldPending forms the impulses K⁻¹ Σb).
  void applyPending(ImpulseSolver& s, const VecM& b, Accum& a) const {
    static_assert(kRigidFixed);
    if (!a.hasPending) std::fill(a.pending, a.pending + m, 0.0);
    a.hasPending = true;
    for (int i = 0; i < m; ++i) a.pending[i] += b[i];
    for (int comp : r.comps) ++s.myVelVersion[comp];
    for (int j = 0; j < C / 6; ++j)
      s.myU.template segment<6>(r.uOffset[j]).noalias() +=
          Block6(r.Gt.data() + C * m + 6 * j, 6, m, Eigen::OuterStride<C>(c)) * b;
  }
  /// p = K⁻¹ b added to the accumulated impulses, and u += W p.
  void apply(ImpulseSolver& s, const VecM& b, std::vector<double>& impulse) const {
    const VecM p = Kinv * b;
    for (int i = 0; i < m; ++i) impulse[i] += p[i];
    for (int comp : r.comps) ++s.myVelVersion[comp];
    if constexpr (kRigidFixed) {
      if (r.rigidOnly) {
        for (int j = 0; j < C / 6; ++j)
          s.myU.template segment<6>(r.uOffset[j]).noalias() += rigidBlock(r.W, j) * p;
        return;
      }
    }
    const VecC du = W * p;
    if (r.rigidOnly) {
      for (size_t j = 0; j < r.comps.size(); ++j)
        s.myU.template segment<6>(r.uOffset[j]) += du.template segment<6>(6 * j);
    } else {
      for (size_t j = 0; j < r.comps.size(); ++j) s.myU.segment(r.uOffset[j], width(j)) += du.segment(r.colStart[j], width(j));
    }
  }
};

void ImpulseSolver::applyDirect(const Rows& r, const Eigen::VectorXd& b, std::vector<double>& impulse) {
  withFixedSize(r.numRows(), static_cast<int>(r.G.cols()), [&]<int M, int C>() {
    const DirectBlock<M, C> d{r};
    d.apply(*this, Eigen::Map<const typename DirectBlock<M, C>::VecM>(b.data(), d.m), impulse);
  });
}

void ImpulseSolver::correctDirectPosition(const Rows& r, Accum& a, double scale) {
  withFixedSize(r.numRows(), static_cast<int>(r.G.cols()), [&]<int M, int C>() {
    const DirectBlock<M, C> d{r};
    const typename DirectBlock<M, C>::VecM b = scale * Eigen::Map<const typename DirectBlock<M, C>::VecM>(r.phi.data(), d.m);
    if constexpr (DirectBlock<M, C>::kRigidFixed) {
      if (r.rigidOnly) return d.applyPending(*this, b, a);
    }
    d.apply(*this, b, a.impulse);
  });
}

double ImpulseSolver::correctDirectVelocity(const Rows& r, Accum& a, Seen& seen, double tol, long& corrections) {
  double err = 0;
  withFixedSize(r.numRows(), static_cast<int>(r.G.cols()), [&]<int M, int C>() {
    const DirectBlock<M, C> d{r};
    const auto v = d.rowVelocities(*this);
    err = v.cwiseAbs().maxCoeff();
    if (!(err > tol)) {
      remember(seen, r.comps, myVelVersion, err);
      return;
    }
    seen.n = 0;
    if constexpr (DirectBlock<M, C>::kRigidFixed) {
      if (r.rigidOnly) {
        d.applyPending(*this, -myS.myImpulseSettings.relaxation * v, a);
        ++corrections;
        return;
      }
    }
    d.apply(*this, -myS.myImpulseSettings.relaxation * v, a.impulse);
    ++corrections;
  });
  return err;
}

void ImpulseSolver::foldPending(const Rows& r, Accum& a) {
  if (!a.hasPending) return;
  const int m = r.numRows();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) a.impulse[i] += r.Kinv(i, j) * a.pending[j];
  a.hasPending = false;
}

}  // namespace sinew
