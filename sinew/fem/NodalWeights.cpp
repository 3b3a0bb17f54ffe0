// Nodal-based attachments (guide §6.4.8): automatic weights from a point
// and a set of nodes, and PointFem3dAttachment::setFromNodes.
#include <cmath>

#include "sinew/fem/PointFem3dAttachment.h"
#include "sinew/math/LeastNorm.h"

namespace sinew {

bool computeNodalWeights(const Vector3d& pos, const std::vector<FemNode3d*>& nodes, std::vector<double>& weights) {
  const int n = static_cast<int>(nodes.size());
  if (n == 0 || !pos.allFinite()) return false;
  Eigen::VectorXd d(n);
  for (int k = 0; k < n; ++k) d[k] = (nodes[k]->getPosition() - pos).norm();
  const double dmax = d.maxCoeff();
  // Inverse-distance start (eq. 6.4 of §6.4.8): 1 at pos, ½ at the farthest node.
  Eigen::VectorXd alpha = dmax > 0 ? Eigen::VectorXd(dmax / (d.array() + dmax)) : Eigen::VectorXd::Ones(n);
  // Normalized first, so the correction below only has to move the centre
  // of the weights onto pos: a small change that keeps the weights positive
  // when the nodes surround pos (unnormalized, it would subtract about
  // (Σα − 1)/n from every weight and make the far ones negative).
  alpha /= alpha.sum();
  // Conditions A w = b: Σ w_k = 1 and Σ w_k (x_k − pos) = 0. The smallest
  // correction of α that meets them is α + A⁺ (b − A α); the pseudo-inverse
  // also covers nodes that are coplanar with pos (rank 3).
  Eigen::Matrix<double, 4, Eigen::Dynamic> A(4, n);
  for (int k = 0; k < n; ++k) {
    A(0, k) = 1;
    A.block<3, 1>(1, k) = nodes[k]->getPosition() - pos;
  }
  const Eigen::Vector4d b(1, 0, 0, 0);
  const Eigen::VectorXd w = alpha + leastNormSolve(A, b - A * alpha);
  // The conditions hold only if pos lies in the span of the nodes.
  const Eigen::Vector4d r = A * w - b;
  const double scale = std::max(dmax, 1e-300);
  if (!w.allFinite() || std::abs(r[0]) > 1e-9 || r.tail<3>().norm() > 1e-9 * scale) return false;
  weights.assign(w.data(), w.data() + n);
  return true;
}

void PointFem3dAttachment::setFromNodes(const std::vector<FemNode3d*>& nodes, const std::vector<double>& weights) {
  checkWeights(mySlave, nodes, weights);
  myNodes = nodes;
  myWeights = weights;
}

bool PointFem3dAttachment::setFromNodes(const Vector3d& pos, const std::vector<FemNode3d*>& nodes) {
  std::vector<double> w;
  if (!computeNodalWeights(pos, nodes, w)) return false;
  setFromNodes(nodes, w);
  return true;
}

}  // namespace sinew
