// A box on a fixed, possibly tilted plate: the contact scene shared by the
// MLCP contact tests and the Impulse integrator's contact tests.
#pragma once

#include <gtest/gtest.h>

#include <cmath>

#include "TestModels.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/NeoHookeanMaterial.h"
#include "sinew/mech/MechModel.h"

namespace sinew::test {

/// A fixed plate 4 × 4 × 0.2 whose top face passes through the origin,
/// tilted by `angle` about y, and a 0.2 m cube of 1 kg resting on it, with
/// friction coefficient mu between every pair.
struct BoxOnPlate {
  TestRoot r{Vector3d(0, 0, -9.8)};
  RigidBody& plate;
  RigidBody& box;
  Matrix3d R;
  BoxOnPlate(double angle, double mu)
      : plate(r.mech.addRigidBody(RigidBody::createBox("plate", 4, 4, 0.2, 1000))),
        box(r.mech.addRigidBody(RigidBody::createBox("box", 0.2, 0.2, 0.2, 125))),
        R(AxisAngle(Vector3d(0, 1, 0), angle).toMatrix()) {
    plate.setDynamic(false);
    plate.setPose(RigidTransform3d(R * Vector3d(0, 0, -0.1), R));
    box.setPose(RigidTransform3d(R * Vector3d(0, 0, 0.1), R));
    r.mech.setDefaultCollisionBehavior(true, mu);
  }
  /// The incline's downhill direction and its normal.
  Vector3d downhill() const { return R * Vector3d(1, 0, 0); }
  Vector3d normal() const { return R * Vector3d(0, 0, 1); }
};

/// Two 0.2 m cubes, no gravity, turned 45° about x (the lower, fixed) and
/// about y (the upper): the lower's top edge runs along y, the upper's
/// bottom edge along x, and the upper sits d low, so the edges cross over
/// the origin with no vertex of either inside the other.
struct CrossedCubes {
  TestRoot r;
  RigidBody& lower;
  RigidBody& upper;
  explicit CrossedCubes(double d)
      : lower(r.mech.addRigidBody(RigidBody::createBox("lower", 0.2, 0.2, 0.2, 125))),
        upper(r.mech.addRigidBody(RigidBody::createBox("upper", 0.2, 0.2, 0.2, 125))) {
    const double half = 0.1 * std::sqrt(2.0);
    lower.setPose(RigidTransform3d(Vector3d(0, 0, -half), axisRotation(1, M_PI / 4)));
    lower.setDynamic(false);
    upper.setPose(RigidTransform3d(Vector3d(0, 0, half - d), axisRotation(0, M_PI / 4)));
  }
};

/// A neo-Hookean hex block of w × w × hgt (density 1000) with its centre at z.
inline FemModel3d& addBlock(MechModel& mech, const std::string& name, double w, double hgt, int n, double z) {
  auto& fem = mech.addModel(std::make_unique<FemModel3d>(name));
  FemFactory::createHexGrid(fem, w, w, hgt, n, n, 1);
  fem.setMaterial(NeoHookeanMaterial(1e6, 0.3));
  fem.setDensity(1000);
  fem.transformGeometry(RigidTransform3d(0, 0, z));
  return fem;
}

/// Drops the box (flat) from 0.5 mm, runs 1 s at h = 10 ms and checks that
/// it rests at most the penetration tolerance deep, slower than vTol, with
/// its contacts carrying its weight to a relative fTol.
inline void expectBoxLandsAndRests(BoxOnPlate& s, double vTol, double fTol) {
  s.box.setPose(RigidTransform3d(0, 0, 0.1005));
  s.r.run(1.0, 0.01);
  const double tol = s.r.mech.getPenetrationTol();
  EXPECT_LE(s.box.getPosition().z(), 0.1 + 1e-9);
  EXPECT_GE(s.box.getPosition().z(), 0.1 - tol - 1e-9);
  EXPECT_LT(s.box.getVelocity().norm(), vTol);
  const Vector3d f = s.r.mech.getCollisionManager().getContactForce(s.box);
  EXPECT_NEAR(f.z(), 9.8, fTol * 9.8);
  EXPECT_NEAR(f.head<2>().norm(), 0, fTol * 9.8);
}

}  // namespace sinew::test
