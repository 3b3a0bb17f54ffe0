#include "sinew/mech/RigidBody.h"

#include <Eigen/Eigenvalues>
#include <cmath>

#include "sinew/geometry/MeshFactory.h"
#include "sinew/geometry/MeshIO.h"

namespace sinew {

const std::vector<std::string>& EnumNames<InertiaMethod>::get() {
  static const std::vector<std::string> n{"EXPLICIT", "MASS", "DENSITY"};
  return n;
}
const std::vector<std::string>& EnumNames<Collidability>::get() {
  static const std::vector<std::string> n{"OFF", "INTERNAL", "EXTERNAL", "ALL"};
  return n;
}

const std::vector<std::string>& EnumNames<MassDistribution>::get() {
  static const std::vector<std::string> n{"DEFAULT", "VOLUME", "AREA", "LENGTH", "POINT"};
  return n;
}

namespace {
void requirePositive(double v, const Component& c, const char* what) {
  if (!(v > 0) || !std::isfinite(v))
    throw ModelError(std::string(what) + " must be positive and finite, got " + std::to_string(v),
                     c.describe());
}
RigidBody* owningBody(const Component& c) {
  auto* list = c.getParent();
  return list ? dynamic_cast<RigidBody*>(list->getParent()) : nullptr;
}
}  // namespace

// ---------------------------------------------------------------- RigidMeshComp

SINEW_PROPERTIES(RigidMeshComp, Component) {
  list.add<RigidMeshComp>("hasMass", "whether the mesh contributes mass", &RigidMeshComp::hasMass,
                          &RigidMeshComp::setHasMass)
      .setDefault(true);
  list.add<RigidMeshComp>("isCollidable", "whether the mesh takes part in collisions",
                          &RigidMeshComp::isCollidable, &RigidMeshComp::setIsCollidable)
      .setDefault(true);
  list.add<RigidMeshComp>("massDistribution", "how mass is spread over the mesh",
                          &RigidMeshComp::getMassDistribution, &RigidMeshComp::setMassDistribution);
  list.add<RigidMeshComp>("volume", "volume of the mesh", &RigidMeshComp::getVolume);
  list.add<RigidMeshComp>("density", "density of the mesh", &RigidMeshComp::getDensity,
                          &RigidMeshComp::setDensity)
      .setDefault(1.0);
  list.add<RigidMeshComp>("mass", "mass of the mesh", &RigidMeshComp::getMass, &RigidMeshComp::setMass);
}

RigidMeshComp::RigidMeshComp(std::shared_ptr<MeshBase> mesh, std::string name)
    : Component(std::move(name)), myMesh(std::move(mesh)) {}

void RigidMeshComp::changed() {
  if (RigidBody* b = owningBody(*this)) b->invalidateInertia();
}
void RigidMeshComp::setMesh(std::shared_ptr<MeshBase> mesh) { myMesh = std::move(mesh); changed(); }
void RigidMeshComp::setHasMass(bool b) { myHasMass = b; changed(); }
void RigidMeshComp::setMassDistribution(MassDistribution d) { myDist = d; changed(); }

double RigidMeshComp::getVolume() const {
  auto* pm = dynamic_cast<const PolygonalMesh*>(myMesh.get());
  return (pm && pm->isClosed()) ? pm->computeVolume() : 0.0;
}

double RigidMeshComp::getDensity() const {
  if (myDensity >= 0) return myDensity;
  if (myMass >= 0) {
    double v = getVolume();
    return v > 0 ? myMass / v : 0.0;
  }
  RigidBody* b = owningBody(*this);
  return b ? b->getDensity() : 1.0;
}

void RigidMeshComp::setDensity(double d) {
  requirePositive(d, *this, "density");
  myDensity = d;
  myMass = -1;  // an explicit density clears an explicit mass (§3.2.9)
  changed();
}

double RigidMeshComp::getMass() const {
  if (myMass >= 0) return myMass;
  return getDensity() * getVolume();
}

void RigidMeshComp::setMass(double m) {
  requirePositive(m, *this, "mass");
  myMass = m;
  myDensity = -1;
  changed();
}

MassProperties RigidMeshComp::computeMassProperties() const {
  if (!myMesh) return {};
  return sinew::computeMassProperties(*myMesh, getMass(), myDist);
}

// -------------------------------------------------------------------- RigidBody

SINEW_PROPERTIES(RigidBody, Frame) {
  list.add<RigidBody>("mass", "mass of the body", &RigidBody::getMass, &RigidBody::setMass)
      .setRange(0, INFINITY);
  list.add<RigidBody>("density", "density used by the DENSITY inertia method", &RigidBody::getDensity,
                      &RigidBody::setDensity)
      .setRange(0, INFINITY);
  list.add<RigidBody>("inertiaMethod", "how the inertia is determined", &RigidBody::getInertiaMethod,
                      &RigidBody::setInertiaMethod)
      .setDefault(std::string("DENSITY"));
  list.add<RigidBody>("centerOfMass", "centre of mass in body coordinates", &RigidBody::getCenterOfMass);
  list.add<RigidBody>("collidable", "which collisions the body takes part in (§8.2.2)", &RigidBody::getCollidable,
                      &RigidBody::setCollidable)
      .setDefault(std::string("ALL"));
  list.addInheritable<RigidBody>("inertialDamping", "damping proportional to the spatial inertia",
                                 &RigidBody::myInertialDamping, 0.0)
      .setRange(0, INFINITY);
}

RigidBody::RigidBody(std::string name) : Frame(std::move(name)) {
  setDynamic(true);
  myMeshes = &static_cast<ComponentList<RigidMeshComp>&>(
      addComponent(std::make_unique<ComponentList<RigidMeshComp>>("meshes")));
}

std::unique_ptr<RigidBody> RigidBody::createFromMesh(const std::string& name,
                                                     std::shared_ptr<PolygonalMesh> mesh, double density,
                                                     double scale) {
  auto body = std::make_unique<RigidBody>(name);
  if (scale != 1) mesh->scale(scale);
  body->setDensity(density);
  body->setSurfaceMesh(std::move(mesh));
  return body;
}

std::unique_ptr<RigidBody> RigidBody::createFromMesh(const std::string& name, const std::string& file,
                                                     double density, double scale) {
  auto mesh = std::make_shared<PolygonalMesh>(readPolygonalMesh(file));
  auto body = createFromMesh(name, std::move(mesh), density, scale);
  body->myMeshFile = file;
  return body;
}

std::unique_ptr<RigidBody> RigidBody::createBox(const std::string& name, double wx, double wy, double wz,
                                                double density) {
  return createFromMesh(name, std::make_shared<PolygonalMesh>(MeshFactory::createBox(wx, wy, wz)), density);
}

std::unique_ptr<RigidBody> RigidBody::createIcosahedralSphere(const std::string& name, double r, double density,
                                                              int divisions) {
  return createFromMesh(name, std::make_shared<PolygonalMesh>(MeshFactory::createIcosahedralSphere(r, divisions)),
                        density);
}

std::unique_ptr<RigidBody> RigidBody::createSphere(const std::string& name, double r, double density,
                                                   int nslices) {
  return createFromMesh(name, std::make_shared<PolygonalMesh>(MeshFactory::createSphere(r, nslices)),
                        density);
}

std::unique_ptr<RigidBody> RigidBody::createCylinder(const std::string& name, double r, double h,
                                                     double density, int nsides) {
  return createFromMesh(name, std::make_shared<PolygonalMesh>(MeshFactory::createCylinder(r, h, nsides)),
                        density);
}

std::unique_ptr<RigidBody> RigidBody::createEllipsoid(const std::string& name, double rx, double ry,
                                                      double rz, double density, int nslices) {
  return createFromMesh(
      name, std::make_shared<PolygonalMesh>(MeshFactory::createEllipsoid(rx, ry, rz, nslices)), density);
}

RigidMeshComp& RigidBody::addMesh(std::shared_ptr<MeshBase> mesh, bool hasMass, bool collidable) {
  auto& mc = myMeshes->add(std::make_unique<RigidMeshComp>(std::move(mesh)));
  mc.setHasMass(hasMass);
  mc.setIsCollidable(collidable);
  invalidateInertia();
  return mc;
}

PolygonalMesh* RigidBody::getSurfaceMesh() const {
  RigidMeshComp* mc = getSurfaceMeshComp();
  return mc ? static_cast<PolygonalMesh*>(mc->getMesh().get()) : nullptr;
}

RigidMeshComp* RigidBody::getSurfaceMeshComp() const {
  for (auto& mc : *myMeshes)
    if (dynamic_cast<PolygonalMesh*>(mc.getMesh().get())) return &mc;
  return nullptr;
}

void RigidBody::setSurfaceMesh(std::shared_ptr<PolygonalMesh> mesh, const std::string& fileName) {
  myMeshFile = fileName;
  for (auto& mc : *myMeshes)
    if (dynamic_cast<PolygonalMesh*>(mc.getMesh().get())) {
      mc.setMesh(std::move(mesh));
      return;
    }
  addMesh(std::move(mesh));
}

void RigidBody::setInertia(const SpatialInertia& M) {
  requirePositive(M.getMass(), *this, "mass");
  if (!M.getRotationalInertia().allFinite() || !M.getCenterOfMass().allFinite())
    throw ModelError("inertia is not finite", describe());
  Eigen::SelfAdjointEigenSolver<Matrix3d> es(M.getRotationalInertia());
  if (es.eigenvalues().minCoeff() < 0)
    throw ModelError("rotational inertia must be positive semi-definite", describe());
  myInertia = M;
  myInertiaMethod = InertiaMethod::Explicit;
  myInertiaValid = true;
}

void RigidBody::setInertiaMethod(InertiaMethod m) {
  myInertiaMethod = m;
  if (m == InertiaMethod::Mass && myTargetMass <= 0) myTargetMass = getInertia().getMass();
  invalidateInertia();
}

void RigidBody::setDensity(double d) {
  requirePositive(d, *this, "density");
  myDensity = d;
  myInertiaMethod = InertiaMethod::Density;
  invalidateInertia();
}

void RigidBody::setMass(double m) {
  requirePositive(m, *this, "mass");
  if (myInertiaMethod == InertiaMethod::Explicit) {
    // Scale the explicit inertia so its shape is kept.
    SpatialInertia M = myInertia;
    M.scale(m / M.getMass());
    myInertia = M;
    return;
  }
  myTargetMass = m;
  myInertiaMethod = InertiaMethod::Mass;
  invalidateInertia();
}

const SpatialInertia& RigidBody::getInertia() const {
  if (!myInertiaValid) updateInertia();
  return myInertia;
}

void RigidBody::updateInertia() const {
  myInertiaValid = true;
  if (myInertiaMethod == InertiaMethod::Explicit) return;
  SpatialInertia sum;
  for (auto& mc : *myMeshes) {
    if (!mc.hasMass() || !mc.getMesh() || mc.getMass() <= 0) continue;
    MassProperties mp = mc.computeMassProperties();
    sum.add(SpatialInertia(mp.mass, mp.inertia, mp.com));
  }
  if (myInertiaMethod == InertiaMethod::Mass && sum.getMass() > 0) sum.scale(myTargetMass / sum.getMass());
  myInertia = sum;
}

void RigidBody::centerPoseOnCenterOfMass() {
  Vector3d c = getCenterOfMass();
  for (auto& mc : *myMeshes)
    if (mc.getMesh()) mc.getMesh()->translate(-c);
  SpatialInertia M = getInertia();
  M.setCenterOfMass(Vector3d::Zero());
  myInertia = M;
  myPos += myRot * c;
  invalidateInertia();
}

double RigidBody::getKineticEnergy() const { return getInertia().kineticEnergy(myRot, myVel); }

Vector3d RigidBody::getLinearMomentum() const {
  return (getInertia().worldMatrix(myRot) * myVel).head<3>();
}

Vector3d RigidBody::getAngularMomentum() const {
  // Momentum wrench about the body origin, moved to the world origin.
  Vector6d h = getInertia().worldMatrix(myRot) * myVel;
  return h.tail<3>() + myPos.cross(h.head<3>());
}

void RigidBody::getMassBlock(Block& M) const { M = getInertia().worldMatrix(myRot); }

void RigidBody::getCoriolisForce(BlockVec& f) const { f = getInertia().coriolisForce(myRot, myVel); }

void RigidBody::applyGravity(const Vector3d& g) {
  const SpatialInertia& M = getInertia();
  addPointForce(myPos + myRot * M.getCenterOfMass(), M.getMass() * g);
}

double RigidBody::getGravityPotential(const Vector3d& g) const {
  const SpatialInertia& M = getInertia();
  return -M.getMass() * g.dot(myPos + myRot * M.getCenterOfMass());
}

void RigidBody::applyDamping(Block* D) {
  Frame::applyDamping(D);
  double di = getInertialDamping();
  if (di == 0) return;
  Matrix6d M = getInertia().worldMatrix(myRot);
  myForce -= di * M * myVel;
  if (D) *D -= di * M;
}

}  // namespace sinew
