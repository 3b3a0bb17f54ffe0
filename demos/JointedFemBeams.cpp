// JointedFemBeams (guide §6.6.3): two hex beams joined by a slotted hinge
// (the guide's SlottedRevoluteJoint): fem1, fixed at its left end, and the
// softer fem2 to its right, which hinges about the world y axis and slides
// along x within [−0.5, 0.5]. The joint's frames C and D are attached to the
// beams by FrameFem3dAttachments (§6.6.2). The pair drops and flexes under
// gravity.
#include <cmath>

#include "demos/Demos.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class JointedFemBeams : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    auto& mech = addModel(std::make_unique<MechModel>("mechMod"));
    const double stiffness = 5000;
    // The first beam, its leftmost nodes fixed.
    FemModel3d& fem1 = addFem(mech, "fem1", 2.4, 0.6, 0.4, stiffness);
    for (auto& n : fem1.nodes())
      if (n.getPosition().x() <= -1.2) n.setDynamic(false);
    // The second beam, shifted 1.5 to the right.
    FemModel3d& fem2 = addFem(mech, "fem2", 2.4, 0.4, 0.4, 0.1 * stiffness);
    fem2.transformGeometry(RigidTransform3d(1.5, 0, 0));

    // D at (0.5, 0, 0), turned 90° about x: the hinge axis is world −y.
    const RigidTransform3d TDW(0.5, 0, 0, 1, 0, 0, M_PI / 2);
    auto& joint = mech.addBodyConnector(std::make_unique<SlottedHingeJoint>(fem2, &fem1, TDW, "joint"));
    joint.setCoordinateRange(SlottedHingeJoint::X_IDX, -0.5, 0.5);  // minX, maxX
  }

 private:
  /// A 10 × 1 × 1 hex beam of the given size and Young's modulus.
  static FemModel3d& addFem(MechModel& mech, const std::string& name, double wx, double wy, double wz,
                            double stiffness) {
    auto& fem = mech.addModel(std::make_unique<FemModel3d>(name));
    FemFactory::createHexGrid(fem, wx, wy, wz, 10, 1, 1);
    fem.setMaterial(LinearMaterial(stiffness, 0.3));
    fem.setDensity(1.0);
    fem.setParticleDamping(1.0);
    return fem;
  }
};

void registerJointedFemBeams(ModelRegistry& reg) {
  reg.add("JointedFemBeams", [] { return std::make_unique<JointedFemBeams>(); },
          "two FEM beams joined by a slotted hinge (§6.6.3)");
}

}  // namespace sinew::demos
