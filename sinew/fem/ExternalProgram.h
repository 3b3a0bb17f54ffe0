// Running an external program from the library (internal to sinew/fem):
// a scratch directory that removes itself, a PATH search, and a spawn that
// waits for the program and reports how it ended.
//
// It exists so that GPL/AGPL meshers (TetGen) are run as separate programs,
// never linked (DESIGN §5), and so that such a program crashing on bad input
// cannot take the simulation down with it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace sinew::fem_detail {

/// A fresh, uniquely named directory under the system temporary directory
/// (std::filesystem::temp_directory_path()); it and everything in it are
/// removed when this object is destroyed, on errors too. Throws
/// std::filesystem::filesystem_error if it cannot be created.
class ScratchDirectory {
 public:
  explicit ScratchDirectory(const std::string& prefix);
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  const std::filesystem::path& path() const { return myPath; }

 private:
  std::filesystem::path myPath;
};

/// `name` if it contains a '/' and is an executable file; else the first
/// executable file `name` in a directory of $PATH; else an empty path.
std::filesystem::path findExecutable(const std::string& name);

/// How a program run by runProgram ended.
struct ProgramResult {
  int exitStatus = -1;  // when it exited, else -1
  int signal = 0;       // the signal that ended it, else 0
  std::string log;      // its stdout and stderr, interleaved as written

  bool succeeded() const { return signal == 0 && exitStatus == 0; }
  /// "exit status N" or "killed by signal N (NAME)".
  std::string describeEnd() const;
  /// The last `n` non-empty lines of the log, joined by " | ".
  std::string lastLines(int n) const;
};

/// Runs `program` with `args` (no shell: each argument is passed as is),
/// stdin from /dev/null, stdout and stderr into the file `logFile`, and
/// waits for it. Throws std::system_error if it cannot be started.
ProgramResult runProgram(const std::filesystem::path& program, const std::vector<std::string>& args,
                         const std::filesystem::path& logFile);

}  // namespace sinew::fem_detail
