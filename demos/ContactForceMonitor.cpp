// ContactForceMonitor (guide §8.8.3, ContactForceDemo in the guide's text):
// an FEM ball dropped onto a fixed plane inclined by π/5, rolling down it,
// with a CollisionResponse for the ball–plane pair and a monitor that
// prints, at each step with contacts, their number, the step's start time,
// and each contact's position on the ball and its contact force:
//
//   num contacts: 2, time=0.64
//    pos:   -0.918    0.059    0.821, force:  17508.5      0.0  24098.4
//
// Build argument "-quiet" leaves the printing out (the response and its
// data are the same).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "demos/Demos.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class ContactForceMonitor : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    // An FEM ball, moved to where it drops from.
    auto& ball = mech.addModel(std::make_unique<FemModel3d>("ball"));
    FemFactory::createIcosahedralSphere(ball, /*radius=*/0.7, /*ndivisions=*/1, /*quality=*/2);
    const Matrix3d R = (Eigen::AngleAxisd(0.0, Vector3d::UnitZ()) * Eigen::AngleAxisd(0.1, Vector3d::UnitY()) *
                        Eigen::AngleAxisd(0.1, Vector3d::UnitX()))
                           .toRotationMatrix();  // the guide's roll 0, pitch 0.1, yaw 0.1
    ball.transformGeometry(RigidTransform3d(Vector3d(-0.5, 0, 2.5), R));
    // The inclined plane, pitched by π/5 about y.
    auto& plane = mech.addRigidBody(RigidBody::createBox("plane", 4.0, 2.5, 0.25, /*density=*/1000));
    plane.setPose(RigidTransform3d(Vector3d::Zero(), Eigen::AngleAxisd(M_PI / 5, Vector3d::UnitY()).toRotationMatrix()));
    plane.setDynamic(false);
    // Ball first: the response reports the forces acting on the ball.
    mech.setCollisionBehavior(ball, plane, true, 0.3);
    CollisionResponse& resp = mech.setCollisionResponse(ball, plane);
    const bool quiet = std::find(args.begin(), args.end(), "-quiet") != args.end();
    if (quiet) return;
    addMonitor("contactMonitor", [&resp](double t0, double) {
      const std::vector<ContactData> cdata = resp.getContactData();
      if (cdata.empty()) return;
      std::printf("num contacts: %zu, time=%g\n", cdata.size(), t0);
      for (const ContactData& cd : cdata) {
        const Vector3d& p = cd.getPosition0();
        const Vector3d& f = cd.getContactForce();
        std::printf(" pos: %8.3f %8.3f %8.3f, force: %8.1f %8.1f %8.1f\n", p.x(), p.y(), p.z(), f.x(), f.y(), f.z());
      }
    });
  }
};

void registerContactForceMonitor(ModelRegistry& reg) {
  reg.add("ContactForceMonitor", [] { return std::make_unique<ContactForceMonitor>(); },
          "an FEM ball rolling down an inclined plane, its contacts printed from a CollisionResponse (§8.8.3)");
}

}  // namespace sinew::demos
