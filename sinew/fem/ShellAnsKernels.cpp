// Regular shells with assumed natural strains for transverse shear: MITC4
// (Dvorkin & Bathe 1984) for ShellQuad and MITC3 (Lee & Bathe 2004) for
// ShellTri, on the solid-shell geometry of ShellKernels.h.
//
// Why: a fully integrated solid shell bends with spurious transverse shear
// (its r–t and s–t strains are wrong away from the edges' midpoints), so
// thin shells lock: a strip of cells 10 thicknesses long bends 2 % of what
// it should. The covariant strains E_rt and E_st are instead sampled at
// tying points where bending produces none and interpolated from there;
// the other four covariant components are those of the solid.
//
// Total Lagrangian form: the covariant strains E_ab = ½(g_a·g_b − G_a·G_b)
// (g_a = ∂x/∂ξ_a, G_a = ∂X/∂ξ_a) give the Cartesian E = G⁻ᵀ E_cov G⁻¹; the
// material sees a deformation U with UᵀU = I + 2E, whose Cauchy stress and
// spatial tangent are pulled back to S and C. Linear materials take the
// small-strain form ε_ab = sym(G_a·Rᵀg_b) − G_a·G_b with the element's
// corotation R (stiffness warping, as their volume elements do).
#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "sinew/fem/ShellKernels.h"
#include "sinew/fem/TensorUtils.h"

