// The impulse-based solver for linked bodies (seed 004), the Impulse
// integrator of MechSystemSolver. It works over the constraint rows every
// constrainer already gives (a ball joint's 3, a hinge's 5, a limit's 1, a
// contact's 1), so every joint type, limit and closed loop runs under it.
//
// One step of size h:
//   1. the bodies advance without constraints: u = u0 + h M⁻¹ f(t0);
//   2. joint correction: for each constrainer in turn, a position look-ahead
//      q̃ = q0 + h u gives its error φ(q̃); if that exceeds positionTol, the
//      impulse p applied at t0 that removes it, (G M⁻¹ Gᵀ) p = −φ(q̃)/h, is
//      added to the velocities; sweeps repeat until no constrainer needs one
//      (G and K from the step's first build: a chord iteration; the
//      constrainer re-evaluates only φ, Constrainer::getRowErrors);
//   3. positions move to q0 + h u;
//   4. velocity correction: impulses that zero the rows' velocities G u at
//      the new positions, swept the same way.
// Unilateral rows (limits, contact) keep their accumulated impulse
// non-negative; compliant rows take the compliant form of the look-ahead
// (the error left is −c·λ). A constrainer with more than a few rows (an
// FEM's incompressibility) is corrected row by row.
//
// Collision and friction are impulses too (ImpulseRowSet.cpp): the rows of
// a constrainer whose rows come from collision detection (the collision
// manager) are built once per phase, at t0 and at t1, kept sparse, and
// corrected row by row, their values at the look-ahead following the
// velocities linearly. A contact's friction rows take impulses within the
// disc μ·(its accumulated normal impulse) (isotropic Coulomb friction,
// where the MLCP's box friction of guide §8.9.4 bounds each row), in the joint
// correction (so that positions move with the friction of the step) and in
// the velocity correction (bounded by the step's total normal impulse).
//
// A block of bilateral rows is corrected directly with W = M⁻¹ Gᵀ and
// K⁻¹ kept for the step (hard rows of one or two rigid bodies, in either
// loop, with W K⁻¹, their impulses formed when the loop ends), and a
// constrainer whose components have not moved since it was last within
// tolerance is not evaluated again (the sweeps in step() ask
// unchangedSince; ImpulseDirect.cpp). A loop that runs out of sweeps ends
// with a direct projection (ImpulseProjection.cpp, or the MLCP's).
//
// The mass matrix must be block-diagonal (rigid bodies, particles, FEM
// nodes with lumped mass); a coupled one is a ModelError.
#pragma once

#include <Eigen/Cholesky>
#include <optional>
#include <chrono>
#include <vector>

#include "sinew/solver/BlockCholesky.h"
#include "sinew/solver/MechSystemSolver.h"

namespace sinew {

class ImpulseSolver {
 public:
  explicit ImpulseSolver(MechSystemSolver& s) : myS(s) {}
  /// Advances from t0 to t1 and fills `report`.
  void step(double t0, double t1, ImpulseReport& report);

