// FemCollisions (guide §8.1.3, Figure 8.2): a rigid table and three FEM
// models falling onto it: a beam, an ellipsoid above the beam, and a hex
// block carrying an embedded spherical mesh. Collisions are enabled as in
// the guide: ellipsoid–beam, ellipsoid–table, table–beam, and the embedded
// sphere with the table and the ellipsoid; the block itself collides with
// nothing, so its surface passes through the table while the sphere inside
// it rests on the table. FEM contacts are bilateral vertex-penetration
// rows (§8.4.1.2).
#include "demos/Demos.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/NeoHookeanMaterial.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class FemCollisions : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    setMaxStepSize(0.002);  // smaller steps resolve the impacts, as in the guide
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    auto addFem = [&](const std::string& name) -> FemModel3d& {
      auto& fem = mech.addModel(std::make_unique<FemModel3d>(name));
      fem.setDensity(1000);
      fem.setMaterial(NeoHookeanMaterial(2e5, 0.3));
      return fem;
    };
    // The table: a fixed box with its top at z = 0.
    auto& table = mech.addRigidBody(RigidBody::createBox("table", 1.6, 1.0, 0.1, 1000));
    table.setPose(RigidTransform3d(0, 0, -0.05));
    table.setDynamic(false);

    FemModel3d& beam = addFem("beam");
    FemFactory::createHexGrid(beam, 0.8, 0.16, 0.16, 8, 2, 2);
    beam.transformGeometry(RigidTransform3d(-0.2, 0, 0.2));

    FemModel3d& ellipsoid = addFem("ellipsoid");
    FemFactory::createEllipsoid(ellipsoid, 0.1, 0.16, 0.1, 8, 4, 2);
    ellipsoid.transformGeometry(RigidTransform3d(-0.2, 0, 0.5));

    FemModel3d& block = addFem("block");
    FemFactory::createHexGrid(block, 0.3, 0.3, 0.3, 3, 3, 3);
    block.transformGeometry(RigidTransform3d(0.45, 0, 0.25));
    PolygonalMesh sphere = MeshFactory::createIcosahedralSphere(0.13, 2);
    sphere.translate(Vector3d(0.45, 0, 0.25));  // at the block's centre, in world coordinates
    // addMesh makes the mesh INTERNAL (§8.3.2); it collides with other
    // bodies, so it is EXTERNAL (as FemEmbeddedSphere sets it, §6.3.3).
    block.addMesh("embedded", sphere).setCollidable(Collidability::External);

    // Set up collisions (the guide's code).
    mech.setCollisionBehavior(ellipsoid, beam, true);  // beam-ellipsoid
    mech.setCollisionBehavior(ellipsoid, table, true);  // ellipsoid-table
    mech.setCollisionBehavior(table, beam, true);       // beam-table
    FemMeshComp& embeddedSphere = *block.getMeshComps().get("embedded");  // get embedded FemMeshComp
    mech.setCollisionBehavior(embeddedSphere, table, true);      // sphere-table
    mech.setCollisionBehavior(ellipsoid, embeddedSphere, true);  // sphere-ellipsoid
  }
};

void registerFemCollisions(ModelRegistry& reg) {
  reg.add("FemCollisions", [] { return std::make_unique<FemCollisions>(); },
          "FEM beam, ellipsoid and block with an embedded sphere falling onto a table (§8.1.3)");
}

}  // namespace sinew::demos
