// FemModel3d (guide §6.1–6.2): a volumetric finite-element model — nodes
// (dynamic components of the same system as particles and bodies, DESIGN
// §1), elements of any type of Table 6.1, a model material that elements
// may override (§6.8), density lumped to the nodes (DLMM) and Rayleigh
// damping f_d = −(d_M M + d_K K) v (eq. 6.0).
//
// It is a MechSystemBase: it runs by itself as a top-level model, or, added
// to a MechModel's `models` (`mech.addModel(fem)`), it is compiled into the
// MechModel's system, so FEM nodes, rigid bodies and joints are solved
// together. As a force effector it sums its elements' forces and tangent
// stiffness blocks into that system.
#pragma once

#include <memory>
#include <vector>

#include "sinew/fem/FemElement3d.h"
#include "sinew/fem/FemNode3d.h"
#include "sinew/mech/MechSystemBase.h"

namespace sinew {

class FemModel3d : public MechSystemBase, public ForceEffector {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit FemModel3d(std::string name = {});
  ~FemModel3d() override;

  ComponentList<FemNode3d>& nodes() { return *myNodes; }
  const ComponentList<FemNode3d>& nodes() const { return *myNodes; }
  ComponentList<FemElement3d>& elements() { return *myElements; }
  const ComponentList<FemElement3d>& elements() const { return *myElements; }
  int numNodes() const { return myNodes->size(); }
  int numElements() const { return myElements->size(); }
  FemNode3d& getNode(int idx) const { return myNodes->get(idx); }
  FemElement3d& getElement(int idx) const { return myElements->get(idx); }
  /// By persistent number (§6.4.9); nullptr if none.
  FemNode3d* getNodeByNumber(int num) const;
  FemElement3d* getElementByNumber(int num) const;

  FemNode3d& addNode(std::unique_ptr<FemNode3d> n);
  FemNode3d& addNode(const Vector3d& pos) { return addNode(std::make_unique<FemNode3d>(pos)); }
  /// Adds an element whose nodes all belong to this model, and lumps its
  /// mass onto them.
  FemElement3d& addElement(std::unique_ptr<FemElement3d> e);
  /// Builds the element type that matches the node count (§6.2.4).
  FemElement3d& addElement(const std::vector<FemNode3d*>& nodes) {
    return addElement(FemElement3d::createElement(nodes));
  }
  /// Add under a given persistent number, as the mesh readers do to keep a
  /// file's numbering (§6.2.2); ModelError if the number is taken.
  FemNode3d& addNumberedNode(std::unique_ptr<FemNode3d> n, int number);
  FemElement3d& addNumberedElement(std::unique_ptr<FemElement3d> e, int number);

  // Properties (§6.1.1)
  double getDensity() const { return myDensity; }
  void setDensity(double d);
  double getParticleDamping() const { return myParticleDamping; }
  void setParticleDamping(double d);
  double getStiffnessDamping() const { return myStiffnessDamping; }
  void setStiffnessDamping(double d);
  const FemMaterial& getMaterial() const { return *myMaterial; }
  /// Sets a copy of mat (changing mat afterwards has no effect, §6.8).
  void setMaterial(const FemMaterial& mat) { myMaterial = mat.clone(); }
  /// The model's material, for changing its parameters in place.
  FemMaterial& material() { return *myMaterial; }

  /// Recomputes every node's lumped mass from its elements (after density
  /// or rest-position changes; done automatically for density).
  void updateNodeMasses();
  void invalidateNodeMasses() { updateNodeMasses(); }
  double getMass() const;
  double getRestVolume() const;
  double computeVolume() const;

  // ForceEffector
  void applyForces(double t) override;
  void declareJacobianBlocks(JacobianPattern& pat) override;
  void addPosJacobian(JacobianMatrix& K, double s) override;
  void addVelJacobian(JacobianMatrix& D, double s) override;
  double getPotentialEnergy() const override;

 private:
  /// Forces f and tangent K of element e at the current positions; an
  /// inverted element is reported with its path.
  void computeElement(const FemElement3d& e, ElementVector& f, ElementMatrix& K) const;
  void lumpMass(const FemElement3d& e, double sign);
  /// Throws ModelError unless e's nodes are this model's and e is upright.
  void checkNewElement(const FemElement3d& e) const;

  ComponentList<FemNode3d>* myNodes;
  ComponentList<FemElement3d>* myElements;
  double myDensity = 1000, myParticleDamping = 2, myStiffnessDamping = 0;
  std::unique_ptr<FemMaterial> myMaterial;
  // Per compile: Jacobian handles, node pairs of each element then nodes.
  std::vector<int> myElementHandles, myElementHandleStart, myNodeHandles;
  // Per step: each element's tangent from the last applyForces.
  std::vector<Eigen::MatrixXd> myK;
};

}  // namespace sinew
