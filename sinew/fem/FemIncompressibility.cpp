// FemModel3d's incompressibility (guide §6.7): hard volume constraints per
// element or node, and the soft bulk pressure of IncompressibleMaterials
// evaluated per element or per node.
#include <algorithm>
#include <unordered_map>

#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/IncompressibleMaterial.h"
#include "sinew/fem/VolumeKernels.h"

namespace sinew {

const std::vector<std::string>& EnumNames<IncompMethod>::get() {
  static const std::vector<std::string> n{"OFF", "ELEMENT", "NODAL", "AUTO", "ON", "FULL"};
  return n;
}

namespace {
using NodeArray = std::array<Vector3d, ReferenceElement::kMaxNodes>;

const IncompressibleMaterial* asIncompressible(const FemMaterial& m) {
  return m.isIncompressible() ? static_cast<const IncompressibleMaterial*>(&m) : nullptr;
}

/// The volume V, rest volume and gradient of an element at its current
/// positions.
double elementVolume(const FemElement3d& e, NodeGradients& grad, double& restVolume) {
  NodeArray pos;
  e.getPositions(pos);
  restVolume = e.getRestVolume();
  return computeVolumeGradient(e.getReferenceElement(), NodePositions(pos.data(), e.numNodes()), grad);
}

/// Nodal volumes V_n = Σ_e V_e / n_e over the elements around each node
/// (all, or only those with incompressible materials), their rest values
/// and gradients ∂V_n/∂x over the nodes of those elements.
void accumulateNodalVolumes(const ComponentList<FemNode3d>& nodes, const ComponentList<FemElement3d>& elems,
                            bool incompressibleOnly, std::vector<double>& vol, std::vector<double>& rest,
                            std::vector<std::vector<std::pair<int, Vector3d>>>& grad) {
  std::unordered_map<const FemNode3d*, int> index;
  for (int i = 0; i < nodes.size(); ++i) index[&nodes.get(i)] = i;
  vol.assign(nodes.size(), 0.0);
  rest.assign(nodes.size(), 0.0);
  grad.assign(nodes.size(), {});
  NodeGradients g;
  for (auto& e : elems) {
    if (incompressibleOnly && !asIncompressible(e.getMaterial())) continue;
    double v0;
    const double v = elementVolume(e, g, v0), share = 1.0 / e.numNodes();
    for (int a = 0; a < e.numNodes(); ++a) {
      const int na = index[&e.getNode(a)];
      vol[na] += share * v;
      rest[na] += share * v0;
      for (int b = 0; b < e.numNodes(); ++b) {
        const int nb = index[&e.getNode(b)];
        auto it = std::find_if(grad[na].begin(), grad[na].end(), [&](auto& p) { return p.first == nb; });
        if (it == grad[na].end()) grad[na].emplace_back(nb, share * g[b]);
        else it->second += share * g[b];
      }
    }
  }
}
}  // namespace

void FemModel3d::setIncompressible(IncompMethod m) {
  if (m == IncompMethod::FULL)
    throw ModelError("hard incompressibility is per ELEMENT or NODAL (FULL is for softIncompMethod)", describe());
  myHardIncomp = m;
  notifyStructureChanged();
}

void FemModel3d::setSoftIncompMethod(IncompMethod m) {
  if (m == IncompMethod::OFF || m == IncompMethod::ON)
    throw ModelError("softIncompMethod is ELEMENT, NODAL, AUTO or FULL", describe());
  mySoftIncomp = m;
  notifyStructureChanged();
}

IncompMethod FemModel3d::resolve(IncompMethod m) const {
  if (m == IncompMethod::AUTO || m == IncompMethod::ON)
    return numElements() <= numNodes() ? IncompMethod::ELEMENT : IncompMethod::NODAL;
  return m;
}

const IncompressibleMaterial* FemModel3d::nodalBulkMaterial() const {
  if (auto* m = asIncompressible(*myMaterial)) return m;
  for (auto& e : *myElements)
    if (const FemMaterial* own = e.getOwnMaterial())  // the others use the model's, checked above
      if (auto* m = asIncompressible(*own)) return m;
  return nullptr;
}

// ------------------------------------------------------- soft, nodal

void FemModel3d::computeNodalVolumes() {
  const IncompressibleMaterial* mat = nodalBulkMaterial();
  if (!mat) {
    // Nothing incompressible: every node's region is empty and carries no
    // pressure, as the walk below would find, without walking.
    myNodal.resize(myNodes->size());
    for (auto& r : myNodal) {
      r.volume = r.restVolume = r.pressure = r.dpdJ = 0;
      r.grad.clear();
    }
    return;
  }
  std::vector<double> vol, rest;
  std::vector<std::vector<std::pair<int, Vector3d>>> grad;
  accumulateNodalVolumes(*myNodes, *myElements, true, vol, rest, grad);
  myNodal.resize(myNodes->size());
  myNodeIndex.clear();
  for (int i = 0; i < myNodes->size(); ++i) myNodeIndex[&myNodes->get(i)] = i;
  for (size_t n = 0; n < myNodal.size(); ++n) {
    myNodal[n].volume = vol[n];
    myNodal[n].restVolume = rest[n];
    myNodal[n].grad = std::move(grad[n]);
  }
  for (auto& r : myNodal) {
    if (r.restVolume <= 0) {
      r.pressure = r.dpdJ = 0;
      continue;
    }
    const double J = r.volume / r.restVolume;
    r.pressure = mat->computePressure(J);
    r.dpdJ = mat->computePressureDerivative(J);
  }
}

void FemModel3d::addNodalPressureDamping(double dK) {
  // The pressure force −Σ_n p_n ∂V_n/∂x = −Σ_e p̄_e ∂V_e/∂x is applied per
  // element; its stiffness-damping part −d_K (dp/dJ / V_n0) g_n (g_n·v)
  // couples the nodes around each node and is applied here.
  if (dK <= 0) return;
  for (auto& r : myNodal) {
    if (r.restVolume <= 0) continue;
    double rate = 0;
    for (auto& [i, g] : r.grad) rate += g.dot(myNodes->get(i).getVelocity());
    const double s = dK * r.dpdJ / r.restVolume * rate;
    for (auto& [i, g] : r.grad) myNodes->get(i).addForce(Vector3d(-s * g));
  }
}

// --------------------------------------------------------------- hard

void FemModel3d::getBilateralConstraints(ConstraintBuilder& G) {
  myHardRows = 0;
  const IncompMethod m = resolve(myHardIncomp);
  if (m == IncompMethod::OFF) return;
  NodeGradients g;
  // A region whose nodes are all fixed has nothing to constrain.
  auto anyDynamic = [](const auto& nodes) {
    for (auto* n : nodes)
      if (n->isDynamic() || n->isAttached()) return true;
    return false;
  };
  if (m == IncompMethod::ELEMENT) {
    for (auto& e : *myElements) {
      if (!anyDynamic(e.getNodes())) continue;
      double v0;
      const double v = elementVolume(e, g, v0);
      G.beginRow(v - v0);
      for (int i = 0; i < e.numNodes(); ++i) G.addEntry(e.getNode(i), g[i].transpose());
      ++myHardRows;
    }
    return;
  }
  // NODAL: one row per node on V_n = Σ_e V_e / n_e.
  std::vector<double> vol, rest;
  std::vector<std::vector<std::pair<int, Vector3d>>> grad;
  accumulateNodalVolumes(*myNodes, *myElements, false, vol, rest, grad);
  for (int n = 0; n < myNodes->size(); ++n) {
    // Fixed nodes keep their regions: the dynamic nodes around them still
    // change those volumes.
    const bool moves = std::any_of(grad[n].begin(), grad[n].end(), [&](auto& p) {
      const FemNode3d& node = myNodes->get(p.first);
      return node.isDynamic() || node.isAttached();
    });
    if (rest[n] <= 0 || !moves) continue;
    G.beginRow(vol[n] - rest[n]);
    for (auto& [i, gi] : grad[n]) G.addEntry(myNodes->get(i), gi.transpose());
    ++myHardRows;
  }
}

void FemModel3d::setConstraintForces(const double* bilateral, const double*) {
  // The multiplier of a volume-rate row is a pressure (force per area).
  myIncompPressures = Eigen::Map<const Eigen::VectorXd>(bilateral, myHardRows);
}

}  // namespace sinew