 private:
  /// One constrainer's rows at the current state, dense over the active
  /// components they touch.
  /// A constrainer with more rows than this (a contact manager, an FEM's
  /// incompressibility) is corrected row by row instead of as one block.
  static constexpr int kMaxBlockRows = 12;
  /// The direct correction (Rows::direct) takes blocks of at most this many
  /// columns: four rigid bodies.
  static constexpr int kMaxDirectCols = 24;
  /// A block's K and right-hand side: fixed capacity, no allocation.
  using BlockMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxBlockRows, kMaxBlockRows>;
  using BlockVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxBlockRows, 1>;
  /// A block's K = G M⁻¹ Gᵀ + diag(extra) over all its rows, and its
  /// factorization with every row free, once computed. Heap storage of
  /// the exact size: a chain's rows stay compact in the cache.
  struct BlockFactor {
    bool valid = false;
    Eigen::MatrixXd K;
    std::vector<double> extra;
    std::optional<Eigen::LDLT<Eigen::MatrixXd>> factor;
    void clear() { valid = false, factor.reset(); }
  };
  struct Rows {
    int numBilateral = 0;
    std::vector<double> phi;         ///< constraint error φ of each row
    std::vector<double> compliance;  ///< c of each row
    std::vector<double> known;       ///< G_p u_p: the row velocity of parametric components
    std::vector<int> comps;          ///< system indices of the active components touched
    std::vector<int> colStart;       ///< first local column of each of comps
    std::vector<int> uOffset;        ///< solve offset (in u) of each of comps
    bool rigidOnly = false;          ///< every component of comps has 6 velocities
    bool hardBilateral = false;      ///< every row bilateral with no compliance
    Eigen::MatrixXd G;               ///< rows × local columns
    /// K over all rows, kept while the rows stay (the velocity loop
    /// corrects the same rows sweep after sweep); buildRows clears it.
    mutable BlockFactor k;
    /// The correction of all rows at once, when none is unilateral:
    /// W = M⁻¹ Gᵀ (local columns × rows) and K⁻¹, computed on first use
    /// (prepareDirect) while the rows stay. -1: not yet; 0: not possible
    /// (too many columns, a row no impulse moves, K singular); 1: ready.
    mutable int direct = -1;
    /// K itself is kept for the velocity rows' projection
    /// (projectVelocityRows); `k` below is solveBlock's, over the rows it
    /// selects with their compliant diagonal.
    mutable Eigen::MatrixXd W, K, Kinv;
    /// Rows of one or two rigid bodies (at most six: the fixed sizes):
    /// [Gᵀ | W K⁻¹] (local columns × twice the rows), in one allocation.
    /// Each row's entries of G then lie together, so a row's velocity is
    /// one contiguous dot product, and a correction of hard bilateral rows
    /// moves u by (W K⁻¹) b directly, its impulses K⁻¹ Σb formed once its
    /// loop ends (Accum::pending).
    mutable Eigen::MatrixXd Gt;
    int numRows() const { return static_cast<int>(phi.size()); }
    bool unilateral(int i) const { return i >= numBilateral; }
  };
  /// The rows of a detection constrainer (contact), sparse: each row's
  /// parts on the components it touches. Friction rows follow the normal
  /// ones: [bilateral | unilateral | friction].
  struct RowSet {
    int numBilateral = 0, numUnilateral = 0;
    std::vector<double> phi, compliance, known;
    std::vector<double> K;      ///< G_i M⁻¹ G_iᵀ of each row (0: touches nothing that moves)
    std::vector<int> normalOf;  ///< per friction row: the row of its normal impulse
    std::vector<double> mu;     ///< per friction row: the friction coefficient
    struct Seg {
      int comp, val;  ///< system component; its values start at vals[val]
    };
    std::vector<int> start;  ///< first Seg of each row (numRows + 1)
    std::vector<Seg> segs;
    std::vector<double> vals;
    std::vector<int> comps;  ///< every component touched, once
    int numRows() const { return static_cast<int>(phi.size()); }
    int firstFriction() const { return numBilateral + numUnilateral; }
    bool unilateral(int i) const { return i >= numBilateral && i < firstFriction(); }
    bool friction(int i) const { return i >= firstFriction(); }
    /// One past the last friction row of the contact whose rows start at i
    /// (consecutive rows bounded by the same normal row, at most 3).
    int frictionGroupEnd(int i) const {
      int j = i + 1;
      while (j < numRows() && j - i < 3 && normalOf[j - firstFriction()] == normalOf[i - firstFriction()]) ++j;
      return j;
    }
    /// Same rows as `o` (the same contacts found again).
    bool sameShape(const RowSet& o) const {
      return numBilateral == o.numBilateral && numUnilateral == o.numUnilateral && numRows() == o.numRows();
    }
  };
  /// What the loops keep per constrainer between evaluations.
  struct Accum {
    std::vector<double> impulse;  ///< accumulated impulse of each row this step
    /// The right-hand sides b summed over the direct rigid corrections of
    /// hard bilateral rows (p = K⁻¹ b): K⁻¹ Σb joins `impulse` when the
    /// loop ends (foldPending), one product instead of one a correction.
    /// Valid against the K⁻¹ of the rows it was summed with: folded before
    /// the joint correction's rows are built again.
    double pending[kMaxBlockRows] = {};
    bool hasPending = false;
    /// The joint correction's rows, from the constrainer's first build of
    /// the step. A constrainer that can re-evaluate its rows' errors
    /// (Constrainer::getRowErrors) keeps their directions, K and K⁻¹ while
    /// the look-ahead moves: a chord iteration, K formed once a step per
    /// joint; the others build their rows at every look-ahead.
    Rows rows;
    bool built = false;
    void reset() { impulse.clear(), built = false, hasPending = false; }
  };
  /// The versions of a constrainer's row components (myPosVersion or
  /// myVelVersion) when its rows' error was last found within tolerance,
  /// and that error. While none of them has moved since, the rows still
  /// need no correction and are not evaluated again: most visits of a long
  /// chain's sweeps. One per constrainer, apart from Accum and contiguous,
  /// so that those visits read a few bytes each (a 1000-link chain's
  /// Accums, a kilobyte each, spill the core's cache: reading each one's
  /// versions was half of the chain's cache misses). Rows over more than
  /// kMaxComps components (a joint on a body attached to an FEM) are not
  /// recorded, and are evaluated at every visit.
  struct Seen {
    static constexpr int kMaxComps = 4;
    int n = 0;  ///< components recorded; 0: none
    int comp[kMaxComps] = {};
    unsigned version[kMaxComps] = {};
    double err = 0;
  };
  using Clock = std::chrono::steady_clock;

