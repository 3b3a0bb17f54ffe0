// EllipsoidJoint (guide §3.4.11): C's origin slides on an ellipsoid with
// semi-axes A, B, C centred at D's origin (longitude ψ, latitude γ) and C
// turns about the surface frame S by θ about S's z and φ about the rotated
// x axis (or an axis at the "winging" angle α to it, as in OpenSim's
// scapulothoracic joint). With openSimCompatible, S is oriented as OpenSim
// orients it (eq. 3.29). Coordinates `longitude`, `latitude`, `theta`,
// `phi`, in degrees. At zero coordinates T_CD = (I, (0, 0, C)).
#pragma once

#include "sinew/joints/JointBase.h"
#include "sinew/joints/ParameterizedCoupling.h"

namespace sinew {

class EllipsoidCoupling : public ParameterizedCoupling {
 public:
  EllipsoidCoupling(const Vector3d& semiAxes, double alpha, bool openSimCompatible);
  void coordinatesToTCD(RigidTransform3d& TCD, const Eigen::VectorXd& coords) const override;
  const Vector3d& getSemiAxes() const { return myAxes; }
  double getAlpha() const { return myAlpha; }
  bool isOpenSimCompatible() const { return myOpenSim; }

 protected:
  void initializeConstraints() override;

 private:
  Vector3d myAxes;
  double myAlpha;
  bool myOpenSim;
};

class EllipsoidJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  static constexpr int LONGITUDE_IDX = 0, LATITUDE_IDX = 1, THETA_IDX = 2, PHI_IDX = 3;
  /// Semi-axes A, B, C (> 0), winging angle α in degrees.
  EllipsoidJoint(double A, double B, double C, double alphaDeg = 0, bool openSimCompatible = false,
                 std::string name = {});
  EllipsoidJoint(Frame& bodyA, const RigidTransform3d& TCA, Frame* bodyB, const RigidTransform3d& TDB, double A,
                 double B, double C, double alphaDeg = 0, bool openSimCompatible = false, std::string name = {});
  EllipsoidJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TCW, const RigidTransform3d& TDW, double A,
                 double B, double C, std::string name = {});
  double getLongitude() const { return getCoordinateDisplay(LONGITUDE_IDX); }
  void setLongitude(double deg) { setCoordinateDisplay(LONGITUDE_IDX, deg); }
  double getLatitude() const { return getCoordinateDisplay(LATITUDE_IDX); }
  void setLatitude(double deg) { setCoordinateDisplay(LATITUDE_IDX, deg); }
  double getTheta() const { return getCoordinateDisplay(THETA_IDX); }
  void setTheta(double deg) { setCoordinateDisplay(THETA_IDX, deg); }
  double getPhi() const { return getCoordinateDisplay(PHI_IDX); }
  void setPhi(double deg) { setCoordinateDisplay(PHI_IDX, deg); }
  Vector3d getSemiAxes() const;
  double getAlpha() const;  ///< degrees
};

}  // namespace sinew
