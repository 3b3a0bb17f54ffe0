// The compiled form of a mechanical model (DESIGN §1 "the system"): index
// tables over the dynamic components, the attachment order, and the fixed
// block-sparse pattern of the velocity-solve matrix. Built once per
// structure change; each step only refills numbers.
//
// Components are global indices 0..n-1. Active ones (dynamic, unattached)
// own a range of the solve vector u; parametric ones a range of u_p, whose
// prescribed velocities move to the right-hand side. An attached
// component's rows and columns are folded into its masters through the
// attachment Jacobians (PᵀSP, seed 000 eq. 1.9), so attachments create no
// multipliers and chains of attachments work in topological order.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sinew/mech/DynamicComponent.h"
#include "sinew/solver/KKTSolver.h"

namespace sinew {

class RigidBody;

class MechSystem : public JacobianPattern {
 public:
  struct CompInfo {
    DynamicComponent* comp = nullptr;
    /// comp as a rigid body (its 6-dof twist and inertia), else null: found
    /// once here, not by a cast in every step.
    RigidBody* rigid = nullptr;
    int velSize = 0, posSize = 0;
    int posOffset = 0;       ///< into the full position state
    int velOffset = 0;       ///< into the full velocity state
    int solveOffset = -1;    ///< into u (active components)
    int paramOffset = -1;    ///< into u_p (parametric components)
  };

  /// Compiles the system. Components not in `comps` but referenced as
  /// attachment masters are an error (ModelError).
  void build(const std::vector<DynamicComponent*>& comps, const std::vector<ForceEffector*>& effectors);

  int numComponents() const { return static_cast<int>(myComps.size()); }
  const CompInfo& info(int i) const { return myComps[i]; }
  int activeVelSize() const { return myActiveSize; }
  int paramVelSize() const { return myParamSize; }
  int fullPosSize() const { return myPosSize; }
  int fullVelSize() const { return myVelSize; }
  const std::vector<DynamicAttachment*>& attachments() const { return myAttachments; }

  // ---- JacobianPattern
  int declareBlock(const DynamicComponent& row, const DynamicComponent& col) override;

  // ---- per-step numeric work
  /// Recomputes the attachment expansions (J of every slave onto active and
  /// parametric components) at the current configuration.
  void updateExpansions();
  /// Pushes slave forces onto masters (reverse topological order), adding
  /// the velocity-product terms of massive slaves.
  void transferSlaveForces();
  /// Refills the mass values (active blocks plus lumped slave masses).
  void assembleMass();
  /// Zeroes K and D values; then effectors add into posJacobian() /
  /// velJacobian(); addGeometricStiffness adds the attachment terms.
  void zeroJacobians();
  JacobianMatrix& posJacobian() { return myKAcc; }
  JacobianMatrix& velJacobian() { return myDAcc; }
  void addGeometricStiffness();
  /// Adds damping blocks of component i (from DynamicComponent::applyDamping).
  void addDampingBlock(int i, const Block& D);

  /// S = m·M + d·D + k·K over the active pattern (values only).
  void formMatrix(double m, double d, double k, SparseMatrixd& S) const;
  /// y += (d·D_ap + k·K_ap)·u_p: the parametric columns times their velocities.
  void addParametricTerm(double d, double k, const Eigen::VectorXd& up, Eigen::VectorXd& y) const;
  /// Whether some damping or stiffness block was written since the last
  /// zeroJacobians(): if not, formMatrix gives m·M whatever d and k are.
  bool hasDampingOrStiffness() const { return myDAcc.touched || myKAcc.touched; }
  /// y = M·x, D·x, K·x over the active pattern.
  void mulMass(const Eigen::VectorXd& x, Eigen::VectorXd& y) const;
  void mulDamping(const Eigen::VectorXd& x, Eigen::VectorXd& y) const;
  void mulStiffness(const Eigen::VectorXd& x, Eigen::VectorXd& y) const;
  /// True once after build(): the solve matrix pattern is new.
  bool takePatternChanged() { bool c = myPatternChanged; myPatternChanged = false; return c; }

  // ---- state gather/scatter
  void getActiveVel(Eigen::VectorXd& u) const;
  void setActiveVel(const Eigen::VectorXd& u);
  void getParamVel(Eigen::VectorXd& up) const;
  void getActiveForce(Eigen::VectorXd& f) const;
  void getFullPos(Eigen::VectorXd& q) const;
  void setFullPos(const Eigen::VectorXd& q);
  void getFullVel(Eigen::VectorXd& u) const;
  void setFullVel(const Eigen::VectorXd& u);
  /// Slave positions and velocities from their masters.
  void updateAttachmentStates();

  /// A constraint builder that maps rows through the attachments onto the
  /// active dofs; parametric velocities move to the right-hand side.
  class RowBuilder : public ConstraintBuilder {
   public:
    /// Each row's φ, damping and Ġu, beside the rows. The caller keeps
    /// them from build to build (the builder clears them), so that every
    /// step's builds reuse their storage instead of growing it afresh.
    struct Extras {
      std::vector<double> dist, damping, velocityProduct;
    };
    RowBuilder(const MechSystem& sys, ConstraintRows& rows, const Eigen::VectorXd& up, Extras& extras)
        : dist(extras.dist), damping(extras.damping), velocityProduct(extras.velocityProduct), mySys(sys),
          myRows(rows), myUp(up) {
      dist.clear(), damping.clear(), velocityProduct.clear();
    }
    void beginRow(double dist, double compliance, double damping, double velocityProduct) override;
    void addEntry(const DynamicComponent& c, const Eigen::Ref<const Eigen::RowVectorXd>& g) override;
    bool wantsVelocityProducts() const override { return wantVelocityProducts; }
    double stepSize() const override { return h; }
    bool wantsEntries() const override { return wantEntries; }
    std::vector<double>&dist, &damping, &velocityProduct;
    bool wantVelocityProducts = false, wantEntries = true;
    double h = 0;

