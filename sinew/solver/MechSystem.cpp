#include "sinew/solver/MechSystem.h"

#include <algorithm>
#include <functional>

#include "sinew/Error.h"
#include "sinew/mech/RigidBody.h"

namespace sinew {

namespace {
std::uint64_t slotKey(int a, int b, bool param) {
  return (static_cast<std::uint64_t>(a) << 33) | (static_cast<std::uint64_t>(b) << 1) | (param ? 1 : 0);
}

/// Adds s·B (rows × cols, column-major with leading dimension ld) into a
/// slot of a compressed-column pattern: column c of the block starts at
/// vals[outer[col + c] + rowOff]. Inlined with constant sizes where the
/// block is a point's 3 × 3.
inline void scatter(double* vals, const int* outer, int col, int rowOff, int rows, int cols, const double* B,
                    Eigen::Index ld, double s) {
  for (int c = 0; c < cols; ++c, B += ld) {
    double* v = vals + outer[col + c] + rowOff;
    for (int r = 0; r < rows; ++r) v[r] += s * B[r];
  }
}
}  // namespace

int MechSystem::compIndex(const DynamicComponent& c) const {
  int i = c.getSystemIndex();
  if (i < 0 || i >= numComponents() || myComps[i].comp != &c)
    throw ModelError("component is used by the model but is not in it", c.componentPath());
  return i;
}

void MechSystem::build(const std::vector<DynamicComponent*>& comps,
                       const std::vector<ForceEffector*>& effectors) {
  myComps.clear();
  myActiveSize = myParamSize = myPosSize = myVelSize = 0;
  for (auto* c : comps) c->setSystemIndex(-1);
  for (auto* c : comps) {
    CompInfo ci;
    ci.comp = c;
    ci.rigid = dynamic_cast<RigidBody*>(c);
    ci.velSize = c->getVelStateSize();
    ci.posSize = c->getPosStateSize();
    ci.posOffset = myPosSize;
    ci.velOffset = myVelSize;
    myPosSize += ci.posSize;
    myVelSize += ci.velSize;
    if (c->isActive()) {
      ci.solveOffset = myActiveSize;
      myActiveSize += ci.velSize;
    } else if (c->isParametric()) {
      ci.paramOffset = myParamSize;
      myParamSize += ci.velSize;
    }
    c->setSystemIndex(static_cast<int>(myComps.size()));
    myComps.push_back(ci);
  }
  // Attachments in topological order: masters' attachments first.
  myAttachments.clear();
  std::vector<int> state(myComps.size(), 0);  // 0 new, 1 visiting, 2 done
  std::function<void(int)> visit = [&](int i) {
    if (state[i] == 2) return;
    if (state[i] == 1) throw ModelError("attachments form a cycle", myComps[i].comp->componentPath());
    state[i] = 1;
    if (DynamicAttachment* a = myComps[i].comp->getAttachment()) {
      for (int k = 0; k < a->numMasters(); ++k) visit(compIndex(a->getMaster(k)));
      myAttachments.push_back(a);
    }
    state[i] = 2;
  };
  for (int i = 0; i < numComponents(); ++i) visit(i);
  computeTargets();

  myEntries.clear();
  myContribs.clear();
  myMassHandles.assign(myComps.size(), -1);
  myBuilding = true;
  for (int i = 0; i < numComponents(); ++i) myMassHandles[i] = declareBlock(*myComps[i].comp, *myComps[i].comp);
  for (auto* e : effectors) e->declareJacobianBlocks(*this);
  myBuilding = false;
  buildPatterns();
  updateExpansions();
  myPatternChanged = true;
}

void MechSystem::computeTargets() {
  myTargets.assign(myComps.size(), {});
  myExp.assign(myComps.size(), {});
  for (int i = 0; i < numComponents(); ++i)
    if (!myComps[i].comp->isAttached()) {
      myTargets[i] = {i};
      Block I = Block::Identity(myComps[i].velSize, myComps[i].velSize);
      myExp[i] = {ExpTerm{i, I}};
    }
  for (auto* a : myAttachments) {
    int s = compIndex(a->getSlave());
    for (int k = 0; k < a->numMasters(); ++k)
      for (int t : myTargets[compIndex(a->getMaster(k))])
        if (std::find(myTargets[s].begin(), myTargets[s].end(), t) == myTargets[s].end())
          myTargets[s].push_back(t);
  }
}

int MechSystem::declareBlock(const DynamicComponent& row, const DynamicComponent& col) {
  Entry e;
  e.i = compIndex(row);
  e.j = compIndex(col);
  myEntries.push_back(e);
  if (!myBuilding) buildPatterns();  // late declarations still work, at a cost
  return static_cast<int>(myEntries.size()) - 1;
}

void MechSystem::buildPatterns() {
  mySlots.clear();
  mySlotIndex.clear();
  myContribs.clear();
  auto slotOf = [&](int a, int b, bool param) {
    auto key = slotKey(a, b, param);
    auto it = mySlotIndex.find(key);
    if (it != mySlotIndex.end()) return it->second;
    Slot s;
    s.rows = myComps[a].velSize;
    s.cols = myComps[b].velSize;
    s.param = param;
    s.rowOff = a;  // temporarily the block row; resolved below
    s.col = b;
    mySlots.push_back(s);
    return mySlotIndex[key] = static_cast<int>(mySlots.size()) - 1;
  };
  for (auto& e : myEntries) {
    e.first = static_cast<int>(myContribs.size());
    e.fold = myComps[e.i].comp->isAttached() || myComps[e.j].comp->isAttached();
    for (int ki = 0; ki < static_cast<int>(myTargets[e.i].size()); ++ki) {
      int a = myTargets[e.i][ki];
      if (!myComps[a].comp->isActive()) continue;
      for (int kj = 0; kj < static_cast<int>(myTargets[e.j].size()); ++kj) {
        int b = myTargets[e.j][kj];
        if (myComps[b].comp->isActive()) myContribs.push_back({slotOf(a, b, false), ki, kj});
        else if (myComps[b].comp->isParametric()) myContribs.push_back({slotOf(a, b, true), ki, kj});
      }
    }
    e.count = static_cast<int>(myContribs.size()) - e.first;
  }
  // Scalar patterns from the block slots.
  std::vector<Eigen::Triplet<double>> act, par;
  for (auto& s : mySlots) {
    const CompInfo& A = myComps[s.rowOff];
    const CompInfo& B = myComps[s.col];
    auto& t = s.param ? par : act;
    int c0 = s.param ? B.paramOffset : B.solveOffset;
    for (int c = 0; c < s.cols; ++c)
      for (int r = 0; r < s.rows; ++r) t.emplace_back(A.solveOffset + r, c0 + c, 0.0);
  }
  myPattern.resize(myActiveSize, myActiveSize);
  myPattern.setFromTriplets(act.begin(), act.end());
  myParamPattern.resize(myActiveSize, myParamSize);
  myParamPattern.setFromTriplets(par.begin(), par.end());
  // Resolve each slot to its first scalar column and its row offset there.
  for (auto& s : mySlots) {
    const SparseMatrixd& P = s.param ? myParamPattern : myPattern;
    const CompInfo& A = myComps[s.rowOff];
    const CompInfo& B = myComps[s.col];
    int col = s.param ? B.paramOffset : B.solveOffset;
    const int* inner = P.innerIndexPtr();
    int begin = P.outerIndexPtr()[col], end = P.outerIndexPtr()[col + 1];
    int pos = static_cast<int>(std::lower_bound(inner + begin, inner + end, A.solveOffset) - inner);
    s.col = col;
    s.rowOff = pos - begin;
  }
  myM.assign(myPattern.nonZeros(), 0);
  myK = myD = myM;
  myMp.assign(myParamPattern.nonZeros(), 0);
  myKp = myDp = myMp;
  myKAcc.touched = myDAcc.touched = false;
  myPatternChanged = true;
}

void MechSystem::updateExpansions() {
  Block J;
  for (auto* a : myAttachments) {
    int s = compIndex(a->getSlave());
    auto& exp = myExp[s];
    exp.resize(myTargets[s].size());
    for (size_t k = 0; k < exp.size(); ++k) {
      exp[k].target = myTargets[s][k];
      exp[k].J.setZero(myComps[s].velSize, myComps[exp[k].target].velSize);
    }
    for (int m = 0; m < a->numMasters(); ++m) {
      a->getMasterJacobian(m, J);
      for (const ExpTerm& mt : myExp[compIndex(a->getMaster(m))]) {
        auto it = std::find(myTargets[s].begin(), myTargets[s].end(), mt.target);
        exp[it - myTargets[s].begin()].J += J * mt.J;
      }
    }
  }
}

void MechSystem::transferSlaveForces() {
  Block J;
  BlockVec fs, acc;
  for (auto it = myAttachments.rbegin(); it != myAttachments.rend(); ++it) {
    DynamicAttachment* a = *it;
    DynamicComponent& s = a->getSlave();
    fs.resize(s.getVelStateSize());
    s.getForce(fs.data());
    if (s.getMass() > 0) {
      // The slave's acceleration includes J̇u; its inertia resists that.
      Block Ms;
      s.getMassBlock(Ms);
      a->getVelocityProduct(acc);
      fs -= Ms * acc;
    }
    for (int m = 0; m < a->numMasters(); ++m) {
      a->getMasterJacobian(m, J);
      BlockVec fm = J.transpose() * fs;
      a->getMaster(m).addForce(fm.data());
    }
  }
}

void MechSystem::addToSlot(const Slot& s, const Eigen::Ref<const Eigen::MatrixXd>& B,
                           std::vector<double>& act, std::vector<double>& par) const {
  std::vector<double>& vals = s.param ? par : act;
  const int* outer = (s.param ? myParamPattern : myPattern).outerIndexPtr();
  scatter(vals.data(), outer, s.col, s.rowOff, s.rows, s.cols, B.data(), B.outerStride(), 1.0);
}

void MechSystem::Accumulator::addBlock(int handle, const Eigen::Ref<const Eigen::MatrixXd>& B) {
  touched = true;
  const Entry& e = sys.myEntries[handle];
  for (int k = e.first; k < e.first + e.count; ++k) {
    const Contrib& c = sys.myContribs[k];
    const Slot& s = sys.mySlots[c.slot];
    if (!e.fold) {
      sys.addToSlot(s, B, act, par);
    } else {
      // Fold through the attachments: Jaᵀ B Jb.
      Block X = sys.myExp[e.i][c.ki].J.transpose() * B * sys.myExp[e.j][c.kj].J;
      sys.addToSlot(s, X, act, par);
    }
  }
}

void MechSystem::Accumulator::addNodeBlocks(const int* h, int n, const Eigen::MatrixXd& K, double s) {
  touched = true;
  const Eigen::Index ld = K.outerStride();
  // In the order of one addBlock per block, so that blocks folded into a
  // shared master slot sum as they did.
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int handle = h[i * n + j];
      const Entry& e = sys.myEntries[handle];
      if (e.fold || e.count != 1 || sys.mySlots[sys.myContribs[e.first].slot].rows != 3 ||
          sys.mySlots[sys.myContribs[e.first].slot].cols != 3) {
        const Eigen::Matrix3d B = s * K.block<3, 3>(3 * i, 3 * j);
        addBlock(handle, B);
        continue;
      }
      // Two unattached points: their one 3×3 slot, straight from K.
      const Slot& slot = sys.mySlots[sys.myContribs[e.first].slot];
      std::vector<double>& vals = slot.param ? par : act;
      const int* outer = (slot.param ? sys.myParamPattern : sys.myPattern).outerIndexPtr();
      scatter(vals.data(), outer, slot.col, slot.rowOff, 3, 3, K.data() + 3 * j * ld + 3 * i, ld, s);
    }
}

