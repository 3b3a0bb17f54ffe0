// The guide's example models, registered by their guide names so that
// `sinew run NAME`, the tests and bench/ build the very same models.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sinew/model/RootModel.h"

namespace sinew {
class MechModel;
}

namespace sinew::demos {

/// Registers every demo with ModelRegistry::instance() (idempotent).
void registerDemos();
/// Builds a registered demo by name with build() arguments.
std::unique_ptr<RootModel> createDemo(const std::string& name, const std::vector<std::string>& args = {});
/// The model `make demo` and `sinew run` with no name run.
const char* defaultDemo();

void registerParticleSpring(ModelRegistry& reg);
void registerRigidBodySpring(ModelRegistry& reg);
void registerRigidCompositeBody(ModelRegistry& reg);
void registerParticleAttachment(ModelRegistry& reg);
void registerFrameBodyAttachment(ModelRegistry& reg);
void registerNetDemo(ModelRegistry& reg);
void registerSimpleMuscle(ModelRegistry& reg);
void registerRigidBodyJoint(ModelRegistry& reg);
void registerFourBarLinkage(ModelRegistry& reg);
void registerJointTypeDemos(ModelRegistry& reg);
void registerLumbarFrameSpring(ModelRegistry& reg);
void registerFemBeam(ModelRegistry& reg);
void registerMaterialBundleDemo(ModelRegistry& reg);
void registerFrameFemAttachment(ModelRegistry& reg);
void registerJointedFemBeams(ModelRegistry& reg);
void registerFemEmbeddedSphere(ModelRegistry& reg);
void registerPointFemAttachment(ModelRegistry& reg);
void registerLumbarFEMDisk(ModelRegistry& reg);
void registerJointedCollide(ModelRegistry& reg);
void registerBallPlateCollide(ModelRegistry& reg);
void registerFemCollisions(ModelRegistry& reg);
void registerFemSelfCollide(ModelRegistry& reg);
void registerElasticFoundationContact(ModelRegistry& reg);
void registerContactForceMonitor(ModelRegistry& reg);
void registerImpulseDemos(ModelRegistry& reg);
void registerImpulseContactDemos(ModelRegistry& reg);
void registerWalkingMachine(ModelRegistry& reg);

/// Reads "-key value" pairs from build arguments.
double argValue(const std::vector<std::string>& args, const std::string& key, double dflt);
/// Sets mech's integrator from "-integrator NAME" (else `dflt`) and the
/// root's step from "-step h" (else 1 ms): the seed 004 scenes.
void setIntegratorAndStep(RootModel& root, MechModel& mech, const std::vector<std::string>& args,
                          const std::string& dflt);

}  // namespace sinew::demos
