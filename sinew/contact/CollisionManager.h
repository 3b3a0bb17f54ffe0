// CollisionManager: the MechModel's collision handling (guide §8.1, §8.2,
// §8.4, §8.8). It keeps the collision behaviours (pairs, pairs with a group,
// and the defaults between groups, with the priorities of §8.1.2), finds
// the contacts of every enabled pair of collidables at the current
// configuration, and supplies them to the solver as a Constrainer: rows
// along the contact normals and, where friction is set, two box-friction
// rows per contact bounded by μ times the normal impulse (§8.9.4).
//
// Collidables are rigid bodies (their collidable meshes), FEM models
// (their surface mesh, §8.1) and FEM mesh components named in a behaviour
// (an embedded mesh, as in FemCollisions). As in the guide (§8.4.1.3), two
// rigid bodies collide by contour regions by default (§8.4.1.1,
// ContourRegions.cpp), the rest by vertex penetration (§8.4.1.2): each
// vertex of one mesh inside the other gives a contact with the normal
// toward the nearest point of the other surface and the distance to it as
// depth; with an FEM model, by default (AUTO) only the FEM's vertices, both
// ways between two FEM models. Two meshes of one FEM model collide when its
// self-collision is enabled (§8.3.2), and in nested MechModels the lowest
// model holding a pair sets its behaviour (§8.3.5). A rigid contact holds a
// penetration of up to penetrationTol (§8.9.1) and pushes out what is
// deeper; vertices outside, up to penetrationTol plus the distance the
// pair can close within the step, are watched too, so that an arriving body
// is stopped at the surface within the step it reaches it. FEM contacts
// are bilateral rows by default (bilateralVertexContact): no complementarity
// problem, and a contact whose row pulled is left out of the next step.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "sinew/contact/CollisionBehavior.h"
#include "sinew/contact/ContactRendering.h"
#include "sinew/contact/CollisionPlane.h"
#include "sinew/contact/CollisionResponse.h"
#include "sinew/geometry/DistanceGrid.h"
#include "sinew/geometry/MeshIntersector.h"
#include "sinew/geometry/TriangleBVTree.h"
#include "sinew/mech/Collidable.h"
#include "sinew/mech/DynamicComponent.h"
#include "sinew/model/Component.h"

namespace sinew {

class MechModel;
class RigidBody;
class FemMeshComp;
class FemModel3d;
class FemNode3d;

/// One contact of the last detection (§8.8.2), in world coordinates.
struct ContactPoint {
  Component* collidableA = nullptr;  ///< owns the penetrating vertex (as behaviours name it)
  Component* collidableB = nullptr;  ///< the collidable it penetrates
  RigidBody* bodyA = nullptr;  ///< A if it is a rigid body, else null
  RigidBody* bodyB = nullptr;  ///< B if it is a rigid body, else null
  /// An FEM side's point as weighted nodes (weights sum to 1); empty for a rigid side.
  std::vector<std::pair<FemNode3d*, double>> nodesA, nodesB;
  bool bilateral = false;  ///< a bilateral row (bilateralVertexContact)
  int vertex = -1;         ///< A's vertex
  Vector3d position = Vector3d::Zero();  ///< the vertex
  Vector3d normal = Vector3d::Zero();    ///< unit, from B toward A
  double depth = 0;  ///< penetration distance; negative: a vertex just outside (speculative)
  double mu = 0;                         ///< friction coefficient
  double stictionCreep = 0;              ///< creep speed per newton of friction (§8.2.1)
  double normalForce = 0;                ///< on A along `normal`, from the last solve
  Vector3d frictionForce = Vector3d::Zero();  ///< on A, from the last solve
  Vector3d frictionDirs[2] = {Vector3d::Zero(), Vector3d::Zero()};  ///< box-friction directions
  double vertexArea = 0;  ///< a third of the area of the faces around the vertex
  double pressure = 0;    ///< normalForce over the vertex's area (halved two-way)
  /// AJL_CONTOUR's vertex contacts: their penetration region's area over
  /// its penetrating vertices (the contactArea of §8.7.2); −1 otherwise.
  double contactArea = -1;
  bool twoWay = false;    ///< vertices of both bodies are tested (§8.7.2.1)
  const CollisionBehavior* behavior = nullptr;  ///< the behaviour that governs it
};

class CollisionManager : public CompositeComponent, public Constrainer, public AuxStateComponent {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit CollisionManager(MechModel& mech);
  ~CollisionManager() override;

