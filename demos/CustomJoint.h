// CustomJoint (guide §4.9.5): a user-written joint in one file, as the
// guide's tutorial writes it: a coupling (CustomCoupling) that allows
// translation x along D's x axis and rotation θ about D's z axis (the
// slotted hinge of §3.4.4, eq. 3.25), wrapped in a JointBase. It shows the
// custom joint API: initializeConstraints() with addConstraint() and
// addCoordinate(), coordinatesToTCD(), TCDToCoordinates() with
// nearestAngle(), projectToConstraints() and updateConstraints() setting
// the wrenches that are not constant in G, and (optionally) the wrench
// rates for an analytic velocity product.
#pragma once

#include <cmath>

#include "sinew/joints/JointBase.h"

namespace sinew::demos {

class CustomJoint : public JointBase {
 public:
  static constexpr int X_IDX = 0, THETA_IDX = 1;

  class CustomCoupling : public RigidBodyCoupling {
   public:
    CustomCoupling() { initializeConstraints(); }

    void coordinatesToTCD(RigidTransform3d& TCD, const Eigen::VectorXd& coords) const override {
      const double x = coords[X_IDX], theta = coords[THETA_IDX];
      TCD = RigidTransform3d();
      TCD.p.x() = x;
      const double c = std::cos(theta), s = std::sin(theta);
      TCD.R(0, 0) = c;
      TCD.R(1, 1) = c;
      TCD.R(0, 1) = -s;
      TCD.R(1, 0) = s;
    }

    void TCDToCoordinates(Eigen::VectorXd& coords, const RigidTransform3d& TGD) const override {
      coords.resize(2);
      coords[X_IDX] = TGD.p.x();
      const double theta = std::atan2(TGD.R(1, 0), TGD.R(0, 0));
      coords[THETA_IDX] = getCoordinateInfo(THETA_IDX).nearestAngle(theta);
    }

    void projectToConstraints(RigidTransform3d& TGD, const RigidTransform3d& TCD,
                              Eigen::VectorXd* coords) const override {
      // Turn R's z axis onto (0, 0, 1) by the shortest rotation: what is
      // left is a rotation in the x–y plane.
      TGD.R = Quaternion::FromTwoVectors(TCD.R.col(2), Vector3d::UnitZ()).toRotationMatrix() * TCD.R;
      TGD.p = Vector3d(TCD.p.x(), 0, 0);
      if (coords) TCDToCoordinates(*coords, TGD);
    }

    void updateConstraints(const RigidTransform3d& TGD, const RigidTransform3d&, const Twist&, const Twist&,
                           bool) override {
      const double s = TGD.R(1, 0), c = TGD.R(0, 0);  // sin θ, cos θ
      // D's y axis, constant in D, seen from G.
      getConstraint(0).setWrenchG(s, c, 0, 0, 0, 0);
      // The x limit acts along D's x axis, seen from G.
      getConstraint(4).setWrenchG(c, -s, 0, 0, 0, 0);
      // The θ limit (constraint 5) is constant in G.
    }

    // Optional: the rates behind an analytic velocity product Ġu (without
    // them the joint takes a forward difference). G turns relative to D
    // about z at θ̇, here the rate of the angle of C's x axis seen in D's
    // x–y plane: exact on the constraints (off them, the shortest turn of
    // z above turns G a little otherwise, by the order of the error); the
    // wrenches along D's axes (constraints 0 and 4) turn in G the other
    // way, the others are constant in G.
    bool providesWrenchRates() const override { return true; }
    void getWrenchRates(const RigidTransform3d&, const RigidTransform3d& TCD, const Twist& velCD, Vector3d& omegaGD,
                        std::vector<Wrench>& rates) const override {
      omegaGD = Vector3d(0, 0, zAngleRate(TCD, velCD));
      rates.assign(numConstraints(), Wrench::Zero());
      for (int k : {0, 4}) rates[k].head<3>() = -omegaGD.cross(getConstraint(k).getWrenchG().head<3>());
    }

   protected:
    void initializeConstraints() override {
      using C = RigidBodyConstraint;
      addConstraint(C::BILATERAL | C::LINEAR);
      addConstraint(C::BILATERAL | C::LINEAR, Wrench::Unit(2));
      addConstraint(C::BILATERAL | C::ROTARY, Wrench::Unit(3));
      addConstraint(C::BILATERAL | C::ROTARY, Wrench::Unit(4));
      addConstraint(C::LINEAR);
      addConstraint(C::ROTARY, Wrench::Unit(5));
      addCoordinate("x", -1, 1, &getConstraint(4));
      addCoordinate("theta", -2 * M_PI, 2 * M_PI, &getConstraint(5));
    }
  };

  explicit CustomJoint(std::string name = {}) : JointBase(std::move(name), std::make_unique<CustomCoupling>()) {}
  CustomJoint(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW, std::string name = {})
      : CustomJoint(std::move(name)) {
    setBodies(bodyA, bodyB, TDW);
  }
};

}  // namespace sinew::demos
