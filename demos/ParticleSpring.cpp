// ParticleSpring (guide §3.1.2): a particle hanging from a fixed particle by
// a zero-rest-length spring; p2 falls and swings under gravity.
#include "demos/Demos.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class ParticleSpring : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    auto& p1 = mech.addParticle("p1", /*mass=*/2, 0, 0, 0);
    auto& p2 = mech.addParticle("p2", /*mass=*/2, 1, 0, 0);
    mech.attachAxialSpring(p1, p2, std::make_unique<AxialSpring>("spr", /*k=*/20, /*d=*/10, /*l0=*/0));
    p1.setDynamic(false);  // p1 is fixed
  }
};

void registerParticleSpring(ModelRegistry& reg) {
  reg.add("ParticleSpring", [] { return std::make_unique<ParticleSpring>(); },
          "particle on a spring from a fixed particle (§3.1.2)");
}

}  // namespace sinew::demos
