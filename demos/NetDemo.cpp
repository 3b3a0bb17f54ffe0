// NetDemo (guide §4.8.2): a net of balls joined by muscle springs, held
// along two edges, built in custom containers ("balls", "springs" with
// "greenSprings" and "blueSprings"); it sags under gravity.
//
// Build arguments -numx N -numy N change the net size (guide: 8 × 8); the
// benchmarks use them for 10×10 … 100×100 nets.
#include "demos/Demos.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class NetDemo : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    const double stiffness = 1000, damping = 10, maxForce = 5000, mass = 1;
    const double widthx = 20, widthy = 20;
    const int numx = static_cast<int>(argValue(args, "-numx", 8));
    const int numy = static_cast<int>(argValue(args, "-numy", 8));
    if (numx < 1 || numy < 1) throw ModelError("NetDemo needs -numx and -numy >= 1");

    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    mech.setGravity(0, 0, -980.0);
    mech.setPointDamping(1.0);

    auto balls = std::make_unique<ComponentList<Particle>>("balls");
    for (int i = 0; i <= numx; ++i)
      for (int j = 0; j <= numy; ++j) {
        double x = widthx * (-0.5 + i / double(numx));
        double y = widthy * (-0.5 + j / double(numy));
        auto& p = balls->add(std::make_unique<Particle>(mass, x, y, 0));
        if (i == 0 || i == numx) p.setDynamic(false);  // fix the edges parallel to y
      }
    auto springs = std::make_unique<ComponentList<Component>>("springs");
    auto green = std::make_unique<ComponentList<AxialSpring>>("greenSprings");
    auto blue = std::make_unique<ComponentList<AxialSpring>>("blueSprings");
    auto muscle = [&](int i0, int i1) {
      auto m = std::make_unique<Muscle>();
      m->setPoints(balls->get(i0), balls->get(i1));
      m->setMaterial(SimpleAxialMuscle(stiffness, damping, maxForce));
      return m;
    };
    for (int i = 0; i <= numx; ++i)  // green springs parallel to y
      for (int j = 0; j < numy; ++j) green->add(muscle(i * (numy + 1) + j, i * (numy + 1) + j + 1));
    for (int j = 0; j <= numy; ++j)  // blue springs parallel to x
      for (int i = 0; i < numx; ++i) blue->add(muscle(i * (numy + 1) + j, (i + 1) * (numy + 1) + j));
    springs->addComponent(std::move(green));
    springs->addComponent(std::move(blue));
    mech.addComponent(std::move(balls));
    mech.addComponent(std::move(springs));
  }
};

void registerNetDemo(ModelRegistry& reg) {
  reg.add("NetDemo", [] { return std::make_unique<NetDemo>(); },
          "net of balls and muscle springs in custom containers (§4.8.2)");
}

}  // namespace sinew::demos
