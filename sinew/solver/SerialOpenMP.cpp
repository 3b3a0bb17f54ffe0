#include "sinew/solver/SerialOpenMP.h"

#include <dlfcn.h>

#include <mutex>

namespace sinew {

namespace {
using GetLevels = int (*)();
using SetLevels = void (*)(int);

/// The OpenMP runtime's functions, looked up in the process rather than
/// linked: Sinew itself uses no OpenMP, and the runtime is there only when
/// a library brought it in.
struct Runtime {
  GetLevels get = nullptr;
  SetLevels set = nullptr;
  Runtime() {
    get = reinterpret_cast<GetLevels>(dlsym(RTLD_DEFAULT, "omp_get_max_active_levels"));
    set = reinterpret_cast<SetLevels>(dlsym(RTLD_DEFAULT, "omp_set_max_active_levels"));
    if (!get || !set) get = nullptr, set = nullptr;
  }
};

const Runtime& runtime() {
  static const Runtime r;
  return r;
}
}  // namespace

namespace {
/// The setting is the process's, so instances on several threads share one
/// count: the first saves and clears it, the last puts it back.
std::mutex gMutex;
int gDepth = 0;
int gSaved = 0;
}  // namespace

SerialOpenMP::SerialOpenMP() {
  const Runtime& r = runtime();
  if (!r.set) return;
  std::lock_guard<std::mutex> lock(gMutex);
  if (gDepth++ == 0) {
    gSaved = r.get();
    r.set(0);
  }
  myActive = true;
}

SerialOpenMP::~SerialOpenMP() {
  if (!myActive) return;
  std::lock_guard<std::mutex> lock(gMutex);
  if (--gDepth == 0) runtime().set(gSaved);
}

}  // namespace sinew
