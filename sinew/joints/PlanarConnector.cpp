#include "sinew/joints/PlanarConnector.h"

#include <cmath>

namespace sinew {

namespace {

using C = RigidBodyConstraint;

/// One constraint along a surface normal; the surface is a set of lines in
/// D's x–z plane (extended along y): one line for the plane z = 0, or the
/// segments of a piecewise linear curve, the last ones extrapolated.
class SurfaceCoupling : public RigidBodyCoupling {
 public:
  explicit SurfaceCoupling(std::vector<Eigen::Vector2d> points) : myPoints(std::move(points)) {
    initializeConstraints();
  }
  bool isUnilateral() const { return unilateral; }

  struct Nearest {
    Vector3d n = Vector3d::UnitZ();  ///< the segment's normal, in D
    double dist = 0;                 ///< signed distance to the segment's line
  };
  /// The segment nearest to p (there is at least one).
  Nearest nearest(const Vector3d& p) const {
    const Eigen::Vector2d q(p.x(), p.z());
    Nearest r;
    double best = INFINITY;
    const size_t ns = myPoints.size() - 1;
    for (size_t k = 0; k < ns; ++k) {
      const Eigen::Vector2d a = myPoints[k], u = myPoints[k + 1] - a;
      double s = (q - a).dot(u) / u.squaredNorm();
      if (k > 0) s = std::max(s, 0.0);  // first and last segments extend
      if (k + 1 < ns) s = std::min(s, 1.0);
      const double d = (q - a - s * u).norm();
      if (d < best) {
        best = d;
        r.n = Vector3d(-u.y(), 0, u.x()).normalized();  // u × ŷ (eq. 3.30)
        r.dist = r.n.dot(p - Vector3d(a.x(), 0, a.y()));
      }
    }
    return r;
  }
  void projectToConstraints(RigidTransform3d& TGD, const RigidTransform3d& TCD,
                            Eigen::VectorXd*) const override {
    TGD = TCD;
    if (unilateral) return;  // its distance is measured directly
    const Nearest s = nearest(TCD.p);
    TGD.p -= s.dist * s.n;
  }
  void updateConstraints(const RigidTransform3d& TGD, const RigidTransform3d& TCD, const Twist&, const Twist&,
                         bool updateEngaged) override {
    const Nearest s = nearest(TCD.p);
    getConstraint(0).setWrenchG(toG(TGD, s.n), Vector3d::Zero());
    if (unilateral && updateEngaged) RigidBodyCoupling::updateEngaged(getConstraint(0), s.dist, 0, INFINITY);
  }
  void setUnilateral(bool u) {
    unilateral = u;
    reinitializeConstraints();  // a constraint's kind is fixed when added
  }

 protected:
  void initializeConstraints() override { addConstraint(unilateral ? C::LINEAR : C::BILATERAL | C::LINEAR); }

 private:
  std::vector<Eigen::Vector2d> myPoints;
  bool unilateral = false;
};

std::vector<Eigen::Vector2d> segmentPoints(const std::vector<double>& segs, const std::string& name) {
  if (segs.size() < 4 || segs.size() % 2) throw ModelError("segments need at least two (x, z) points", name);
  std::vector<Eigen::Vector2d> pts;
  for (size_t i = 0; i < segs.size(); i += 2) {
    pts.emplace_back(segs[i], segs[i + 1]);
    if (!pts.back().allFinite()) throw ModelError("segment points must be finite", name);
    if (pts.size() > 1 && (pts.back() - pts[pts.size() - 2]).norm() == 0)
      throw ModelError("segment " + std::to_string(pts.size() - 2) + " has zero length", name);
  }
  return pts;
}

SurfaceCoupling& surface(const JointBase& j) { return static_cast<SurfaceCoupling&>(j.getCoupling()); }

const std::vector<Eigen::Vector2d> kPlane{{0, 0}, {1, 0}};  // the line z = 0, normal +z

}  // namespace

SINEW_PROPERTIES(PlanarConnector, JointBase) {
  list.add<PlanarConnector>("unilateral", "whether the point is only kept on the positive side",
                            &PlanarConnector::isUnilateral, &PlanarConnector::setUnilateral)
      .setDefault(false);
  list.add<PlanarConnector>("distance", "signed distance of the point from the surface",
                            &PlanarConnector::getDistance);
}

PlanarConnector::PlanarConnector(std::string name, std::unique_ptr<RigidBodyCoupling> coupling)
    : JointBase(std::move(name), std::move(coupling)) {}

PlanarConnector::PlanarConnector(std::string name)
    : PlanarConnector(std::move(name), std::make_unique<SurfaceCoupling>(kPlane)) {}

PlanarConnector::PlanarConnector(Frame& bodyA, const Vector3d& pCA, Frame* bodyB, const RigidTransform3d& TDB,
                                 std::string name)
    : PlanarConnector(std::move(name)) {
  setBodies(bodyA, RigidTransform3d(pCA), bodyB, TDB);
}

PlanarConnector::PlanarConnector(Frame& bodyA, const Vector3d& pCA, const RigidTransform3d& TDW, std::string name)
    : PlanarConnector(bodyA, pCA, nullptr, TDW, std::move(name)) {}

bool PlanarConnector::isUnilateral() const { return surface(*this).isUnilateral(); }

void PlanarConnector::setUnilateral(bool unilateral) {
  if (unilateral == isUnilateral()) return;
  surface(*this).setUnilateral(unilateral);
  couplingStructureChanged();
}

double PlanarConnector::getDistance() const {
  return surface(*this).nearest(getCurrentTCD().p).dist;
}

SegmentedPlanarConnector::SegmentedPlanarConnector(const std::vector<double>& segs, std::string name)
    : PlanarConnector(name, std::make_unique<SurfaceCoupling>(segmentPoints(segs, name))) {}

SegmentedPlanarConnector::SegmentedPlanarConnector(Frame& bodyA, const Vector3d& pCA, Frame* bodyB,
                                                   const RigidTransform3d& TDB, const std::vector<double>& segs,
                                                   std::string name)
    : SegmentedPlanarConnector(segs, std::move(name)) {
  setBodies(bodyA, RigidTransform3d(pCA), bodyB, TDB);
}

SegmentedPlanarConnector::SegmentedPlanarConnector(Frame& bodyA, const Vector3d& pCA, const RigidTransform3d& TDW,
                                                   const std::vector<double>& segs, std::string name)
    : SegmentedPlanarConnector(bodyA, pCA, nullptr, TDW, segs, std::move(name)) {}

}  // namespace sinew
