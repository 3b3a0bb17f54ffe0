// A run-time size as a compile-time constant, for kernels that want
// fixed-size Eigen blocks: a block factorization's groups
// (BlockCholesky), a joint's degrees of freedom (ArticulatedSolver).
#pragma once

#include <type_traits>

namespace sinew {

/// Calls f(std::integral_constant<int, N>()) with N = n for 0 ≤ n ≤ 6, and
/// with N = 0 for any other n (the caller's "read the sizes at run time").
template <class F>
void withStaticSize(int n, F&& f) {
  switch (n) {
    case 1: f(std::integral_constant<int, 1>()); break;
    case 2: f(std::integral_constant<int, 2>()); break;
    case 3: f(std::integral_constant<int, 3>()); break;
    case 4: f(std::integral_constant<int, 4>()); break;
    case 5: f(std::integral_constant<int, 5>()); break;
    case 6: f(std::integral_constant<int, 6>()); break;
    default: f(std::integral_constant<int, 0>());
  }
}

}  // namespace sinew
