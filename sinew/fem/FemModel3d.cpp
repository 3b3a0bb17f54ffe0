#include "sinew/fem/FemModel3d.h"

#include <cmath>
#include <exception>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sinew/fem/FemSurface.h"
#include "sinew/fem/IncompressibleMaterial.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/fem/VolumeKernels.h"

namespace sinew {

SINEW_PROPERTIES(FemModel3d, MechSystemBase) {
  list.add<FemModel3d>("collidable", "which collisions the surface takes part in (§8.2.2)",
                       &FemModel3d::getCollidable, &FemModel3d::setCollidable)
      .setDefault(std::string("ALL"));
  list.add<FemModel3d>("density", "density lumped to the nodes", &FemModel3d::getDensity, &FemModel3d::setDensity)
      .setDefault(1000.0)
      .setRange(0, INFINITY);
  list.add<FemModel3d>("particleDamping", "mass-proportional Rayleigh damping d_M",
                       &FemModel3d::getParticleDamping, &FemModel3d::setParticleDamping)
      .setDefault(2.0)
      .setRange(0, INFINITY);
  list.add<FemModel3d>("stiffnessDamping", "stiffness-proportional Rayleigh damping d_K",
                       &FemModel3d::getStiffnessDamping, &FemModel3d::setStiffnessDamping)
      .setDefault(0.0)
      .setRange(0, INFINITY);
  list.add<FemModel3d>("incompressible", "hard incompressibility (§6.7.2)", &FemModel3d::getIncompressible,
                       &FemModel3d::setIncompressible)
      .setDefault(std::string("OFF"));
  list.add<FemModel3d>("softIncompMethod", "where soft incompressibility acts (§6.7.3)",
                       &FemModel3d::getSoftIncompMethod, &FemModel3d::setSoftIncompMethod)
      .setDefault(std::string("AUTO"));
  list.add<FemModel3d>("computeNodalStress", "keep nodal stress after each step (§6.10)",
                       &FemModel3d::getComputeNodalStress, &FemModel3d::setComputeNodalStress)
      .setDefault(false);
  list.add<FemModel3d>("computeNodalStrain", "keep nodal strain after each step (§6.10)",
                       &FemModel3d::getComputeNodalStrain, &FemModel3d::setComputeNodalStrain)
      .setDefault(false);
  list.add<FemModel3d>("computeElementStress", "keep element stress after each step",
                       &FemModel3d::getComputeElementStress, &FemModel3d::setComputeElementStress)
      .setDefault(false);
  list.add<FemModel3d>("computeElementStrain", "keep element strain after each step",
                       &FemModel3d::getComputeElementStrain, &FemModel3d::setComputeElementStrain)
      .setDefault(false);
}

namespace {
using NodeArray = std::array<Vector3d, ReferenceElement::kMaxNodes>;

const IncompressibleMaterial* asIncompressible(const FemMaterial& m) {
  return m.isIncompressible() ? static_cast<const IncompressibleMaterial*>(&m) : nullptr;
}

double checkedNonNegative(double v, const char* what, const std::string& where) {
  if (!(v >= 0) || !std::isfinite(v))
    throw ModelError(std::string(what) + " must be finite and non-negative, got " + std::to_string(v), where);
  return v;
}
}  // namespace

FemModel3d::FemModel3d(std::string name)
    : MechSystemBase(std::move(name)), myMaterial(std::make_unique<LinearMaterial>()) {
  myNodes = addList<FemNode3d>("nodes");
  myElements = addList<FemElement3d>("elements");
  myShells = addList<ShellElement3d>("shellElements");
  myBackNodes = addList<BackNode3d>("backNodes");
  myMarkers = addList<FemMarker>("markers");
  myBundles = addList<MaterialBundle>("materials");
  myMeshes = addList<FemMeshComp>("meshes");
  // The surface mesh (§6.3.1), generated from the elements when first used.
  mySurface = &myMeshes->add(std::make_unique<FemMeshComp>(std::make_shared<PolygonalMesh>(), "surface"));
  mySurface->setGeneratedSurface(true);
}

FemModel3d::~FemModel3d() = default;

FemNode3d* FemModel3d::getNodeByNumber(int num) const { return dynamic_cast<FemNode3d*>(myNodes->getByNumber(num)); }

FemElement3d* FemModel3d::getElementByNumber(int num) const {
  return dynamic_cast<FemElement3d*>(myElements->getByNumber(num));
}

FemNode3d& FemModel3d::addNode(std::unique_ptr<FemNode3d> n) { return myNodes->add(std::move(n)); }

FemElement3d* FemModel3d::findContainingElement(const Vector3d& p) const {
  for (auto& e : *myElements)
    if (elementContains(e, p)) return &e;
  return nullptr;
}

FemElement3d* FemModel3d::findNearestElement(const Vector3d& p) const {
  if (FemElement3d* e = findContainingElement(p)) return e;
  FemElement3d* best = nullptr;
  double bestDist = INFINITY;
  for (auto& e : *myElements)
    if (const double d = (e.computeCentroid() - p).squaredNorm(); d < bestDist) bestDist = d, best = &e;
  return best;
}

FemNode3d* FemModel3d::findNearestNode(const Vector3d& p) const {
  FemNode3d* best = nullptr;
  double bestDist = INFINITY;
  for (auto& n : *myNodes)
    if (const double d = (n.getPosition() - p).squaredNorm(); d < bestDist) bestDist = d, best = &n;
  return best;
}

FemElement3d* FemModel3d::findAttachmentElement(const Vector3d& p, Vector3d& loc) {
  loc = p;  // findNearestVolumetricElement keeps it for a containing element
  return myElements->size() > 0 ? findNearestVolumetricElement(&loc, p) : nullptr;
}

std::unique_ptr<AttachmentComponent> FemModel3d::createPointAttachment(Point& p) {
  auto a = std::make_unique<PointFem3dAttachment>(p);
  a->setFromFem(p.getPosition(), *this);
  return a;
}

FemMarker& FemModel3d::addMarker(const Vector3d& pos, const std::string& name) {
  return addMarker(std::make_unique<FemMarker>(name, pos));
}

FemMarker& FemModel3d::addMarker(std::unique_ptr<FemMarker> mkr) {
  if (!mkr->getAttachment()) mkr->setFromFem(*this);
  return myMarkers->add(std::move(mkr));
}

FemMarker& FemModel3d::addMarker(std::unique_ptr<FemMarker> mkr, const FemElement3d& elem) {
  mkr->setFromElement(elem);
  return addMarker(std::move(mkr));
}

FemMarker& FemModel3d::addMarker(std::unique_ptr<FemMarker> mkr, const ShellElement3d& shell) {
  mkr->setFromShell(shell);
  return addMarker(std::move(mkr));
}

FemMarker& FemModel3d::addMarker(std::unique_ptr<FemMarker> mkr, const std::vector<FemNode3d*>& nodes,
                                 const std::vector<double>& weights) {
  mkr->setFromNodes(nodes, weights);
  return addMarker(std::move(mkr));
}

bool FemModel3d::addMarker(std::unique_ptr<FemMarker> mkr, const std::vector<FemNode3d*>& nodes) {
  const bool ok = mkr->setFromNodes(nodes);
  addMarker(std::move(mkr));
  return ok;
}

FemNode3d& FemModel3d::addNumberedNode(std::unique_ptr<FemNode3d> n, int number) {
  return myNodes->add(std::move(n), number);
}

void FemModel3d::checkNewElement(const FemElement3d& e) const {
  for (auto* n : e.getNodes())
    if (n->getParent() != myNodes)
      throw ModelError(std::string(e.getTypeName()) + ": node " + n->describe() + " is not a node of this model",
                       describe());
  const double v = e.getRestVolume();  // throws for an inverted rest element
  if (!(v > 0))
    throw ModelError(std::string(e.getTypeName()) + " is inverted or flat at rest (check its node order, §6.2.4)",
                     describe());
}

FemElement3d& FemModel3d::addElement(std::unique_ptr<FemElement3d> e) {
  checkNewElement(*e);
  FemElement3d& added = myElements->add(std::move(e));
  lumpMass(added, 1.0);
  return added;
}

FemElement3d& FemModel3d::addNumberedElement(std::unique_ptr<FemElement3d> e, int number) {
  checkNewElement(*e);
  FemElement3d& added = myElements->add(std::move(e), number);
  lumpMass(added, 1.0);
  return added;
}

void FemModel3d::setDensity(double d) {
  myDensity = checkedNonNegative(d, "density", describe());
  updateNodeMasses();
}

void FemModel3d::setParticleDamping(double d) { myParticleDamping = checkedNonNegative(d, "particleDamping", describe()); }

void FemModel3d::setStiffnessDamping(double d) {
  myStiffnessDamping = checkedNonNegative(d, "stiffnessDamping", describe());
}

void FemModel3d::lumpMass(const FemElement3d& e, double sign) {
  const double m = e.getDensity() * e.getRestVolume();
  const Eigen::VectorXd& w = e.getReferenceElement().getNodeMassWeights();
  for (int i = 0; i < e.numNodes(); ++i) {
    FemNode3d& n = e.getNode(i);
    n.setMass(std::max(0.0, n.getMass() + sign * w[i] * m));
  }
}

void FemModel3d::updateNodeMasses() {
  for (auto& n : *myNodes) n.setMass(0);
  for (auto& b : *myBackNodes) b.setMass(0);
  for (auto& e : *myElements) lumpMass(e, 1.0);
  for (auto& e : *myShells) lumpShellMass(e);
  myMassesStale = false;
}

double FemModel3d::getMass() const {
  double m = 0;
  if (myMassesStale) const_cast<FemModel3d*>(this)->updateNodeMasses();
  for (auto& n : *myNodes) m += n.getMass();
  for (auto& b : *myBackNodes) m += b.getMass();
  return m;
}

double FemModel3d::getRestVolume() const {
  double v = 0;
  for (auto& e : *myElements) v += e.getRestVolume();
  for (auto& e : *myShells) v += e.getRestVolume();
  return v;
}

double FemModel3d::computeVolume() const {
  double v = 0;
  for (auto& e : *myElements) v += e.computeVolume();
  for (auto& e : *myShells) v += e.computeVolume();
  return v;
}

// ------------------------------------------------------------ forces

void FemModel3d::computeElement(int k, const FemElement3d& e, ElementVector& f, ElementMatrix& K) const {
  try {
    computeMaterialTerms(e, materialOf(e), softMethod(), f, K);
    const auto& augment = augmentingMaterials()[k];
    if (augment.empty()) return;
    // Augmenting materials add over the same element blocks (§6.8).
    ElementVector fa;
    ElementMatrix Ka;
    for (const FemMaterial* mat : augment) {
      computeMaterialTerms(e, *mat, augmentingSoftMethod(), fa, Ka);
      f += fa;
      K += Ka;
    }
  } catch (const InvertedElementError& err) {
    // As a ModelError the solver reports a failed step and keeps the state.
    throw ModelError(std::string(e.getTypeName()) + " inverted at integration point " +
                         std::to_string(err.integrationPoint()) + " (det F = " + std::to_string(err.determinant()) +
                         ")",
                     e.describe());
  }
}

void FemModel3d::computeMaterialTerms(const FemElement3d& e, const FemMaterial& mat, IncompMethod soft,
                                      ElementVector& f, ElementMatrix& K) const {
  NodeArray rest, pos;
  e.getRestPositions(rest);
  e.getPositions(pos);
  const size_t n = e.numNodes();
  const NodePositions x0(rest.data(), n), x(pos.data(), n);
  const ReferenceElement& type = e.getReferenceElement();
  const IncompressibleMaterial* inc = asIncompressible(mat);
  if (!inc || soft == IncompMethod::FULL) {
    computeElementForcesAndStiffness(type, x0, x, mat, f, K);
    if (mat.hasExactRotationTangent()) symmetrizeStiffness(K);
    return;
  }
  computeElementForcesAndStiffness(type, x0, x, DeviatoricPart(*inc), f, K);
  // The bulk pressure: one p(V/V0) for the element (ELEMENT), or the mean
  // of its nodes' pressures (NODAL, whose coupling term the model adds).
  NodeGradients g;
  const double v = computeVolumeGradient(type, x, g), v0 = e.getRestVolume();
  double p = 0;
  if (soft == IncompMethod::ELEMENT) {
    p = inc->computePressure(v / v0);
    const double c = inc->computePressureDerivative(v / v0) / v0;
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) K.block<3, 3>(3 * i, 3 * j) += c * g[i] * g[j].transpose();
  } else {
    for (size_t i = 0; i < n; ++i) p += myNodal[myNodeIndex.at(&e.getNode(i))].pressure / n;
  }
  for (size_t i = 0; i < n; ++i) f.segment<3>(3 * i) -= p * g[i];
  addVolumeHessian(type, x, p, K);
}

