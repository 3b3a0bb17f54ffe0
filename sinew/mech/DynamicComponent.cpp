#include "sinew/mech/DynamicComponent.h"

#include <algorithm>
#include <cmath>

namespace sinew {

namespace {
/// Keeps only the largest hard-row error of the rows it is given.
class ErrorProbe : public ConstraintBuilder {
 public:
  explicit ErrorProbe(bool unilateral) : myUnilateral(unilateral) {}
  void beginRow(double dist, double compliance, double, double) override {
    if (compliance != 0) return;  // compliant rows are left to the velocity solve
    maxError = std::max(maxError, myUnilateral ? -dist : std::abs(dist));
  }
  void addEntry(const DynamicComponent&, const Eigen::Ref<const Eigen::RowVectorXd>&) override {}
  double maxError = 0;

 private:
  bool myUnilateral;
};
}  // namespace

double Constrainer::getMaxHardError() {
  ErrorProbe g(false), n(true);
  getBilateralConstraints(g);
  getUnilateralConstraints(n);
  return std::max(g.maxError, n.maxError);
}

}  // namespace sinew
