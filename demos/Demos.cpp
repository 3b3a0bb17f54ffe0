#include "demos/Demos.h"

#include <mutex>

#include "sinew/Error.h"

namespace sinew::demos {

void registerDemos() {
  static std::once_flag once;
  std::call_once(once, [] {
    ModelRegistry& reg = ModelRegistry::instance();
    registerParticleSpring(reg);
    registerRigidBodySpring(reg);
    registerRigidCompositeBody(reg);
    registerParticleAttachment(reg);
    registerFrameBodyAttachment(reg);
    registerNetDemo(reg);
    registerSimpleMuscle(reg);
    registerRigidBodyJoint(reg);
    registerFourBarLinkage(reg);
    registerJointTypeDemos(reg);
    registerLumbarFrameSpring(reg);
    registerFemBeam(reg);
    registerMaterialBundleDemo(reg);
    registerFrameFemAttachment(reg);
    registerJointedFemBeams(reg);
    registerFemEmbeddedSphere(reg);
    registerPointFemAttachment(reg);
    registerLumbarFEMDisk(reg);
    registerJointedCollide(reg);
    registerBallPlateCollide(reg);
    registerFemCollisions(reg);
    registerFemSelfCollide(reg);
    registerElasticFoundationContact(reg);
    registerContactForceMonitor(reg);
    registerImpulseDemos(reg);
    registerImpulseContactDemos(reg);
    registerWalkingMachine(reg);
  });
}

std::unique_ptr<RootModel> createDemo(const std::string& name, const std::vector<std::string>& args) {
  registerDemos();
  return ModelRegistry::instance().create(name, args);
}

const char* defaultDemo() { return "SimpleMuscleWithProbes"; }

double argValue(const std::vector<std::string>& args, const std::string& key, double dflt) {
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == key) {
      try {
        return std::stod(args[i + 1]);
      } catch (const std::exception&) {
        throw ModelError("build argument " + key + " expects a number, got '" + args[i + 1] + "'");
      }
    }
  return dflt;
}

}  // namespace sinew::demos