void FemModel3d::applyForces(double) {
  if (myMassesStale) updateNodeMasses();  // rest positions changed
  const double dM = myParticleDamping, dK = myStiffnessDamping;
  if (dM > 0)
    for (auto& n : *myNodes) n.addForce(Vector3d(-dM * n.getMass() * n.getVelocity()));
  const bool nodal = softMethod() == IncompMethod::NODAL;
  if (nodal) computeNodalVolumes();
  evaluateElements();
  const int ne = myElements->size();
  for (int k = 0; k < ne; ++k) {
    const FemElement3d& e = myElements->get(k);
    for (int i = 0; i < e.numNodes(); ++i) e.getNode(i).addForce(Vector3d(myF[k].segment<3>(3 * i)));
  }
  if (nodal) addNodalPressureDamping(dK);
  applyShellForces(dM, dK);
}

void FemModel3d::updateStressAndStiffness() {
  // Every force and tangent a step's force evaluation caches (elements,
  // shells, nodal pressures), leaving the nodes' accumulated forces as they
  // were; then the stress and strain output.
  std::vector<Point*> points;
  for (auto& n : *myNodes) points.push_back(&n);
  for (auto& b : *myBackNodes) points.push_back(&b);
  std::vector<Vector3d> saved;
  for (Point* p : points) saved.push_back(p->getForce());
  // Exactly the saved force back (zeroForces sets the external load), also
  // when an element fails.
  auto restore = [&]() {
    for (size_t i = 0; i < points.size(); ++i) {
      const Vector3d load = points[i]->getExternalForce();
      points[i]->setExternalForce(saved[i]);
      points[i]->zeroForces();
      points[i]->setExternalForce(load);
    }
  };
  try {
    applyForces(0);
  } catch (...) {
    restore();
    throw;
  }
  restore();
  updateStressAndStrain();
}

