#include "sinew/mech/MechModel.h"

namespace sinew {

const std::vector<std::string>& EnumNames<Integrator>::get() {
  static const std::vector<std::string> n{"ForwardEuler", "SymplecticEuler", "RungeKutta4",
                                          "ConstrainedBackwardEuler", "Trapezoidal"};
  return n;
}
const std::vector<std::string>& EnumNames<PosStabilization>::get() {
  static const std::vector<std::string> n{"GlobalMass", "GlobalStiffness"};
  return n;
}
const std::vector<std::string>& EnumNames<LinearSolverType>::get() {
  static const std::vector<std::string> n{"Auto", "EigenLDLT", "Umfpack", "Cholmod", "PCG"};
  return n;
}

SINEW_PROPERTIES(MechModel, Model) {
  list.add<MechModel>("gravity", "gravitational acceleration", &MechModel::getGravity,
                      [](MechModel& m, const Vector3d& g) { m.setGravity(g); })
      .setDefault(Eigen::VectorXd(Vector3d(0, 0, -9.8)));
  list.add<MechModel>("integrator", "integration method (§4.1.2)", &MechModel::getIntegrator,
                      &MechModel::setIntegrator)
      .setDefault(std::string("ConstrainedBackwardEuler"));
  list.add<MechModel>("stabilization", "position stabilization method (§4.1.3)",
                      &MechModel::getStabilization, &MechModel::setStabilization)
      .setDefault(std::string("GlobalMass"));
  list.add<MechModel>("linearSolver", "sparse solver backend", &MechModel::getLinearSolver,
                      &MechModel::setLinearSolver)
      .setDefault(std::string("Auto"));
  list.addInheritable<MechModel>("pointDamping", "default point damping", &MechModel::myPointDamping, 0.0)
      .setRange(0, INFINITY);
  list.addInheritable<MechModel>("frameDamping", "default frame damping", &MechModel::myFrameDamping, 0.0)
      .setRange(0, INFINITY);
  list.addInheritable<MechModel>("rotaryDamping", "default rotary damping", &MechModel::myRotaryDamping, 0.0)
      .setRange(0, INFINITY);
  list.addInheritable<MechModel>("inertialDamping", "default inertial damping",
                                 &MechModel::myInertialDamping, 0.0)
      .setRange(0, INFINITY);
}

namespace {
template <class T>
ComponentList<T>* addList(CompositeComponent& parent, const char* name) {
  return &static_cast<ComponentList<T>&>(parent.addComponent(std::make_unique<ComponentList<T>>(name)));
}
}  // namespace

MechModel::MechModel(std::string name) : Model(std::move(name)), mySolver(std::make_unique<MechSystemSolver>()) {
  myModels = addList<Model>(*this, "models");
  myParticles = addList<Particle>(*this, "particles");
  myPoints = addList<Point>(*this, "points");
  myAxialSprings = addList<AxialSpring>(*this, "axialSprings");
  myFrameSprings = addList<FrameSpring>(*this, "frameSprings");
  myForceEffectors = addList<Component>(*this, "forceEffectors");
  myRigidBodies = addList<RigidBody>(*this, "rigidBodies");
  myFrames = addList<Frame>(*this, "frames");
  myFrameMarkers = addList<FrameMarker>(*this, "frameMarkers");
  myBodyConnectors = addList<Component>(*this, "bodyConnectors");
  myParticleConstraints = addList<Component>(*this, "particleConstraints");
  myAttachments = addList<AttachmentComponent>(*this, "attachments");
}

MechModel::~MechModel() {
  // Attachments unlink their slaves before the slaves' lists go away.
  myAttachments->clear();
}

Particle& MechModel::addParticle(const std::string& name, double mass, double x, double y, double z) {
  return addParticle(std::make_unique<Particle>(name, mass, x, y, z));
}

FrameMarker& MechModel::addFrameMarker(Frame& frame, const Vector3d& loc, const std::string& name) {
  return addFrameMarker(std::make_unique<FrameMarker>(frame, loc, name));
}

FrameMarker& MechModel::addFrameMarkerWorld(Frame& frame, const Vector3d& posW, const std::string& name) {
  return addFrameMarker(frame, frame.getPose().inverseTransformPoint(posW), name);
}

Component& MechModel::addForceEffector(std::unique_ptr<Component> c) {
  if (!dynamic_cast<ForceEffector*>(c.get())) throw ModelError("component is not a force effector", c->describe());
  return myForceEffectors->addComponent(std::move(c));
}

namespace {
AttachmentComponent& addAttachment(ComponentList<AttachmentComponent>& list,
                                   std::unique_ptr<AttachmentComponent> a) {
  a->connect();
  return list.add(std::move(a));
}
}  // namespace

AttachmentComponent& MechModel::attachPoint(Point& p, Point& master) {
  return addAttachment(*myAttachments, std::make_unique<PointParticleAttachment>(p, master));
}
AttachmentComponent& MechModel::attachPoint(Point& p, Frame& master) {
  return addAttachment(*myAttachments, std::make_unique<PointFrameAttachment>(p, master));
}
AttachmentComponent& MechModel::attachPoint(Point& p, Frame& master, const Vector3d& loc) {
  return addAttachment(*myAttachments, std::make_unique<PointFrameAttachment>(p, master, loc));
}
AttachmentComponent& MechModel::attachFrame(Frame& f, Frame& master) {
  return addAttachment(*myAttachments, std::make_unique<FrameFrameAttachment>(f, master));
}

AttachmentComponent& MechModel::attachFrame(Frame& f, Frame& master, const RigidTransform3d& TFW) {
  f.setPose(TFW);
  return attachFrame(f, master);
}

bool MechModel::detachSlave(DynamicComponent& slave) {
  for (auto& a : *myAttachments)
    if (&a.getSlave() == &slave) {
      a.disconnect();
      myAttachments->remove(a);
      return true;
    }
  return false;
}

namespace {
void transformBelow(Component& c, const RigidTransform3d& X) {
  if (auto* t = dynamic_cast<TransformableGeometry*>(&c)) t->transformGeometry(X);
  for (int i = 0; i < c.numComponents(); ++i) transformBelow(*c.getComponent(i), X);
}
}  // namespace

void MechModel::transformGeometry(const RigidTransform3d& X) {
  if (!X.p.allFinite() || !X.R.allFinite()) throw ModelError("transform is not finite", describe());
  if ((X.R * X.R.transpose() - Matrix3d::Identity()).norm() > 1e-9 || X.R.determinant() < 0)
    throw ModelError("transformGeometry takes a rigid transform (R must be a rotation)", describe());
  for (int i = 0; i < numComponents(); ++i) transformBelow(*getComponent(i), X);
}

void MechModel::setGravity(const Vector3d& g) {
  if (!g.allFinite()) throw ModelError("gravity is not finite", describe());
  myGravity = g;
  mySolver->setGravity(g);
}

void MechModel::collect(Component& c, std::vector<DynamicComponent*>& comps, std::vector<ForceEffector*>& effs,
                        std::vector<Constrainer*>& cons) {
  if (auto* d = dynamic_cast<DynamicComponent*>(&c)) comps.push_back(d);
  if (auto* e = dynamic_cast<ForceEffector*>(&c)) effs.push_back(e);
  if (auto* k = dynamic_cast<Constrainer*>(&c)) cons.push_back(k);
  if (auto* a = dynamic_cast<AuxStateComponent*>(&c)) myAuxComps.push_back(a);
  for (int i = 0; i < c.numComponents(); ++i) collect(*c.getComponent(i), comps, effs, cons);
}

bool MechModel::classificationChanged() const {
  for (size_t i = 0; i < myComps.size(); ++i) {
    int k = myComps[i]->isActive() ? 0 : myComps[i]->isParametric() ? 1 : 2;
    if (k != myClassification[i]) return true;
  }
  return false;
}

void MechModel::updateStructure() {
  if (!myStructureChanged && !classificationChanged()) return;
  std::vector<ForceEffector*> effs;
  std::vector<Constrainer*> cons;
  myComps.clear();
  myAuxComps.clear();
  for (int i = 0; i < numComponents(); ++i) collect(*getComponent(i), myComps, effs, cons);
  // Springs need their points or frames; check here so the error names the spring.
  for (auto* e : effs) {
    if (auto* s = dynamic_cast<AxialSpring*>(e); s && (!s->getFirstPoint() || !s->getSecondPoint()))
      throw ModelError("spring has no points (call setPoints)", s->describe());
    if (auto* s = dynamic_cast<FrameSpring*>(e); s && !s->getFrameA())
      throw ModelError("frame spring has no frames (call setFrames)", s->describe());
  }
  myClassification.clear();
  for (auto* c : myComps) myClassification.push_back(c->isActive() ? 0 : c->isParametric() ? 1 : 2);
  mySolver->setGravity(myGravity);
  mySolver->setIntegrator(myIntegrator);
  mySolver->setStabilization(myStabilization);
  mySolver->setLinearSolver(myLinearSolver);
  mySolver->setStructure(myComps, effs, cons);
  myStructureChanged = false;
}

void MechModel::initialize(double t0) {
  updateStructure();
  mySolver->initialize(t0);
  mySteps = 0;
}

StepAdjustment MechModel::advance(double t0, double t1) {
  updateStructure();
  mySolver->advance(t0, t1);
  ++mySteps;
  return {};
}

void MechModel::getState(Eigen::VectorXd& state) const {
  const_cast<MechModel*>(this)->updateStructure();
  const MechSystem& sys = mySolver->system();
  Eigen::VectorXd q, u;
  sys.getFullPos(q);
  sys.getFullVel(u);
  int na = 0;
  for (auto* a : myAuxComps) na += a->getAuxStateSize();
  state.resize(q.size() + u.size() + na);
  state << q, u, Eigen::VectorXd::Zero(na);
  double* x = state.data() + q.size() + u.size();
  for (auto* a : myAuxComps) {
    a->getAuxState(x);
    x += a->getAuxStateSize();
  }
}

void MechModel::setState(const Eigen::VectorXd& state) {
  updateStructure();
  MechSystem& sys = mySolver->system();
  const int nq = sys.fullPosSize(), nu = sys.fullVelSize();
  int na = 0;
  for (auto* a : myAuxComps) na += a->getAuxStateSize();
  if (state.size() != nq + nu + na) throw ModelError("state size does not match the model's structure", describe());
  sys.setFullPos(state.head(nq));
  sys.setFullVel(state.segment(nq, nu));
  const double* x = state.data() + nq + nu;
  for (auto* a : myAuxComps) {
    a->setAuxState(x);
    x += a->getAuxStateSize();
  }
}

double MechModel::getEnergy() const {
  const_cast<MechModel*>(this)->updateStructure();
  return mySolver->computeEnergy();
}

}  // namespace sinew
