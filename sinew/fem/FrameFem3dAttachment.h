// FrameFem3dAttachment (guide §6.6, §3.6.3): a frame or rigid body attached
// to FEM nodes. Its origin is the weighted node sum p = Σ w_k x_k (eq. 6.3);
// its orientation is the rotation R of the polar decomposition F = R·H of a
// deformation gradient F = Σ x_k g_kᵀ at the attachment, times the fixed
// offset R_FD found when attaching:
//
//  - element-based: w_k are the element's shape functions at the origin's
//    natural coordinates and g_k their rest (material) gradients ∇_X N_k, so
//    F is the element's deformation gradient there;
//  - nodal-based: g_k = c_k (X_k − X̄) from the rest positions X_k, so R is
//    the rotation of the weighted Procrustes fit of the rest nodes to the
//    current ones (this also handles nodes of several elements); the fit
//    weights c_k are the w_k, made positive and normalized.
//
// The frame's twist is linear in the node velocities v_k (exactly, not by
// linearization): v = Σ w_k v_k and, with B = tr(H)·I − H,
//     ω = R B⁻¹ Σ_k [g_k] Rᵀ v_k,
// the derivative of the polar rotation. Forces and moments on the frame
// pass to the nodes through its transpose, so they keep their resultant
// force and moment.
#pragma once

#include <vector>

#include "sinew/fem/FemElement3d.h"
#include "sinew/mech/Attachments.h"

namespace sinew {

class FemModel3d;

class FrameFem3dAttachment : public AttachmentComponent {
 public:
  /// An attachment of `frame`; set it with one of the setFrom methods.
  explicit FrameFem3dAttachment(Frame& frame);
  /// Attached to `fem` at the frame's current pose (setFromFem).
  FrameFem3dAttachment(Frame& frame, FemModel3d& fem);

  /// Element-based, with the frame at pose TFW: false if TFW's origin is
  /// outside elem (the shape functions are then extrapolated).
  bool setFromElement(const RigidTransform3d& TFW, const FemElement3d& elem);
  /// Element-based, on the element containing TFW's origin, else the one
  /// under the nearest point of fem's surface (the frame is not moved).
  void setFromFem(const RigidTransform3d& TFW, FemModel3d& fem);
  /// Nodal-based with explicit weights (summing to 1). TFW gives the
  /// orientation, which nodes and weights alone do not fix.
  void setFromNodes(const RigidTransform3d& TFW, const std::vector<FemNode3d*>& nodes,
                    const std::vector<double>& weights);
  /// Nodal-based with weights computed from TFW's origin as for a point
  /// (computeNodalWeights, §6.4.8); false, leaving the attachment as it
  /// was, if the nodes cannot reproduce the origin.
  bool setFromNodes(const RigidTransform3d& TFW, const std::vector<FemNode3d*>& nodes);

  DynamicComponent& getSlave() const override { return myFrame; }
  int numMasters() const override { return static_cast<int>(myNodes.size()); }
  DynamicComponent& getMaster(int i) const override;
  /// The 6×3 block ∂(v, ω)/∂v_i.
  void getMasterJacobian(int i, Block& J) const override;
  /// (0, ω̇) at fixed node velocities: the J̇u of the frame's twist.
  void getVelocityProduct(BlockVec& a) const override;
  void updatePosStates() override;
  void updateVelStates() override;

  Frame& getFrame() const { return myFrame; }
  const std::vector<FemNode3d*>& getNodes() const { return myNodes; }
  const std::vector<double>& getWeights() const { return myWeights; }
  /// The element of an element-based attachment; nullptr if nodal-based.
  const FemElement3d* getElement() const { return myElement; }
  /// F = Σ x_k g_kᵀ at the current node positions.
  Matrix3d computeDeformationGradient() const;

 private:
  /// R, H = sym(RᵀF) and B⁻¹ at the current node positions.
  struct Polar {
    Matrix3d R, H, invB;
  };
  Polar computePolar() const;
  /// ω_l = Rᵀω for node velocities v (in the polar frame's axes).
  Vector3d localAngularVelocity(const Polar& P) const;
  /// Common end of every setFrom: checks the support, fixes R_FD from TFW.
  void setSupport(const RigidTransform3d& TFW, const std::vector<FemNode3d*>& nodes, std::vector<double> weights,
                  std::vector<Vector3d> gradients, const FemElement3d* elem);

  Frame& myFrame;
  const FemElement3d* myElement = nullptr;
  std::vector<FemNode3d*> myNodes;
  std::vector<double> myWeights;
  std::vector<Vector3d> myGradients;              ///< g_k, so that F = Σ x_k g_kᵀ
  Matrix3d myRFD = Matrix3d::Identity();          ///< frame rotation in the polar frame
};

}  // namespace sinew
