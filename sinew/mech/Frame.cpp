#include "sinew/mech/Frame.h"

#include <cmath>

namespace sinew {

SINEW_PROPERTIES(Frame, CompositeComponent) {
  list.add<Frame>("position", "origin in world coordinates", &Frame::getPosition, &Frame::setPosition);
  list.add<Frame>("orientation", "orientation (axis, angle in degrees)", &Frame::getOrientation,
                  &Frame::setOrientation);
  list.add<Frame>("velocity", "world twist (v, w) of the origin", &Frame::getVelocity,
                  &Frame::setVelocity);
  list.add<Frame>("force", "total wrench on the frame", [](const Frame& f) { return f.getForce(); });
  list.add<Frame>("externalForce", "applied external wrench", &Frame::getExternalForce,
                  &Frame::setExternalForce);
  list.add<Frame>("dynamic", "whether the frame is dynamic", &Frame::isDynamic, &Frame::setDynamic);
  list.addInheritable<Frame>("frameDamping", "translational damping", &Frame::myFrameDamping, 0.0)
      .setRange(0, INFINITY);
  list.addInheritable<Frame>("rotaryDamping", "rotational damping", &Frame::myRotaryDamping, 0.0)
      .setRange(0, INFINITY);
  list.add<Frame>("axisLength", "length of the drawn axes", &Frame::getAxisLength, &Frame::setAxisLength);
}

Frame::Frame() { setDynamic(false); }
Frame::Frame(std::string name) : CompositeComponent(std::move(name)) { setDynamic(false); }

void Frame::setQuaternion(const Quaternion& q) {
  myQuat = q;
  myRot = q.toRotationMatrix();
}

void Frame::setPose(const RigidTransform3d& T) {
  if (!T.p.allFinite() || !T.R.allFinite()) throw ModelError("pose is not finite", describe());
  myPos = T.p;
  setQuaternion(Quaternion(T.R).normalized());
}

void Frame::setPosition(const Vector3d& p) {
  if (!p.allFinite()) throw ModelError("position is not finite", describe());
  myPos = p;
}

void Frame::setOrientation(const AxisAngle& a) {
  setQuaternion(Quaternion(Eigen::AngleAxisd(a.angle, a.axis)).normalized());
}

void Frame::setVelocity(const Twist& tw) {
  if (!tw.allFinite()) throw ModelError("velocity is not finite", describe());
  myVel = tw;
}

void Frame::transformGeometry(const RigidTransform3d& X) {
  setPose(X * getPose());
  myVel.head<3>() = X.R * myVel.head<3>().eval();
  myVel.tail<3>() = X.R * myVel.tail<3>().eval();
}

void Frame::addPointForce(const Vector3d& x, const Vector3d& f) {
  myForce.head<3>() += f;
  myForce.tail<3>() += (x - myPos).cross(f);
}

void Frame::getPosState(double* q) const {
  q[0] = myPos.x(); q[1] = myPos.y(); q[2] = myPos.z();
  q[3] = myQuat.w(); q[4] = myQuat.x(); q[5] = myQuat.y(); q[6] = myQuat.z();
}

void Frame::setPosState(const double* q) {
  myPos = Vector3d(q[0], q[1], q[2]);
  setQuaternion(Quaternion(q[3], q[4], q[5], q[6]));
}

void Frame::getVelState(double* u) const { Eigen::Map<Twist>{u} = myVel; }
void Frame::setVelState(const double* u) { myVel = Eigen::Map<const Twist>(u); }

void Frame::addPosImpulse(double* q, double h, const double* u) const {
  // p += h v;  quaternion advanced by the exact rotation exp(h ω) in world
  // axes, dq = (cos(a/2), sin(a/2)/a · hω) with a = |hω|. A step turns by a
  // small angle: there the two factors come from their series in x = a/2
  // through x⁶ (the next terms, x⁸/8! and x⁸/9!, are below 1e-22 for
  // a < 0.01), sparing the trigonometric call of every look-ahead; their
  // coefficients as products by their reciprocals (five divisions queued
  // on the divider were most of the series' time).
  for (int i = 0; i < 3; ++i) q[i] += h * u[i];
  const double tx = h * u[3], ty = h * u[4], tz = h * u[5];
  const double a2 = tx * tx + ty * ty + tz * tz;
  if (a2 == 0) return;
  double c, s;  // cos(a/2), sin(a/2)/a
  if (a2 < 1e-4) {
    const double x2 = 0.25 * a2;
    c = 1 - 0.5 * x2 * (1 - x2 * (1.0 / 12) * (1 - x2 * (1.0 / 30)));
    s = 0.5 * (1 - x2 * (1.0 / 6) * (1 - x2 * (1.0 / 20) * (1 - x2 * (1.0 / 42))));
  } else {
    const double a = std::sqrt(a2);
    c = std::cos(0.5 * a);
    s = std::sin(0.5 * a) / a;
  }
  const double bx = s * tx, by = s * ty, bz = s * tz;
  const double w = q[3], x = q[4], y = q[5], z = q[6];
  double nw = c * w - (bx * x + by * y + bz * z);
  double nx = c * x + w * bx + (by * z - bz * y);
  double ny = c * y + w * by + (bz * x - bx * z);
  double nz = c * z + w * bz + (bx * y - by * x);
  const double n = 1 / std::sqrt(nw * nw + nx * nx + ny * ny + nz * nz);
  q[3] = nw * n; q[4] = nx * n; q[5] = ny * n; q[6] = nz * n;
}

void Frame::getPosDerivative(const double* q, const double* u, double* qdot) const {
  // ṗ = v;  q̇uat = ½ (0, ω) ⊗ quat  (world-frame angular velocity).
  for (int i = 0; i < 3; ++i) qdot[i] = u[i];
  const double w = q[3], x = q[4], y = q[5], z = q[6];
  const double ox = u[3], oy = u[4], oz = u[5];
  qdot[3] = 0.5 * (-ox * x - oy * y - oz * z);
  qdot[4] = 0.5 * (ox * w + oy * z - oz * y);
  qdot[5] = 0.5 * (oy * w + oz * x - ox * z);
  qdot[6] = 0.5 * (oz * w + ox * y - oy * x);
}

void Frame::normalizePosState(double* q) const {
  double n = std::sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]);
  for (int i = 3; i < 7; ++i) q[i] /= n;
}

void Frame::getMassBlock(Block& M) const { M.setZero(6, 6); }
void Frame::getForce(double* f) const { Eigen::Map<Wrench>{f} = myForce; }
void Frame::addForce(const double* f) { myForce += Eigen::Map<const Wrench>(f); }

void Frame::applyDamping(Block* D) {
  double df = getFrameDamping(), dr = getRotaryDamping();
  if (df == 0 && dr == 0) return;
  myForce.head<3>() -= df * myVel.head<3>();
  myForce.tail<3>() -= dr * myVel.tail<3>();
  if (D) {
    D->topLeftCorner<3, 3>() -= df * Matrix3d::Identity();
    D->bottomRightCorner<3, 3>() -= dr * Matrix3d::Identity();
  }
}

}  // namespace sinew