void MechSystem::assembleMass() {
  std::fill(myM.begin(), myM.end(), 0.0);
  std::fill(myMp.begin(), myMp.end(), 0.0);
  Block M;
  for (int i = 0; i < numComponents(); ++i) {
    DynamicComponent* c = myComps[i].comp;
    if (c->isParametric() || (c->isAttached() && c->getMass() == 0)) continue;
    c->getMassBlock(M);
    myMAcc.addBlock(myMassHandles[i], M);
  }
}

void MechSystem::zeroJacobians() {
  myKAcc.clear();
  myDAcc.clear();
}

void MechSystem::Accumulator::clear() {
  if (!touched) return;  // still zero: most rigid systems never write K or D
  std::fill(act.begin(), act.end(), 0.0);
  std::fill(par.begin(), par.end(), 0.0);
  touched = false;
}

void MechSystem::addGeometricStiffness() {
  Block G;
  BlockVec fs;
  for (auto* a : myAttachments) {
    DynamicComponent& s = a->getSlave();
    fs.resize(s.getVelStateSize());
    s.getForce(fs.data());
    for (int m = 0; m < a->numMasters(); ++m) {
      a->getGeometricStiffness(m, fs.data(), G);
      if (G.size() > 0) myKAcc.addBlock(myMassHandles[compIndex(a->getMaster(m))], G);
    }
  }
}

