// The rows of the Articulated integrator's loops and limits, shared by
// ArticulatedSolver.cpp and ArticulatedRows.cpp (not a public header).
#pragma once

#include <Eigen/Cholesky>
#include <unordered_map>
#include <vector>

#include "sinew/math/StaticSize.h"
#include "sinew/solver/ArticulatedSolver.h"

namespace sinew {

/// A twist (v, ω) at a point moved to the point r further on: (v + ω × r, ω).
/// Spatial accelerations move the same way.
inline Vector6d shiftMotion(const Vector6d& V, const Vector3d& r) {
  Vector6d W;
  W << V.head<3>() + V.tail<3>().cross(r), V.tail<3>();
  return W;
}

/// A wrench (f, m) at a point moved back to the point r before it:
/// (f, m + r × f), the transpose of shiftMotion.
inline Vector6d shiftForceBack(const Vector6d& F, const Vector3d& r) {
  Vector6d G;
  G << F.head<3>(), F.tail<3>() + r.cross(F.head<3>());
  return G;
}

/// One row: its value is Σ w·V over (at most) two bodies' twists at their origins.
struct ArticulatedSolver::Rows {
  struct Row {
    int link[2] = {-1, -1};
    Vector6d w[2];
    double dist = 0, rate = 0;  ///< φ and Ġu
    double paramValue = 0;      ///< the row's value from non-dynamic frames' motion
    bool unilateral = false;
  };
  /// Which rows a joint gave: a cut joint all of its rows, a tree joint
  /// (link ≥ 0) its unilateral ones.
  struct Source {
    JointBase* joint = nullptr;
    int link = -1;
    int first = 0, numG = 0, numN = 0;
  };
  std::vector<Row> rows;
  std::vector<Source> sources;
  std::vector<double> dists;  ///< a projection pass's errors (rows kept)
  Eigen::MatrixXd K;          ///< G M⁻¹ Gᵀ at the velocity build
  /// K + εI factored, for an active set of all rows (no unilateral row
  /// inactive): loops alone need no other, in the velocity solve and in
  /// every projection pass.
  Eigen::LDLT<Eigen::MatrixXd> allActive;
  Eigen::VectorXd target;     ///< each row's wanted value (bilateral) or bound (unilateral)
  Eigen::VectorXd lambda;     ///< the velocity solve's impulses
  /// Scratch of the solves, kept at its size from step to step: a loop's
  /// rows are solved two or three times a step, and allocations had cost
  /// a tenth of the 8-link loop's step.
  struct Scratch {
    Eigen::MatrixXd Kreg, KA;
    Eigen::VectorXd need, slack, b, x, y0, lambda;
    Eigen::LDLT<Eigen::MatrixXd> ldlt;
    std::vector<char> active;
    std::vector<int> A;
  };
  Scratch scratch;
  std::unordered_map<const DynamicComponent*, int> linkOf;
  int numRows() const { return static_cast<int>(rows.size()); }
};

}  // namespace sinew
