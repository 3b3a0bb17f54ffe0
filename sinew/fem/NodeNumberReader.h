// Node number files (guide §6.4.6): the numbers of FEM nodes, separated by
// white space, optionally inside one pair of square brackets, with '#'
// commenting out the rest of a line. A model reads them to find the nodes
// to attach or constrain; NodeNumberWriter writes them (ten to a line).
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "sinew/fem/FemModel3d.h"

namespace sinew {

class NodeNumberReader {
 public:
  /// The nodes of fem with the file's numbers, in the file's order. A
  /// token that is not a non-negative integer, a misplaced bracket, or a
  /// number with no node in fem is a ParseError naming file and line; a
  /// file that cannot be opened is a ParseError at line 0.
  static std::vector<FemNode3d*> read(const std::filesystem::path& file, const FemModel3d& fem);
  /// As read(file, fem), from a stream that errors call `name`.
  static std::vector<FemNode3d*> read(std::istream& in, const std::string& name, const FemModel3d& fem);
  /// The numbers alone, with their checks of syntax.
  static std::vector<int> readNumbers(std::istream& in, const std::string& name);
};

class NodeNumberWriter {
 public:
  /// Writes the nodes' numbers, maxPerLine to a line, inside brackets when
  /// `brackets`; Error if the file cannot be written.
  static void write(const std::filesystem::path& file, const std::vector<FemNode3d*>& nodes, int maxPerLine = 10,
                    bool brackets = false);
  static void write(std::ostream& out, const std::vector<FemNode3d*>& nodes, int maxPerLine = 10,
                    bool brackets = false);
};

}  // namespace sinew
