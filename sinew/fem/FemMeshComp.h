// FemMeshComp (guide §6.1.2.4, §6.3): a mesh carried by an FEM model, in
// its `meshes` list. Each vertex is a fixed weighted combination of FEM
// nodes — the shape-function interpolation of eq. (6.1) with constant
// weights — so the mesh moves and deforms with the model. It has no
// physical properties of its own. The model's auto-generated surface mesh
// (§6.3.1, named "surface") is one; addMesh embeds others (§6.3.2).
//
// The weights are stored flat (one run of nodes and weights per vertex), so
// updateVertexPositions() allocates nothing; the model calls it after every
// step and state restore (HasSlaveObjects).
//
// A mesh component is a collidable (§8.3.2): a subcollidable of its model,
// which is a compound collidable. Its `collidable` property is INTERNAL once
// addMesh has added it (it then collides only with the model's other
// meshes, when self-collision is enabled); set EXTERNAL or ALL to let a
// behaviour naming it collide it with other bodies.
#pragma once

#include <memory>
#include <vector>

#include "sinew/fem/FemNode3d.h"
#include "sinew/geometry/MeshBase.h"
#include "sinew/mech/Collidable.h"
#include "sinew/model/Component.h"

namespace sinew {

class FemElement3d;

class FemMeshComp : public Component {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit FemMeshComp(std::shared_ptr<MeshBase> mesh, std::string name = {});

  MeshBase& getMesh() const { return *myMesh; }
  const std::shared_ptr<MeshBase>& getMeshPtr() const { return myMesh; }
  /// True for the surface the model generates from its elements.
  bool isGeneratedSurface() const { return myGenerated; }
  void setGeneratedSurface(bool b) { myGenerated = b; }

  /// Vertex v follows the nodes with these weights (they must sum to 1).
  /// Vertices are attached in order: v must be the next unattached one.
  void addVertexAttachment(int v, const std::vector<FemNode3d*>& nodes, const std::vector<double>& weights);
  /// Vertex v follows element e: the weights are e's shape functions at the
  /// vertex's natural coordinates (inside e, or extrapolated when outside).
  void addVertexAttachment(int v, const FemElement3d& e);
  /// Forgets every vertex attachment (before the mesh is rebuilt).
  void clearVertexAttachments();
  /// How many vertices have their attachment (all of them once built).
  int numVertexAttachments() const { return static_cast<int>(myStart.size()) - 1; }
  std::vector<FemNode3d*> getVertexNodes(int v) const;
  std::vector<double> getVertexWeights(int v) const;
  /// The single node vertex v coincides with (weight 1), or nullptr.
  FemNode3d* getVertexNode(int v) const;

  /// Which collisions the mesh takes part in (§8.2.2, §8.3.2).
  Collidability getCollidable() const { return myCollidability; }
  void setCollidable(Collidability c) { myCollidability = c; }
  /// Whether the mesh's vertex v follows node n (among others).
  bool vertexUsesNode(int v, const FemNode3d* n) const;

  /// Moves every vertex to Σ w_k x_k of its nodes' current positions.
  void updateVertexPositions();
  /// Re-finds each master node by its number among the model's nodes after
  /// nodes were removed; ModelError (naming this mesh) if one is gone.
  void resolveNodes(const class FemModel3d& fem);

 private:
  void checkVertex(int v) const;

  std::shared_ptr<MeshBase> myMesh;
  bool myGenerated = false;
  Collidability myCollidability = Collidability::All;
  std::vector<int> myStart{0};  ///< vertex v's masters: [myStart[v], myStart[v+1])
  std::vector<FemNode3d*> myNodes;
  std::vector<int> myNodeNumbers;  ///< persistent numbers of myNodes, to re-find them
  std::vector<double> myWeights;
};

}  // namespace sinew
