// FrameFem3dAttachment (guide §6.6): the frame's twist is exactly the
// derivative of its pose under node motions (finite differences, at large
// deformations), rigid and affine motions carry the frame as they should,
// forces on the frame reach the nodes with their resultant force and moment,
// and a rigid body carried by a free FEM keeps the total momentum.
#include <gtest/gtest.h>

#include "FemTestUtil.h"
#include "TestModels.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/FrameFem3dAttachment.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/fem/NeoHookeanMaterial.h"
#include "sinew/fem/TensorUtils.h"

namespace sinew {
namespace {

using femtest::Noise;

/// The axial vector of the skew part of M.
Vector3d axialOf(const Matrix3d& M) {
  return 0.5 * Vector3d(M(2, 1) - M(1, 2), M(0, 2) - M(2, 0), M(1, 0) - M(0, 1));
}

/// One element of the given type, distorted at rest, in its own model.
FemElement3d& addDistortedElement(FemModel3d& fem, FemElementType type, unsigned seed) {
  const ReferenceElement& ref = ReferenceElement::get(type);
  std::vector<FemNode3d*> nodes;
  for (const Vector3d& x : femtest::distortedRestNodes(ref, seed)) nodes.push_back(&fem.addNode(x));
  return fem.addElement(nodes);
}

/// Moves every node of fem to A·X + t + jitter (a large deformation when A
/// is far from a rotation) and gives it a random velocity.
void deform(FemModel3d& fem, const Matrix3d& A, const Vector3d& t, double jitter, Noise& noise) {
  for (auto& n : fem.nodes()) {
    n.setPosition(A * n.getRestPosition() + t + jitter * noise.vec());
    n.setVelocity(noise.vec());
  }
}

/// A large deformation: a 1.3 rad rotation times a stretch of up to 40%.
Matrix3d largeDeformation() {
  Matrix3d S;
  S << 1.4, 0.2, -0.1, 0.0, 0.8, 0.25, 0.1, -0.15, 1.1;
  return AxisAngle(Vector3d(1, 2, -1).normalized(), 1.3).toMatrix() * S;
}

/// The attachment kinds under test: element-based on each element type,
/// and nodal-based (Procrustes) on the same nodes.
struct Case {
  FemElementType type;
  bool nodal;
};

std::vector<Case> allCases() {
  std::vector<Case> cases;
  for (FemElementType t : femtest::allElementTypes()) {
    cases.push_back({t, false});
    cases.push_back({t, true});
  }
  return cases;
}

/// A frame attached to one distorted element of the given type (element-
/// or nodal-based) at a point inside it, then the element deformed largely
/// (moved by t) with random node velocities; x0 holds the deformed nodes.
struct DeformedAttachment {
  FemModel3d fem{"fem"};
  Frame frame{"frame"};
  FrameFem3dAttachment att{frame};
  std::vector<Vector3d> x0;
  std::string label;
  DeformedAttachment(const Case& c, unsigned seed, const Vector3d& t, Noise& noise) {
    FemElement3d& e = addDistortedElement(fem, c.type, seed);
    label = std::string(e.getTypeName()) + (c.nodal ? " nodal" : "");
    const RigidTransform3d TFW(e.computeCentroid() + 0.02 * noise.vec(),
                               AxisAngle(noise.vec().normalized(), 0.7).toMatrix());
    if (c.nodal) EXPECT_TRUE(att.setFromNodes(TFW, e.getNodes())) << label;
    else EXPECT_TRUE(att.setFromElement(TFW, e)) << label;
    att.connect();
    EXPECT_LT((frame.getPosition() - TFW.p).norm(), 1e-12) << label;
    EXPECT_LT((frame.getRotation() - TFW.R).norm(), 1e-12) << label;
    deform(fem, largeDeformation(), t, 0.05, noise);
    for (auto* n : att.getNodes()) x0.push_back(n->getPosition());
    att.updatePosStates();
  }
};

/// Σ J_k v_k from the attachment's master blocks.
Twist jacobianTwist(const FrameFem3dAttachment& att) {
  Twist tw = Twist::Zero();
  Block J;
  for (int k = 0; k < att.numMasters(); ++k) {
    att.getMasterJacobian(k, J);
    tw += J * att.getNodes()[k]->getVelocity();
  }
  return tw;
}

/// The frame pose after moving every node by s·v_k.
RigidTransform3d poseAlong(FrameFem3dAttachment& att, const std::vector<Vector3d>& x0, double s) {
  for (size_t k = 0; k < x0.size(); ++k) att.getNodes()[k]->setPosition(x0[k] + s * att.getNodes()[k]->getVelocity());
  att.updatePosStates();
  return att.getFrame().getPose();
}

TEST(FrameFemAttachment, TwistIsTheExactDerivativeOfThePose) {
  // For every element type, element- and nodal-based, at a large
  // deformation with random node jitter: central differences of the frame
  // pose along random node velocities equal Σ J_k v_k (and updateVelStates).
  Noise noise(7);
  for (const Case& c : allCases()) {
    DeformedAttachment d(c, 3, Vector3d(0.5, -0.3, 0.2), noise);
    FrameFem3dAttachment& att = d.att;
    const std::vector<Vector3d>& x0 = d.x0;
    const Twist tw = jacobianTwist(att);
    att.updateVelStates();
    EXPECT_LT((d.frame.getVelocity() - tw).norm(), 1e-12 * tw.norm()) << d.label;

    const double h = 1e-5;
    const RigidTransform3d Tp = poseAlong(att, x0, h), Tm = poseAlong(att, x0, -h);
    poseAlong(att, x0, 0);
    const Vector3d v = (Tp.p - Tm.p) / (2 * h);
    const Vector3d w = axialOf(Tp.R * Tm.R.transpose()) / (2 * h);  // sin|2hω| ≈ |2hω| to O(h²)
    EXPECT_LT((v - tw.head<3>()).norm(), 1e-8 * tw.norm()) << d.label;
    EXPECT_LT((w - tw.tail<3>()).norm(), 1e-8 * tw.norm()) << d.label;
  }
}

TEST(FrameFemAttachment, VelocityProductIsTheDerivativeOfJAlongTheMotion) {
  // J̇u: the frame's twist at fixed node velocities changes, as the nodes
  // move along them, at the rate getVelocityProduct reports.
  Noise noise(11);
  for (const Case& c : allCases()) {
    DeformedAttachment d(c, 5, Vector3d::Zero(), noise);
    FrameFem3dAttachment& att = d.att;
    const std::vector<Vector3d>& x0 = d.x0;
    BlockVec a;
    att.getVelocityProduct(a);
    const double h = 1e-5;
    poseAlong(att, x0, h);
    const Twist tp = jacobianTwist(att);
    poseAlong(att, x0, -h);
    const Twist tm = jacobianTwist(att);
    const Twist fd = (tp - tm) / (2 * h);
    EXPECT_LT((fd - a).norm(), 1e-6 * std::max(1.0, a.norm())) << d.label;
    EXPECT_GT(a.norm(), 1e-3);  // the check is not vacuous
  }
}

TEST(FrameFemAttachment, RigidAndAffineMotionsCarryTheFrame) {
  // A rigid motion X of the whole FEM moves the frame to X·T_FW exactly and
  // a rigid velocity field (v0 + ω0 × x) gives it the twist (v0 + ω0 × p, ω0);
  // an affine map x = A X + t moves the origin to A p + t and turns the
  // frame by the polar rotation of A.
  Noise noise(3);
  for (bool nodal : {false, true}) {
    FemModel3d fem("fem");
    FemFactory::createHexGrid(fem, 0.6, 0.2, 0.2, 3, 1, 1);
    Frame frame("frame");
    FrameFem3dAttachment att(frame);
    const RigidTransform3d T0(Vector3d(0.13, 0.02, -0.03), AxisAngle(Vector3d(0, 1, 0), M_PI / 4).toMatrix());
    if (nodal) {
      std::vector<FemNode3d*> nodes{&fem.getNode(1), &fem.getNode(2), &fem.getNode(5), &fem.getNode(6),
                                    &fem.getNode(9), &fem.getNode(10), &fem.getNode(14), &fem.getNode(13)};
      ASSERT_TRUE(att.setFromNodes(T0, nodes));
    } else {
      att.setFromFem(T0, fem);
    }
    att.connect();
    const RigidTransform3d X(Vector3d(1, -2, 0.5), AxisAngle(Vector3d(1, 1, 3).normalized(), 2.5).toMatrix());
    const Vector3d v0(0.3, -0.1, 0.7), w0(-2, 1, 0.5);
    for (auto& n : fem.nodes()) {
      n.setPosition(X.transformPoint(n.getRestPosition()));
      n.setVelocity(v0 + w0.cross(n.getPosition()));
    }
    att.updatePosStates();
    att.updateVelStates();
    const RigidTransform3d T = X * T0;
    EXPECT_LT((frame.getPosition() - T.p).norm(), 1e-14);
    EXPECT_LT((frame.getRotation() - T.R).norm(), 1e-14);
    EXPECT_LT((frame.getVelocity().head<3>() - (v0 + w0.cross(T.p))).norm(), 1e-13);
    EXPECT_LT((frame.getVelocity().tail<3>() - w0).norm(), 1e-13);

    // Affine: F becomes A·F_rest (F_rest = I for element-based; the fit's
    // symmetric moment matrix for nodal-based) and the frame turns by its
    // polar rotation, which is polar(A) for element-based attachments.
    for (auto& n : fem.nodes()) n.setPosition(n.getRestPosition());
    const Matrix3d Frest = att.computeDeformationGradient();
    if (!nodal) EXPECT_LT((Frest - Matrix3d::Identity()).norm(), 1e-14);
    Matrix3d A;
    A << 1.3, 0.4, 0.1, -0.2, 0.7, 0.3, 0.1, 0.2, 1.2;
    const Vector3d t(0.2, 0.1, -0.4);
    for (auto& n : fem.nodes()) n.setPosition(A * n.getRestPosition() + t);
    att.updatePosStates();
    EXPECT_LT((frame.getPosition() - (A * T0.p + t)).norm(), 1e-14);
    EXPECT_LT((att.computeDeformationGradient() - A * Frest).norm(), 1e-14 * Frest.norm());
    EXPECT_LT((frame.getRotation() - polarRotation(A * Frest) * T0.R).norm(), 1e-13);
    if (!nodal) EXPECT_LT((frame.getRotation() - polarRotation(A) * T0.R).norm(), 1e-13);
  }
}

TEST(FrameFemAttachment, ForceOnTheFrameKeepsItsResultantOnTheNodes) {
  // f_k = J_kᵀ (f, m) at a deformed configuration: Σ f_k = f and
  // Σ x_k × f_k = p × f + m (the wrench's moment about the world origin).
  Noise noise(5);
  for (const Case& c : allCases()) {
    DeformedAttachment d(c, 9, Vector3d(1, 2, 3), noise);
    FrameFem3dAttachment& att = d.att;
    const Vector3d f(3, -1, 2), m(0.5, 2, -1);
    Wrench w;
    w << f, m;
    Vector3d F = Vector3d::Zero(), M = Vector3d::Zero();
    Block J;
    for (int k = 0; k < att.numMasters(); ++k) {
      att.getMasterJacobian(k, J);
      const Vector3d fk = J.transpose() * w;
      F += fk;
      M += att.getNodes()[k]->getPosition().cross(fk);
    }
    EXPECT_LT((F - f).norm(), 1e-12 * f.norm()) << d.label;
    EXPECT_LT((M - (d.frame.getPosition().cross(f) + m)).norm(), 1e-11) << d.label;
  }
}

/// A free block of 3 × 1 × 1 hexes carrying a box at its centre, with no
/// gravity and no damping, the nodes set moving at random velocities.
struct FreeBlockWithBox {
  test::TestRoot r;
  FemModel3d& fem;
  RigidBody& box;
  FreeBlockWithBox()
      : fem(r.mech.addModel(std::make_unique<FemModel3d>("fem"))),
        box(r.mech.addRigidBody(RigidBody::createBox("box", 0.1, 0.05, 0.05, 3000))) {
    FemFactory::createHexGrid(fem, 0.6, 0.2, 0.2, 3, 1, 1);
    fem.setDensity(1000);
    fem.setParticleDamping(0);
    fem.setMaterial(NeoHookeanMaterial(2e5, 0.3));
    box.setPose(RigidTransform3d(Vector3d(0.05, 0, 0), AxisAngle(Vector3d(0, 0, 1), 0.3).toMatrix()));
    r.mech.attachFrame(box, fem);
    Noise noise(21);
    for (auto& n : fem.nodes()) n.setVelocity(0.5 * noise.vec());
  }
  Vector3d momentum() const {
    Vector3d P = box.getLinearMomentum();
    for (auto& n : fem.nodes()) P += n.getMass() * n.getVelocity();
    return P;
  }
  double energy() const {
    double E = box.getKineticEnergy() + fem.getPotentialEnergy();
    for (auto& n : fem.nodes()) E += 0.5 * n.getMass() * n.getVelocity().squaredNorm();
    return E;
  }
};

TEST(FrameFemAttachment, BodyOnAFreeFemKeepsTheTotalMomentum) {
  // Internal forces only, the box's mass folded onto the nodes through the
  // attachment (its centre of mass at the frame origin): total linear
  // momentum stays what it was, to solver round-off, while the block
  // tumbles and vibrates and the box turns with it.
  FreeBlockWithBox m;
  m.r.root->setMaxStepSize(1e-3);
  m.r.root->initialize(0);
  const Vector3d P0 = m.momentum();
  const Matrix3d R0 = m.box.getRotation();
  double maxDev = 0;
  m.r.root->addMonitor("P", [&](double, double) { maxDev = std::max(maxDev, (m.momentum() - P0).norm()); });
  m.r.root->run(0.5);
  EXPECT_GT(P0.norm(), 0.01);
  EXPECT_LT(maxDev, 1e-12 * P0.norm());  // measured 3e-15
  EXPECT_GT((m.box.getRotation() - R0).norm(), 0.05);  // the box has turned with the block
}

TEST(FrameFemAttachment, BodyOnAFreeFemKeepsItsEnergyUnderTrapezoidal) {
  // The attachment is workless (holonomic, with its J̇u term), so under the
  // energy-conserving Trapezoidal rule the total energy — kinetic of nodes
  // and box, elastic of the block — only wanders by the integration error.
  FreeBlockWithBox m;
  m.r.setIntegrator(Integrator::Trapezoidal);
  m.r.root->setMaxStepSize(5e-4);
  m.r.root->initialize(0);
  const double E0 = m.energy();
  double maxDev = 0;
  m.r.root->addMonitor("E", [&](double, double) { maxDev = std::max(maxDev, std::abs(m.energy() - E0)); });
  m.r.root->run(0.5);
  EXPECT_LT(maxDev, 1e-4 * E0);  // measured 1.7e-5
}

TEST(FrameFemAttachment, AttachFrameToFemAndElement) {
  // mech.attachFrame(frame, fem) picks the element containing the origin;
  // mech.attachFrame(frame, elem) uses that element; both keep the pose.
  test::TestRoot r;
  auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
  FemFactory::createHexGrid(fem, 1.0, 0.2, 0.2, 6, 3, 3);
  auto& f1 = r.mech.addFrame(std::make_unique<Frame>("f1"));
  const RigidTransform3d T1(0.4, 0, 0, 0, 1, 0, M_PI / 4);
  f1.setPose(T1);
  auto& a1 = dynamic_cast<FrameFem3dAttachment&>(r.mech.attachFrame(f1, fem));
  ASSERT_NE(a1.getElement(), nullptr);
  Vector3d s;
  EXPECT_TRUE(computeNaturalCoordinates(*a1.getElement(), T1.p, s));
  EXPECT_LT((f1.getPosition() - T1.p).norm(), 1e-14);
  EXPECT_LT((f1.getRotation() - T1.R).norm(), 1e-14);
  auto& f2 = r.mech.addFrame(std::make_unique<Frame>("f2"));
  FemElement3d& e = fem.getElement(7);
  auto& a2 = dynamic_cast<FrameFem3dAttachment&>(r.mech.attachFrame(f2, e, RigidTransform3d(e.computeCentroid())));
  EXPECT_EQ(a2.getElement(), &e);
  EXPECT_TRUE(f2.isAttached());
}

TEST(FrameFemAttachment, BadSupportIsAModelError) {
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 0.6, 0.2, 0.2, 3, 1, 1);
  Frame frame("frame");
  FrameFem3dAttachment att(frame);
  // Collinear nodes fix no orientation; weights must match and sum to 1.
  std::vector<FemNode3d*> line{&fem.getNode(0), &fem.getNode(1), &fem.getNode(2)};
  EXPECT_THROW(att.setFromNodes(RigidTransform3d(), line, {0.2, 0.3, 0.5}), ModelError);
  EXPECT_THROW(att.setFromNodes(RigidTransform3d(), line, {0.5, 0.5}), ModelError);
  std::vector<FemNode3d*> nodes{&fem.getNode(0), &fem.getNode(1), &fem.getNode(4), &fem.getNode(8)};
  EXPECT_THROW(att.setFromNodes(RigidTransform3d(), nodes, {0.5, 0.5, 0.5, 0.5}), ModelError);
  FemModel3d empty("empty");
  EXPECT_THROW(att.setFromFem(RigidTransform3d(), empty), ModelError);
}

}  // namespace
}  // namespace sinew