  // Behaviours (§8.1.1, §8.1.2)
  CollisionBehavior& setBehavior(Component& a, Component& b, std::unique_ptr<CollisionBehavior> behav);
  CollisionBehavior& setBehavior(Component& a, Collidable::Group g, std::unique_ptr<CollisionBehavior> behav);
  CollisionBehavior* getBehavior(Component& a, Component& b) const;
  CollisionBehavior* getBehavior(Component& a, Collidable::Group g) const;
  bool clearBehavior(Component& a, Component& b);
  void clearBehaviors();
  void setDefaultBehavior(Collidable::Group g0, Collidable::Group g1, const CollisionBehavior& behav);
  /// Rigid, Deformable or Self only (§8.1.2); ModelError otherwise.
  CollisionBehavior& getDefaultBehavior(Collidable::Group g0, Collidable::Group g1) const;
  /// Whether collidable c (a rigid body, an FEM model or mesh) belongs to
  /// group g (Self holds no body: it names self-collision, §8.3.2).
  bool inGroup(const Component& c, Collidable::Group g) const;
  /// The behaviour under which the meshes of compound collidable `fem`
  /// collide with each other (§8.3.2): set for (fem, fem), else for
  /// (fem, Self), else the default (Deformable, Self); null if none is
  /// enabled.
  const CollisionBehavior* getSelfBehavior(const Component& fem) const;
  /// The behaviour that governs two specific bodies, or null if none is
  /// enabled for them.
  const CollisionBehavior* getActingBehavior(Component& a, Component& b) const;
  ComponentList<CollisionBehavior>& behaviors() { return *myBehaviors; }
  /// Adds a fixed collision plane (CollisionPlane.h): through `point`, solid
  /// behind `normal`. It is a collidable of the Rigid group.
  CollisionPlane& addPlane(const std::string& name, const Vector3d& point, const Vector3d& normal);
  ComponentList<CollisionPlane>& planes() { return *myPlanes; }

  // Global settings that behaviours inherit (§8.2.1)
  double getFriction() const { return myFriction; }
  void setFriction(double mu);
  double getCompliance() const { return myCompliance; }
  void setCompliance(double c);
  double getDamping() const { return myDamping; }
  void setDamping(double d);
  /// CONTOUR_REGION's least distance between contact points, for behaviours
  /// that inherit it (§8.2.1); negative (the default): the pair's
  /// penetration tolerance.
  double getRigidPointTol() const { return myRigidPointTol; }
  void setRigidPointTol(double tol);
  /// CONTOUR_REGION's distance within which triangle crossings form one
  /// region, for behaviours that inherit it; negative (the default): the
  /// pair's penetration tolerance.
  double getRigidRegionTol() const { return myRigidRegionTol; }
  void setRigidRegionTol(double tol);
  /// The creep speed per newton of friction force of sticking contacts,
  /// for behaviours that inherit it (default 0: friction rows are hard).
  double getStictionCreep() const { return myStictionCreep; }
  void setStictionCreep(double c);
  // Contact rendering (§8.5; ContactRendering.h): the settings every pair
  // takes unless its behaviour sets its own.
  /// The colour map of pairs whose behaviour has none of its own (default
  /// NONE), and the map of the pair `b` governs.
  CollisionBehavior::ColorMapType getDrawColorMap() const { return myDrawColorMap; }
  void setDrawColorMap(CollisionBehavior::ColorMapType t) { myDrawColorMap = t; }
  CollisionBehavior::ColorMapType colorMapOf(const CollisionBehavior& b) const {
    return b.isDrawColorMapSet() ? b.getDrawColorMap() : myDrawColorMap;
  }
  const ContactRenderSettings& renderSettings() const { return myRender; }
  ContactRenderSettings& renderSettings() { return myRender; }
  /// The settings of the pair that `b` governs: its own, else these.
  ContactRenderSettings renderSettings(const CollisionBehavior& b) const { return b.renderOverrides().over(myRender); }
  /// The colour-map range pairs share (default AUTO_FIT), and the one of
  /// the pair `b` governs (its own if it has one).
  ScalarRange& colorMapRange() { return myColorMapRange; }
  const ScalarRange& colorMapRange(const CollisionBehavior& b) const {
    return b.getColorMapRange() ? *b.getColorMapRange() : myColorMapRange;
  }
  /// Brings every colour-map range that a pair drawing a map uses up to
  /// the values of the last step (CollisionRendering.cpp): the contact
  /// pressures or penetration depths on the pair's rendering collidable,
  /// each range by its `updating`. A viewer calls it before drawing, as
  /// ArtiSynth does in prerender().
  void updateColorMapRanges();
  /// The values a pair's colour map shows on its rendering collidable:
  /// vertex pressures (CONTACT_PRESSURE) or penetration depths
  /// (PENETRATION_DEPTH, AJL_CONTOUR), by vertex of that collidable's
  /// collision mesh; empty for a pair that draws no map.
  std::vector<std::pair<int, double>> colorMapValues(Component& a, Component& b) const;
  /// Length of drawn contact normals; negative (the default): 1000 times
  /// the MechModel's penetration tolerance (a tenth of the model's radius
  /// when that tolerance is the computed one).
  double getContactNormalLen() const;
  void setContactNormalLen(double len);
  /// Drawn contact and friction forces are impulse × this long (default 1;
  /// the guide's errata E-5).
  double getContactForceLenScale() const { return myContactForceLenScale; }
  void setContactForceLenScale(double s);

