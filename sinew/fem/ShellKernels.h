// Shell element kernels (guide §6.1.2.3, Table 6.2): the reference
// geometry, quadrature and element forces of ShellTriElement and
// ShellQuadElement in both forms.
//
// A regular (bending) shell follows the extensible-director, front/back-node
// formulation of FEBio: each node carries a director d, and the shell fills
// x(r, s, t) = Σ N_i(r, s) (x_i − ½(1 − t) d_i), t ∈ [−1, 1], from the back
// surface (the back nodes x_i − d_i) to the front (the nodes x_i). That is a
// linear wedge (triangle) or hexahedron (quad) spanned by the back and front
// nodes, so its forces, exact tangent and energy are those of ElementKernels
// on a shell ReferenceElement with the shell's own rule: 3 × 3 points
// (ShellTri) or 2 × 2 × 2 (ShellQuad), Gauss–Legendre through the thickness.
// That solid form locks in bending when cells are long against the
// thickness, so by default regular shells take their transverse shear
// strains from tying points instead (MITC4/MITC3,
// computeShellAnsForcesAndStiffness in ShellAnsKernels.cpp).
//
// A membrane has no director. It takes an inferred one along the unit
// normal n̂ with length equal to the thickness h: at each of its 3 or 4
// mid-surface points ∂x/∂t = h n̂, so F maps the rest normal onto the
// current one and leaves the thickness unstretched, and the point weight is
// area × h. Its forces are −∂E/∂x exactly for isotropic materials (the
// stress then has n̂ as a principal direction, so the rotation of n̂ does no
// work); its tangent leaves out the derivative of n̂, which the membrane's
// in-plane stiffness does not need (Newton and implicit steps still
// converge, a little more slowly under large normal stress).
#pragma once

#include "sinew/fem/ElementKernels.h"

namespace sinew {

enum class ShellType { Tri, Quad };

/// The solid-shell reference element of a regular shell: 6 (Tri: back
/// nodes 0–2 at t = −1, front 3–5 at t = +1, as WedgeElement) or 8 (Quad:
/// front 0–3 at t = +1, back 4–7 at t = −1, as HexElement) nodes, and the
/// shell rule of 9 or 8 points.
const ReferenceElement& shellReferenceElement(ShellType type);

/// Forces f and tangent K (if given) of a regular shell whose transverse
/// shear strains are assumed (MITC4 for Quad, MITC3 for Tri;
/// ShellAnsKernels.cpp), at rest and current solid-shell node positions;
/// throws InvertedElementError as the volume kernels do.
void computeShellAnsForcesAndStiffness(ShellType type, NodePositions rest, NodePositions pos, const FemMaterial& mat,
                                       ElementVector& f, ElementMatrix* K);
/// Strain energy of that shell, of which the forces are minus the gradient.
double computeShellAnsStrainEnergy(ShellType type, NodePositions rest, NodePositions pos, const FemMaterial& mat);
/// Its strain (with the assumed shears) and Cauchy stress at each
/// integration point.
void computeShellAnsPointStates(ShellType type, NodePositions rest, NodePositions pos, const FemMaterial& mat,
                                std::span<IntegrationPointState> out);

/// Number of corner nodes (3 or 4) and of membrane points (3 or 4).
inline int numShellNodes(ShellType type) { return type == ShellType::Tri ? 3 : 4; }

/// Membrane forces f (3n) and tangent K at rest and current corner
/// positions (n = 3 or 4), thickness h; throws InvertedElementError where
/// the membrane folds over (det F ≤ 0) or is degenerate at rest.
void computeMembraneForcesAndStiffness(ShellType type, NodePositions rest, NodePositions pos, double h,
                                       const FemMaterial& mat, ElementVector& f, ElementMatrix* K);
/// Strain energy of a membrane (∫ W over its virtual volume).
double computeMembraneStrainEnergy(ShellType type, NodePositions rest, NodePositions pos, double h,
                                   const FemMaterial& mat);
/// Mid-surface area Σ_k w_k |∂x/∂r × ∂x/∂s| at the given corners.
double computeShellArea(ShellType type, NodePositions pos);
/// Fraction of a membrane's mass lumped on each corner (∫ N_i dA / A).
void computeMembraneMassWeights(ShellType type, NodePositions rest, double* w);
/// Strain and stress at each membrane point (out.size() ≥ 3 or 4).
void computeMembranePointStates(ShellType type, NodePositions rest, NodePositions pos, double h,
                                const FemMaterial& mat, std::span<IntegrationPointState> out);

}  // namespace sinew
