#include "sinew/mech/Point.h"

#include <cmath>

namespace sinew {

namespace {
void requireFinite(const Vector3d& v, const Component& c, const char* what) {
  if (!v.allFinite()) throw ModelError(std::string(what) + " is not finite", c.describe());
}
}  // namespace

SINEW_PROPERTIES(Point, Component) {
  list.add<Point>("position", "position in world coordinates", &Point::getPosition,
                  [](Point& p, const Vector3d& x) { p.setPosition(x); });
  list.add<Point>("velocity", "velocity in world coordinates", &Point::getVelocity, &Point::setVelocity);
  list.add<Point>("force", "total force on the point", [](const Point& p) { return p.getForce(); });
  list.add<Point>("targetPosition", "prescribed position for a parametric point",
                  &Point::getTargetPosition, &Point::setTargetPosition);
  list.add<Point>("externalForce", "applied external force", &Point::getExternalForce,
                  &Point::setExternalForce);
  list.add<Point>("dynamic", "whether the point is dynamic", &Point::isDynamic, &Point::setDynamic);
  list.addInheritable<Point>("pointDamping", "damping force per unit velocity", &Point::myPointDamping, 0.0)
      .setRange(0, INFINITY);
}

Point::Point() { setDynamic(false); }

Point::Point(std::string name, const Vector3d& pos) : Component(std::move(name)), myPos(pos) {
  setDynamic(false);
  requireFinite(pos, *this, "position");
}

void Point::setPosition(const Vector3d& p) {
  requireFinite(p, *this, "position");
  myPos = p;
}

void Point::setVelocity(const Vector3d& v) {
  requireFinite(v, *this, "velocity");
  myVel = v;
}

void Point::setTargetPosition(const Vector3d& p) {
  requireFinite(p, *this, "targetPosition");
  myTarget = p;
  myHasTarget = true;
}

void Point::getPosState(double* q) const { Eigen::Map<Vector3d>{q} = myPos; }
void Point::setPosState(const double* q) { myPos = Eigen::Map<const Vector3d>(q); }
void Point::getVelState(double* u) const { Eigen::Map<Vector3d>{u} = myVel; }
void Point::setVelState(const double* u) { myVel = Eigen::Map<const Vector3d>(u); }
void Point::addPosImpulse(double* q, double h, const double* u) const {
  Eigen::Map<Vector3d>{q} += h * Eigen::Map<const Vector3d>(u);
}
void Point::getMassBlock(Block& M) const { M = getMass() * Matrix3d::Identity(); }
void Point::getForce(double* f) const { Eigen::Map<Vector3d>{f} = myForce; }
void Point::addForce(const double* f) { myForce += Eigen::Map<const Vector3d>(f); }

void Point::applyDamping(Block* D) {
  double d = getPointDamping();
  if (d == 0) return;
  myForce -= d * myVel;
  if (D) *D -= d * Matrix3d::Identity();
}

void Point::transformGeometry(const RigidTransform3d& X) {
  myPos = X.transformPoint(myPos);
  myVel = X.R * myVel;
  if (myHasTarget) myTarget = X.transformPoint(myTarget);
}

void Point::updateParametricVelocity(double h) {
  if (myHasTarget) myVel = (myTarget - myPos) / h;
}

SINEW_PROPERTIES(Particle, Point) {
  list.add<Particle>("mass", "mass of the particle", &Particle::getMass, &Particle::setMass)
      .setRange(0, INFINITY);
}

Particle::Particle(std::string name, double mass, double x, double y, double z)
    : Point(std::move(name), Vector3d(x, y, z)) {
  setDynamic(true);
  setMass(mass);
}

void Particle::setMass(double m) {
  if (!(m >= 0) || !std::isfinite(m))
    throw ModelError("mass must be finite and non-negative, got " + std::to_string(m), describe());
  myMass = m;
}

}  // namespace sinew
