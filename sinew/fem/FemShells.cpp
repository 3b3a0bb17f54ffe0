// FemModel3d's shell elements (guide §6.1.2.3): adding them, their
// directors and masses, and their forces, Jacobians and energy in the
// model's system. The mechanics of one shell are in ShellElement3d and
// ShellKernels.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/IncompressibleMaterial.h"
#include "sinew/fem/MaterialBundle.h"

namespace sinew {

ShellElement3d* FemModel3d::getShellElementByNumber(int num) const {
  return dynamic_cast<ShellElement3d*>(myShells->getByNumber(num));
}

void FemModel3d::prepareNewShell(ShellElement3d& e) {
  for (auto* n : e.getNodes())
    if (n->getParent() != myNodes)
      throw ModelError(std::string(e.getTypeName()) + ": node " + n->describe() + " is not a node of this model",
                       describe());
  if (!(e.computeRestArea() > 0))
    throw ModelError(std::string(e.getTypeName()) + " has no area at rest (repeated or collinear nodes)", describe());
  if (e.isMembrane()) return;
  // Regular shells: every node gets a back node; the shell's vector area and
  // thickness join those that set each node's default rest director.
  const Vector3d area = e.computeRestVectorArea();
  for (auto* n : e.getNodes()) {
    if (!n->myBackNode) n->myBackNode = &myBackNodes->add(std::make_unique<BackNode3d>(*n));
    n->myShellArea += area / e.numNodes();
    n->myShellThickness += e.getDefaultThickness();
    ++n->myNumShells;
    n->refreshDirector();
  }
  // Neighbouring shells' volumes follow the directors they share.
  myMassesStale = true;
}

ShellElement3d& FemModel3d::addShellElement(std::unique_ptr<ShellElement3d> e) {
  prepareNewShell(*e);
  ShellElement3d& added = myShells->add(std::move(e));
  lumpShellMass(added);
  return added;
}

ShellElement3d& FemModel3d::addNumberedShellElement(std::unique_ptr<ShellElement3d> e, int number) {
  prepareNewShell(*e);
  ShellElement3d& added = myShells->add(std::move(e), number);
  lumpShellMass(added);
  return added;
}

std::vector<FemElement3dBase*> FemModel3d::getAllElements() const {
  std::vector<FemElement3dBase*> all;
  for (auto& e : *myElements) all.push_back(&e);
  for (auto& e : *myShells) all.push_back(&e);
  return all;
}

void FemModel3d::shellThicknessChanged(ShellElement3d& e, double old) {
  if (!e.isMembrane())
    for (auto* n : e.getNodes()) {
      n->myShellThickness += e.getDefaultThickness() - old;
      n->refreshDirector();
    }
  updateNodeMasses();
}

void FemModel3d::lumpShellMass(const ShellElement3d& e) {
  const double m = e.getDensity() * e.getRestVolume();
  double w[ReferenceElement::kMaxNodes];
  e.getMassWeights(w);
  for (int i = 0; i < e.numDofNodes(); ++i) {
    Particle& p = e.getDofNode(i);
    p.setMass(p.getMass() + w[i] * m);
  }
}

void FemModel3d::prepareForCompile() {
  if (myMassesStale) updateNodeMasses();
}

void FemModel3d::prepareAdvance(double) {
  if (myMassesStale) updateNodeMasses();
}

const FemMaterial& FemModel3d::asShellMaterial(const FemMaterial& mat, std::unique_ptr<FemMaterial>& tmp) {
  if (!mat.isIncompressible()) return mat;
  tmp = std::make_unique<DeviatoricPart>(static_cast<const IncompressibleMaterial&>(mat));
  return *tmp;
}

const FemMaterial& FemModel3d::shellMaterial(const ShellElement3d& e, std::unique_ptr<FemMaterial>& tmp) const {
  return asShellMaterial(e.getMaterial(), tmp);
}

void FemModel3d::applyShellForces(double dM, double dK) {
  if (dM > 0)
    for (auto& b : *myBackNodes) b.addForce(Vector3d(-dM * b.getMass() * b.getVelocity()));
  const int ne = myShells->size();
  myShellK.resize(ne);
  std::vector<Eigen::VectorXd> forces(ne);
  std::vector<std::exception_ptr> errors(ne);
  const auto& augment = shellAugmentingMaterials();  // built here, serially
  tbb::parallel_for(tbb::blocked_range<int>(0, ne, 16), [&](const tbb::blocked_range<int>& range) {
    ElementVector f, v, fa;
    ElementMatrix K, Ka;
    std::unique_ptr<FemMaterial> tmp;
    for (int k = range.begin(); k < range.end(); ++k) {
      const ShellElement3d& e = myShells->get(k);
      try {
        e.computeForcesAndStiffness(shellMaterial(e, tmp), f, &K);
        for (const FemMaterial* mat : augment[k]) {  // bundles acting on the shell (§6.8)
          e.computeForcesAndStiffness(asShellMaterial(*mat, tmp), fa, &Ka);
          f += fa;
          K += Ka;
        }
      } catch (...) {
        errors[k] = std::current_exception();
        continue;
      }
      if (dK > 0) {
        v.resize(f.size());
        for (int i = 0; i < e.numDofNodes(); ++i) v.segment<3>(3 * i) = e.getDofNode(i).getVelocity();
        f.noalias() -= dK * (K * v);
      }
      myShellK[k] = K;
      forces[k] = f;
    }
  });
  for (auto& err : errors)
    if (err) std::rethrow_exception(err);
  for (int k = 0; k < ne; ++k) {
    const ShellElement3d& e = myShells->get(k);
    for (int i = 0; i < e.numDofNodes(); ++i) e.getDofNode(i).addForce(Vector3d(forces[k].segment<3>(3 * i)));
  }
}

void FemModel3d::declareShellBlocks(JacobianPattern& pat) {
  myShellHandles.clear();
  myShellHandleStart.clear();
  for (auto& e : *myShells) {
    myShellHandleStart.push_back(static_cast<int>(myShellHandles.size()));
    for (int i = 0; i < e.numDofNodes(); ++i)
      for (int j = 0; j < e.numDofNodes(); ++j)
        myShellHandles.push_back(pat.declareBlock(e.getDofNode(i), e.getDofNode(j)));
  }
  myBackNodeHandles.clear();
  for (auto& b : *myBackNodes) myBackNodeHandles.push_back(pat.declareBlock(b, b));
}

void FemModel3d::addShellPosJacobian(JacobianMatrix& Kmat, double s) {
  for (int k = 0; k < myShells->size() && k < static_cast<int>(myShellK.size()); ++k) {
    const int n = myShells->get(k).numDofNodes();
    const int* h = myShellHandles.data() + myShellHandleStart[k];
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const Matrix3d B = -s * myShellK[k].block<3, 3>(3 * i, 3 * j);
        Kmat.addBlock(*h++, B);
      }
  }
}

void FemModel3d::addShellDamping(JacobianMatrix& D, double s) {
  if (!(myParticleDamping > 0)) return;
  for (int i = 0; i < myBackNodes->size() && i < static_cast<int>(myBackNodeHandles.size()); ++i) {
    const Matrix3d B = -s * myParticleDamping * myBackNodes->get(i).getMass() * Matrix3d::Identity();
    D.addBlock(myBackNodeHandles[i], B);
  }
}

double FemModel3d::getShellEnergy() const {
  double E = 0;
  std::unique_ptr<FemMaterial> tmp;
  const auto& augment = shellAugmentingMaterials();
  for (int k = 0; k < myShells->size(); ++k) {
    const ShellElement3d& e = myShells->get(k);
    E += e.computeStrainEnergy(shellMaterial(e, tmp));
    for (const FemMaterial* mat : augment[k]) E += e.computeStrainEnergy(asShellMaterial(*mat, tmp));
  }
  return E;
}

}  // namespace sinew