  /// FEM vertex contacts as bilateral rows, for behaviours that have not
  /// set bilateralVertexContact themselves (default true).
  bool getBilateralVertexContact() const { return myBilateralVertexContact; }
  void setBilateralVertexContact(bool b) { myBilateralVertexContact = b; }
  /// The collider of pairs whose behaviour inherits it (§8.4.2): default
  /// TRI_INTERSECTION; SIGNED_DISTANCE uses each rigid body's distance grid
  /// (§4.6), built when first needed with the settings of the body's
  /// DistanceGridComp, or, for a body without one, `distanceGridMaxResolution`
  /// cells along its longest side (default 20); AJL_CONTOUR intersects the
  /// meshes with exact predicates (see ColliderType). INHERITED: ModelError.
  ColliderType getColliderType() const { return myColliderType; }
  void setColliderType(ColliderType t);
  int getDistanceGridMaxResolution() const { return myGridResolution; }
  void setDistanceGridMaxResolution(int r);
  /// Whether distance grids are fitted along their mesh's principal axes
  /// (the guide's fitWithOBB, §4.6); default false.
  bool getDistanceGridFitWithOBB() const { return myGridOBB; }
  void setDistanceGridFitWithOBB(bool fit);
  /// The distance grid of a rigid body's collision meshes, built if needed
  /// (§4.6) with the settings of the body's DistanceGridComp where it has
  /// one, else the manager's; null if it has no collision mesh.
  const DistanceGrid* getDistanceGrid(RigidBody& body);
  /// The contact method of pairs whose behaviour has not set one
  /// (§8.4.1.3; see CollisionBehavior::setMethod); default DEFAULT. As
  /// every setting a behaviour inherits, the detecting manager's: in
  /// nested MechModels, the outermost one's with a manager.
  CollisionBehavior::Method getMethod() const { return myMethod; }
  void setMethod(CollisionBehavior::Method m) { myMethod = m; }
  /// Whose vertices vertex penetration tests, for pairs whose behaviour
  /// has not set it (§8.2.1, §8.4.1.3); default AUTO.
  CollisionBehavior::VertexPenetrations getVertexPenetrations() const { return myVertexPenetrations; }
  void setVertexPenetrations(CollisionBehavior::VertexPenetrations v) { myVertexPenetrations = v; }
  /// Constraint reduction for every pair (§8.6.1; see CollisionBehavior).
  bool getReduceConstraints() const { return myReduceConstraints; }
  void setReduceConstraints(bool r) { myReduceConstraints = r; }

  // Responses (§8.8.1; sinew/contact/CollisionResponse.cpp): one per pair
  // (a, b) or (a, group); setting another for the same pair replaces it.
  CollisionResponse& setResponse(Component& a, Component& b, std::unique_ptr<CollisionResponse> resp);
  CollisionResponse& setResponse(Component& a, Collidable::Group g, std::unique_ptr<CollisionResponse> resp);
  CollisionResponse* getResponse(Component& a, Component& b) const;
  CollisionResponse* getResponse(Component& a, Collidable::Group g) const;
  bool clearResponse(Component& a, Component& b);
  bool clearResponse(Component& a, Collidable::Group g);
  void clearResponses();
  ComponentList<CollisionResponse>& responses() { return *myResponses; }

