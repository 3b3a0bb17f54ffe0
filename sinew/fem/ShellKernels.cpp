#include "sinew/fem/ShellKernels.h"

#include <Eigen/LU>
#include <cmath>

#include "sinew/fem/ElementDefinitions.h"
#include "sinew/fem/TensorUtils.h"

namespace sinew {

using namespace fem_detail;

const ReferenceElement& shellReferenceElement(ShellType type) {
  if (type == ShellType::Tri) {
    static const ReferenceElement tri([] {
      ReferenceElement::Definition d = wedgeElementDefinition();
      d.name = "ShellTriElement";
      // 3 in-plane points × 3-point Gauss through the thickness (Table 6.2).
      d.integrationPoints = wedgeIntegrationPoints({{-kGauss3, 5.0 / 9}, {0.0, 8.0 / 9}, {kGauss3, 5.0 / 9}});
      return d;
    }());
    return tri;
  }
  static const ReferenceElement quad([] {
    ReferenceElement::Definition d = hexElementDefinition();  // already 2 × 2 × 2
    d.name = "ShellQuadElement";
    return d;
  }());
  return quad;
}

namespace {

struct MembranePoint {
  double r, s, w;
};
const MembranePoint kTriPoints[3] = {{kTriA, kTriA, 1.0 / 6}, {kTriB, kTriA, 1.0 / 6}, {kTriA, kTriB, 1.0 / 6}};
const MembranePoint kQuadPoints[4] = {
    {-kGauss2, -kGauss2, 1.0}, {kGauss2, -kGauss2, 1.0}, {kGauss2, kGauss2, 1.0}, {-kGauss2, kGauss2, 1.0}};
const double kQuadCorners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};

/// Shape values and (r, s) gradients of the corner nodes at (r, s).
void membraneShape(ShellType type, double r, double s, double* N, Vector3d* dN) {
  if (type == ShellType::Tri) {
    N[0] = 1 - r - s, N[1] = r, N[2] = s;
    dN[0] = {-1, -1, 0}, dN[1] = {1, 0, 0}, dN[2] = {0, 1, 0};
    return;
  }
  for (int i = 0; i < 4; ++i) {
    const double a = kQuadCorners[i][0], b = kQuadCorners[i][1];
    N[i] = 0.25 * (1 + a * r) * (1 + b * s);
    dN[i] = {0.25 * a * (1 + b * s), 0.25 * b * (1 + a * r), 0};
  }
}

int numPoints(ShellType type) { return type == ShellType::Tri ? 3 : 4; }
const MembranePoint& point(ShellType type, int k) { return type == ShellType::Tri ? kTriPoints[k] : kQuadPoints[k]; }
MembranePoint centre(ShellType type) {
  return type == ShellType::Tri ? MembranePoint{1.0 / 3, 1.0 / 3, 0.5} : MembranePoint{0, 0, 4};
}

/// The tangents ∂x/∂r, ∂x/∂s at p and their cross product.
Vector3d tangents(ShellType type, const MembranePoint& p, NodePositions x, Vector3d& a1, Vector3d& a2,
                  double* N = nullptr, Vector3d* dN = nullptr) {
  double Nbuf[4];
  Vector3d dNbuf[4];
  if (!N) N = Nbuf;
  if (!dN) dN = dNbuf;
  membraneShape(type, p.r, p.s, N, dN);
  a1.setZero(), a2.setZero();
  for (int i = 0; i < numShellNodes(type); ++i) a1 += dN[i].x() * x[i], a2 += dN[i].y() * x[i];
  return a1.cross(a2);
}

/// Kinematics of a membrane point: F = [a1 a2 h n̂] [A1 A2 h n̂₀]⁻¹.
void membraneKinematics(ShellType type, const MembranePoint& p, int k, NodePositions rest, NodePositions pos,
                        double h, PointKinematics& pk) {
  double N[4];
  Vector3d dN[4], A1, A2, a1, a2;
  const Vector3d c0 = tangents(type, p, rest, A1, A2, N, dN);
  const Vector3d c = tangents(type, p, pos, a1, a2);
  const double area0 = c0.norm(), area = c.norm();
  if (!(area0 > 0)) throw InvertedElementError(k, area0, true);
  if (!(area > 0)) throw InvertedElementError(k, 0.0, false);
  Matrix3d J0, J;
  J0 << A1, A2, (h / area0) * c0;
  J << a1, a2, (h / area) * c;
  const Matrix3d J0inv = J0.inverse();
  pk.F = J * J0inv;
  pk.J = area / area0;
  pk.detJ0 = h * area0;
  pk.dV = p.w * pk.detJ0;
  for (int i = 0; i < numShellNodes(type); ++i) pk.dNdX[i] = J0inv.transpose() * dN[i];
}

template <class Visit>
void forEachMembranePoint(ShellType type, NodePositions rest, NodePositions pos, double h, const FemMaterial& mat,
                          Visit visit) {
  const int n = numShellNodes(type);
  if (static_cast<int>(rest.size()) != n || static_cast<int>(pos.size()) != n)
    throw ModelError("a membrane needs " + std::to_string(n) + " corner positions");
  if (!(h > 0)) throw ModelError("membrane thickness must be positive, got " + std::to_string(h));
  PointKinematics pk;
  DeformedPoint def;
  if (mat.isCorotated()) {
    membraneKinematics(type, centre(type), numPoints(type), rest, pos, h, pk);
    def.R = polarRotation(pk.F);
  }
  for (int k = 0; k < numPoints(type); ++k) {
    membraneKinematics(type, point(type, k), k, rest, pos, h, pk);
    def.F = pk.F;
    def.J = pk.J;
    visit(k, pk, def);
  }
}

}  // namespace