   private:
    /// Appends g (already mapped onto T) to the current row.
    void addTarget(const CompInfo& T, const Eigen::Ref<const Eigen::RowVectorXd>& g);
    const MechSystem& mySys;
    ConstraintRows& myRows;
    const Eigen::VectorXd& myUp;
  };

  /// The same rows for a solver that keeps each constrainer's rows dense
  /// over the components they touch (the Impulse integrator, which builds
  /// every joint's rows twice a step): each entry is kept whole, as one
  /// part on its (active) target component, instead of as a triplet per
  /// value. Mapped through the attachments, parametric velocities moved to
  /// the right-hand side (rhs = −G_p u_p), as RowBuilder does; a row's
  /// damping and velocity product, which that solver does not use, are
  /// not kept (wantsVelocityProducts() stays false).
  class PartRowBuilder : public ConstraintBuilder {
   public:
    /// Row `row`'s entries on active component `comp`: values [first,
    /// first + its velSize) of `values`.
    struct Part {
      int row, comp, first;
    };
    PartRowBuilder(const MechSystem& sys, const Eigen::VectorXd& up) : mySys(sys), myUp(up) {}
    /// Forgets the rows (keeping the storage).
    void clear() { dist.clear(), compliance.clear(), rhs.clear(), parts.clear(), values.clear(); }
    void beginRow(double dist, double compliance, double damping, double velocityProduct) override;
    void addEntry(const DynamicComponent& c, const Eigen::Ref<const Eigen::RowVectorXd>& g) override;
    double stepSize() const override { return h; }
    int numRows() const { return static_cast<int>(dist.size()); }
    std::vector<double> dist, compliance, rhs;
    std::vector<Part> parts;
    std::vector<double> values;
    double h = 0;

   private:
    void addTarget(int target, const Eigen::Ref<const Eigen::RowVectorXd>& g);
    const MechSystem& mySys;
    const Eigen::VectorXd& myUp;
  };

 private:
  struct ExpTerm {
    int target;
    Block J;
  };
  struct Slot {
    int col = 0, rowOff = 0, rows = 0, cols = 0;
    bool param = false;  ///< in the active×parametric pattern
  };
  struct Contrib {
    int slot, ki, kj;
  };
  struct Entry {
    int i, j;
    int first = 0, count = 0;
    bool fold = false;  ///< i or j attached when the pattern was built: fold through the expansions
  };
  class Accumulator : public JacobianMatrix {
   public:
    Accumulator(MechSystem& s, std::vector<double>& a, std::vector<double>& p) : sys(s), act(a), par(p) {}
    void addBlock(int handle, const Eigen::Ref<const Eigen::MatrixXd>& B) override;
    void addNodeBlocks(const int* h, int n, const Eigen::MatrixXd& K, double s) override;
    /// Zeroes the values, unless nothing was added since the last clear.
    void clear();
    MechSystem& sys;
    std::vector<double>& act;
    std::vector<double>& par;
    /// Values were added since the last clear; an untouched K or D is zero
    /// and its terms are skipped.
    bool touched = false;
  };

  int compIndex(const DynamicComponent& c) const;
  /// Calls add(target, g mapped onto it) for each active or parametric
  /// component that an entry g on c lands on (the row builders): c itself
  /// when unattached (it expands onto itself with J = I: no product), else
  /// each target of its expansion.
  template <class F>
  void forEachTarget(const DynamicComponent& c, const Eigen::Ref<const Eigen::RowVectorXd>& g, F&& add) const {
    const int i = compIndex(c);
    if (!c.isAttached()) return add(i, g);
    for (const ExpTerm& t : myExp[i]) {
      const Eigen::Matrix<double, 1, Eigen::Dynamic, Eigen::RowMajor, 1, 6> gt = g * t.J;
      add(t.target, gt);
    }
  }
  void computeTargets();
  void buildPatterns();
  int slotFor(int a, int b);
  void addToSlot(const Slot& s, const Eigen::Ref<const Eigen::MatrixXd>& B, std::vector<double>& act,
                 std::vector<double>& par) const;
  void mulPattern(const std::vector<double>& vals, const Eigen::VectorXd& x, Eigen::VectorXd& y) const;

  std::vector<CompInfo> myComps;
  std::vector<DynamicAttachment*> myAttachments;  ///< topological order
  int myActiveSize = 0, myParamSize = 0, myPosSize = 0, myVelSize = 0;
  std::vector<std::vector<int>> myTargets;       ///< structural expansion
  std::vector<std::vector<ExpTerm>> myExp;       ///< numeric expansion
  std::vector<Entry> myEntries;
  std::vector<Contrib> myContribs;
  std::vector<int> myMassHandles;                ///< (i,i) handles of massive comps
  std::vector<Slot> mySlots;
  std::unordered_map<std::uint64_t, int> mySlotIndex;
  // Active pattern (CSC, both triangles) and active×parametric pattern.
  SparseMatrixd myPattern, myParamPattern;
  std::vector<double> myM, myK, myD, myKp, myDp, myMp;
  Accumulator myKAcc{*this, myK, myKp}, myDAcc{*this, myD, myDp}, myMAcc{*this, myM, myMp};
  bool myPatternChanged = true;
  bool myBuilding = false;
};

}  // namespace sinew