void MechSystem::addDampingBlock(int i, const Block& D) { myDAcc.addBlock(myMassHandles[i], D); }

void MechSystem::formMatrix(double m, double d, double k, SparseMatrixd& S) const {
  if (S.rows() != myPattern.rows() || S.nonZeros() != myPattern.nonZeros()) S = myPattern;
  double* v = S.valuePtr();
  if (!myDAcc.touched) d = 0;
  if (!myKAcc.touched) k = 0;
  if (d == 0 && k == 0) {
    for (size_t i = 0; i < myM.size(); ++i) v[i] = m * myM[i];
    return;
  }
  for (size_t i = 0; i < myM.size(); ++i) v[i] = m * myM[i] + d * myD[i] + k * myK[i];
}

void MechSystem::mulPattern(const std::vector<double>& vals, const Eigen::VectorXd& x,
                            Eigen::VectorXd& y) const {
  y.setZero(myActiveSize);
  const int* outer = myPattern.outerIndexPtr();
  const int* inner = myPattern.innerIndexPtr();
  for (int c = 0; c < myActiveSize; ++c)
    for (int p = outer[c]; p < outer[c + 1]; ++p) y[inner[p]] += vals[p] * x[c];
}

void MechSystem::mulMass(const Eigen::VectorXd& x, Eigen::VectorXd& y) const { mulPattern(myM, x, y); }
void MechSystem::mulDamping(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  if (myDAcc.touched) mulPattern(myD, x, y);
  else y.setZero(myActiveSize);
}
void MechSystem::mulStiffness(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  if (myKAcc.touched) mulPattern(myK, x, y);
  else y.setZero(myActiveSize);
}

