// Scratch directories, PATH search and subprocesses (see ExternalProgram.h).
// posix_spawn rather than fork: the process may hold large TBB thread pools
// and memory, which fork would have to duplicate (copy-on-write) for nothing.
#include "sinew/fem/ExternalProgram.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <system_error>

extern char** environ;

namespace sinew::fem_detail {

namespace fs = std::filesystem;

ScratchDirectory::ScratchDirectory(const std::string& prefix) {
  // pid + counter + random: unique across threads, processes and leftovers
  // of killed runs; create_directory fails on a name that exists, so retry.
  static std::atomic<unsigned> counter{0};
  std::random_device random;
  const fs::path base = fs::temp_directory_path();
  for (int attempt = 0;; ++attempt) {
    std::ostringstream name;
    name << prefix << '-' << ::getpid() << '-' << counter++ << '-' << std::hex << random();
    fs::path candidate = base / name.str();
    std::error_code ec;
    if (fs::create_directory(candidate, ec)) {
      myPath = std::move(candidate);
      return;
    }
    if (ec || attempt >= 100)
      throw fs::filesystem_error("cannot create a scratch directory", candidate,
                                 ec ? ec : std::make_error_code(std::errc::file_exists));
  }
}

ScratchDirectory::~ScratchDirectory() {
  std::error_code ignored;  // a destructor must not throw; a leftover is harmless
  fs::remove_all(myPath, ignored);
}

namespace {

bool isExecutableFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

fs::path findExecutable(const std::string& name) {
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) return isExecutableFile(name) ? fs::path(name) : fs::path();
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;  // an empty entry means "."
    if (isExecutableFile(candidate)) return candidate;
  }
  return {};
}

std::string ProgramResult::describeEnd() const {
  if (signal == 0) return "exit status " + std::to_string(exitStatus);
  const char* name = ::strsignal(signal);
  return "killed by signal " + std::to_string(signal) + (name ? std::string(" (") + name + ")" : "");
}

std::string ProgramResult::lastLines(int n) const {
  std::vector<std::string> lines;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);)
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
  std::string out;
  for (size_t i = lines.size() > size_t(n) ? lines.size() - n : 0; i < lines.size(); ++i)
    out += (out.empty() ? "" : " | ") + lines[i];
  return out.empty() ? "(no output)" : out;
}

ProgramResult runProgram(const fs::path& program, const std::vector<std::string>& args, const fs::path& logFile) {
  std::vector<std::string> argStrings{program.string()};
  argStrings.insert(argStrings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argStrings) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, logFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int err = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) throw std::system_error(err, std::generic_category(), "cannot run " + program.string());

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::system_error(errno, std::generic_category(), "waiting for " + program.string());

  ProgramResult r;
  if (WIFEXITED(status)) r.exitStatus = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  std::ifstream in(logFile);
  r.log.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return r;
}

}  // namespace sinew::fem_detail