  /// The contacts found by the last detection, with their forces from the
  /// last solve (§8.8).
  /// A nested manager (see detects()) reports those of the manager that
  /// found them.
  const std::vector<ContactPoint>& getContacts() const { return detecting().myReported; }
  /// The penetration regions of the last full detection, on both
  /// collidables of every pair under the AJL_CONTOUR collider (§8.8.1;
  /// empty for the other colliders): the velocity solve's wherever
  /// position stabilization carried its contacts, even in part.
  const std::vector<PenetrationRegion>& getPenetrationRegions() const { return detecting().myRegions; }
  /// Total force on a collidable (rigid body, FEM model or FEM mesh) from
  /// its contacts in the last solve.
  Vector3d getContactForce(const Component& collidable) const;
  /// Whether this manager finds contacts (§8.3.5): not when a MechModel
  /// above its own has a collision manager. That outermost manager then
  /// finds every contact below it, each pair under the behaviours of the
  /// lowest MechModel holding both collidables, and nested managers only
  /// hold behaviours and responses.
  bool detects() const { return &detecting() == this; }
  /// Runs detection at the current configuration (the solver does so
  /// for the velocity solve's rows, and for position stabilization's where
  /// it cannot carry the velocity solve's contacts: CollisionCarry.cpp),
  /// watching what can come into contact within a step h.
  void updateContacts(double h = 0);
  /// How many detections have run (updateContacts, and position
  /// stabilization's detection of the pairs it could not carry), for tests
  /// and profiling.
  long numDetections() const { return myDetections; }
  /// How many of those were position stabilization's, of the pairs it
  /// could not carry (CollisionCarry.cpp).
  long numPartialDetections() const { return myPartialDetections; }
  /// How many pairs the narrow phase has run on, in all detections.
  long numPairDetections() const { return myPairDetections; }
  /// The contacts of the last detection (or of position stabilization's
  /// carried ones), without forces: getContacts() has the velocity solve's.
  const std::vector<ContactPoint>& detectedContacts() const { return detecting().myContacts; }

  // Constrainer
  void getBilateralConstraints(ConstraintBuilder& G) override;
  void getUnilateralConstraints(ConstraintBuilder& N) override;
  void getFrictionConstraints(ConstraintBuilder& D, std::vector<FrictionLimit>& limits) override;
  void setConstraintForces(const double* bilateral, const double* unilateral) override;
  void setFrictionForces(const double* friction) override;
  double getMaxHardError() override;
  bool rowsFromDetection() const override { return true; }
  void forgetStep() override { myCarry.valid = false; }
  void markRows() override { myMarkedKeys = myRowKeys; }
  /// A contact found again (the same collidables and vertex) keeps its
  /// normal impulse, and its friction impulse, as a vector, is projected
  /// onto its new friction directions. Between rigid bodies, a contour
  /// region's point (no identity across detections) or a vertex not found
  /// again gives its impulses to the nearest contact of the same pair
  /// instead. (The Impulse integrator detects at t0 and again at t1
  /// and adds the impulses of both phases per contact.)
  bool carryImpulses(const std::vector<double>& onMarked, std::vector<double>& onLast) const override;
  /// A contact found again (the same collidables and vertex) starts the
  /// velocity solve with the impulses it carried in the last one: its
  /// normal impulse, and its friction impulse projected onto its new
  /// friction directions. A contour region's point, which is no vertex,
  /// continues the nearest of the pair's last region points facing about
  /// its way in whose neighbourhood it lies: nearer than rigidPointTol, or
  /// than half the distance from that old point to the pair's nearest
  /// other old one; each old point once at most
  /// (sinew/contact/ContactWarmStart.cpp).
  void getWarmStart(double h, double* unilateral, double* friction) const override;

  // AuxStateComponent: what the next step takes from the last solve, so
  // that a restored state continues bit for bit. Variable size: the count
  // of warm contacts, then per contact its collidables (numbered as
  // detection lists them), its vertex, normal force, friction force,
  // position and normal;
  // then the count of bilateral contacts that pulled (left out of the next
  // detection), then per contact its collidables and vertex.
  int getAuxStateSize() const override {
    return 2 + kWarmValues * static_cast<int>(myWarm.size()) + 3 * static_cast<int>(mySeparating.size());
  }
  void getAuxState(double* x) const override;
  void setAuxState(const double* x) override;
  int storedAuxStateSize(const double* x, int available) const override;