void MechSystem::addParametricTerm(double d, double k, const Eigen::VectorXd& up, Eigen::VectorXd& y) const {
  if (!myDAcc.touched && !myKAcc.touched) return;
  const int* outer = myParamPattern.outerIndexPtr();
  const int* inner = myParamPattern.innerIndexPtr();
  for (int c = 0; c < myParamSize; ++c)
    for (int p = outer[c]; p < outer[c + 1]; ++p) y[inner[p]] += (d * myDp[p] + k * myKp[p]) * up[c];
}

void MechSystem::getActiveVel(Eigen::VectorXd& u) const {
  u.resize(myActiveSize);
  for (auto& c : myComps)
    if (c.solveOffset >= 0) c.comp->getVelState(u.data() + c.solveOffset);
}

void MechSystem::setActiveVel(const Eigen::VectorXd& u) {
  for (auto& c : myComps)
    if (c.solveOffset >= 0) c.comp->setVelState(u.data() + c.solveOffset);
}

void MechSystem::getParamVel(Eigen::VectorXd& up) const {
  up.resize(myParamSize);
  for (auto& c : myComps)
    if (c.paramOffset >= 0) c.comp->getVelState(up.data() + c.paramOffset);
}

void MechSystem::getActiveForce(Eigen::VectorXd& f) const {
  f.resize(myActiveSize);
  for (auto& c : myComps)
    if (c.solveOffset >= 0) c.comp->getForce(f.data() + c.solveOffset);
}

