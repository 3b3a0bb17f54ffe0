// Scalar measures of stress and strain tensors, computed on demand for
// display and output (guide §6.10, Table 6.6): von Mises equivalent values,
// principal values and maximum shear.
#pragma once

#include "sinew/math/Spatial.h"

namespace sinew {

/// √(3 J₂) of a symmetric stress, J₂ = ½ s:s with s = dev σ.
double vonMises(const Matrix3d& sigma);
/// √(4/3 J₂) of a symmetric strain: the equivalent strain.
double vonMisesStrain(const Matrix3d& eps);
/// Eigenvalues of a symmetric tensor, largest first.
Vector3d principalValues(const Matrix3d& A);
/// Half the spread of the principal values: the maximum shear.
double maxShear(const Matrix3d& A);
/// The principal value of largest magnitude, with its sign (Table 6.6's
/// "maximum absolute value principal" stress or strain, MAPStress).
double maxAbsPrincipalValue(const Matrix3d& A);

}  // namespace sinew
