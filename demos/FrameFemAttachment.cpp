// FrameFemAttachment (guide §6.6.1): a hex beam fixed at its left end
// carries a plain frame, attached element-based (`mech.attachFrame(frame,
// fem)`), and a rigid box, attached nodal-based to the nodes of the two
// central elements around the origin. The beam sags under gravity; the frame and the box follow its
// deformation.
#include <cmath>
#include <set>

#include "demos/Demos.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/FrameFem3dAttachment.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

namespace {
/// The nodes of the elements with these numbers, each once, in order.
std::vector<FemNode3d*> collectNodes(const FemModel3d& fem, std::initializer_list<int> elemNums) {
  std::vector<FemNode3d*> nodes;
  std::set<FemNode3d*> seen;
  for (int num : elemNums)
    for (FemNode3d* n : fem.getElementByNumber(num)->getNodes())
      if (seen.insert(n).second) nodes.push_back(n);
  return nodes;
}
}  // namespace

class FrameFemAttachment : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    auto& fem = mech.addModel(std::make_unique<FemModel3d>("fem"));
    FemFactory::createHexGrid(fem, 1.0, 0.2, 0.2, 6, 3, 3);
    fem.setMaterial(LinearMaterial(500000, 0.33));
    // Fix the leftmost nodes.
    for (auto& n : fem.nodes())
      if (n.getPosition().x() - (-0.5) < 1e-8) n.setDynamic(false);

    auto& box = mech.addRigidBody(RigidBody::createBox("box", 0.25, 0.1, 0.1, /*density=*/1000));

    // A plain frame 45° about y, attached element-based.
    auto& frame = mech.addFrame(std::make_unique<Frame>("frame"));
    frame.setPose(RigidTransform3d(0.4, 0, 0, 0, 1, 0, M_PI / 4));
    frame.setAxisLength(0.3);
    mech.attachFrame(frame, fem);

    // The box, nodal-based on all the nodes of the two elements on the
    // beam's axis around the origin: the guide's elements 22 and 31
    // (FemFactory numbers grid elements as ArtiSynth does).
    auto attachment = std::make_unique<FrameFem3dAttachment>(box);
    attachment->setFromNodes(box.getPose(), collectNodes(fem, {22, 31}));
    mech.addAttachment(std::move(attachment));
  }
};

void registerFrameFemAttachment(ModelRegistry& reg) {
  reg.add("FrameFemAttachment", [] { return std::make_unique<FrameFemAttachment>(); },
          "a frame and a box attached to a sagging FEM beam (§6.6.1)");
}

}  // namespace sinew::demos
