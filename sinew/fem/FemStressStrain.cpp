// FemModel3d's stress and strain output (guide §6.10, Table 6.6): computed
// after each step, only for the quantities asked for. At each integration
// point the stress is the sum of the element's material and its augmenting
// materials' Cauchy stresses (each evaluated at the point, as a FULL
// material); the strain is the element material's measure (small strain
// for linear materials, Green strain otherwise). Element values are the
// volume averages over the points; nodal values extrapolate each element's
// point values to its nodes and average them over the elements around the
// node, each element counting once.
#include <unordered_map>

#include "sinew/fem/FemModel3d.h"

namespace sinew {

namespace {
using NodeArray = std::array<Vector3d, ReferenceElement::kMaxNodes>;

/// Stress and strain at e's integration points, with the rest volume weight
/// of each point.
struct PointValues {
  std::vector<Matrix3d> stress, strain;
  std::vector<double> dV;
};

void computePointValues(const FemElement3d& e, const std::vector<const FemMaterial*>& augment, PointValues& v) {
  NodeArray rest, pos;
  e.getRestPositions(rest);
  e.getPositions(pos);
  const NodePositions x0(rest.data(), e.numNodes()), x(pos.data(), e.numNodes());
  const ReferenceElement& type = e.getReferenceElement();
  const int np = e.numIntegrationPoints();
  std::vector<IntegrationPointState> states(np), extra(np);
  try {
    computeIntegrationPointStates(type, x0, x, e.getMaterial(), states);
    v.stress.resize(np);
    v.strain.resize(np);
    v.dV.resize(np);
    for (int k = 0; k < np; ++k) {
      v.stress[k] = states[k].stress;
      v.strain[k] = states[k].strain;
    }
    for (const FemMaterial* mat : augment) {
      computeIntegrationPointStates(type, x0, x, *mat, extra);
      for (int k = 0; k < np; ++k) v.stress[k] += extra[k].stress;
    }
  } catch (const InvertedElementError& err) {
    throw InvertedElementError(err, e.describe());
  }
  PointKinematics pk;
  for (int k = 0; k < np; ++k) {
    computePointKinematics(type, k, x0, x, pk);
    v.dV[k] = pk.dV;
  }
}

Matrix3d volumeAverage(const std::vector<Matrix3d>& values, const std::vector<double>& dV) {
  Matrix3d sum = Matrix3d::Zero();
  double vol = 0;
  for (size_t k = 0; k < values.size(); ++k) {
    sum += dV[k] * values[k];
    vol += dV[k];
  }
  return sum / vol;
}
}  // namespace

void FemModel3d::setStressStrainFlag(bool& flag, bool enable) {
  flag = enable;
  if (enable) updateStressAndStrain();  // valid at once, not only after the next step
}

void FemModel3d::setComputeNodalStress(bool enable) { setStressStrainFlag(myComputeNodalStress, enable); }
void FemModel3d::setComputeNodalStrain(bool enable) { setStressStrainFlag(myComputeNodalStrain, enable); }
void FemModel3d::setComputeElementStress(bool enable) { setStressStrainFlag(myComputeElementStress, enable); }
void FemModel3d::setComputeElementStrain(bool enable) { setStressStrainFlag(myComputeElementStrain, enable); }

void FemModel3d::finalizeAdvance(double) { updateStressAndStrain(); }

void FemModel3d::updateStressAndStrain() {
  const bool nodal = myComputeNodalStress || myComputeNodalStrain;
  const bool element = myComputeElementStress || myComputeElementStrain;
  if (!nodal && !element) return;  // no cost unless asked for
  // The number of elements around each node, the weight of each in the mean.
  std::unordered_map<const FemNode3d*, int> adjacent;
  if (nodal) {
    for (auto& e : *myElements)
      for (auto* n : e.getNodes()) ++adjacent[n];
    for (auto& e : *myShells)
      for (auto* n : e.getNodes()) ++adjacent[n];
    for (auto& n : *myNodes) {
      n.setStress(Matrix3d::Zero());
      n.setStrain(Matrix3d::Zero());
    }
  }
  const auto& augment = augmentingMaterials();
  PointValues v;
  std::vector<Matrix3d> atNodes(ReferenceElement::kMaxNodes);
  for (int k = 0; k < myElements->size(); ++k) {
    FemElement3d& e = myElements->get(k);
    computePointValues(e, augment[k], v);
    if (myComputeElementStress) e.setStress(volumeAverage(v.stress, v.dV));
    if (myComputeElementStrain) e.setStrain(volumeAverage(v.strain, v.dV));
    if (!nodal) continue;
    const std::span<Matrix3d> out(atNodes.data(), e.numNodes());
    if (myComputeNodalStress) {
      extrapolateToNodes(e.getReferenceElement(), v.stress, out);
      for (int i = 0; i < e.numNodes(); ++i) e.getNode(i).addScaledStress(1.0 / adjacent[&e.getNode(i)], out[i]);
    }
    if (myComputeNodalStrain) {
      extrapolateToNodes(e.getReferenceElement(), v.strain, out);
      for (int i = 0; i < e.numNodes(); ++i) e.getNode(i).addScaledStrain(1.0 / adjacent[&e.getNode(i)], out[i]);
    }
  }
  updateShellStressAndStrain(adjacent);
}

void FemModel3d::updateShellStressAndStrain(const std::unordered_map<const FemNode3d*, int>& adjacent) {
  // A shell's element value is the mean over its integration points (their
  // weights are equal within each rule); nodal values come from its corner
  // values (ShellElement3d::extrapolateToCorners).
  const bool nodal = myComputeNodalStress || myComputeNodalStrain;
  const auto& augment = shellAugmentingMaterials();
  std::vector<Matrix3d> stress, strain, atCorners(4);
  std::unique_ptr<FemMaterial> tmp;
  for (int index = 0; index < myShells->size(); ++index) {
    ShellElement3d& e = myShells->get(index);
    std::vector<IntegrationPointState> states;
    stress.clear();
    strain.clear();
    try {
      states = e.computeIntegrationPointStates();
      for (const auto& s : states) stress.push_back(s.stress), strain.push_back(s.strain);
      // Stress sums the augmenting materials' (as for volume elements).
      for (const FemMaterial* mat : augment[index]) {
        states = e.computeIntegrationPointStates(asShellMaterial(*mat, tmp));
        for (size_t k = 0; k < states.size(); ++k) stress[k] += states[k].stress;
      }
    } catch (const ModelError& err) {
      throw ModelError(err.what(), e.describe());
    }
    auto mean = [](const std::vector<Matrix3d>& v) {
      Matrix3d m = Matrix3d::Zero();
      for (const Matrix3d& x : v) m += x / static_cast<double>(v.size());
      return m;
    };
    if (myComputeElementStress) e.setStress(mean(stress));
    if (myComputeElementStrain) e.setStrain(mean(strain));
    if (!nodal) continue;
    const std::span<Matrix3d> out(atCorners.data(), e.numNodes());
    if (myComputeNodalStress) {
      e.extrapolateToCorners(stress, out);
      for (int i = 0; i < e.numNodes(); ++i) e.getNodes()[i]->addScaledStress(1.0 / adjacent.at(e.getNodes()[i]), out[i]);
    }
    if (myComputeNodalStrain) {
      e.extrapolateToCorners(strain, out);
      for (int i = 0; i < e.numNodes(); ++i) e.getNodes()[i]->addScaledStrain(1.0 / adjacent.at(e.getNodes()[i]), out[i]);
    }
  }
}

}  // namespace sinew
