#include "sinew/fem/PointFem3dAttachment.h"

#include <cmath>

#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/PointShellAttachment.h"

namespace sinew {

namespace {
/// Whether natural coordinates s lie in the element's domain (within tol).
bool insideDomain(const ReferenceElement& type, const Vector3d& s, double tol) {
  switch (type.getDomain()) {
    case ReferenceElement::Domain::Tetrahedron:
      return s.minCoeff() >= -tol && s.sum() <= 1 + tol;
    case ReferenceElement::Domain::Prism:
      return s.x() >= -tol && s.y() >= -tol && s.x() + s.y() <= 1 + tol && std::abs(s.z()) <= 1 + tol;
    case ReferenceElement::Domain::Cube:
      return s.cwiseAbs().maxCoeff() <= 1 + tol;
  }
  return false;
}
}  // namespace

bool computeNaturalCoordinates(const FemElement3d& e, const Vector3d& p, Vector3d& s, double tol) {
  const ReferenceElement& type = e.getReferenceElement();
  ReferenceElement::ShapeValues N;
  ReferenceElement::ShapeGradients dNds;
  s = type.getWarpingCoords();
  for (int iter = 0; iter < 50; ++iter) {
    type.computeShape(s, N, dNds);
    Vector3d x = Vector3d::Zero();
    Matrix3d J = Matrix3d::Zero();
    for (int i = 0; i < e.numNodes(); ++i) {
      x += N[i] * e.getNode(i).getPosition();
      J += e.getNode(i).getPosition() * dNds.col(i).transpose();
    }
    const Vector3d ds = J.fullPivLu().solve(p - x);
    s += ds;
    if (!ds.allFinite()) return false;
    if (ds.norm() < 1e-14) break;
  }
  return insideDomain(type, s, tol);
}

PointFem3dAttachment::PointFem3dAttachment(Point& p, const std::vector<FemNode3d*>& nodes,
                                           const std::vector<double>& weights)
    : mySlave(p), myNodes(nodes), myWeights(weights) {
  checkWeights(p, nodes, weights);
}

void PointFem3dAttachment::checkWeights(const Point& p, const std::vector<FemNode3d*>& nodes,
                                        const std::vector<double>& weights) {
  if (nodes.empty() || nodes.size() != weights.size())
    throw ModelError("an FEM point attachment needs one weight per node", p.describe());
  double sum = 0;
  for (double w : weights) sum += w;
  if (!(std::abs(sum - 1) <= 1e-9))
    throw ModelError("FEM point attachment weights must sum to 1, got " + std::to_string(sum), p.describe());
}

PointFem3dAttachment::PointFem3dAttachment(Point& p, const FemElement3d& e) : mySlave(p), myNodes(e.getNodes()) {
  if (!computeElementWeights(e, p.getPosition(), myWeights))
    throw ModelError("no natural coordinates for the point in " + e.describe(), p.describe());
}

bool PointFem3dAttachment::setFromElement(const Vector3d& pos, const FemElement3d& e) {
  std::vector<double> w;
  if (!computeElementWeights(e, pos, w))
    throw ModelError("no natural coordinates for the point in " + e.describe(), mySlave.describe());
  myNodes = e.getNodes();
  myWeights = std::move(w);
  mySlave.setPosition(pos);
  Vector3d s;
  return computeNaturalCoordinates(e, pos, s);
}

void PointFem3dAttachment::setFromFem(const Vector3d& pos, FemModel3d& fem) {
  Vector3d loc;
  const FemElement3d* e = fem.findAttachmentElement(pos, loc);
  if (!e) throw ModelError("cannot attach a point to an FEM model without elements", fem.describe());
  setFromElement(loc, *e);
}

bool computeElementWeights(const FemElement3d& e, const Vector3d& p, std::vector<double>& weights) {
  Vector3d s;
  computeNaturalCoordinates(e, p, s);
  ReferenceElement::ShapeValues N;
  ReferenceElement::ShapeGradients dNds;
  e.getReferenceElement().computeShape(s, N, dNds);
  weights.assign(N.data(), N.data() + e.numNodes());
  return s.allFinite() && N.allFinite();
}

void PointFem3dAttachment::updatePosStates() {
  if (myNodes.empty()) throw ModelError("FEM point attachment has no nodes (call setFromNodes first)", mySlave.describe());
  mySlave.setPosition(weightedSum(myNodes, myWeights, &Point::getPosition));
}

void PointFem3dAttachment::updateVelStates() {
  mySlave.setVelocity(weightedSum(myNodes, myWeights, &Point::getVelocity));
}

FemMarker::~FemMarker() {
  if (myAttachment) myAttachment->disconnect();
}

const PointFem3dAttachment* FemMarker::getAttachment() const {
  return dynamic_cast<const PointFem3dAttachment*>(myAttachment.get());
}

const PointShellAttachment* FemMarker::getShellAttachment() const {
  return dynamic_cast<const PointShellAttachment*>(myAttachment.get());
}

void FemMarker::setFromShell(const ShellElement3d& e) { install(std::make_unique<PointShellAttachment>(*this, e)); }

void FemMarker::install(std::unique_ptr<AttachmentComponent> a) {
  if (myAttachment) myAttachment->disconnect();
  myAttachment = std::move(a);
  myAttachment->connect();
}

void FemMarker::setFromFem(FemModel3d& fem) {
  if (fem.numElements() == 0 && fem.numShellElements() > 0) {
    // Shells alone: the shell whose centroid is nearest.
    const ShellElement3d* best = nullptr;
    double bestDist = INFINITY;
    for (auto& e : fem.getShellElements()) {
      Vector3d c = Vector3d::Zero();
      for (const FemNode3d* n : e.getNodes()) c += n->getPosition() / e.numNodes();
      if ((c - getPosition()).norm() < bestDist) bestDist = (c - getPosition()).norm(), best = &e;
    }
    setFromShell(*best);
    return;
  }
  auto a = std::make_unique<PointFem3dAttachment>(*this);
  a->setFromFem(getPosition(), fem);
  install(std::move(a));
}

bool FemMarker::setFromElement(const FemElement3d& e) {
  auto a = std::make_unique<PointFem3dAttachment>(*this);
  const bool inside = a->setFromElement(getPosition(), e);
  install(std::move(a));
  return inside;
}

void FemMarker::setFromNodes(const std::vector<FemNode3d*>& nodes, const std::vector<double>& weights) {
  install(std::make_unique<PointFem3dAttachment>(*this, nodes, weights));
}

bool FemMarker::setFromNodes(const std::vector<FemNode3d*>& nodes) {
  auto a = std::make_unique<PointFem3dAttachment>(*this);
  if (!a->setFromNodes(getPosition(), nodes)) return false;
  install(std::move(a));
  return true;
}

std::unique_ptr<AttachmentComponent> FemElement3d::createPointAttachment(Point& p) {
  auto a = std::make_unique<PointFem3dAttachment>(p);
  a->setFromElement(p.getPosition(), *this);
  return a;
}

}  // namespace sinew
