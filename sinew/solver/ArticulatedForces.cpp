// The Articulated integrator's joint forces (guide §3.3.7): recorded at each
// step, handed to the joints once the step has succeeded, and formed when a
// joint's are first asked for. A joint's forces are
// the wrench its parent transmits, Newton–Euler over its subtree; summing
// the tree costs a pass of its own (about 5 % of a chain's step), which a run
// that reads no joint force need not pay, as the reduced-coordinate engines
// form their joints' reaction forces only on request.
#include "sinew/solver/ArticulatedRows.h"

#include <mutex>

#include "sinew/joints/JointBase.h"
#include "sinew/mech/RigidBody.h"

namespace sinew {

/// What the tree joints' forces of one step follow from, copied out of the
/// links. Two records alternate: a step fills the one the joints are not
/// deferred to, and hands it to them only once it has succeeded, so a step
/// that fails anywhere (or the integrator's end) leaves the deferred joints
/// the last good step's. (A joint whose limit rows are engaged is formed
/// during the step, and a loop's cut joint gets its rows' forces then: a
/// failed step leaves those the failed step's, as every joint's before.)
/// Entry i is link i's.
class ArticulatedSolver::ForceRecord : public DeferredJointForces {
 public:
  struct Entry {
    Vector6d g;            ///< the link's I A + p0 − F/h: its rate of momentum less applied and rows' forces
    Vector3d r;            ///< its origin from its parent link's
    Vector3d origin;       ///< its origin
    RigidTransform3d TCW;  ///< its joint's frame C in the world
    RigidTransform3d Trel; ///< the child's joint frame in the parent's
    int parent = -1;
    bool childIsA = true;
    int firstLimit = 0, numLimits = 0;  ///< its limits' forces in `limits`
  };
  std::vector<Entry> entries;
  std::vector<double> limits;

  /// Starts a step's record: the sums are formed again when first needed.
  void restart(size_t n) {
    entries.resize(n);
    limits.clear();
    mySummed = false;
  }
  void formFor(JointBase& joint, int i) const override {
    // The sums are shared by the record's joints, whose first reads may
    // come from several threads.
    std::lock_guard<std::mutex> lock(myMutex);
    if (!mySummed) sumSubtrees();
    const Entry& e = entries[i];
    // The bilateral wrench on A, moved from the body's origin to C's and
    // put in C's axes (G = C: the joint holds).
    const Vector6d f = e.childIsA ? mySums[i] : Vector6d(-mySums[i]);
    const Vector3d toBody = e.origin - e.TCW.p;
    Wrench wG;
    wG << e.TCW.R.transpose() * f.head<3>(), e.TCW.R.transpose() * (f.tail<3>() + toBody.cross(f.head<3>()));
    const RigidTransform3d TCD = e.childIsA ? e.Trel : e.Trel.inverse();
    joint.setConstraintWrench(TCD, wG, limits.data() + e.firstLimit, e.numLimits);
  }

 private:
  /// Leaves first: each link's sum over its subtree (a row between two of
  /// its bodies cancels; the link's own limits are outside the sum).
  void sumSubtrees() const {
    mySums.resize(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) mySums[i] = entries[i].g;
    for (int i = static_cast<int>(entries.size()) - 1; i >= 0; --i)
      if (entries[i].parent >= 0) mySums[entries[i].parent] += shiftForceBack(mySums[i], entries[i].r);
    mySummed = true;
  }
  mutable std::vector<Vector6d> mySums;
  mutable bool mySummed = false;
  mutable std::mutex myMutex;
};

ArticulatedSolver::ForceRecords::ForceRecords() {
  for (int k = 0; k < 2; ++k) {
    record[k] = std::make_shared<ForceRecord>();
    view[k] = record[k];
  }
}

void ArticulatedSolver::recordJointForces(double h) {
  if (!myForces) myForces = std::make_unique<ForceRecords>();
  ForceRecords& fr = *myForces;
  fr.filling = fr.published == 0 ? 1 : 0;
  ForceRecord& rec = *fr.record[fr.filling];
  rec.restart(myLinks.size());
  const double invh = 1 / h;
  for (size_t i = 0; i < myLinks.size(); ++i) {
    const Link& l = myLinks[i];
    ForceRecord::Entry& e = rec.entries[i];
    e.g = l.I * l.A + l.p0 - invh * l.F;
    e.r = l.r;
    e.parent = l.parent;
    if (!l.joint) continue;
    e.origin = l.origin;
    e.childIsA = l.childIsA;
    e.TCW = l.childIsA ? l.TFcW : l.TFpW;
    e.Trel = l.Trel;
    e.firstLimit = static_cast<int>(rec.limits.size());
    e.numLimits = 0;
    if (!l.limited || !myRows || myRows->lambda.size() != myRows->numRows()) continue;
    for (const Rows::Source& src : myRows->sources) {
      if (src.joint != l.joint) continue;
      for (int k = 0; k < src.numN; ++k) rec.limits.push_back(myRows->lambda(src.first + k) * invh);
      e.numLimits = src.numN;
      break;
    }
  }
  // A joint's limit forces belong to the rows of its last unilateral build,
  // which the projection passes replace: joints with engaged limit rows are
  // formed now (and the step's subtree sums with them).
  for (size_t i = 0; i < myLinks.size(); ++i)
    if (myLinks[i].joint && rec.entries[i].numLimits > 0) rec.formFor(*myLinks[i].joint, static_cast<int>(i));
}

void ArticulatedSolver::publishJointForces() {
  if (!myForces || myForces->filling < 0) return;
  ForceRecords& fr = *myForces;
  const ForceRecord& rec = *fr.record[fr.filling];
  for (size_t i = 0; i < myLinks.size(); ++i)
    if (myLinks[i].joint && rec.entries[i].numLimits == 0)
      myLinks[i].joint->deferConstraintForces(fr.view[fr.filling], static_cast<int>(i));
  fr.published = fr.filling;
  fr.filling = -1;
}

}  // namespace sinew
