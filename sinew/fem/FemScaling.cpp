// FemModel3d::scaleDistance and scaleMass (guide §4.2.1): a change of the
// distance or mass unit, applied to everything in the model that carries
// one, by the relationships of Table 4.1.
#include <cmath>
#include <string>

#include "sinew/Error.h"
#include "sinew/fem/FemModel3d.h"

namespace sinew {

namespace {

void checkScale(double s, const char* what, const FemModel3d& fem) {
  if (!(s > 0) || !std::isfinite(s))
    throw ModelError(std::string(what) + " scale must be finite and positive, not " + std::to_string(s),
                     fem.describe());
}

/// The moduli of the elements' own materials (volumetric or shell) by f.
template <class Elements>
void scaleOwnModuli(Elements& elems, double f) {
  for (auto& e : elems)
    if (const FemMaterial* own = e.getOwnMaterial()) {
      auto scaled = own->clone();
      scaled->scaleModuli(f);
      e.setMaterial(*scaled);
    }
}

/// The elements' own densities (volumetric or shell) by f.
template <class Elements>
void scaleOwnDensities(Elements& elems, double f) {
  for (auto& e : elems)
    if (e.hasOwnDensity()) e.setDensity(f * e.getDensity());
}

}  // namespace

void FemModel3d::scaleModuli(double f) {
  myMaterial->scaleModuli(f);
  scaleOwnModuli(*myElements, f);
  scaleOwnModuli(*myShells, f);
  for (auto& b : *myBundles)
    if (b.getMaterial()) b.material().scaleModuli(f);
  myAugmentValid = false;
}

void FemModel3d::scaleDistance(double s) {
  checkScale(s, "distance", *this);
  // A node's rest position carries its back node's along: the back nodes'
  // rest positions are taken first.
  std::vector<Vector3d> backRest;
  for (auto& b : *myBackNodes) backRest.push_back(b.getRestPosition());
  auto scalePoint = [s](Point& p) {
    p.setPosition(s * p.getPosition());
    p.setVelocity(s * p.getVelocity());
    p.setExternalForce(s * p.getExternalForce());  // kg m s⁻²
    if (p.hasTarget()) p.setTargetPosition(s * p.getTargetPosition());
  };
  for (auto& n : *myNodes) {
    scalePoint(n);
    n.setRestPosition(s * n.getRestPosition());
  }
  for (int k = 0; k < myBackNodes->size(); ++k) {
    BackNode3d& b = myBackNodes->get(k);
    scalePoint(b);
    b.setRestPosition(s * backRest[k]);
  }
  for (auto& m : *myMarkers) scalePoint(m);
  const double s3 = s * s * s;
  myDensity /= s3;
  scaleOwnDensities(*myElements, 1 / s3);
  scaleOwnDensities(*myShells, 1 / s3);
  for (auto& e : *myShells) e.setDefaultThickness(s * e.getDefaultThickness());
  scaleModuli(1 / s);
  setGravity(s * getGravity());
  updateNodeMasses();
  for (auto& mc : *myMeshes) mc.updateVertexPositions();
}

void FemModel3d::scaleMass(double s) {
  checkScale(s, "mass", *this);
  for (auto& n : *myNodes) n.setExternalForce(s * n.getExternalForce());
  for (auto& b : *myBackNodes) b.setExternalForce(s * b.getExternalForce());
  for (auto& m : *myMarkers) m.setExternalForce(s * m.getExternalForce());
  myDensity *= s;
  scaleOwnDensities(*myElements, s);
  scaleOwnDensities(*myShells, s);
  scaleModuli(s);
  updateNodeMasses();
}

}  // namespace sinew
