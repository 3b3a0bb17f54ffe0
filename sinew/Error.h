// Error types of Sinew (DESIGN §4 "Errors").
//
// Bad input raises a typed exception that says where the problem is:
//  - ModelError: a malformed or inconsistent model (names the component path),
//  - ParseError: a malformed file (names the file and the line),
//  - SolverError: a step that failed or diverged (names the time and component).
#pragma once

#include <stdexcept>
#include <string>

namespace sinew {

/// Base of all Sinew errors.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A model that cannot be built or simulated as given.
class ModelError : public Error {
 public:
  explicit ModelError(const std::string& what, std::string path = {})
      : Error(path.empty() ? what : path + ": " + what), myPath(std::move(path)), myMessage(what) {}
  /// Path of the offending component, or empty.
  const std::string& path() const { return myPath; }
  /// The message without the path.
  const std::string& message() const { return myMessage; }

 private:
  std::string myPath, myMessage;
};

/// A file that cannot be read: names the file and the 1-based line.
class ParseError : public Error {
 public:
  ParseError(const std::string& file, int line, const std::string& what)
      : Error(file + ":" + std::to_string(line) + ": " + what), myFile(file), myLine(line) {}
  const std::string& file() const { return myFile; }
  int line() const { return myLine; }

 private:
  std::string myFile;
  int myLine;
};

/// A step that failed: names the simulation time and the component path.
class SolverError : public Error {
 public:
  SolverError(double time, const std::string& path, const std::string& what)
      : Error("t=" + std::to_string(time) + (path.empty() ? "" : " " + path) + ": " + what),
        myTime(time), myPath(path) {}
  double time() const { return myTime; }
  const std::string& path() const { return myPath; }

 private:
  double myTime;
  std::string myPath;
};

}  // namespace sinew
