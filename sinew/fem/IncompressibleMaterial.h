// IncompressibleMaterial: the base of the materials that support soft
// incompressibility (guide §6.1.3, §6.7.3). The strain energy splits into a
// deviatoric (isochoric) part W̄(C̄), C̄ = J^(−2/3) C, and a bulk potential
// U(J) scaled by the bulk modulus κ, whose pressure is p = dU/dJ (eq. 6.5):
//   QUADRATIC   U = ½κ(J − 1)²,  p = κ(J − 1)        (eq. 6.6, the default)
//   LOGARITHMIC U = ½κ(ln J)²,   p = κ ln J / J      (eq. 6.7)
// The two parts are exposed separately so that a model can evaluate the
// pressure per element or per node (§6.7.1) and add it to the deviatoric
// stress of each integration point; computeStressAndTangent evaluates both
// at the point itself (the FULL method).
#pragma once

#include "sinew/fem/FemMaterial.h"

namespace sinew {

enum class BulkPotential { QUADRATIC, LOGARITHMIC };
template <>
struct EnumNames<BulkPotential> {
  static const std::vector<std::string>& get();
};

class IncompressibleMaterial : public FemMaterial {
  SINEW_DECLARE_PROPERTIES
 public:
  /// Scales κ; derived materials add their own moduli.
  void scaleModuli(double f) override { setBulkModulus(f * myKappa); }
  double getBulkModulus() const { return myKappa; }
  void setBulkModulus(double kappa);
  BulkPotential getBulkPotential() const { return myPotential; }
  void setBulkPotential(BulkPotential potential) { myPotential = potential; }

  /// U(J), p(J) = dU/dJ and dp/dJ of the bulk potential.
  double computeBulkEnergyDensity(double J) const;
  double computePressure(double J) const;
  double computePressureDerivative(double J) const;

  /// The deviatoric part alone: a traceless stress and its tangent.
  virtual void computeDevStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const = 0;
  virtual double computeDevStrainEnergyDensity(const DeformedPoint& def) const = 0;

  /// Adds a pressure p that is held fixed while the point deforms:
  /// σ += p I and D += p (I⊗I − 2𝕀). A pressure that varies with the volume
  /// adds J dp/dJ I⊗I on top (per point), or the equivalent element/nodal
  /// term where the pressure is shared.
  static void addPressureStressAndTangent(Matrix3d& sigma, Matrix6d* D, double p);

  /// Deviatoric part plus the pressure p(J) at the point's own J.
  void computeStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const final;
  double computeStrainEnergyDensity(const DeformedPoint& def) const final;
  bool isIncompressible() const override { return true; }

 protected:
  explicit IncompressibleMaterial(double kappa);

 private:
  double myKappa;
  BulkPotential myPotential = BulkPotential::QUADRATIC;
};

/// Helpers for deviatoric energies written in the isochoric invariants
/// Ī1 = tr b̄ and Ī2 = ½(Ī1² − tr b̄²) of b̄ = J^(−2/3) F Fᵀ.
struct IsochoricInvariants {
  Matrix3d bbar;
  double I1, I2;
};
IsochoricInvariants computeIsochoricInvariants(const DeformedPoint& def);

/// First and second derivatives of W̄(Ī1, Ī2).
struct InvariantDerivatives {
  double W1 = 0, W2 = 0, W11 = 0, W12 = 0, W22 = 0;
};

/// The deviatoric Cauchy stress and spatial tangent of W̄(Ī1, Ī2).
void computeInvariantDevStressAndTangent(Matrix3d& sigma, Matrix6d* D, const IsochoricInvariants& inv,
                                         double J, const InvariantDerivatives& W);

/// The deviatoric part of an incompressible material as a material of its
/// own: the element kernels integrate it while the bulk pressure is taken
/// per element or per node (and shells, on which
/// incompressibility does not act, §6.7).
class DeviatoricPart : public FemMaterial {
 public:
  explicit DeviatoricPart(const IncompressibleMaterial& m) : myMat(m) {}
  const PropertyList& getAllPropertyInfo() const override { return HasProperties::staticPropertyInfo(); }
  void computeStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const override {
    myMat.computeDevStressAndTangent(sigma, D, def);
  }
  double computeStrainEnergyDensity(const DeformedPoint& def) const override {
    return myMat.computeDevStrainEnergyDensity(def);
  }
  std::unique_ptr<FemMaterial> clone() const override { return std::make_unique<DeviatoricPart>(*this); }
  /// A view of another material: scale that one.
  void scaleModuli(double) override {}

 private:
  const IncompressibleMaterial& myMat;
};

}  // namespace sinew