void FemModel3d::evaluateElements() {
  const double dK = myStiffnessDamping;
  // Elements are evaluated in parallel into their own slots, then summed
  // into the nodes in element order, so results do not depend on threads.
  const int ne = myElements->size();
  augmentingMaterials();  // rebuilt here, serially, if bundles changed
  myK.resize(ne);
  myF.resize(ne);
  std::vector<std::exception_ptr> errors(ne);
  tbb::parallel_for(tbb::blocked_range<int>(0, ne, 16), [&](const tbb::blocked_range<int>& range) {
    ElementVector f, v;
    ElementMatrix K;
    for (int k = range.begin(); k < range.end(); ++k) {
      const FemElement3d& e = myElements->get(k);
      try {
        computeElement(k, e, f, K);
      } catch (...) {
        errors[k] = std::current_exception();
        continue;
      }
      if (dK > 0) {
        v.resize(f.size());
        for (int i = 0; i < e.numNodes(); ++i) v.segment<3>(3 * i) = e.getNode(i).getVelocity();
        f.noalias() -= dK * (K * v);
      }
      myK[k] = K;
      myF[k] = f;
    }
  });
  for (auto& err : errors)
    if (err) std::rethrow_exception(err);  // the first failing element, whatever the threads did
}

void FemModel3d::declareJacobianBlocks(JacobianPattern& pat) {
  myAugmentValid = false;  // elements may have changed
  myElementHandles.clear();
  myElementHandleStart.clear();
  for (auto& e : *myElements) {
    myElementHandleStart.push_back(static_cast<int>(myElementHandles.size()));
    for (auto* a : e.getNodes())
      for (auto* b : e.getNodes()) myElementHandles.push_back(pat.declareBlock(*a, *b));
  }
  myNodeHandles.clear();
  for (auto& n : *myNodes) myNodeHandles.push_back(pat.declareBlock(n, n));
  declareShellBlocks(pat);
  // Soft nodal pressures couple every pair of nodes around a node.
  myNodal.clear();
  if (softMethod() != IncompMethod::NODAL || !nodalBulkMaterial()) return;
  computeNodalVolumes();
  for (auto& r : myNodal)
    for (auto& [a, ga] : r.grad)
      for (auto& [b, gb] : r.grad) r.handles.push_back(pat.declareBlock(myNodes->get(a), myNodes->get(b)));
}