  void computeInverseMasses();
  /// Whether any components are recorded in `s` and none has moved
  /// since. Inline: a long chain's sweeps ask it at most visits and find
  /// nothing to do.
  static bool unchangedSince(const Seen& s, const std::vector<unsigned>& version) {
    for (int j = 0; j < s.n; ++j)
      if (s.version[j] != version[s.comp[j]]) return false;
    return s.n > 0;
  }
  /// Records err, within tolerance, with the versions of `comps`; returns err.
  static double remember(Seen& s, const std::vector<int>& comps, const std::vector<unsigned>& version, double err);
  void buildRows(Constrainer& c, double h, bool velocityLevel, Rows& r);
  /// Solves the rows `sel` of r for impulses p with K p = b, keeping the
  /// accumulated impulse of unilateral rows non-negative; returns p over sel.
  void solveBlock(const Rows& r, const std::vector<int>& sel, const Eigen::VectorXd& b,
                  const std::vector<double>& accum, const std::vector<double>& extraDiag, Eigen::VectorXd& p);
  /// The look-ahead positions q0 + h u of `comps` (and the slaves).
  void moveLookAhead(const std::vector<int>& comps, double h);
  /// u += M⁻¹ Gᵀ p over the rows `sel`; with `lookAhead`, the touched
  /// components' positions move to q0 + h u.
  void applyImpulse(const Rows& r, const std::vector<int>& sel, const Eigen::VectorXd& p, double h, bool lookAhead);
  /// Makes r.W, r.K = G M⁻¹ Gᵀ + diag(extra) and r.Kinv over all rows (and
  /// r.Gt for one or two rigid bodies and at most six rows, the fixed
  /// sizes); false where the direct correction does not apply: more than
  /// kMaxBlockRows rows or kMaxDirectCols velocities, a row no impulse
  /// moves, K singular or ill-conditioned (Rows::direct). `extra` null:
  /// zeros. Inline: once the rows are prepared (or found not to be), every
  /// correction asks again, and the call cost more than the answer.
  bool prepareDirect(const Rows& r, const std::vector<double>* extra) {
    return r.direct >= 0 ? r.direct == 1 : formDirect(r, extra);
  }
  bool formDirect(const Rows& r, const std::vector<double>* extra);
  /// The direct correction of a block's rows, with the block's size fixed
  /// at compile time for the common joints.
  template <int M, int C>
  struct DirectBlock;
  /// p = K⁻¹ b over all of r's rows, added to `impulse`; u += M⁻¹ Gᵀ p.
  void applyDirect(const Rows& r, const Eigen::VectorXd& b, std::vector<double>& impulse);
  /// The joint correction of r's rows, hard and bilateral, at once, with
  /// b = scale·φ: p = K⁻¹ b, or for one or two rigid bodies b summed into
  /// a.pending; u += W p.
  void correctDirectPosition(const Rows& r, Accum& a, double scale);
  /// The velocity correction of all of r's rows at once; returns the
  /// largest row velocity before it.
  double correctDirectVelocity(const Rows& r, Accum& a, Seen& seen, double tol, long& corrections);
  /// Where the velocity sweeps ran out: the direct projection G u + known
  /// = 0 in the mass norm over the velocity rows (ImpulseProjection.cpp),
  /// its impulses added to `vel`'s. False, nothing changed, where it does
  /// not apply (a row not hard and bilateral, a constrainer whose rows did
  /// not take the direct correction (prepareDirect), rows from detection,
  /// redundant rows): the caller projects through the MLCP's solve.
  bool projectVelocityRows(std::vector<Accum>& vel);
  /// projectVelocityRows' parts: the pattern of A = G M⁻¹ Gᵀ over the
  /// groups (analysed again only when it changed), then its values.
  void analyzeProjection(int numGroups);
  void fillProjection(int numGroups);
  /// After the MLCP's velocity projection (where projectVelocityRows does
  /// not apply): its multipliers added to `vel`'s impulses.
  void addProjectionImpulses(std::vector<Accum>& vel);
  /// a.impulse += K⁻¹ a.pending, for the rows r it was summed with.
  static void foldPending(const Rows& r, Accum& a);
  /// One constrainer's joint correction: returns its error before correcting.
  /// The sweeps ask unchangedSince first (a constrainer found so is not
  /// evaluated again); these two do not.
  double correctPosition(Constrainer& c, Accum& a, Seen& seen, double h, double tol, long& corrections);
  double correctVelocity(const Rows& r, Accum& a, Seen& seen, double tol, long& corrections);
  // Detection constrainers (ImpulseRowSet.cpp).
  void buildRowSet(Constrainer& c, double h, bool velocityLevel, RowSet& s);
  double rowVelocity(const RowSet& s, int i) const;
  /// Row i's velocity, known + G_i u (its parametric part included).
  double velocityOf(const Rows& r, int i) const;
  /// u += M⁻¹ G_iᵀ p for row i.
  void applyRow(const RowSet& s, int i, double p);
  /// Row i's impulse this step: a's, on top of `base` (empty: none).
  static double impulseTotal(const Accum& a, const std::vector<double>& base, int i) {
    return a.impulse[i] + (base.empty() ? 0.0 : base[i]);
  }
  /// μ times the normal impulse of the contact whose friction rows start at i.
  static double frictionBound(const RowSet& s, const Accum& a, const std::vector<double>& base, int i);
  /// Adds delta to row i's accumulated impulse and applies it.
  void applyCorrection(const RowSet& s, Accum& a, int i, double delta, long& corrections);
  /// Friction rows [i0, i1) of one contact, on top of `base` (empty: none);
  /// returns the largest change of their velocities.
  double correctFriction(const RowSet& s, Accum& a, const std::vector<double>& base, int i0, int i1, double tol,
                         long& corrections);
  /// Scales each contact's friction impulses back into the disc of its
  /// final normal impulse (the normal rows may have moved after them).
  void projectFriction(const RowSet& s, Accum& a, const std::vector<double>& base);
  /// One sweep over the rows at the look-ahead; returns the largest
  /// correction needed, as a displacement over the step.
  double correctRowSetPosition(RowSet& s, Accum& a, double h, double tol, long& corrections);
  /// One sweep over the rows at t1, on top of the impulses `base` already
  /// applied to the same rows in the joint correction (empty: none).
  double correctRowSetVelocity(const RowSet& s, Accum& a, const std::vector<double>& base, double tol,
                               long& corrections);
  /// The impulses of each constrainer's rows at t1, over h, as its forces.
  /// Applies the last step's impulses where the rows are the same; returns
  /// the accumulated impulses they start from.
  void warmStart(std::vector<Accum>& acc, const std::vector<std::vector<double>>& warm, bool velocityLoop);
  void reportForces(const std::vector<Accum>& pos, const std::vector<Accum>& vel,
                    const std::vector<std::vector<double>>& base, double h);
  bool outOfTime(const Clock::time_point& deadline) const;

