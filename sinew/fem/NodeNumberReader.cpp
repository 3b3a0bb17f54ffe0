#include "sinew/fem/NodeNumberReader.h"

#include <charconv>
#include <fstream>
#include <sstream>

#include "sinew/Error.h"

namespace sinew {

namespace {

/// A number token or a bracket, with the line it is on.
struct Token {
  std::string text;
  int line;
};

std::vector<Token> tokenize(std::istream& in) {
  std::vector<Token> tokens;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (auto c = text.find('#'); c != std::string::npos) text.erase(c);
    std::string spaced;  // brackets may touch the numbers: "[2 12]"
    for (char ch : text) {
      if (ch == '[' || ch == ']') spaced += ' ', spaced += ch, spaced += ' ';
      else spaced += ch;
    }
    std::istringstream words(spaced);
    for (std::string w; words >> w;) tokens.push_back({w, line});
  }
  return tokens;
}

/// The numbers with their lines, after the checks of syntax.
std::vector<std::pair<int, int>> parse(std::istream& in, const std::string& name) {
  const std::vector<Token> tokens = tokenize(in);
  std::vector<std::pair<int, int>> numbers;
  bool open = false, closed = false;
  for (const Token& t : tokens) {
    if (closed) throw ParseError(name, t.line, "'" + t.text + "' after the closing ']'");
    if (t.text == "[") {
      if (open || !numbers.empty()) throw ParseError(name, t.line, "'[' may only open the list");
      open = true;
    } else if (t.text == "]") {
      if (!open) throw ParseError(name, t.line, "']' without an opening '['");
      closed = true;
    } else {
      int value = -1;
      const char* end = t.text.data() + t.text.size();
      auto [ptr, ec] = std::from_chars(t.text.data(), end, value);
      if (ec != std::errc() || ptr != end || value < 0)
        throw ParseError(name, t.line, "'" + t.text + "' is not a node number (a non-negative integer)");
      numbers.emplace_back(value, t.line);
    }
  }
  if (open && !closed) throw ParseError(name, tokens.back().line, "the list opened by '[' is not closed");
  return numbers;
}

}  // namespace

std::vector<int> NodeNumberReader::readNumbers(std::istream& in, const std::string& name) {
  std::vector<int> numbers;
  for (const auto& [num, line] : parse(in, name)) numbers.push_back(num);
  return numbers;
}

std::vector<FemNode3d*> NodeNumberReader::read(std::istream& in, const std::string& name, const FemModel3d& fem) {
  std::vector<FemNode3d*> nodes;
  for (const auto& [num, line] : parse(in, name)) {
    FemNode3d* node = fem.getNodeByNumber(num);
    if (!node) throw ParseError(name, line, "no node numbered " + std::to_string(num) + " in " + fem.describe());
    nodes.push_back(node);
  }
  return nodes;
}

std::vector<FemNode3d*> NodeNumberReader::read(const std::filesystem::path& file, const FemModel3d& fem) {
  std::ifstream in(file);
  if (!in) throw ParseError(file.string(), 0, "cannot open the node number file");
  return read(in, file.string(), fem);
}

void NodeNumberWriter::write(std::ostream& out, const std::vector<FemNode3d*>& nodes, int maxPerLine,
                             bool brackets) {
  if (maxPerLine < 1) throw Error("NodeNumberWriter: maxPerLine must be at least 1");
  if (brackets) out << "[ ";
  for (size_t k = 0; k < nodes.size(); ++k) {
    out << nodes[k]->getNumber();
    const bool lineEnd = (k + 1) % maxPerLine == 0 || k + 1 == nodes.size();
    out << (lineEnd ? "\n" : " ");
    if (brackets && lineEnd && k + 1 < nodes.size()) out << "  ";
  }
  if (brackets) out << "]\n";
}

void NodeNumberWriter::write(const std::filesystem::path& file, const std::vector<FemNode3d*>& nodes, int maxPerLine,
                             bool brackets) {
  std::ofstream out(file);
  if (!out) throw Error("cannot write node number file " + file.string());
  write(out, nodes, maxPerLine, brackets);
  out.flush();
  if (!out) throw Error("failed writing node number file " + file.string());
}

}  // namespace sinew