void FemModel3d::addPosJacobian(JacobianMatrix& Kmat, double s) {
  // ∂f/∂x = −K for each element.
  for (int k = 0; k < myElements->size() && k < static_cast<int>(myK.size()); ++k) {
    const int n = myElements->get(k).numNodes();
    Kmat.addNodeBlocks(myElementHandles.data() + myElementHandleStart[k], n, myK[k], -s);
  }
  addShellPosJacobian(Kmat, s);
  // ∂f/∂x of the nodal pressures' volume term: −(dp/dJ / V_n0) g_n g_nᵀ.
  for (auto& r : myNodal) {
    if (r.restVolume <= 0 || r.handles.size() != r.grad.size() * r.grad.size()) continue;
    const double c = -s * r.dpdJ / r.restVolume;
    const int* h = r.handles.data();
    for (auto& [a, ga] : r.grad)
      for (auto& [b, gb] : r.grad) {
        const Matrix3d B = c * ga * gb.transpose();
        Kmat.addBlock(*h++, B);
      }
  }
}

void FemModel3d::addVelJacobian(JacobianMatrix& D, double s) {
  // ∂f_d/∂v = −d_M M − d_K K.
  if (myParticleDamping > 0)
    for (int i = 0; i < myNodes->size(); ++i) {
      const Matrix3d B = -s * myParticleDamping * myNodes->get(i).getMass() * Matrix3d::Identity();
      D.addBlock(myNodeHandles[i], B);
    }
  addShellDamping(D, s);
  if (myStiffnessDamping > 0) addPosJacobian(D, s * myStiffnessDamping);
}

