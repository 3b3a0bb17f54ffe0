#include "sinew/solver/SerialOpenMP.h"

#include <dlfcn.h>

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

SerialOpenMP::SerialOpenMP() {
  const Runtime& r = runtime();
  if (!r.set) return;
  mySaved = r.get();
  r.set(0);
}

SerialOpenMP::~SerialOpenMP() {
  if (mySaved >= 0) runtime().set(mySaved);
}

}  // namespace sinew