void computeMembraneForcesAndStiffness(ShellType type, NodePositions rest, NodePositions pos, double h,
                                       const FemMaterial& mat, ElementVector& f, ElementMatrix* K) {
  const int n = numShellNodes(type);
  f.setZero(3 * n);
  if (K) K->setZero(3 * n, 3 * n);
  forEachMembranePoint(type, rest, pos, h, mat, [&](int, const PointKinematics& pk, const DeformedPoint& def) {
    addIntegrationPointTerms(n, pk, def, mat, f, K);
  });
}

double computeMembraneStrainEnergy(ShellType type, NodePositions rest, NodePositions pos, double h,
                                   const FemMaterial& mat) {
  double energy = 0;
  forEachMembranePoint(type, rest, pos, h, mat, [&](int, const PointKinematics& pk, const DeformedPoint& def) {
    energy += mat.computeStrainEnergyDensity(def) * pk.dV;
  });
  return energy;
}

void computeMembranePointStates(ShellType type, NodePositions rest, NodePositions pos, double h,
                                const FemMaterial& mat, std::span<IntegrationPointState> out) {
  forEachMembranePoint(type, rest, pos, h, mat, [&](int k, const PointKinematics& pk, const DeformedPoint& def) {
    out[k] = {pk.F, pk.J, mat.isLinear() ? smallStrain(pk.F, def.R) : greenStrain(pk.F), mat.computeStress(def)};
  });
}

double computeShellArea(ShellType type, NodePositions pos) {
  double area = 0;
  Vector3d a1, a2;
  for (int k = 0; k < numPoints(type); ++k) area += point(type, k).w * tangents(type, point(type, k), pos, a1, a2).norm();
  return area;
}

void computeMembraneMassWeights(ShellType type, NodePositions rest, double* w) {
  const int n = numShellNodes(type);
  double N[4], area = 0;
  Vector3d dN[4], a1, a2;
  for (int i = 0; i < n; ++i) w[i] = 0;
  for (int k = 0; k < numPoints(type); ++k) {
    const double dA = point(type, k).w * tangents(type, point(type, k), rest, a1, a2, N, dN).norm();
    for (int i = 0; i < n; ++i) w[i] += N[i] * dA;
    area += dA;
  }
  for (int i = 0; i < n; ++i) w[i] = area > 0 ? w[i] / area : 1.0 / n;
}

}  // namespace sinew