 private:
  struct PairEntry {
    Component* a;
    Component* b;  ///< null when the entry names a group
    Collidable::Group group;
    CollisionBehavior* behav;
    /// a and b as FEM mesh components, or null: found once here, not by a
    /// cast in each of a step's four collidables() calls (a cast failing
    /// through the component hierarchy costs several hundred instructions,
    /// 2 % of a box sliding down an incline).
    FemMeshComp* meshA = nullptr;
    FemMeshComp* meshB = nullptr;
  };
  /// A collidable body: a rigid body or an FEM mesh (a model's surface or
  /// an embedded mesh), with `comp` what behaviours name.
  struct Collider {
    Component* comp = nullptr;
    RigidBody* rigid = nullptr;
    FemMeshComp* mesh = nullptr;
    const Component* compound = nullptr;  ///< the FEM model a mesh belongs to (a model's own surface: the model)
    bool submesh = false;                 ///< a mesh component other than the model's surface
    std::vector<const MechModel*> mechs;  ///< the MechModels holding it, innermost first
    const CollisionPlane* plane = nullptr;  ///< a collision plane (no mesh)
    bool deformable() const { return !rigid && !plane; }
  };
  /// The behaviour under which two collidable bodies collide, by the rules
  /// of §8.3.2 (internal: two meshes of one model; external: the rest), or
  /// null; `owner` receives the manager whose behaviours govern the pair.
  const CollisionBehavior* pairBehavior(const Collider& a, const Collider& b, const CollisionManager** owner) const;
  /// Every manager whose behaviours may govern a pair of these collidables:
  /// this one and those of the MechModels holding them (§8.3.5).
  std::vector<const CollisionManager*> governingManagers(const std::vector<Collider>& all) const;
  /// The smallest and the largest penetration tolerance of any of their
  /// behaviours (the largest: the broad phase's first, behaviour-free
  /// test; the smallest: how far carried contacts may move).
  std::pair<double, double> penetrationTolRange(const std::vector<const CollisionManager*>& managers) const;
  /// Position stabilization's contacts without a detection: those of the
  /// velocity solve's detection, moved with their bodies (carryContacts,
  /// CollisionCarry.cpp). What that detection leaves for it.
  struct CarryBase {
    bool valid = false;
    /// The pair being detected left out a penetrating point (constraint
    /// reduction, §8.6, or a hull's inner point): not carried, as it may
    /// sink further. Set by the detection, read per pair.
    bool reduced = false;
    std::uint64_t epoch = 0;  ///< propertyEpoch() then: a changed tree or behaviour needs a detection
    /// Per collidable, in collidables() order: a rigid body with a
    /// collision mesh, or none (a collision plane).
    struct Body {
      const Component* comp = nullptr;
      const RigidBody* body = nullptr;
      RigidTransform3d pose;  ///< at the detection
      double radius = 0;      ///< farthest vertex of its collision mesh from its origin
      double allowed = 0;     ///< how far a vertex may have moved since: half the least tolerance
    };
    std::vector<Body> bodies;
    /// Each pair the detection ran the narrow phase on, its collidables
    /// (indices of `bodies`) and its contacts [first, end).
    struct Pair {
      int a, b;
      size_t first, end;
      bool reduced;
    };
    std::vector<Pair> pairs;
    std::vector<ContactPoint> contacts;  ///< as detected
  };
  /// What a scan of the pairs found beside the contacts.
  struct PairScan {
    double leastTol = 0;    ///< the least penetration tolerance of the governing behaviours
    bool softPair = false;  ///< a compliant pair was in reach
  };
  /// The broad and narrow phases over the pairs of `all` at step h,
  /// appending to myContacts (updateContacts), each pair's range into
  /// myCarry.pairs with `record`; with `only`, just the pairs (i, j),
  /// i < j, that it accepts.
  PairScan detectPairs(double h, const std::vector<Collider>& all, const std::function<bool(size_t, size_t)>& only,
                       bool record);
  /// Records the base after a detection at step h of these collidables
  /// (a velocity solve's: h > 0), where it can be carried: rigid bodies and
  /// collision planes only, no compliant pair in reach.
  void recordCarryBase(double h, const std::vector<Collider>& all, double leastTol, bool softPair);
  /// Position stabilization's contacts: the base's, each point carried by
  /// its bodies' motion since, its depth changed by their relative motion
  /// along its normal and its normal turned with B, for every pair whose
  /// bodies have both moved by no more than half the least penetration
  /// tolerance and whose contacts were not reduced; the other pairs
  /// detected afresh (CollisionCarry.cpp says why that suffices). False,
  /// changing nothing, unless a base of this step is valid and the
  /// collidables are still the base's.
  bool carryContacts();
  CarryBase myCarry;
  /// The manager that finds the contacts (this, or the outermost above it).
  const CollisionManager& detecting() const;
  /// The manager of MechModel m (this one's for its own model, or for a
  /// pair in no common model); null if m has none.
  const CollisionManager* managerOf(const MechModel* m) const;
  /// The manager whose behaviours govern two colliders: that of the lowest
  /// MechModel holding both (§8.3.5).
  const CollisionManager* managerFor(const Collider& a, const Collider& b) const;
  /// The MechModels holding c (strictly above it), innermost first.
  static std::vector<const MechModel*> mechsAbove(const Component& c);
  /// A collidable's triangle tree and what contacts need of its mesh. A rigid
  /// body's is in body coordinates, built from its collidable polygonal
  /// meshes (triangulated) and kept until they change; an FEM mesh's is in
  /// world coordinates over the mesh itself, refitted at each detection that
  /// has a pair with it past the broad phase.
  struct Geometry {
    std::vector<const MeshBase*> sources;  ///< rigid: the meshes it was built from
    PolygonalMesh mesh;                    ///< rigid: their union, triangulated
    const PolygonalMesh* fem = nullptr;    ///< FEM: the deforming mesh itself
    long detection = -1;                   ///< FEM: the detection it was built for
    std::unique_ptr<TriangleBVTree> tree;
    double radius = 0;  ///< rigid: farthest vertex from the body origin
    std::vector<double> vertexAreas;  ///< a third of the area of each vertex's faces
    std::unique_ptr<DistanceGrid> grid;  ///< rigid: for SIGNED_DISTANCE, built when first asked for
    long gridVersion = -1;  ///< the DistanceGridComp settings it was built for (−1: the manager's)
    const PolygonalMesh& surface() const { return fem ? *fem : mesh; }
  };
  const Geometry* geometryOf(const Collider& c);
  /// `owner`: the manager whose behaviours govern the pair (pairBehavior),
  /// for its colour map; the settings the behaviour leaves unset are this
  /// (the detecting) manager's.
  void detectPair(const Collider& a, const Collider& b, const CollisionBehavior& behav, const CollisionManager& owner,
                  double reach);
  /// A's vertices inside B, and those outside within `margin`. Under
  /// AJL_CONTOUR, `ajl` is the pair's intersection and `side` A's side in
  /// it: its inside vertices are the penetrating ones. Vertices marked in
  /// `skip` (if given; indices past its end are not) are left out.
  void detectVertices(const Collider& a, const Collider& b, double margin, double eps,
                      const MeshIntersection* ajl = nullptr, int side = 0, const std::vector<char>* skip = nullptr);
  /// A body's contacts with a collision plane (PlaneContacts.cpp): its
  /// vertices within `margin` of it, or with `region` (a rigid body under
  /// CONTOUR_REGION) the hull corners of those and of its edges' crossings
  /// (corners closer than pointTol merged).
  void detectPlane(const Collider& body, const Collider& plane, double margin, double pointTol, bool region);
  /// VERTEX_EDGE_PENETRATION's edge–edge contacts, from the pair's
  /// intersection (EdgeContacts.cpp).
  void detectEdgeContacts(const Collider& a, const Collider& b, const MeshIntersection& ajl);
  /// AJL_CONTOUR: intersects A's and B's meshes (in A's tree coordinates)
  /// and records both sides' penetration regions; false if either has no
  /// collision mesh.
  bool intersectPair(const Collider& a, const Collider& b, MeshIntersection& out);
  /// Whether A's vertex pulled against B in the last solve (a bilateral
  /// contact that is left out of this detection).
  bool pulled(const Collider& a, const Collider& b, int vertex) const;
  /// A contact of A's vertex with B at a world position, the rest unset.
  ContactPoint vertexContact(const Collider& a, const Collider& b, int vertex, const Vector3d& position) const;
  /// CONTOUR_REGION between two rigid bodies (§8.4.1.1; ContourRegions.cpp);
  /// crossings within regionTol (rigidRegionTol) form one region, and hull
  /// points closer than pointTol (rigidPointTol) are merged.
  /// Under AJL_CONTOUR, `ajl` gives the crossings and inside vertices.
  /// `inRegion`, if given, receives per side (A, B) which vertices a
  /// region holds.
  void detectContourRegions(const Collider& a, const Collider& b, double pointTol, double regionTol,
                            const MeshIntersection* ajl = nullptr,
                            std::array<std::vector<char>, 2>* inRegion = nullptr);
  /// CONTOUR_REGION's watched vertices (ContourRegions.cpp): those of
  /// either body within `margin` of the other that no region holds
  /// (`inRegion`, per side), so that a body is caught as it arrives
  /// (speculative contact); of each set facing one way (one normal) only
  /// the corners of its hull on the plane stay, as a region's do, and of
  /// those none within pointTol of a region's point (the contacts
  /// [regionsFrom, end)) facing its way.
  void detectApproach(const Collider& a, const Collider& b, double margin, double eps, double pointTol,
                      const std::array<std::vector<char>, 2>& inRegion, size_t regionsFrom);
  /// Of the contacts [second, end) found for B's vertices against A, drops
  /// those that repeat one of [first, second) (A's vertices against B) with
  /// the normal reversed: corner on corner, within tol.
  void dropRepeatedContacts(size_t first, size_t second, double tol);
  /// SIGNED_DISTANCE: A's vertices against rigid B's distance grid.
  void detectVerticesByGrid(const Collider& a, const Collider& b, double margin);
  /// Keeps, deepest first, the contacts [first, end) whose rows are
  /// independent of those kept (§8.6.1; CollisionReduction.cpp).
  void reduceContacts(size_t first);
  std::vector<Collider> collidables() const;
  /// What collidables() needs of the model tree, from one walk kept while
  /// the tree is unchanged: every change of it bumps propertyEpoch(). The
  /// candidates (rigid bodies, collision planes, FEM models) in tree order
  /// with the MechModels above each, and every MechModel. Which candidates
  /// collide (their collidable settings) is asked each time.
  struct TreeScan {
    struct Candidate {
      Component* comp = nullptr;
      RigidBody* rigid = nullptr;
      const CollisionPlane* plane = nullptr;
      FemModel3d* fem = nullptr;
      std::vector<const MechModel*> mechs;
    };
    std::uint64_t epoch = ~std::uint64_t(0);
    std::vector<Candidate> candidates;
    std::vector<const MechModel*> mechs;
  };
  const TreeScan& treeScan() const;
  mutable TreeScan myTreeScan;
  /// Whether a behaviour of these managers draws a penetration map, for
  /// which pairs of bodies that cannot move are still intersected.
  static bool drawsPenetrationMaps(const std::vector<const CollisionManager*>& managers);
  Collidable::Group groupOf(const Component& c) const;
  /// ModelError unless c is a rigid body, an FEM model or an FEM mesh.
  void requireCollidable(const Component& c) const;
  CollisionBehavior& addBehavior(std::unique_ptr<CollisionBehavior> behav);
  double penetrationTol(const CollisionBehavior& b) const;
  /// The behaviour's rigidPointTol, or the manager's, or the penetration tolerance.
  double rigidPointTol(const CollisionBehavior& b) const;
  /// The same for rigidRegionTol.
  double rigidRegionTol(const CollisionBehavior& b) const;
  /// The behaviour's stictionCreep, or the manager's.
  double stictionCreep(const CollisionBehavior& b) const;
  /// Compliant or governed by a force law: acts only on penetration and is
  /// not corrected by position stabilization.
  bool isSoft(const CollisionBehavior& b) const;
  double resolved(double own, double inherited) const { return own >= 0 ? own : inherited; }
  static int groupIndex(Collidable::Group g);
  void addContactRow(ConstraintBuilder& b, size_t k);
  CollisionResponse& addResponse(Component& a, Component* b, Collidable::Group g,
                                 std::unique_ptr<CollisionResponse> resp);
  CollisionResponse* findResponse(const Component& a, const Component* b, Collidable::Group g) const;

