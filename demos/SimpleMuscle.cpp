// SimpleMuscle (guide §4.5.2) and its extensions: SimpleMuscleWithController
// (§5.3.2: a controller moves p1 on a circular arc) and
// SimpleMuscleWithProbes (§5.4.3: an input probe moves p1 along the path
// in simpleMuscleP1Pos.txt; an output probe records the marker velocity).
#include <cmath>

#include "demos/Demos.h"
#include "sinew/control/NumericProbes.h"
#include "sinew/mech/MechModel.h"

#ifndef SINEW_DEMO_DATA_DIR
#define SINEW_DEMO_DATA_DIR "demos/data"
#endif

namespace sinew::demos {

/// RigidBodySpring with the spring replaced by a muscle.
class SimpleMuscle : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    mech = &addModel(std::make_unique<MechModel>("mech"));
    p1 = &mech->addParticle("p1", /*mass=*/2, 0, 0, 0);
    p1->setDynamic(false);
    auto& box = mech->addRigidBody(RigidBody::createBox("box", 0.5, 0.3, 0.3, /*density=*/20));
    box.setPose(RigidTransform3d(0.75, 0, 0));
    auto& mkr = mech->addFrameMarker(box, Vector3d(-0.25, 0, 0));
    auto muscle = std::make_unique<Muscle>("mus", /*restLength=*/0);
    muscle->setMaterial(SimpleAxialMuscle(/*stiffness=*/20, /*damping=*/10, /*fmax=*/10));
    mech->attachAxialSpring(*p1, mkr, std::move(muscle));
  }

 protected:
  MechModel* mech = nullptr;
  Particle* p1 = nullptr;
};

/// Moves a point along (0.5 sin(πt/2), 0, 0.5(1 − cos(πt/2))) from its start.
class PointMover : public Controller {
 public:
  explicit PointMover(Point& pnt) : Controller("pointMover"), myPnt(pnt), myPos0(pnt.getPosition()) {}
  void apply(double, double t1) override {
    double ang = M_PI * t1 / 2;
    Vector3d pos = myPos0;
    pos.x() += 0.5 * std::sin(ang);
    pos.z() += 0.5 * (1 - std::cos(ang));
    myPnt.setTargetPosition(pos);
  }

 private:
  Point& myPnt;
  Vector3d myPos0;
};

class SimpleMuscleWithController : public SimpleMuscle {
 public:
  void build(const std::vector<std::string>& args) override {
    SimpleMuscle::build(args);
    addController(std::make_unique<PointMover>(*p1));
  }
};

class SimpleMuscleWithProbes : public SimpleMuscle {
 public:
  void build(const std::vector<std::string>& args) override {
    SimpleMuscle::build(args);
    auto in = std::make_unique<NumericInputProbe>(*mech, "particles/p1:targetPosition",
                                                  std::string(SINEW_DEMO_DATA_DIR) + "/simpleMuscleP1Pos.txt");
    in->setName("ParticlePosition");
    addInputProbe(std::move(in));
    auto out = std::make_unique<NumericOutputProbe>(*mech, "frameMarkers/0:velocity", "simpleMuscleMkrVel.txt",
                                                    /*sample=*/0.01);
    out->setName("FrameMarkerVelocity");
    out->setStopTime(10);
    addOutputProbe(std::move(out));
  }
};

void registerSimpleMuscle(ModelRegistry& reg) {
  reg.add("SimpleMuscle", [] { return std::make_unique<SimpleMuscle>(); },
          "box hung by a muscle (§4.5.2)");
  reg.add("SimpleMuscleWithController", [] { return std::make_unique<SimpleMuscleWithController>(); },
          "SimpleMuscle with a controller moving p1 (§5.3.2)");
  reg.add("SimpleMuscleWithProbes", [] { return std::make_unique<SimpleMuscleWithProbes>(); },
          "SimpleMuscle driven by an input probe, recorded by an output probe (§5.4.3)");
}

}  // namespace sinew::demos
