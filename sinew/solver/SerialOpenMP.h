// Keeps the OpenMP regions of the sparse-solver libraries serial while a
// factorization runs (docs/solvers.md, "Threads").
//
// CHOLMOD (SuiteSparse 5) opens OpenMP regions of a fixed four threads in
// its supernodal factorization (CHOLMOD_OMP_NUM_THREADS, compiled in:
// OMP_NUM_THREADS does not change it). The work in them is light — the
// scatter of each update into its target supernode; the heavy part is BLAS,
// which has threads of its own — so beside OpenBLAS's and TBB's threads on
// a machine of few cores the spinning threads cost far more than they
// save: a 3.5k-unknown hex beam's factorization took 32 ms with them and
// 10 ms without on two cores. While an instance lives, OpenMP's
// max-active-levels is 0 (every region runs on the calling thread alone);
// the old value comes back when the last instance, on any thread, goes
// (the setting is the process's: an application's own OpenMP regions run
// serial meanwhile too). Where no OpenMP runtime is loaded (libraries
// built without it) it does nothing.
#pragma once

namespace sinew {

class SerialOpenMP {
 public:
  SerialOpenMP();
  ~SerialOpenMP();
  SerialOpenMP(const SerialOpenMP&) = delete;
  SerialOpenMP& operator=(const SerialOpenMP&) = delete;

 private:
  bool myActive = false;  ///< whether this instance counts (an OpenMP runtime is loaded)
};

}  // namespace sinew
