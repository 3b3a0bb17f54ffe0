#include "sinew/fem/FemMeshComp.h"

#include <cmath>

#include "sinew/fem/FemModel3d.h"

namespace sinew {

SINEW_PROPERTIES(FemMeshComp, Component) {
  list.add<FemMeshComp>("collidable", "which collisions the mesh takes part in (§8.2.2, §8.3.2)",
                        &FemMeshComp::getCollidable, &FemMeshComp::setCollidable)
      .setDefault(std::string("ALL"));
}

FemMeshComp::FemMeshComp(std::shared_ptr<MeshBase> mesh, std::string name)
    : Component(std::move(name)), myMesh(std::move(mesh)) {
  if (!myMesh) throw ModelError("FemMeshComp needs a mesh", describe());
}

bool FemMeshComp::vertexUsesNode(int v, const FemNode3d* n) const {
  checkVertex(v);
  for (int k = myStart[v]; k < myStart[v + 1]; ++k)
    if (myNodes[k] == n) return true;
  return false;
}

void FemMeshComp::checkVertex(int v) const {
  if (v < 0 || v >= numVertexAttachments())
    throw ModelError("vertex " + std::to_string(v) + " has no attachment", describe());
}

void FemMeshComp::addVertexAttachment(int v, const std::vector<FemNode3d*>& nodes, const std::vector<double>& weights) {
  if (v != numVertexAttachments() || v >= myMesh->numVertices())
    throw ModelError("vertex attachments must be added in vertex order (next is " +
                         std::to_string(numVertexAttachments()) + ", got " + std::to_string(v) + ")",
                     describe());
  if (nodes.empty() || nodes.size() != weights.size())
    throw ModelError("vertex " + std::to_string(v) + " needs one weight per node", describe());
  double sum = 0;
  for (double w : weights) sum += w;
  if (!(std::abs(sum - 1) < 1e-9))
    throw ModelError("vertex " + std::to_string(v) + ": weights sum to " + std::to_string(sum) + ", not 1", describe());
  for (size_t k = 0; k < nodes.size(); ++k) {
    myNodes.push_back(nodes[k]);
    myNodeNumbers.push_back(nodes[k]->getNumber());
    myWeights.push_back(weights[k]);
  }
  myStart.push_back(static_cast<int>(myNodes.size()));
}

void FemMeshComp::addVertexAttachment(int v, const FemElement3d& e) {
  std::vector<double> w;
  if (!computeElementWeights(e, myMesh->getVertex(v), w))
    throw ModelError("vertex " + std::to_string(v) + " has no natural coordinates in " + e.describe(), describe());
  addVertexAttachment(v, e.getNodes(), w);
}

void FemMeshComp::clearVertexAttachments() {
  myStart.assign(1, 0);
  myNodes.clear();
  myNodeNumbers.clear();
  myWeights.clear();
}

std::vector<FemNode3d*> FemMeshComp::getVertexNodes(int v) const {
  checkVertex(v);
  return {myNodes.begin() + myStart[v], myNodes.begin() + myStart[v + 1]};
}

std::vector<double> FemMeshComp::getVertexWeights(int v) const {
  checkVertex(v);
  return {myWeights.begin() + myStart[v], myWeights.begin() + myStart[v + 1]};
}

FemNode3d* FemMeshComp::getVertexNode(int v) const {
  checkVertex(v);
  return myStart[v + 1] - myStart[v] == 1 ? myNodes[myStart[v]] : nullptr;
}

void FemMeshComp::updateVertexPositions() {
  const int nv = numVertexAttachments();
  for (int v = 0; v < nv; ++v) {
    Vector3d x = Vector3d::Zero();
    for (int k = myStart[v]; k < myStart[v + 1]; ++k) x += myWeights[k] * myNodes[k]->getPosition();
    myMesh->setVertex(v, x);
  }
}

void FemMeshComp::resolveNodes(const FemModel3d& fem) {
  for (size_t k = 0; k < myNodes.size(); ++k) {
    myNodes[k] = fem.getNodeByNumber(myNodeNumbers[k]);
    if (!myNodes[k])
      throw ModelError("node " + std::to_string(myNodeNumbers[k]) + ", a master of this mesh, was removed",
                       describe());
  }
}

}  // namespace sinew