double FemModel3d::getPotentialEnergy() const {
  // Deviatoric energy at the points, plus the bulk potential where the soft
  // method evaluates it: per element V0 U(V/V0), or per node V_n0 U(J_n);
  // and the energy of each augmenting material.
  const IncompMethod soft = softMethod();
  const auto& augment = augmentingMaterials();
  double E = 0;
  for (int k = 0; k < myElements->size(); ++k) {
    const FemElement3d& e = myElements->get(k);
    E += computeMaterialEnergy(e, materialOf(e), soft);
    for (const FemMaterial* mat : augment[k]) E += computeMaterialEnergy(e, *mat, augmentingSoftMethod());
  }
  if (soft == IncompMethod::NODAL)
    if (const IncompressibleMaterial* inc = nodalBulkMaterial())
      for (auto& r : const_cast<FemModel3d*>(this)->nodalVolumesNow())
        if (r.restVolume > 0) E += r.restVolume * inc->computeBulkEnergyDensity(r.volume / r.restVolume);
  return E + getShellEnergy();
}

double FemModel3d::computeMaterialEnergy(const FemElement3d& e, const FemMaterial& mat, IncompMethod soft) const {
  NodeArray rest, pos;
  e.getRestPositions(rest);
  e.getPositions(pos);
  const size_t n = e.numNodes();
  const NodePositions x0(rest.data(), n), x(pos.data(), n);
  const IncompressibleMaterial* inc = asIncompressible(mat);
  if (!inc || soft == IncompMethod::FULL) return computeElementStrainEnergy(e.getReferenceElement(), x0, x, mat);
  double E = computeElementStrainEnergy(e.getReferenceElement(), x0, x, DeviatoricPart(*inc));
  if (soft == IncompMethod::ELEMENT) {
    const double v0 = e.getRestVolume();
    E += v0 * inc->computeBulkEnergyDensity(sinew::computeVolume(e.getReferenceElement(), x) / v0);
  }
  return E;
}

}  // namespace sinew
