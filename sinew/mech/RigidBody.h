// Rigid bodies: frames with a spatial inertia and any number of meshes
// (guide §3.2.3–3.2.10).
//
// The inertia comes from one of three methods (property inertiaMethod,
// §3.2.5): Density (default: density × the volume of each mesh that has
// mass), Mass (a total mass spread like the meshes) or Explicit
// (setInertia). Meshes live in RigidMeshComp children of the `meshes` list
// (§3.2.9); each may override density or mass and its mass distribution.
#pragma once

#include <memory>

#include "sinew/geometry/MassProperties.h"
#include "sinew/geometry/PolygonalMesh.h"
#include "sinew/mech/Collidable.h"
#include "sinew/mech/Frame.h"

namespace sinew {

class DistanceGridComp;

enum class InertiaMethod { Explicit, Mass, Density };
template <>
struct EnumNames<InertiaMethod> {
  static const std::vector<std::string>& get();
};
template <>
struct EnumNames<MassDistribution> {
  static const std::vector<std::string>& get();
};

/// One mesh of a rigid body, in body coordinates (guide §3.2.9).
class RigidMeshComp : public Component {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit RigidMeshComp(std::shared_ptr<MeshBase> mesh = nullptr, std::string name = {});
  const std::shared_ptr<MeshBase>& getMesh() const { return myMesh; }
  void setMesh(std::shared_ptr<MeshBase> mesh);
  bool hasMass() const { return myHasMass; }
  void setHasMass(bool b);
  bool isCollidable() const { return myCollidable; }
  void setIsCollidable(bool b) { myCollidable = b; }
  MassDistribution getMassDistribution() const { return myDist; }
  void setMassDistribution(MassDistribution d);
  /// Volume of a closed polygonal mesh, else 0.
  double getVolume() const;
  /// Explicit density, or the body's, or explicit mass / volume.
  double getDensity() const;
  void setDensity(double d);
  /// Explicit mass, or density × volume.
  double getMass() const;
  void setMass(double m);
  /// Mass properties of this mesh in body coordinates.
  MassProperties computeMassProperties() const;

 private:
  void changed();
  std::shared_ptr<MeshBase> myMesh;
  bool myHasMass = true;
  bool myCollidable = true;
  MassDistribution myDist = MassDistribution::Default;
  double myDensity = -1;  ///< < 0: not explicit
  double myMass = -1;     ///< < 0: not explicit
};

class RigidBody : public Frame {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit RigidBody(std::string name = {});

  // Factory methods (§3.2.3): the mesh is built and the inertia set from a
  // uniform density.
  static std::unique_ptr<RigidBody> createBox(const std::string& name, double wx, double wy, double wz,
                                              double density);
  static std::unique_ptr<RigidBody> createSphere(const std::string& name, double r, double density,
                                                 int nslices = 24);
  /// A sphere meshed by subdividing an icosahedron `divisions` times.
  static std::unique_ptr<RigidBody> createIcosahedralSphere(const std::string& name, double r, double density,
                                                            int divisions = 1);
  static std::unique_ptr<RigidBody> createCylinder(const std::string& name, double r, double h,
                                                   double density, int nsides = 24);
  static std::unique_ptr<RigidBody> createEllipsoid(const std::string& name, double rx, double ry,
                                                    double rz, double density, int nslices = 24);
  static std::unique_ptr<RigidBody> createFromMesh(const std::string& name,
                                                   std::shared_ptr<PolygonalMesh> mesh, double density,
                                                   double scale = 1);
  static std::unique_ptr<RigidBody> createFromMesh(const std::string& name, const std::string& meshFile,
                                                   double density, double scale = 1);

  // Meshes (§3.2.5, §3.2.9)
  ComponentList<RigidMeshComp>& meshes() { return *myMeshes; }
  RigidMeshComp& addMesh(std::shared_ptr<MeshBase> mesh, bool hasMass = true, bool collidable = true);
  /// Replaces the surface mesh (the first polygonal mesh) or adds one.
  void setSurfaceMesh(std::shared_ptr<PolygonalMesh> mesh, const std::string& fileName = {});
  PolygonalMesh* getSurfaceMesh() const;
  /// The component holding the surface mesh, or null (§8.3.1 uses it to
  /// take the surface out of the collision mesh).
  RigidMeshComp* getSurfaceMeshComp() const;
  const std::string& getSurfaceMeshFile() const { return myMeshFile; }
  /// The settings of the body's distance grid (§4.6): its child
  /// "distanceGrid", created when first asked for (DistanceGridComp.h).
  DistanceGridComp& getDistanceGridComp();
  /// That child if it exists, else null (the collision manager's defaults apply).
  DistanceGridComp* findDistanceGridComp() const;

  // Inertia (§3.2.5)
  const SpatialInertia& getInertia() const;
  void setInertia(const SpatialInertia& M);
  void setInertia(double m, double Jxx, double Jyy, double Jzz) { setInertia(SpatialInertia(m, Jxx, Jyy, Jzz)); }
  void setInertia(double m, const Matrix3d& J, const Vector3d& com = Vector3d::Zero()) {
    setInertia(SpatialInertia(m, J, com));
  }
  InertiaMethod getInertiaMethod() const { return myInertiaMethod; }
  void setInertiaMethod(InertiaMethod m);
  double getDensity() const { return myDensity; }
  void setDensity(double d);
  void setInertiaFromDensity(double d) { setDensity(d); setInertiaMethod(InertiaMethod::Density); }
  void setMass(double m);
  void setInertiaFromMass(double m) { setMass(m); }
  double getMass() const override { return getInertia().getMass(); }
  Vector3d getCenterOfMass() const { return getInertia().getCenterOfMass(); }
  /// Moves the body frame to the centre of mass without moving anything in
  /// world space (§3.2.6).
  void centerPoseOnCenterOfMass();

  /// Whether the body collides (§8.2.2); ALL by default.
  Collidability getCollidable() const { return myCollidability; }
  void setCollidable(Collidability c) { myCollidability = c; }

  double getInertialDamping() const { return inherited("inertialDamping", myInertialDamping, 0.0); }
  void setInertialDamping(double d) { setInheritable(myInertialDamping, d); }

  /// Kinetic energy ½ uᵀMu and angular momentum about the world origin.
  double getKineticEnergy() const;
  Vector3d getLinearMomentum() const;
  Vector3d getAngularMomentum() const;

  // DynamicComponent
  void getMassBlock(Block& M) const override;
  void getCoriolisForce(BlockVec& f) const override;
  void applyGravity(const Vector3d& g) override;
  void applyDamping(Block* D) override;
  double getGravityPotential(const Vector3d& g) const override;

  /// Called by mesh components when their mass settings change.
  void invalidateInertia() { myInertiaValid = false; }

 private:
  void updateInertia() const;
  ComponentList<RigidMeshComp>* myMeshes;
  Collidability myCollidability = Collidability::All;
  std::string myMeshFile;
  mutable SpatialInertia myInertia;
  mutable bool myInertiaValid = true;
  InertiaMethod myInertiaMethod = InertiaMethod::Density;
  double myDensity = 1;
  double myTargetMass = 0;
  Inheritable<double> myInertialDamping;
};

}  // namespace sinew