  MechModel& myMech;
  ComponentList<CollisionBehavior>* myBehaviors;
  ComponentList<CollisionResponse>* myResponses;
  ComponentList<CollisionPlane>* myPlanes;
  std::vector<PairEntry> myPairs;
  std::unique_ptr<CollisionBehavior> myDefaults[3][3];  ///< Rigid, Deformable, Self
  double myFriction = 0, myCompliance = 0, myDamping = 0, myRigidPointTol = -1, myRigidRegionTol = -1;
  double myStictionCreep = 0;
  ContactRenderSettings myRender;
  CollisionBehavior::ColorMapType myDrawColorMap = CollisionBehavior::ColorMapType::None;
  ScalarRange myColorMapRange;
  double myContactNormalLen = -1, myContactForceLenScale = 1;
  /// Of a pair, the first collidable (renderingCollidable 0): the first one
  /// named when the behaviour was set for the pair, else the one listed
  /// first by detection (the guide's lowest collidable index).
  /// `list` is detection's list of collidables, filled here if empty and
  /// needed, so that callers over many pairs list them once.
  const Component* firstCollidable(const Component& a, const Component& b, std::vector<Collider>& list) const;
  /// colorMapValues for the pair's behaviour, with firstCollidable's list.
  std::vector<std::pair<int, double>> colorMapValues(const Component& a, const Component& b,
                                                     const CollisionBehavior& behav,
                                                     std::vector<Collider>& list) const;
  bool myReduceConstraints = false, myBilateralVertexContact = true;
  ColliderType myColliderType = ColliderType::TriIntersection;
  CollisionBehavior::Method myMethod = CollisionBehavior::Method::Default;
  CollisionBehavior::VertexPenetrations myVertexPenetrations = CollisionBehavior::VertexPenetrations::Auto;
  int myGridResolution = 20;
  bool myGridOBB = false;
  std::map<const Component*, std::unique_ptr<Geometry>> myGeometry;
  long myPartialDetections = 0, myPairDetections = 0;
  long myDetections = 0;  ///< count of detections, to rebuild FEM geometry once per detection
  std::vector<ContactPoint> myContacts;  ///< of the last detection
  std::vector<ContactPoint> myReported;  ///< of the last velocity solve, with forces
  std::vector<PenetrationRegion> myRegions;  ///< of the last detection (AJL_CONTOUR pairs)
  std::vector<int> myBilateralContact;  ///< contact of each bilateral row of the last build
  bool myChordBuild = false;  ///< the last build had no entries (see getBilateralConstraints)
  std::vector<int> myRowContact;  ///< contact of each unilateral row of the last build
  /// Bilateral contacts (A, B, A's vertex) that pulled in the last solve:
  /// left out of the next detection.
  std::vector<std::tuple<const Component*, const Component*, int>> mySeparating;
  std::vector<int> myFrictionContact;
  /// What each row of a build is: its contact's identity and position, and
  /// for friction rows the direction (zero for normal rows); whether the
  /// contact is between rigid sides.
  struct RowKey {
    const Component* a;
    const Component* b;
    int vertex;
    Vector3d dir;
    Vector3d position;
    bool rigid;
  };
  RowKey rowKey(const ContactPoint& c, const Vector3d& dir) const {
    return {c.collidableA, c.collidableB, c.vertex, dir, c.position, c.nodesA.empty() && c.nodesB.empty()};
  }
  std::vector<RowKey> myRowKeys;     ///< of the last build
  std::vector<RowKey> myMarkedKeys;  ///< of the build markRows() remembered
  /// The contacts of the last velocity solve that carried a force, for the
  /// next solve's warm start (keepWarm()).
  struct WarmContact {
    const Component* a;
    const Component* b;
    int vertex;
    double normalForce;
    Vector3d frictionForce;
    Vector3d position;  ///< where it acted (a region point is found again by it)
    Vector3d normal;    ///< its normal (and by it)
  };
  static constexpr int kWarmValues = 13;
  /// The last solve's region point that each contact continues, or null.
  std::vector<const WarmContact*> matchRegionPoints() const;
  std::vector<WarmContact> myWarm;
  void keepWarm();
};

}  // namespace sinew
