// Internal to the FEM mesh readers and writers (guide §6.2.2): the
// format-neutral MeshData the readers parse into, the one function that
// checks it and adds it to a FemModel3d, a line reader that knows its line
// number, and the node-order permutations. Not part of the public API.
#pragma once

#include <filesystem>
#include <fstream>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "sinew/fem/FemModel3d.h"

namespace sinew::femio {

/// A node as a file gave it: its number in the file and the line it is on.
struct NodeRecord {
  long long number;
  Vector3d pos;
  int line;
};

/// An element: its number, type, and the file numbers of its nodes already
/// in Sinew's node order.
struct ElementRecord {
  long long number;
  FemElementType type;
  std::vector<long long> nodes;
  int line;
};

struct MeshData {
  std::string nodeFile, elemFile;  // the same for one-file formats
  std::vector<NodeRecord> nodes;
  std::vector<ElementRecord> elements;
};

/// Checks d (repeated numbers, missing or repeated nodes, elements inverted
/// at rest) and only then adds it to fem, numbered as FemMeshIO.h says.
/// Throws ParseError at the offending record's line; fem is then unchanged.
void buildFem(FemModel3d& fem, const MeshData& d);

/// A node order: Sinew's node i is the file's node perm[i]. Empty: the same.
using NodeOrder = std::vector<int>;

template <class T>
std::vector<T> toSinewOrder(const std::vector<T>& file, const NodeOrder& perm) {
  if (perm.empty()) return file;
  std::vector<T> out(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) out[i] = file[perm[i]];
  return out;
}

template <class T>
std::vector<T> toFileOrder(const std::vector<T>& sinew, const NodeOrder& perm) {
  if (perm.empty()) return sinew;
  std::vector<T> out(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) out[perm[i]] = sinew[i];
  return out;
}

/// A format's code for an element type, and its node order.
struct TypeCode {
  int id;
  FemElementType type;
  NodeOrder order;
};
/// The entry with this code, or nullptr.
const TypeCode* findTypeCode(const std::vector<TypeCode>& codes, long long id);
/// The entry for this type (which must be in the table).
const TypeCode& findTypeCode(const std::vector<TypeCode>& codes, FemElementType type);

/// Reads a text file line by line, splitting lines into whitespace-separated
/// tokens and counting lines, so that every error names file and line.
class LineReader {
 public:
  /// `comment` (if not 0) starts a comment anywhere on a line.
  LineReader(std::istream& in, std::string file, char comment = 0);

  /// Moves to the next line with tokens; false at the end of the file.
  bool next();
  /// Moves to the next line, blank or not; false at the end of the file.
  bool nextLine();
  /// As next(), but a ParseError "file ends before <what>" at the end.
  void expect(const std::string& what);
  const std::vector<std::string_view>& tokens() const { return myTokens; }
  /// The current line as read (comments removed).
  const std::string& text() const { return myText; }
  int line() const { return myLine; }
  const std::string& file() const { return myFile; }

  /// The next token, reading further lines as needed (formats whose
  /// numbers may wrap across lines); tokenLine() is its line.
  std::string_view nextToken(const std::string& what);
  int tokenLine() const { return myTokenLine; }
  /// Drops the tokens left on the current line.
  void skipRestOfLine() { myNextToken = myTokens.size(); }

  [[noreturn]] void fail(const std::string& what) const;
  double toDouble(std::string_view tok) const;
  long long toInt(std::string_view tok) const;
  /// A non-negative integer (a count or a number).
  long long toCount(std::string_view tok) const;
  /// Tokens first..first+2 as a point; fails unless they are numbers.
  Vector3d toPoint(size_t first) const;
  /// Fails unless the line has exactly n tokens.
  void requireTokens(size_t n, const std::string& what) const;

 private:
  std::istream& myIn;
  std::string myFile;
  char myComment;
  std::string myText;
  std::vector<std::string_view> myTokens;
  int myLine = 0, myTokenLine = 0;
  size_t myNextToken = 0;
};

/// Reads a one-file format: Parser(lineReader, data).run(), then buildFem.
template <class Parser>
FemModel3d& readWith(FemModel3d& fem, std::istream& in, const std::string& name) {
  MeshData d{name, name, {}, {}};
  LineReader lr(in, name);
  Parser(lr, d).run();
  buildFem(fem, d);
  return fem;
}

/// Opens a file to read; ParseError (line 0) if it cannot.
std::ifstream openForReading(const std::filesystem::path& path);
/// Opens a file to write; Error if it cannot.
std::ofstream openForWriting(const std::filesystem::path& path);
/// Throws Error if writing to out failed.
void finishWriting(std::ostream& out, const std::filesystem::path& path);

/// A number as written: 17 significant digits, which round-trips a double.
std::string formatNumber(double v);
std::string formatPoint(const Vector3d& p, const char* sep = " ");
/// The number a numbered format writes for a node or element.
inline long long fileNumber(const Component& c) { return c.getNumber() + 1LL; }

/// Throws Error naming the format unless every element's type is allowed.
void requireTypes(const FemModel3d& fem, std::initializer_list<FemElementType> allowed, const char* format);

}  // namespace sinew::femio
