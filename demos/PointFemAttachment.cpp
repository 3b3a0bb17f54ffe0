// PointFemAttachment (guide §6.4.9): element- versus nodal-based
// attachments. Two 1 × 0.2 × 0.2 beams of 10 × 3 × 3 hexahedra (default
// NeoHookeanMaterial), centred at z = +0.25 (fem1) and z = −0.25 (fem2),
// their left ends fixed, gravity off. A zero-rest-length spring (k = 10000)
// pulls each beam's centre toward a fixed particle at x = 0.9. fem1's end
// point is attached to the element containing it; fem2's to the nodes of
// the five elements along the beam axis around it, with automatic weights
// (§6.4.8), which spreads the load. Each beam's surface mesh is rebuilt
// from its elements on the y ≥ 0 side (createSurfaceMesh with a filter).
#include <set>

#include "demos/Demos.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemSurface.h"
#include "sinew/fem/NeoHookeanMaterial.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

namespace {
/// Elements whose nodes are all on the positive side of the x-z plane.
class MyFilter : public ElementFilter {
 public:
  bool elementIsValid(const FemElement3dBase& e) const override {
    for (auto* n : e.getNodes())
      if (n->getPosition().y() < 0) return false;
    return true;
  }
};
}  // namespace

class PointFemAttachment : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    (void)args;
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    mech.setGravity(0, 0, 0);
    FemModel3d& fem1 = addFem(mech, "fem1", 0.0, 0.0, 0.25);
    FemModel3d& fem2 = addFem(mech, "fem2", 0.0, 0.0, -0.25);
    fem1.createSurfaceMesh(MyFilter());
    fem2.createSurfaceMesh(MyFilter());

    Particle& p1 = addParticle(mech, "p1", 0.9, 0.0, 0.25);
    Particle& p2 = addParticle(mech, "p2", 0.9, 0.0, -0.25);
    Particle& m1 = addParticle(mech, "m1", 0.0, 0.0, 0.25);
    Particle& m2 = addParticle(mech, "m2", 0.0, 0.0, -0.25);
    p1.setDynamic(false);
    p2.setDynamic(false);

    // m1: an element-based attachment at its position.
    mech.addAttachment(fem1.createPointAttachment(m1));
    // m2: the nodes of the five elements along the axis from x = −0.3 to
    // 0.2, the guide's elements 22, 31, 40, 49, 58 (FemFactory numbers grid
    // elements as ArtiSynth does).
    std::vector<FemNode3d*> nodes = collectNodes(fem2, {22, 31, 40, 49, 58});
    auto ax = std::make_unique<sinew::PointFem3dAttachment>(m2);
    if (!ax->setFromNodes(m2.getPosition(), nodes))
      throw ModelError("the nodes do not support the attachment point", m2.describe());
    mech.addAttachment(std::move(ax));

    mech.attachAxialSpring(p1, m1, std::make_unique<AxialSpring>("spring1", 10000, 0, 0));
    mech.attachAxialSpring(p2, m2, std::make_unique<AxialSpring>("spring2", 10000, 0, 0));
  }

 private:
  /// A beam moved to (x, y, z) with its leftmost nodes fixed.
  static FemModel3d& addFem(MechModel& mech, const std::string& name, double x, double y, double z) {
    auto& fem = mech.addModel(std::make_unique<FemModel3d>(name));
    FemFactory::createHexGrid(fem, 1.0, 0.2, 0.2, 10, 3, 3);
    fem.setMaterial(NeoHookeanMaterial());
    fem.transformGeometry(RigidTransform3d(x, y, z));
    for (auto& n : fem.nodes())
      if (std::abs(n.getPosition().x() - (-0.5 + x)) < 1e-8) n.setDynamic(false);
    return fem;
  }

  /// A massless particle: attached, it adds no mass to its masters.
  static Particle& addParticle(MechModel& mech, const std::string& name, double x, double y, double z) {
    return mech.addParticle(name, 0.0, x, y, z);
  }

  /// The nodes of the elements with these numbers, each once, in order.
  static std::vector<FemNode3d*> collectNodes(const FemModel3d& fem, const std::vector<int>& elemNums) {
    std::vector<FemNode3d*> nodes;
    std::set<FemNode3d*> seen;
    for (int num : elemNums) {
      FemElement3d* e = fem.getElementByNumber(num);
      if (!e) throw ModelError("no element number " + std::to_string(num), fem.describe());
      for (auto* n : e->getNodes())
        if (seen.insert(n).second) nodes.push_back(n);
    }
    return nodes;
  }
};

void registerPointFemAttachment(ModelRegistry& reg) {
  reg.add("PointFemAttachment", [] { return std::make_unique<PointFemAttachment>(); },
          "two FEM beams pulled by springs through element- vs nodal-based attachments (§6.4.9)");
}

}  // namespace sinew::demos
