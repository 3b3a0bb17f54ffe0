#include "sinew/fem/FrameFem3dAttachment.h"

#include <Eigen/Dense>
#include <cmath>

#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/TensorUtils.h"

namespace sinew {

namespace {
/// The axial vector a of a skew matrix: M = [a].
Vector3d axial(const Matrix3d& M) { return 0.5 * Vector3d(M(2, 1) - M(1, 2), M(0, 2) - M(2, 0), M(1, 0) - M(0, 1)); }
}  // namespace

FrameFem3dAttachment::FrameFem3dAttachment(Frame& frame) : myFrame(frame) {}

FrameFem3dAttachment::FrameFem3dAttachment(Frame& frame, FemModel3d& fem) : myFrame(frame) {
  setFromFem(frame.getPose(), fem);
}

DynamicComponent& FrameFem3dAttachment::getMaster(int i) const { return *myNodes[i]; }

bool FrameFem3dAttachment::setFromElement(const RigidTransform3d& TFW, const FemElement3d& elem) {
  Vector3d s;
  const bool inside = computeNaturalCoordinates(elem, TFW.p, s);
  ReferenceElement::ShapeValues N;
  ReferenceElement::ShapeGradients dNds;
  elem.getReferenceElement().computeShape(s, N, dNds);
  // Material gradients ∇_X N_k = J0⁻ᵀ ∇_s N_k, with the rest Jacobian J0 at s.
  Matrix3d J0 = Matrix3d::Zero();
  for (int k = 0; k < elem.numNodes(); ++k) J0 += elem.getNode(k).getRestPosition() * dNds.col(k).transpose();
  if (!(std::abs(J0.determinant()) > 1e-14 * std::pow(J0.norm(), 3)))
    throw ModelError("cannot attach a frame: element " + elem.describe() + " is degenerate at rest", myFrame.describe());
  const Matrix3d invJ0T = J0.inverse().transpose();
  std::vector<Vector3d> g(elem.numNodes());
  for (int k = 0; k < elem.numNodes(); ++k) g[k] = invJ0T * dNds.col(k);
  setSupport(TFW, elem.getNodes(), std::vector<double>(N.data(), N.data() + elem.numNodes()), std::move(g), &elem);
  return inside;
}

void FrameFem3dAttachment::setFromFem(const RigidTransform3d& TFW, FemModel3d& fem) {
  // The element a point at the origin would attach to: the containing one,
  // else the one under the nearest surface point. Unlike a point, the frame
  // stays where it is (its weights extrapolate that element).
  Vector3d onSurface;
  const FemElement3d* e = fem.findAttachmentElement(TFW.p, onSurface);
  if (!e) throw ModelError("cannot attach a frame to an FEM model without elements", fem.describe());
  setFromElement(TFW, *e);
}

void FrameFem3dAttachment::setFromNodes(const RigidTransform3d& TFW, const std::vector<FemNode3d*>& nodes,
                                        const std::vector<double>& weights) {
  if (nodes.empty() || nodes.size() != weights.size())
    throw ModelError("an FEM frame attachment needs one weight per node", myFrame.describe());
  for (auto* n : nodes)
    if (!n) throw ModelError("an FEM frame attachment was given a null node", myFrame.describe());
  // Procrustes: g_k = c_k (X_k − X̄), so F = Σ x_k g_kᵀ = Σ c_k (x_k − x̄)(X_k − X̄)ᵀ
  // (Σ g_k = 0), whose polar rotation best maps the rest nodes onto the
  // current ones in the c-weighted least-squares sense. The fit weights
  // c_k = |w_k| / Σ|w_j| equal w_k when all are positive; weights that
  // reproduce an origin outside the nodes are partly negative, and would
  // make the fit's moment matrix indefinite.
  double absSum = 0;
  for (double w : weights) absSum += std::abs(w);
  std::vector<double> c(weights.size());
  for (size_t k = 0; k < c.size(); ++k) c[k] = std::abs(weights[k]) / absSum;
  Vector3d Xbar = Vector3d::Zero();
  for (size_t k = 0; k < nodes.size(); ++k) Xbar += c[k] * nodes[k]->getRestPosition();
  std::vector<Vector3d> g(nodes.size());
  for (size_t k = 0; k < nodes.size(); ++k) g[k] = c[k] * (nodes[k]->getRestPosition() - Xbar);
  setSupport(TFW, nodes, weights, std::move(g), nullptr);
}

bool FrameFem3dAttachment::setFromNodes(const RigidTransform3d& TFW, const std::vector<FemNode3d*>& nodes) {
  for (auto* n : nodes)
    if (!n) throw ModelError("an FEM frame attachment was given a null node", myFrame.describe());
  // The same weights as a nodal-based point attachment (§6.4.8).
  std::vector<double> w;
  if (!computeNodalWeights(TFW.p, nodes, w)) return false;
  setFromNodes(TFW, nodes, w);
  return true;
}

void FrameFem3dAttachment::setSupport(const RigidTransform3d& TFW, const std::vector<FemNode3d*>& nodes,
                                      std::vector<double> weights, std::vector<Vector3d> gradients,
                                      const FemElement3d* elem) {
  double sum = 0;
  for (double w : weights) sum += w;
  if (!(std::abs(sum - 1) <= 1e-9))
    throw ModelError("FEM frame attachment weights must sum to 1, got " + std::to_string(sum), myFrame.describe());
  // Validate before changing anything, so a failed call leaves the attachment as it was.
  Matrix3d F = Matrix3d::Zero();
  for (size_t k = 0; k < nodes.size(); ++k) F += nodes[k]->getPosition() * gradients[k].transpose();
  const Vector3d sv = F.jacobiSvd().singularValues();
  // ω is defined while B = tr(H)·I − H is invertible: two singular values
  // must be non-zero (nodes not all on a line) and F must not be inverted.
  if (!(sv[1] > 1e-8 * sv[0]) || !(F.determinant() > 0))
    throw ModelError("cannot attach a frame: its nodes do not fix an orientation (collinear, too few, or inverted)",
                     myFrame.describe());
  myNodes = nodes;
  myWeights = std::move(weights);
  myGradients = std::move(gradients);
  myElement = elem;
  myRFD = polarRotation(F).transpose() * TFW.R;
  if (myFrame.getAttachment() == this) {
    updatePosStates();
    updateVelStates();
    if (auto* p = getParent()) p->componentStructureChanged();  // the masters changed
  }
}

Matrix3d FrameFem3dAttachment::computeDeformationGradient() const {
  Matrix3d F = Matrix3d::Zero();
  for (size_t k = 0; k < myNodes.size(); ++k) F += myNodes[k]->getPosition() * myGradients[k].transpose();
  return F;
}

FrameFem3dAttachment::Polar FrameFem3dAttachment::computePolar() const {
  Polar P;
  const Matrix3d F = computeDeformationGradient();
  P.R = polarRotation(F);
  const Matrix3d H = P.R.transpose() * F;
  P.H = 0.5 * (H + H.transpose());
  P.invB = (P.H.trace() * Matrix3d::Identity() - P.H).inverse();
  return P;
}

Vector3d FrameFem3dAttachment::localAngularVelocity(const Polar& P) const {
  // Rᵀ Ḟ = [ω_l] H + Ḣ; its skew part gives B ω_l = Σ g_k × (Rᵀ v_k).
  Vector3d y = Vector3d::Zero();
  for (size_t k = 0; k < myNodes.size(); ++k) y += myGradients[k].cross(P.R.transpose() * myNodes[k]->getVelocity());
  return P.invB * y;
}

void FrameFem3dAttachment::getMasterJacobian(int i, Block& J) const {
  const Polar P = computePolar();
  J.setZero(6, 3);
  J.topRows<3>() = myWeights[i] * Matrix3d::Identity();
  J.bottomRows<3>() = P.R * P.invB * skew(myGradients[i]) * P.R.transpose();
}

void FrameFem3dAttachment::getVelocityProduct(BlockVec& a) const {
  // d/dt of B ω_l = y at fixed node velocities (F̈ = 0): with Ṙ = [ω]R,
  // ẏ = −axial(A − Aᵀ) for A = [ω_l] Rᵀ Ḟ, Ḣ = RᵀḞ − [ω_l] H, Ḃ = tr(Ḣ)I − Ḣ,
  // so ω̇_l = B⁻¹(ẏ − Ḃ ω_l) and ω̇ = R ω̇_l (the term ω × ω vanishes).
  const Polar P = computePolar();
  Matrix3d Fdot = Matrix3d::Zero();
  for (size_t k = 0; k < myNodes.size(); ++k) Fdot += myNodes[k]->getVelocity() * myGradients[k].transpose();
  const Vector3d wl = localAngularVelocity(P);
  const Matrix3d RtFdot = P.R.transpose() * Fdot;
  const Matrix3d A = skew(wl) * RtFdot;
  const Vector3d ydot = -axial(A - A.transpose());
  Matrix3d Hdot = RtFdot - skew(wl) * P.H;
  Hdot = 0.5 * (Hdot + Hdot.transpose());
  const Matrix3d Bdot = Hdot.trace() * Matrix3d::Identity() - Hdot;
  a.setZero(6);
  a.tail<3>() = P.R * (P.invB * (ydot - Bdot * wl));
}

void FrameFem3dAttachment::updatePosStates() {
  Vector3d p = Vector3d::Zero();
  for (size_t k = 0; k < myNodes.size(); ++k) p += myWeights[k] * myNodes[k]->getPosition();
  myFrame.setPose(RigidTransform3d(p, polarRotation(computeDeformationGradient()) * myRFD));
}

void FrameFem3dAttachment::updateVelStates() {
  const Polar P = computePolar();
  Twist tw = Twist::Zero();
  for (size_t k = 0; k < myNodes.size(); ++k) tw.head<3>() += myWeights[k] * myNodes[k]->getVelocity();
  tw.tail<3>() = P.R * localAngularVelocity(P);
  myFrame.setVelocity(tw);
}

// FrameAttachable for FEM models and elements (§6.6): element-based attachments.
std::unique_ptr<AttachmentComponent> FemModel3d::createFrameAttachment(Frame& frame, const RigidTransform3d& TFW) {
  auto a = std::make_unique<FrameFem3dAttachment>(frame);
  a->setFromFem(TFW, *this);
  return a;
}

std::unique_ptr<AttachmentComponent> FemElement3d::createFrameAttachment(Frame& frame, const RigidTransform3d& TFW) {
  auto a = std::make_unique<FrameFem3dAttachment>(frame);
  a->setFromElement(TFW, *this);
  return a;
}

}  // namespace sinew
