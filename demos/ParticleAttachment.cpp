// ParticleAttachment (guide §3.6.2): two springs joined by a point-to-point
// attachment, hanging a box attached at a point; everything falls and swings.
#include "demos/Demos.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class ParticleAttachment : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    auto particle = [&](double x, double y, double z) -> Particle& {
      return mech.addParticle(std::make_unique<Particle>(/*mass=*/0.1, x, y, z));
    };
    auto spring = [&](Particle& a, Particle& b) {
      auto spr = std::make_unique<AxialSpring>(std::string(), /*l0=*/0);
      spr->setMaterial(LinearAxialMaterial(/*k=*/20, /*d=*/10));
      mech.attachAxialSpring(a, b, std::move(spr));
    };
    Particle& p1 = particle(0, 0, 0.55);
    Particle& p2 = particle(0.1, 0, 0.35);
    Particle& p3 = particle(0.1, 0, 0.35);
    Particle& p4 = particle(0, 0, 0.15);
    spring(p1, p2);
    spring(p3, p4);
    auto& box = mech.addRigidBody(RigidBody::createBox("box", 0.5, 0.3, 0.3, /*density=*/20));
    box.setPose(RigidTransform3d(0.2, 0, 0));
    p1.setDynamic(false);  // the first particle is fixed
    mech.attachPoint(p2, p3);
    mech.attachPoint(p4, box, Vector3d(0, 0, 0.15));
  }
};

void registerParticleAttachment(ModelRegistry& reg) {
  reg.add("ParticleAttachment", [] { return std::make_unique<ParticleAttachment>(); },
          "springs and a box joined by point attachments (§3.6.2)");
}

}  // namespace sinew::demos