namespace sinew {

namespace {

/// Voigt slots of the covariant s–t and r–t strains (pairs (1,2), (0,2)).
constexpr int kST = 4, kRT = 5;

/// A source of an assumed covariant strain: w × component `comp` of the
/// strain at tying frame `frame` (frame 0 is the integration point itself).
struct Term {
  double w;
  int frame, comp;
};

/// The shape gradients and covariant bases at one point of the shell, its
/// covariant strain components and the vectors P their gradients take.
struct NaturalFrame {
  ReferenceElement::ShapeValues N;
  ReferenceElement::ShapeGradients dN;  // ∂N_i/∂ξ_a, 3 × n
  Matrix3d G, g;                        // columns ∂X/∂ξ_a and ∂x/∂ξ_a
  Vector6d E;                           // covariant strains, Voigt order (tensor components)
  Matrix3d P;                           // ∂E_ab/∂x_i = ½(P_a ∂N_i/∂ξ_b + P_b ∂N_i/∂ξ_a)
};

/// The in-plane tying points (frames 1…) of each type.
int numTyingPoints(ShellType type) { return type == ShellType::Quad ? 4 : 3; }
Eigen::Vector2d tyingPoint(ShellType type, int j) {
  static const double quad[4][2] = {{0, -1}, {0, 1}, {-1, 0}, {1, 0}};
  static const double tri[3][2] = {{0.5, 0}, {0, 0.5}, {0.5, 0.5}};
  return type == ShellType::Quad ? Eigen::Vector2d(quad[j][0], quad[j][1]) : Eigen::Vector2d(tri[j][0], tri[j][1]);
}

/// The terms of covariant component c at in-plane point (r, s).
void assumedTerms(ShellType type, int c, double r, double s, std::vector<Term>& terms) {
  terms.clear();
  if (c != kRT && c != kST) {
    terms.push_back({1, 0, c});
  } else if (type == ShellType::Quad) {
    // MITC4: E_rt from the edges s = ∓1 at r = 0, E_st from r = ∓1 at s = 0.
    if (c == kRT) terms = {{0.5 * (1 - s), 1, kRT}, {0.5 * (1 + s), 2, kRT}};
    else terms = {{0.5 * (1 - r), 3, kST}, {0.5 * (1 + r), 4, kST}};
  } else {
    // MITC3: E_rt = e1_rt + c s, E_st = e2_st − c r with c = e2_st − e1_rt − e3_st + e3_rt,
    // tying points 1 = (½, 0), 2 = (0, ½), 3 = (½, ½).
    if (c == kRT) terms = {{1 - s, 1, kRT}, {s, 2, kST}, {-s, 3, kST}, {s, 3, kRT}};
    else terms = {{1 - r, 2, kST}, {r, 1, kRT}, {r, 3, kST}, {-r, 3, kRT}};
  }
}

/// Everything the kernels need at one integration point.
struct AnsPoint {
  int n = 0;
  double dV = 0, J = 1;   // rest volume weight and det F of the solid
  Matrix3d F, R;          // the solid's F; a linear material's corotation
  Matrix3d strain;        // Cartesian Green (or corotated small) strain
  Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, kMaxElementDofs> B;  // δE (engineering Voigt) per dof
  Matrix6d T;             // covariant tensor Voigt → Cartesian engineering Voigt
  std::array<std::vector<Term>, 6> terms;
  std::array<NaturalFrame, 5> frames;
  double tyingZeta = 2;   // the thickness coordinate frames 1… were taken at
  DeformedPoint def;      // what the material sees
};

/// Fills f at natural point xi: Green strains ½(g_a·g_b − G_a·G_b) with
/// P = g, or (linear) corotated small strains sym(G_a·Rᵀg_b) − G_a·G_b with
/// P = R G.
void naturalFrame(const ReferenceElement& e, const Vector3d& xi, NodePositions X, NodePositions x, bool linear,
                  const Matrix3d& Rw, NaturalFrame& f) {
  e.computeShape(xi, f.N, f.dN);
  f.G.setZero();
  f.g.setZero();
  for (int i = 0; i < e.numNodes(); ++i) {
    f.G += X[i] * f.dN.col(i).transpose();
    f.g += x[i] * f.dN.col(i).transpose();
  }
  const Matrix3d GG = f.G.transpose() * f.G;
  Matrix3d Ecov;
  if (linear) {
    const Matrix3d Gg = f.G.transpose() * (Rw.transpose() * f.g);
    Ecov = 0.5 * (Gg + Gg.transpose()) - GG;
    f.P = Rw * f.G;
  } else {
    Ecov = 0.5 * (f.g.transpose() * f.g - GG);
    f.P = f.g;
  }
  f.E = toVoigt(Ecov);
}

/// Fills p for integration point k; `linear` selects the corotated small
/// strain with rotation Rw.
void evaluatePoint(ShellType type, const ReferenceElement& e, int k, NodePositions X, NodePositions x, bool linear,
                   const Matrix3d& Rw, AnsPoint& p) {
  const int n = e.numNodes();
  p.n = n;
  const Vector3d xi = e.getIntegrationPoints()[k].coords;
  naturalFrame(e, xi, X, x, linear, Rw, p.frames[0]);
  if (xi.z() != p.tyingZeta) {  // tying frames depend on the thickness coordinate only
    for (int j = 0; j < numTyingPoints(type); ++j) {
      const Eigen::Vector2d t = tyingPoint(type, j);
      naturalFrame(e, Vector3d(t.x(), t.y(), xi.z()), X, x, linear, Rw, p.frames[j + 1]);
    }
    p.tyingZeta = xi.z();
  }
  const Matrix3d& G0 = p.frames[0].G;
  const double detJ0 = G0.determinant();
  if (!(detJ0 > 0)) throw InvertedElementError(k, detJ0, true);
  const Matrix3d W = G0.inverse();
  p.dV = e.getIntegrationPoints()[k].weight * detJ0;
  p.F = p.frames[0].g * W;
  p.J = p.F.determinant();
  p.R = Rw;
  // Covariant strain components and their gradients with respect to the
  // node positions (world axes): for the pair (a, b) at a frame,
  // ∂E_ab/∂x_i = ½(P_a ∂N_i/∂ξ_b + P_b ∂N_i/∂ξ_a), P = g (Green) or R G.
  Vector6d Ecov = Vector6d::Zero();
  Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, kMaxElementDofs> dEcov =
      Eigen::MatrixXd::Zero(6, 3 * n);
  for (int c = 0; c < 6; ++c) {
    assumedTerms(type, c, xi.x(), xi.y(), p.terms[c]);
    for (const Term& t : p.terms[c]) {
      const NaturalFrame& f = p.frames[t.frame];
      const int a = kVoigtI[t.comp], b = kVoigtJ[t.comp];
      Ecov[c] += t.w * f.E[t.comp];
      for (int i = 0; i < n; ++i)
        dEcov.block<1, 3>(c, 3 * i) += t.w * 0.5 * (f.P.col(a) * f.dN(b, i) + f.P.col(b) * f.dN(a, i)).transpose();
    }
  }
  Vector6d engineering;
  engineering << 1, 1, 1, 2, 2, 2;
  p.T = engineering.asDiagonal() * voigtCongruence(W.transpose());
  p.B = p.T * dEcov;
  const Vector6d Eeng = p.T * Ecov;
  p.strain = fromVoigt((Vector6d() << Eeng.head<3>(), 0.5 * Eeng.tail<3>()).finished());
}

/// The material's stress S and tangent C (Cartesian, material frame) at p;
/// fills p.def.
void materialResponse(int k, const FemMaterial& mat, AnsPoint& p, Vector6d& S, Matrix6d* C) {
  if (p.J <= 0 && !mat.isInvertible()) throw InvertedElementError(k, p.J, false);
  Matrix3d sigma;
  Matrix6d c;
  if (mat.isLinear()) {
    // Small strain: the material sees F = I + ε with no rotation.
    p.def = DeformedPoint(Matrix3d::Identity() + p.strain);
    mat.computeStressAndTangent(sigma, C ? &c : nullptr, p.def);
    S = toVoigt(sigma);
    if (C) *C = c;
    return;
  }
  // Any U with UᵀU = C = I + 2E will do, the materials being objective: the
  // Cholesky factor is the cheapest.
  Eigen::LLT<Matrix3d> llt(Matrix3d::Identity() + 2 * p.strain);
  if (llt.info() != Eigen::Success) throw InvertedElementError(k, 0.0, false);
  const Matrix3d U = llt.matrixU();
  const Matrix3d Uinv = U.inverse();
  p.def = DeformedPoint(U);
  mat.computeStressAndTangent(sigma, C ? &c : nullptr, p.def);
  const Matrix6d Q = voigtCongruence(Uinv);
  S = p.def.J * Q * toVoigt(sigma);
  if (C) *C = p.def.J * Q * c * Q.transpose();
}

template <class Visit>
void forEachAnsPoint(ShellType type, NodePositions rest, NodePositions pos, const FemMaterial& mat, Visit visit) {
  const ReferenceElement& e = shellReferenceElement(type);
  if (static_cast<int>(rest.size()) != e.numNodes() || static_cast<int>(pos.size()) != e.numNodes())
    throw ModelError(std::string(e.getName()) + " needs " + std::to_string(e.numNodes()) + " node positions");
  const bool linear = mat.isLinear();
  const Matrix3d Rw = linear && mat.isCorotated() ? computeWarpingRotation(e, rest, pos) : Matrix3d::Identity();
  AnsPoint p;
  for (int k = 0; k < e.numIntegrationPoints(); ++k) {
    evaluatePoint(type, e, k, rest, pos, linear, Rw, p);
    visit(k, p);
  }
}

/// K += dV Σ_c s_c ∂²E_c/∂x∂x: the initial-stress term, from the
/// covariant stress coefficients s = Tᵀ S.
void addGeometricStiffness(const AnsPoint& p, const Vector6d& S, ElementMatrix& K) {
  const Vector6d s = p.T.transpose() * S;
  Eigen::Matrix<double, ReferenceElement::kMaxNodes, ReferenceElement::kMaxNodes> H;
  H.setZero(p.n, p.n);
  for (int c = 0; c < 6; ++c)
    for (const Term& t : p.terms[c]) {
      const NaturalFrame& f = p.frames[t.frame];
      const int a = kVoigtI[t.comp], b = kVoigtJ[t.comp];
      const double w = s[c] * t.w * 0.5 * p.dV;
      H.topLeftCorner(p.n, p.n) +=
          w * (f.dN.row(a).transpose() * f.dN.row(b) + f.dN.row(b).transpose() * f.dN.row(a));
    }
  for (int i = 0; i < p.n; ++i)
    for (int j = 0; j < p.n; ++j) K.block<3, 3>(3 * i, 3 * j).diagonal().array() += H(i, j);
}

}  // namespace

void computeShellAnsForcesAndStiffness(ShellType type, NodePositions rest, NodePositions pos, const FemMaterial& mat,
                                       ElementVector& f, ElementMatrix* K) {
  const int dofs = 3 * static_cast<int>(pos.size());
  f.setZero(dofs);
  if (K) K->setZero(dofs, dofs);
  Vector6d S;
  Matrix6d C;
  forEachAnsPoint(type, rest, pos, mat, [&](int k, AnsPoint& p) {
    materialResponse(k, mat, p, S, K ? &C : nullptr);
    f.noalias() -= p.dV * (p.B.transpose() * S);
    if (!K) return;
    K->noalias() += p.dV * (p.B.transpose() * (C * p.B));
    if (!mat.isLinear()) addGeometricStiffness(p, S, *K);
  });
  // B·C·B is symmetric in exact arithmetic; keep it so to round-off.
  if (K) *K = 0.5 * (*K + K->transpose());
}

double computeShellAnsStrainEnergy(ShellType type, NodePositions rest, NodePositions pos, const FemMaterial& mat) {
  double energy = 0;
  Vector6d S;
  forEachAnsPoint(type, rest, pos, mat, [&](int k, AnsPoint& p) {
    materialResponse(k, mat, p, S, nullptr);
    energy += mat.computeStrainEnergyDensity(p.def) * p.dV;
  });
  return energy;
}

void computeShellAnsPointStates(ShellType type, NodePositions rest, NodePositions pos, const FemMaterial& mat,
                                std::span<IntegrationPointState> out) {
  Vector6d S;
  forEachAnsPoint(type, rest, pos, mat, [&](int k, AnsPoint& p) {
    materialResponse(k, mat, p, S, nullptr);
    // Cauchy stress in world axes: a linear material's stress turned by
    // the corotation, else the push-forward F S Fᵀ / J of S.
    const Matrix3d sigma = mat.isLinear() ? Matrix3d(p.R * fromVoigt(S) * p.R.transpose())
                                          : Matrix3d(p.F * fromVoigt(S) * p.F.transpose() / p.J);
    out[k] = {p.F, p.J, p.strain, sigma};
  });
}

}  // namespace sinew