void MechSystem::getFullPos(Eigen::VectorXd& q) const {
  q.resize(myPosSize);
  for (auto& c : myComps) c.comp->getPosState(q.data() + c.posOffset);
}

void MechSystem::setFullPos(const Eigen::VectorXd& q) {
  for (auto& c : myComps) c.comp->setPosState(q.data() + c.posOffset);
}

void MechSystem::getFullVel(Eigen::VectorXd& u) const {
  u.resize(myVelSize);
  for (auto& c : myComps) c.comp->getVelState(u.data() + c.velOffset);
}

void MechSystem::setFullVel(const Eigen::VectorXd& u) {
  for (auto& c : myComps) c.comp->setVelState(u.data() + c.velOffset);
}

void MechSystem::updateAttachmentStates() {
  for (auto* a : myAttachments) {
    a->updatePosStates();
    a->updateVelStates();
  }
}

void MechSystem::RowBuilder::beginRow(double d, double compliance, double damp, double gdot) {
  myRows.rhs.push_back(0.0);
  myRows.compliance.push_back(compliance);
  dist.push_back(d);
  damping.push_back(damp);
  velocityProduct.push_back(gdot);
}

void MechSystem::RowBuilder::addEntry(const DynamicComponent& c, const Eigen::Ref<const Eigen::RowVectorXd>& g) {
  if (!wantEntries) return;
  mySys.forEachTarget(c, g, [&](int target, const Eigen::Ref<const Eigen::RowVectorXd>& gt) {
    addTarget(mySys.myComps[target], gt);
  });
}

void MechSystem::RowBuilder::addTarget(const CompInfo& T, const Eigen::Ref<const Eigen::RowVectorXd>& g) {
  const int row = myRows.numRows() - 1;
  if (T.solveOffset >= 0) {
    // Zeros are kept so the KKT pattern, and its symbolic analysis, stay
    // the same from step to step.
    // Appended in place: a joint's rows add a dozen entries each, every step.
    auto& e = myRows.entries;
    for (int k = 0; k < T.velSize; ++k) e.emplace_back(row, T.solveOffset + k, g[k]);
  } else if (T.paramOffset >= 0) {
    // G_p u_p is known: move it to the right-hand side.
    myRows.rhs[row] -= g.dot(myUp.segment(T.paramOffset, T.velSize));
  }
}

void MechSystem::PartRowBuilder::beginRow(double d, double c, double, double) {
  dist.push_back(d);
  compliance.push_back(c);
  rhs.push_back(0.0);
}

void MechSystem::PartRowBuilder::addEntry(const DynamicComponent& c, const Eigen::Ref<const Eigen::RowVectorXd>& g) {
  mySys.forEachTarget(c, g, [&](int target, const Eigen::Ref<const Eigen::RowVectorXd>& gt) { addTarget(target, gt); });
}

void MechSystem::PartRowBuilder::addTarget(int target, const Eigen::Ref<const Eigen::RowVectorXd>& g) {
  const CompInfo& T = mySys.myComps[target];
  const int row = numRows() - 1;
  if (T.solveOffset >= 0) {
    parts.push_back({row, target, static_cast<int>(values.size())});
    values.insert(values.end(), g.data(), g.data() + T.velSize);
  } else if (T.paramOffset >= 0) {
    rhs[row] -= g.dot(myUp.segment(T.paramOffset, T.velSize));
  }
}

}  // namespace sinew
