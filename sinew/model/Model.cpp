#include "sinew/model/Model.h"

#include <limits>

namespace sinew {

SINEW_PROPERTIES(Model, Component) {
  list.add<Model>("maxStepSize", "largest step size for this model (<= 0: the root's)",
                  &Model::getMaxStepSize, &Model::setMaxStepSize)
      .setDefault(-1.0);
}

double Model::getEnergy() const { return std::numeric_limits<double>::quiet_NaN(); }

SINEW_PROPERTIES(ModelAgent, Component) {
  list.add<ModelAgent>("active", "whether the agent is applied", &ModelAgent::isActive,
                       &ModelAgent::setActive)
      .setDefault(true);
}

SINEW_PROPERTIES(Probe, ModelAgent) {
  list.add<Probe>("startTime", "start of the probe's interval", &Probe::getStartTime,
                  &Probe::setStartTime)
      .setDefault(0.0);
  list.add<Probe>("stopTime", "end of the probe's interval", &Probe::getStopTime, &Probe::setStopTime)
      .setDefault(1.0);
  list.add<Probe>("scale", "time scale of the probe data", &Probe::getScale, &Probe::setScale)
      .setDefault(1.0);
  list.add<Probe>("attachedFile", "file the probe reads or writes", &Probe::getAttachedFileName,
                  &Probe::setAttachedFileName);
}

bool Probe::isInInterval(double t) const {
  const double eps = 1e-12 * std::max(1.0, std::abs(t));
  return t >= myStartTime - eps && t <= myStopTime + eps;
}

}  // namespace sinew
