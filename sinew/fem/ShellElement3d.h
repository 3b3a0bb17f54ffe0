// Shell elements (guide §6.1.2.3, Table 6.2): ShellTriElement (3 nodes, 9
// integration points, 3 as a membrane) and ShellQuadElement (4 nodes, 8
// points, 4 as a membrane), with the ShellElement3d base that adds the
// `defaultThickness` property (default 0.01) to the density and material
// every element has. A regular shell bends: its nodes carry directors and
// its mechanics are those of the solid spanned by its nodes and their back
// nodes (ShellKernels.h), with transverse shear strains from tying points
// (MITC4/MITC3) unless `assumedShearStrain` is turned off. A membrane
// (`membrane` = true in the constructor) has no bending stiffness and no
// directors; it takes its virtual thickness from defaultThickness.
// FemModel3d keeps shells in its `shellElements` list (getShellElements(),
// addShellElement()). Shell faces are part of the model's generated
// surface, points and markers attach to shells (PointShellAttachment), and
// shells report stress and strain (§6.10).
//
// Incompressibility (§6.7) does not act on shells: hard volume constraints
// skip them, and an incompressible material acts through its deviatoric
// part only.
#pragma once

#include <memory>
#include <span>

#include "sinew/fem/FemElement3dBase.h"
#include "sinew/fem/ShellKernels.h"
#include "sinew/fem/StressStrainOutput.h"
#include "sinew/mech/PointAttachable.h"

namespace sinew {

class ShellElement3d : public FemElement3dBase, public HasStressStrain, public PointAttachable {
  SINEW_DECLARE_PROPERTIES
 public:
  static constexpr double kDefaultThickness = 0.01;
  /// nodes counter-clockwise about the outward normal (3 or 4).
  ShellElement3d(ShellType type, const std::vector<FemNode3d*>& nodes, double thickness, bool membrane);
  /// A ShellTriElement or ShellQuadElement from 3 or 4 nodes; `flipped`
  /// reverses their order (and so the normal).
  static std::unique_ptr<ShellElement3d> createElement(const std::vector<FemNode3d*>& nodes,
                                                       double thickness = kDefaultThickness, bool membrane = false,
                                                       bool flipped = false);

  ShellType getShellType() const { return myType; }
  bool isMembrane() const { return myMembrane; }
  bool isShell() const override { return true; }
  const char* getTypeName() const override;
  /// 9 or 8 for regular shells, 3 or 4 for membranes (Table 6.2).
  int numIntegrationPoints() const override;
  int numPlanarIntegrationPoints() const { return numShellNodes(myType); }

  double getDefaultThickness() const { return myThickness; }
  /// Sets the thickness; the model recomputes rest directors that were not
  /// set by hand, and masses.
  void setDefaultThickness(double h);

  /// Whether a regular shell takes its transverse shear strains from tying
  /// points (MITC4/MITC3, default true) rather than from the solid, which
  /// locks in bending when cells are long against the thickness. Membranes
  /// have no transverse shear and ignore it.
  bool getAssumedShearStrain() const { return myAssumedShear; }
  void setAssumedShearStrain(bool enable) { myAssumedShear = enable; }

  /// Rest volume: of the solid between back and front nodes (regular), or
  /// area × thickness (membrane).
  double getRestVolume() const override;
  double computeVolume() const override;
  double computeRestArea() const;
  double computeArea() const;
  /// The element's vector area at rest (½ Σ of the corner cross products):
  /// its normal times its area, for default directors.
  Vector3d computeRestVectorArea() const;

  /// The points the element's forces act on: the solid-shell order of
  /// shellReferenceElement (back and front nodes) for a regular shell, the
  /// corner nodes for a membrane. Back nodes exist once the element is in a
  /// model.
  int numDofNodes() const { return myMembrane ? numNodes() : 2 * numNodes(); }
  Particle& getDofNode(int i) const;
  /// Fraction of the element's mass lumped on each dof node.
  void getMassWeights(double* w) const;

  /// Forces f and (if K is given) tangent K = −∂f/∂x of material mat over
  /// the dof nodes, at the current positions; ModelError naming the element
  /// if it is inverted.
  void computeForcesAndStiffness(const FemMaterial& mat, ElementVector& f, ElementMatrix* K) const;
  double computeStrainEnergy(const FemMaterial& mat) const;
  /// Strain and Cauchy stress at each integration point, of the element's
  /// material or of mat.
  std::vector<IntegrationPointState> computeIntegrationPointStates() const;
  std::vector<IntegrationPointState> computeIntegrationPointStates(const FemMaterial& mat) const;
  /// The weights over the dof points (getDofNode order) of the point at p:
  /// the shape functions of a regular shell's solid at p's natural
  /// coordinates (Newton from the centre, extrapolated if p is outside), or
  /// of a membrane's corners at p's projection onto its surface. `at`
  /// receives the point they give (p itself for a regular shell). ModelError
  /// if the coordinates cannot be found.
  std::vector<double> computeDofWeights(const Vector3d& p, Vector3d& at) const;
  /// A point attachment to this shell at p's position (PointShellAttachment),
  /// for `mech.attachPoint(p, shell)`.
  std::unique_ptr<AttachmentComponent> createPointAttachment(Point& p) override;

  /// Values at the integration points carried to the corner nodes: for a
  /// regular shell by its solid's extrapolation matrix (the front nodes'
  /// values), for a membrane the mean over its points.
  void extrapolateToCorners(std::span<const Matrix3d> atPoints, std::span<Matrix3d> atCorners) const;

 private:
  using DofArray = std::array<Vector3d, ReferenceElement::kMaxNodes>;
  int getDofPositions(DofArray& rest, DofArray& pos) const;
  /// Index of corner i's front and back node among the dof nodes.
  int frontIndex(int i) const;
  int backIndex(int i) const;

  ShellType myType;
  double myThickness;
  bool myMembrane;
  bool myAssumedShear = true;
};

/// The 3-node triangular shell (§6.1.2.3).
class ShellTriElement : public ShellElement3d {
 public:
  ShellTriElement(FemNode3d* n0, FemNode3d* n1, FemNode3d* n2, double thickness = kDefaultThickness,
                  bool membrane = false)
      : ShellElement3d(ShellType::Tri, {n0, n1, n2}, thickness, membrane) {}
};

/// The 4-node quadrilateral shell (§6.1.2.3).
class ShellQuadElement : public ShellElement3d {
 public:
  ShellQuadElement(FemNode3d* n0, FemNode3d* n1, FemNode3d* n2, FemNode3d* n3, double thickness = kDefaultThickness,
                   bool membrane = false)
      : ShellElement3d(ShellType::Quad, {n0, n1, n2, n3}, thickness, membrane) {}
};

}  // namespace sinew