  MechSystemSolver& myS;
  std::vector<Block> myMinv;     ///< inverse mass block per system component (active ones)
  std::vector<Block> myMass;     ///< its mass block
  std::vector<int> myCompOfCol;  ///< system component owning each active column
  std::vector<int> myLocal;      ///< scratch: local index of a component in the rows being built
  Eigen::VectorXd myQ0, myU;     ///< positions at t0, velocities being corrected
  Eigen::VectorXd myQtmp;        ///< one component's look-ahead position
  Eigen::VectorXd myGp;          ///< scratch: Gᵀ p of an impulse
  Eigen::VectorXd myP, myB;      ///< scratch: a block's impulses and right-hand side
  std::vector<int> mySel;        ///< scratch: the rows of a block
  std::vector<double> myZeros;   ///< scratch: no extra diagonal
  std::vector<Rows> myVelRows;   ///< rows at t1 per constrainer, for velocity correction
  /// The last step's joint correction impulses, applied first (warm start)
  /// with the rows of the last step's end, which is this step's start.
  std::vector<std::vector<double>> myWarm, myWarmVel;
  std::vector<Accum> myPosAcc, myVelAcc;  ///< per constrainer, for the joint and velocity corrections
  std::vector<Seen> myPosSeen, myVelSeen;  ///< per constrainer, for the same
  /// Per system component: counts the moves of its look-ahead position and
  /// the changes of its velocity within a step (Seen).
  std::vector<unsigned> myPosVersion, myVelVersion;
  std::vector<double> myExtra;   ///< scratch: a block's compliant diagonal c/h²
  Eigen::VectorXd myBPos, myPPos, myBSel;  ///< scratch of the joint correction
  std::vector<int> mySelPos;
  std::vector<char> myIsSet;     ///< per constrainer: rows from detection (RowSet)
  std::vector<RowSet> myPosSets, myVelSets;  ///< their rows at the look-ahead and at t1
  ConstraintRows myBuildG, myBuildN, myBuildD;  ///< a RowSet's rows (ImpulseRowSet.cpp)
  MechSystem::PartRowBuilder myPartsG{myS.mySys, myS.myUp}, myPartsN{myS.mySys, myS.myUp};  ///< a joint's rows (buildRows)
  MechSystem::RowBuilder::Extras myExtrasG, myExtrasN, myExtrasD;  ///< the builders' per-row values, kept
  std::vector<FrictionLimit> myLimits;
  std::vector<int> myOrder;      ///< scratch: entries sorted by row
  BlockCholesky myProjection;  ///< projectVelocityRows' factor, its groups the constrainers with rows
  std::vector<int> myProjSizes, myProjSizesNow;  ///< rows of each group: analysed for, and now
  std::vector<std::pair<int, int>> myProjPairs, myProjPairsNow;  ///< the groups sharing a component: the same
  std::vector<int> myProjGroup;  ///< scratch: the constrainer of each group
  std::vector<std::vector<int>> myProjGroupsOf;  ///< scratch: the groups touching each component
  Eigen::VectorXd myProjRhs;     ///< scratch: the projection's right-hand side, then λ
  bool myHasAttachments = false;
  bool myTimed = false;
};

}  // namespace sinew
