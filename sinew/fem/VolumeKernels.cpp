#include "sinew/fem/VolumeKernels.h"

namespace sinew {

namespace {
/// Calls f(w_k det_k, b) at each integration point, b[i] the spatial
/// gradient of shape function i.
template <class F>
void forEachPoint(const ReferenceElement& elem, NodePositions pos, F&& f) {
  const int n = elem.numNodes();
  NodeGradients b;
  for (int k = 0; k < elem.numIntegrationPoints(); ++k) {
    const ReferenceElement::ShapeGradients& dNds = elem.getShapeGradients(k);
    Matrix3d J = Matrix3d::Zero();
    for (int i = 0; i < n; ++i) J += pos[i] * dNds.col(i).transpose();
    const double det = J.determinant();
    const Matrix3d JinvT = J.inverse().transpose();
    for (int i = 0; i < n; ++i) b[i] = JinvT * dNds.col(i);
    f(elem.getIntegrationPoints()[k].weight * det, b);
  }
}
}  // namespace

double computeVolumeGradient(const ReferenceElement& elem, NodePositions pos, NodeGradients& grad) {
  const int n = elem.numNodes();
  for (int i = 0; i < n; ++i) grad[i].setZero();
  double vol = 0;
  forEachPoint(elem, pos, [&](double wdet, const NodeGradients& b) {
    vol += wdet;
    for (int i = 0; i < n; ++i) grad[i] += wdet * b[i];
  });
  return vol;
}

void addVolumeHessian(const ReferenceElement& elem, NodePositions pos, double s, ElementMatrix& K) {
  const int n = elem.numNodes();
  forEachPoint(elem, pos, [&](double wdet, const NodeGradients& b) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        K.block<3, 3>(3 * i, 3 * j) += (s * wdet) * (b[i] * b[j].transpose() - b[j] * b[i].transpose());
  });
}

}  // namespace sinew
