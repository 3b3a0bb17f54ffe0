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
// stiffness blocks into that system. MaterialBundles in its `materials`
// list add their materials to their elements (§6.8, MaterialBundle.h), and
// on request it keeps nodal and element stress and strain (§6.10).
//
// Shell elements (§6.1.2.3, ShellElement3d.h) live in `shellElements`; the
// back nodes of shell nodes with directors in `backNodes`.
//
// Its `meshes` list (§6.3) holds FemMeshComps that move with the nodes: the
// auto-generated surface mesh and embedded meshes (FemGeometry.cpp).
#pragma once

#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sinew/fem/FemElement3d.h"
#include "sinew/fem/FemMeshComp.h"
#include "sinew/fem/FemNode3d.h"
#include "sinew/fem/MaterialBundle.h"
#include "sinew/fem/PointFem3dAttachment.h"
#include "sinew/fem/ShellElement3d.h"
#include "sinew/geometry/PolygonalMesh.h"
#include "sinew/mech/Collidable.h"
#include "sinew/mech/FrameAttachable.h"
#include "sinew/mech/HasSlaveObjects.h"
#include "sinew/mech/PointAttachable.h"
#include "sinew/mech/MechSystemBase.h"

namespace sinew {

/// Where volume is held (§6.7.1, FemModel.IncompMethod): OFF; per
/// ELEMENT; per NODE (the volume around each node); AUTO (= ON): ELEMENT
/// when there are no more elements than nodes, else NODAL; FULL: at each
/// integration point (soft only).
enum class IncompMethod { OFF, ELEMENT, NODAL, AUTO, ON, FULL };
template <>
struct EnumNames<IncompMethod> {
  static const std::vector<std::string>& get();
};

class ElementFilter;
struct BoundaryTriangle;

class FemModel3d : public MechSystemBase,
                   public ForceEffector,
                   public Constrainer,
                   public FrameAttachable,
                   public PointAttachable,
                   public HasSlaveObjects {
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

  // Shell elements (§6.1.2.3, FemShells.cpp)
  ComponentList<ShellElement3d>& getShellElements() { return *myShells; }
  const ComponentList<ShellElement3d>& getShellElements() const { return *myShells; }
  int numShellElements() const { return myShells->size(); }
  ShellElement3d& getShellElement(int idx) const { return myShells->get(idx); }
  ShellElement3d* getShellElementByNumber(int num) const;
  /// Adds a shell whose nodes all belong to this model. The nodes of a
  /// regular shell get directors (back nodes) if they have none; the rest
  /// directors around them are recomputed, and the shell's mass lumped.
  ShellElement3d& addShellElement(std::unique_ptr<ShellElement3d> e);
  ShellElement3d& addNumberedShellElement(std::unique_ptr<ShellElement3d> e, int number);
  /// Every element, volumetric then shell (§6.1.2.3).
  std::vector<FemElement3dBase*> getAllElements() const;
  /// The back nodes of the nodes with directors.
  ComponentList<BackNode3d>& backNodes() { return *myBackNodes; }
  /// Called by a shell whose thickness changed from `old`.
  void shellThicknessChanged(ShellElement3d& e, double old);

  ComponentList<FemMarker>& markers() { return *myMarkers; }
  /// Adds a marker at world position pos, attached to the element that
  /// contains it (or the nearest one) (§6.5).
  FemMarker& addMarker(const Vector3d& pos, const std::string& name = {});
  /// Adds mkr; if its attachment is not set yet, attaches it where it is
  /// (FemMarker::setFromFem) (§6.5).
  FemMarker& addMarker(std::unique_ptr<FemMarker> mkr);
  /// Attaches mkr to element elem, then adds it.
  FemMarker& addMarker(std::unique_ptr<FemMarker> mkr, const FemElement3d& elem);
  /// Attaches mkr to shell element shell (FemMarker::setFromShell), then adds it.
  FemMarker& addMarker(std::unique_ptr<FemMarker> mkr, const ShellElement3d& shell);
  /// Attaches mkr to nodes with explicit weights (summing to 1), then adds it.
  FemMarker& addMarker(std::unique_ptr<FemMarker> mkr, const std::vector<FemNode3d*>& nodes,
                       const std::vector<double>& weights);
  /// Attaches mkr to nodes with automatic weights and adds it; false if the
  /// nodes give too little support (it is then attached by setFromFem).
  bool addMarker(std::unique_ptr<FemMarker> mkr, const std::vector<FemNode3d*>& nodes);

  // Finding elements (§6.4.5): at the current node positions.
  /// The element containing p, or nullptr.
  FemElement3d* findContainingElement(const Vector3d& p) const;
  /// The element containing p, else the one whose centroid is nearest.
  FemElement3d* findNearestElement(const Vector3d& p) const;
  /// The node nearest to p.
  FemNode3d* findNearestNode(const Vector3d& p) const;
  /// An attachment of point p to the element containing it, or the nearest
  /// (§6.4.3), for `mech.addAttachment(...)`.
  std::unique_ptr<AttachmentComponent> createPointAttachment(Point& p) override;
  /// Where a point at p attaches (§6.4.3): the element containing p (loc =
  /// p), else the element of the nearest surface point (loc = that point);
  /// nullptr for a model without elements.
  FemElement3d* findAttachmentElement(const Vector3d& p, Vector3d& loc);
  /// FrameAttachable (§6.6): an element-based FrameFem3dAttachment of
  /// `frame` at pose TFW (`mech.attachFrame(frame, fem)`, joints on FEMs).
  std::unique_ptr<AttachmentComponent> createFrameAttachment(Frame& frame, const RigidTransform3d& TFW) override;

  // More queries (§6.4.5, FemGeometry.cpp), at the current node positions.
  /// The node nearest to p if it is within maxDist, else nullptr.
  FemNode3d* findNearestNode(const Vector3d& p, double maxDist) const;
  /// Every node within maxDist of p, in list order.
  std::vector<FemNode3d*> findNearestNodes(const Vector3d& p, double maxDist) const;
  /// The element, shell or volumetric (among those passing filter, if
  /// given), nearest to p: a volumetric element containing p, else the one
  /// whose boundary face or shell surface is nearest. near (if not null)
  /// receives the nearest point on it (p itself when inside).
  FemElement3dBase* findNearestElement(Vector3d* near, const Vector3d& p, const ElementFilter* filter = nullptr);
  /// As findNearestElement, over the volumetric elements only.
  FemElement3d* findNearestVolumetricElement(Vector3d* near, const Vector3d& p,
                                             const ElementFilter* filter = nullptr);
  /// The shell element (passing filter) whose surface through its nodes is
  /// nearest to p, with that point; nullptr if there is none.
  ShellElement3d* findNearestShellElement(Vector3d* near, const Vector3d& p, const ElementFilter* filter = nullptr);
  /// The element nearest to p on the surface, whether p is inside or out:
  /// a volumetric element's boundary face or a shell, and the nearest point.
  FemElement3dBase* findNearestSurfaceElement(Vector3d* near, const Vector3d& p);

  // Geometry (§6.3)
  ComponentList<FemMeshComp>& getMeshComps() { return *myMeshes; }
  /// The surface mesh component "surface" (§6.3.1); the generated surface is
  /// rebuilt first if elements were added or removed.
  FemMeshComp& getSurfaceMeshComp();
  /// Whether m is this model's surface mesh component (generated or set).
  bool isSurfaceMeshComp(const FemMeshComp& m) const { return &m == mySurface; }
  PolygonalMesh& getSurfaceMesh();
  /// Regenerates the surface from the element faces that no other element
  /// passing filter (all, if null) shares (§6.3.1, §6.4.9). A later change
  /// of the elements regenerates it from all elements.
  FemMeshComp& createSurfaceMesh(const ElementFilter* filter = nullptr);
  FemMeshComp& createSurfaceMesh(const ElementFilter& filter) { return createSurfaceMesh(&filter); }
  /// Replaces the surface by a mesh given by hand (§6.3.1): vertices at a
  /// node follow that node, others are embedded like addMesh. It stays
  /// until createSurfaceMesh() is called.
  FemMeshComp& setSurfaceMesh(const PolygonalMesh& mesh);
  /// Adds a mesh component (named name) wrapping the elements elems of this
  /// model: the triangles of their faces that no other of them shares, each
  /// vertex on its node (the guide's FemMeshComp.createVolumetricSurface
  /// followed by addMeshComp, §8.3.3). It is INTERNAL (§8.3.2): a contact
  /// mesh for self-collision.
  FemMeshComp& createVolumetricSurfaceMesh(const std::string& name, const std::vector<FemElement3d*>& elems);
  /// Whether n is a vertex of the surface mesh.
  bool isSurfaceNode(const FemNode3d& n);
  /// Embeds a mesh already positioned in the model (§6.3.2): each vertex
  /// follows the node it lies on, else the shape functions of its
  /// containing (or nearest) element. The mesh is shared, not copied.
  FemMeshComp& addMesh(const std::string& name, std::shared_ptr<MeshBase> mesh);
  FemMeshComp& addMesh(std::shared_ptr<MeshBase> mesh) { return addMesh({}, std::move(mesh)); }
  /// Embeds a copy of mesh.
  FemMeshComp& addMesh(const std::string& name, const MeshBase& mesh) { return addMesh(name, mesh.clone()); }
  FemMeshComp& addMesh(const MeshBase& mesh) { return addMesh({}, mesh.clone()); }
  /// Moves every mesh to the current node positions (rebuilding a stale
  /// generated surface). Called after each step, state restore and
  /// transform; call it after moving nodes by hand.
  void updateSlavePos() override;
  void componentStructureChanged() override;

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
  /// Whether the model's surface collides (§8.2.2); ALL by default. Its
  /// other meshes collide when a behaviour names them.
  Collidability getCollidable() const { return myCollidability; }
  void setCollidable(Collidability c) { myCollidability = c; }
  double getDensity() const { return myDensity; }
  void setDensity(double d);
  double getParticleDamping() const { return myParticleDamping; }
  void setParticleDamping(double d);
  double getStiffnessDamping() const { return myStiffnessDamping; }
  void setStiffnessDamping(double d);
  const FemMaterial& getMaterial() const { return *myMaterial; }
  /// Sets a copy of mat (changing mat afterwards has no effect, §6.8).
  void setMaterial(const FemMaterial& mat) {
    myMaterial = mat.clone();
    materialsChanged();
  }
  /// Called when a material changes kind (e.g. to an incompressible one):
  /// the Jacobian pattern is compiled again.
  void materialsChanged() { notifyStructureChanged(); }
  /// The model's material, for changing its parameters in place.
  FemMaterial& material() { return *myMaterial; }

  // Augmenting materials (§6.8)
  ComponentList<MaterialBundle>& materials() { return *myBundles; }
  const ComponentList<MaterialBundle>& materials() const { return *myBundles; }
  int numMaterialBundles() const { return myBundles->size(); }
  /// Adds a bundle to `materials`; ModelError if one of its elements is not
  /// an element of this model.
  MaterialBundle& addMaterialBundle(std::unique_ptr<MaterialBundle> b);
  bool removeMaterialBundle(MaterialBundle& b);
  /// Called by bundles when their elements or material change.
  void bundlesChanged() { myAugmentValid = false; }
  /// Whether e is one of this model's volumetric or shell elements.
  bool ownsElement(const FemElement3dBase& e) const {
    return e.getParent() == myElements || e.getParent() == myShells;
  }

  // Stress and strain output (§6.10): computed after each step, only when
  // asked for. Nodal values average the element values extrapolated to the
  // node over the elements around it; element values are volume averages
  // over the integration points. Read them from the nodes and elements
  // (getVonMisesStress(), properties "vonMisesStress", "MAPStress", …).
  bool getComputeNodalStress() const { return myComputeNodalStress; }
  void setComputeNodalStress(bool enable);
  bool getComputeNodalStrain() const { return myComputeNodalStrain; }
  void setComputeNodalStrain(bool enable);
  bool getComputeElementStress() const { return myComputeElementStress; }
  void setComputeElementStress(bool enable);
  bool getComputeElementStrain() const { return myComputeElementStrain; }
  void setComputeElementStrain(bool enable);
  /// Computes the enabled stresses and strains at the current positions now
  /// (done after every step and static solve).
  void updateStressAndStrain();
  void finalizeAdvance(double t1) override;
  /// Relumps the masses if rest positions changed since the last step.
  void prepareAdvance(double t0) override;

  // Incompressibility (§6.7)
  /// Hard incompressibility: a volume constraint per element or per node
  /// (OFF, ELEMENT, NODAL, AUTO or ON; default OFF). Its multipliers are
  /// pressures (getIncompPressures()).
  IncompMethod getIncompressible() const { return myHardIncomp; }
  void setIncompressible(IncompMethod m);
  /// Where an IncompressibleMaterial's bulk pressure p(J) is evaluated
  /// (ELEMENT, NODAL, AUTO or FULL; default AUTO).
  IncompMethod getSoftIncompMethod() const { return mySoftIncomp; }
  void setSoftIncompMethod(IncompMethod m);
  /// The pressures of the hard volume constraints after the last step, one
  /// per element or node (in list order).
  const Eigen::VectorXd& getIncompPressures() const { return myIncompPressures; }

  // Units (guide §4.2.1, Table 4.1; FemScaling.cpp)
  /// Scales distance units by s (e.g. 100 for metres to centimetres, or
  /// 0.22 to size a unit mesh as §6.4.4 does): node, back-node and marker
  /// positions, rest positions, velocities, targets and external forces
  /// by s; densities by s⁻³; every material's moduli (the model's, the
  /// elements' own and the bundles') by s⁻¹; shell thickness by s; the
  /// model's own gravity by s (it acts when the model runs on its own;
  /// inside a MechModel the MechModel's gravity does, and is the caller's
  /// to scale). Damping (d_M in 1/s, d_K in s) stays. A simulation of the
  /// scaled model is the original one in the new units.
  /// ModelError unless s is finite and positive.
  void scaleDistance(double s);
  /// Scales mass units by s: densities, moduli and external forces by s.
  void scaleMass(double s);

  /// Recomputes every node's lumped mass from its elements (done at once
  /// for a density change, and before the next step or mass query after a
  /// rest position changes).
  void updateNodeMasses();
  void invalidateNodeMasses() { updateNodeMasses(); }
  /// Called by FemNode3d::setRestPosition: the masses (density × rest
  /// volume) are relumped before they are next used.
  void invalidateRestData() { myMassesStale = true; }
  /// §6.1.2.1: brings what depends on the rest positions and the current
  /// state up to date now — the lumped masses, and each element's forces
  /// and tangent stiffness — instead of at the start of the next step.
  void updateStressAndStiffness();
  double getMass() const;
  double getRestVolume() const;
  double computeVolume() const;

  /// Before each compile: relumps shell masses whose directors changed.
  void prepareForCompile() override;

  // ForceEffector
  void applyForces(double t) override;
  void declareJacobianBlocks(JacobianPattern& pat) override;
  void addPosJacobian(JacobianMatrix& K, double s) override;
  void addVelJacobian(JacobianMatrix& D, double s) override;
  double getPotentialEnergy() const override;
  // Constrainer (hard incompressibility)
  void getBilateralConstraints(ConstraintBuilder& G) override;
  void setConstraintForces(const double* bilateral, const double* unilateral) override;

 private:
  struct NodalRegion {
    double volume = 0, restVolume = 0, pressure = 0, dpdJ = 0;
    std::vector<std::pair<int, Vector3d>> grad;  ///< (node index, ∂V_n/∂x)
    std::vector<int> handles;                     ///< Jacobian blocks of grad pairs
  };

  /// Forces f and tangent K of element k at the current positions, from its
  /// material and its bundles' materials; an inverted element is reported
  /// with its path.
  void computeElement(int k, const FemElement3d& e, ElementVector& f, ElementMatrix& K) const;
  /// f and K of one material on e, its bulk pressure evaluated as `soft`
  /// says (FULL, ELEMENT, or NODAL from myNodal).
  void computeMaterialTerms(const FemElement3d& e, const FemMaterial& mat, IncompMethod soft, ElementVector& f,
                            ElementMatrix& K) const;
  /// Strain energy of one material on e (the element's share for NODAL).
  double computeMaterialEnergy(const FemElement3d& e, const FemMaterial& mat, IncompMethod soft) const;
  /// The soft method of augmenting materials: ELEMENT if the model's is,
  /// else FULL (nodal pressures come from the elements' own materials).
  IncompMethod augmentingSoftMethod() const {
    return softMethod() == IncompMethod::ELEMENT ? IncompMethod::ELEMENT : IncompMethod::FULL;
  }
  /// The augmenting materials of each volumetric element (by list index),
  /// rebuilt when bundles or elements change; ModelError names a bundle
  /// that holds an element no longer in the model.
  const std::vector<std::vector<const FemMaterial*>>& augmentingMaterials() const;
  void setStressStrainFlag(bool& flag, bool enable);
  void lumpMass(const FemElement3d& e, double sign);
  /// Element and nodal stress and strain of the shells (FemStressStrain.cpp).
  void updateShellStressAndStrain(const std::unordered_map<const FemNode3d*, int>& adjacent);
  void lumpShellMass(const ShellElement3d& e);
  /// Checks a new shell, gives a regular one's nodes directors.
  void prepareNewShell(ShellElement3d& e);
  // Shell forces, Jacobians and energy (FemShells.cpp).
  void applyShellForces(double dM, double dK);
  void declareShellBlocks(JacobianPattern& pat);
  void addShellPosJacobian(JacobianMatrix& K, double s);
  void addShellDamping(JacobianMatrix& D, double s);
  double getShellEnergy() const;
  /// The material that acts on a shell: its own or the model's, without its
  /// bulk part if incompressible (§6.7).
  const FemMaterial& shellMaterial(const ShellElement3d& e, std::unique_ptr<FemMaterial>& tmp) const;
  /// mat as shells use it: an incompressible material by its deviatoric part.
  static const FemMaterial& asShellMaterial(const FemMaterial& mat, std::unique_ptr<FemMaterial>& tmp);
  /// The augmenting materials of each shell (by list index): bundles acting
  /// on every element and those listing the shell (built with
  /// augmentingMaterials()).
  const std::vector<std::vector<const FemMaterial*>>& shellAugmentingMaterials() const;
  /// Throws ModelError unless e's nodes are this model's and e is upright.
  void checkNewElement(const FemElement3d& e) const;
  /// ELEMENT or NODAL for OFF/FULL-free methods resolved by the AUTO rule.
  IncompMethod resolve(IncompMethod m) const;
  /// The soft method in use for the model (FULL, ELEMENT or NODAL).
  IncompMethod softMethod() const { return resolve(mySoftIncomp); }
  /// The incompressible material whose bulk potential nodal pressures use.
  const class IncompressibleMaterial* nodalBulkMaterial() const;
  /// Soft nodal pressures: per node, its volume, rest volume and the
  /// gradient of its volume over the nodes around it.
  void computeNodalVolumes();
  /// The nodal regions at the current positions (for energy reports).
  const std::vector<NodalRegion>& nodalVolumesNow() {
    computeNodalVolumes();
    return myNodal;
  }
  void addNodalPressureDamping(double dK);
  /// Attaches each vertex of comp's mesh to the node it lies on, or embeds
  /// it in its containing or nearest element.
  void attachVertices(FemMeshComp& comp);
  /// The faces of the whole model's boundary (cached until elements change).
  const std::vector<BoundaryTriangle>& boundaryTriangles();
  /// The element's material: its own, else the model's (getMaterial without
  /// looking up the owner, for the per-step loops).
  const FemMaterial& materialOf(const FemElement3dBase& e) const {
    return e.getOwnMaterial() ? *e.getOwnMaterial() : *myMaterial;
  }
  /// Multiplies the moduli of every material of the model by f.
  void scaleModuli(double f);
  /// Each element's forces (with stiffness damping) and tangent into myF,
  /// myK, in parallel; throws for the first failing element. Needs the
  /// nodal volumes of NODAL soft incompressibility computed first.
  void evaluateElements();
  /// The nearer to p of a volumetric and a shell candidate; near receives its point.
  static FemElement3dBase* nearerOf(FemElement3d* vol, const Vector3d& volPoint, ShellElement3d* shell,
                                    const Vector3d& shellPoint, const Vector3d& p, Vector3d* near);
  /// Rebuilds a generated surface that elements changes made stale.
  void updateSurface();

  ComponentList<FemNode3d>* myNodes;
  ComponentList<FemElement3d>* myElements;
  ComponentList<FemMarker>* myMarkers;
  ComponentList<MaterialBundle>* myBundles;
  ComponentList<ShellElement3d>* myShells;
  ComponentList<BackNode3d>* myBackNodes;
  bool myMassesStale = false;
  std::vector<int> myShellHandles, myShellHandleStart, myBackNodeHandles;
  std::vector<Eigen::MatrixXd> myShellK;
  mutable std::vector<std::vector<const FemMaterial*>> myAugment, myShellAugment;
  mutable bool myAugmentValid = false;
  bool myComputeNodalStress = false, myComputeNodalStrain = false;
  bool myComputeElementStress = false, myComputeElementStrain = false;
  ComponentList<FemMeshComp>* myMeshes = nullptr;
  FemMeshComp* mySurface = nullptr;
  std::unordered_set<const FemNode3d*> mySurfaceNodes;
  std::unique_ptr<std::vector<BoundaryTriangle>> myBoundary;  ///< null when stale
  // Element and node counts at the last structure change: every add or
  // remove changes one by one and notifies, so a changed count means the
  // surface is stale (or nodes that meshes use may be gone).
  int myElementsSeen = 0, myNodesSeen = 0;
  bool mySurfaceStale = true, myNodesRemoved = false;
  double myDensity = 1000, myParticleDamping = 2, myStiffnessDamping = 0;
  Collidability myCollidability = Collidability::All;
  std::unique_ptr<FemMaterial> myMaterial;
  // Per compile: Jacobian handles, node pairs of each element then nodes.
  std::vector<int> myElementHandles, myElementHandleStart, myNodeHandles;
  // Per step: each element's tangent from the last applyForces.
  std::vector<Eigen::MatrixXd> myK;
  std::vector<Eigen::VectorXd> myF;
  IncompMethod myHardIncomp = IncompMethod::OFF, mySoftIncomp = IncompMethod::AUTO;
  std::vector<NodalRegion> myNodal;  ///< per node, for soft NODAL
  std::unordered_map<const FemNode3d*, int> myNodeIndex;  ///< node → list index, with myNodal
  Eigen::VectorXd myIncompPressures;
  int myHardRows = 0;
};

}  // namespace sinew
