#include "sinew/control/ProbeFile.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>

#include "sinew/Error.h"

namespace sinew {

namespace {

using Tokens = std::vector<std::string>;

// Hands out the non-blank lines of a stream as tokens, remembering the
// 1-based number of the line last read so errors can point at it.
class LineReader {
 public:
  LineReader(std::istream& in, const std::string& name) : myIn(in), myName(name) {}

  /// Next line with any tokens; false at end of input.
  bool next(Tokens& tokens) {
    std::string line;
    while (std::getline(myIn, line)) {
      ++myLine;
      tokens = tokenize(line);
      if (!tokens.empty()) return true;
    }
    return false;
  }

  [[noreturn]] void fail(const std::string& what) const { throw ParseError(myName, myLine, what); }
  /// Fails at the line after the last one read, where missing input belonged.
  [[noreturn]] void failMissing(const std::string& what) const {
    throw ParseError(myName, myLine + 1, what);
  }

 private:
  static Tokens tokenize(const std::string& line) {
    std::istringstream words(line.substr(0, line.find('#')));  // '#' starts a comment
    Tokens tokens;
    for (std::string w; words >> w;) tokens.push_back(w);
    return tokens;
  }

  std::istream& myIn;
  const std::string& myName;
  int myLine = 0;
};

// Locale-independent, whole-token parse; from_chars rejects a leading '+',
// which people do write, so that is skipped first.
bool toDouble(const std::string& token, double& value) {
  const char* begin = token.data();
  const char* end = begin + token.size();
  if (begin != end && *begin == '+' && end - begin > 1 && begin[1] != '-') ++begin;
  auto [ptr, ec] = std::from_chars(begin, end, value);
  return ec == std::errc() && ptr == end;
}

double parseNumber(const LineReader& reader, const std::string& token, const char* what) {
  double value = 0;
  if (!toDouble(token, value)) {
    reader.fail(std::string("expected a number for ") + what + ", got '" + token + "'");
  }
  if (!std::isfinite(value)) reader.fail(std::string(what) + " is not finite: '" + token + "'");
  return value;
}

bool isIntegerToken(const std::string& token) {
  size_t i = (!token.empty() && (token[0] == '+' || token[0] == '-')) ? 1 : 0;
  if (i == token.size()) return false;
  for (; i < token.size(); ++i) {
    if (token[i] < '0' || token[i] > '9') return false;
  }
  return true;
}

// ArtiSynth reads integer start/stop times as nanoseconds; refuse to guess.
double parseHeaderTime(const LineReader& reader, const std::string& token, const char* what) {
  const double value = parseNumber(reader, token, what);
  if (value != 0 && isIntegerToken(token)) {
    reader.fail(std::string(what) + " '" + token +
                "' is an integer, which ArtiSynth reads as nanoseconds; write '" + token +
                ".0' for seconds");
  }
  return value;
}

void checkFieldCount(const LineReader& reader, const Tokens& tokens, const char* fields[],
                     size_t count, const char* header) {
  if (tokens.size() < count) {
    reader.fail(std::string("header '") + header + "' is missing " + fields[tokens.size()]);
  }
  if (tokens.size() > count) {
    reader.fail(std::string("header '") + header + "' has an extra field '" + tokens[count] + "'");
  }
}

void parseHeader1(LineReader& reader, ProbeData& pd) {
  static const char* kHeader = "startTime stopTime scale";
  static const char* kFields[] = {"startTime", "stopTime", "scale"};
  Tokens tokens;
  if (!reader.next(tokens)) reader.failMissing(std::string("missing header '") + kHeader + "'");
  checkFieldCount(reader, tokens, kFields, 3, kHeader);
  pd.startTime = parseHeaderTime(reader, tokens[0], "startTime");
  pd.stopTime = parseHeaderTime(reader, tokens[1], "stopTime");
  pd.scale = parseNumber(reader, tokens[2], "scale");
  if (pd.stopTime < pd.startTime) reader.fail("stopTime is before startTime");
  if (pd.scale <= 0) reader.fail("scale must be positive, got '" + tokens[2] + "'");
}

int parseVsize(const LineReader& reader, const std::string& token) {
  int vsize = 0;
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), vsize);
  if (ec != std::errc() || ptr != token.data() + token.size()) {
    reader.fail("expected an integer for vsize, got '" + token + "'");
  }
  if (vsize <= 0) reader.fail("vsize must be positive, got " + token);
  return vsize;
}

bool isExplicitKeyword(const std::string& token) {
  static const std::string kWord = "explicit";
  if (token.size() != kWord.size()) return false;
  for (size_t i = 0; i < token.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(token[i])) != kWord[i]) return false;
  }
  return true;
}

void parseHeader2(LineReader& reader, ProbeData& pd) {
  static const char* kHeader = "interpolation vsize explicit|timeStep";
  static const char* kFields[] = {"interpolation", "vsize", "explicit|timeStep"};
  Tokens tokens;
  if (!reader.next(tokens)) reader.failMissing(std::string("missing header '") + kHeader + "'");
  checkFieldCount(reader, tokens, kFields, 3, kHeader);
  auto order = tryParseInterpolationOrder(tokens[0]);
  if (!order) {
    reader.fail("unknown interpolation order '" + tokens[0] +
                "' (expected Step, Linear, Parabolic, Cubic or CubicStep)");
  }
  pd.order = *order;
  pd.vsize = parseVsize(reader, tokens[1]);
  pd.explicitTime = isExplicitKeyword(tokens[2]);
  pd.timeStep = 0;
  if (!pd.explicitTime) {
    pd.timeStep = parseNumber(reader, tokens[2], "timeStep (or 'explicit')");
    if (pd.timeStep <= 0) reader.fail("timeStep must be positive, got '" + tokens[2] + "'");
  }
}

void parseKnots(LineReader& reader, ProbeData& pd) {
  const size_t first = pd.explicitTime ? 1 : 0;
  const size_t expected = first + static_cast<size_t>(pd.vsize);
  pd.data = NumericList(pd.vsize);
  Eigen::VectorXd value(pd.vsize);
  Tokens tokens;
  for (int i = 0; reader.next(tokens); ++i) {
    if (tokens.size() != expected) {
      reader.fail("expected " + std::to_string(expected) + " numbers" +
                  (pd.explicitTime ? " (time and " + std::to_string(pd.vsize) + " values)" : "") +
                  " on a knot line, got " + std::to_string(tokens.size()));
    }
    // Implicit times are computed, never accumulated, so they are exact
    // multiples of the step.
    const double t = pd.explicitTime ? parseNumber(reader, tokens[0], "knot time")
                                     : i * pd.timeStep;
    if (pd.explicitTime && !pd.data.empty() && t <= pd.data.knots().back().t) {
      reader.fail("knot time '" + tokens[0] + "' does not increase");
    }
    for (int j = 0; j < pd.vsize; ++j) value(j) = parseNumber(reader, tokens[first + j], "value");
    pd.data.add(t, value);
  }
}

// ---- writing ----

// Accepts exactly one floating-point conversion such as "%g" or "%12.6e":
// anything else would be undefined in snprintf or unreadable on input.
bool isNumberFormat(const std::string& fmt) {
  if (fmt.size() < 2 || fmt[0] != '%') return false;
  const std::string conversions = "eEfFgG";
  if (conversions.find(fmt.back()) == std::string::npos) return false;
  for (size_t i = 1; i + 1 < fmt.size(); ++i) {
    const char c = fmt[i];
    if (!(c == '-' || c == '+' || c == ' ' || c == '#' || c == '.' || (c >= '0' && c <= '9'))) {
      return false;
    }
  }
  return true;
}

std::string formatNumber(const std::string& fmt, double x) {
  const int size = std::snprintf(nullptr, 0, fmt.c_str(), x);
  std::string text(static_cast<size_t>(size) + 1, '\0');
  std::snprintf(text.data(), text.size(), fmt.c_str(), x);
  text.resize(static_cast<size_t>(size));
  return text;
}

// Start and stop times always carry a decimal point, so that neither we nor
// ArtiSynth read them as integer nanoseconds.
std::string formatHeaderTime(const std::string& fmt, double x) {
  std::string text = formatNumber(fmt, x);
  if (text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text;
}

void checkWritable(const ProbeData& pd, const std::string& fmt) {
  if (!isNumberFormat(fmt)) {
    throw Error("probe file: number format '" + fmt + "' is not a single %e/%f/%g conversion");
  }
  if (pd.vsize <= 0) throw Error("probe file: vsize must be positive");
  if (!pd.data.empty() && pd.data.getVsize() != pd.vsize) {
    throw Error("probe file: vsize " + std::to_string(pd.vsize) + " differs from the data's " +
                std::to_string(pd.data.getVsize()));
  }
  if (!std::isfinite(pd.startTime) || !std::isfinite(pd.stopTime) || pd.stopTime < pd.startTime) {
    throw Error("probe file: invalid interval");
  }
  if (!(pd.scale > 0) || !std::isfinite(pd.scale)) throw Error("probe file: invalid scale");
  for (const NumericKnot& k : pd.data.knots()) {
    if (!k.v.allFinite()) throw Error("probe file: knot value is not finite");
  }
}

// The step for the implicit-time form, checked against every knot time.
double uniformStep(const ProbeData& pd) {
  const auto& knots = pd.data.knots();
  double step = pd.timeStep;
  if (!(step > 0)) step = knots.size() >= 2 ? knots[1].t - knots[0].t : 1.0;
  if (!(step > 0) || !std::isfinite(step)) throw Error("probe file: invalid timeStep");
  for (size_t i = 0; i < knots.size(); ++i) {
    if (std::abs(knots[i].t - static_cast<double>(i) * step) > 1e-9 * step) {
      throw Error("probe file: knot times are not 0, timeStep, 2*timeStep, ...; "
                  "write them with explicit times");
    }
  }
  return step;
}

}  // namespace

ProbeData parseProbeData(std::istream& in, const std::string& nameForErrors) {
  LineReader reader(in, nameForErrors);
  ProbeData pd;
  parseHeader1(reader, pd);
  parseHeader2(reader, pd);
  parseKnots(reader, pd);
  return pd;
}

ProbeData readProbeFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open probe file '" + path + "'");
  return parseProbeData(in, path);
}

void writeProbeData(std::ostream& out, const ProbeData& pd, bool explicitTime,
                    const std::string& numberFormat) {
  checkWritable(pd, numberFormat);
  const double step = explicitTime ? 0 : uniformStep(pd);
  const std::string& f = numberFormat;
  out << formatHeaderTime(f, pd.startTime) << ' ' << formatHeaderTime(f, pd.stopTime) << ' '
      << formatNumber(f, pd.scale) << '\n';
  out << toString(pd.order) << ' ' << pd.vsize << ' '
      << (explicitTime ? std::string("explicit") : formatNumber(f, step)) << '\n';
  for (const NumericKnot& k : pd.data.knots()) {
    std::string line = explicitTime ? formatNumber(f, k.t) : std::string();
    for (Eigen::Index j = 0; j < k.v.size(); ++j) {
      if (!line.empty()) line += ' ';
      line += formatNumber(f, k.v(j));
    }
    out << line << '\n';
  }
}

void writeProbeFile(const std::string& path, const ProbeData& pd, bool explicitTime,
                    const std::string& numberFormat) {
  // Format into memory first so a bad ProbeData leaves no partial file.
  std::ostringstream text;
  writeProbeData(text, pd, explicitTime, numberFormat);
  std::ofstream out(path);
  if (!out) throw Error("cannot open probe file '" + path + "' for writing");
  out << text.str();
  out.flush();
  if (!out) throw Error("error writing probe file '" + path + "'");
}

void addInlineData(NumericList& list, int vsize, const std::vector<double>& data,
                   double timeStep) {
  if (vsize <= 0) throw Error("in-line probe data: vsize must be positive");
  if (list.getVsize() != vsize && !(list.getVsize() == 0 && list.empty())) {
    throw Error("in-line probe data: vsize " + std::to_string(vsize) +
                " differs from the list's " + std::to_string(list.getVsize()));
  }
  const bool explicitTime = timeStep == EXPLICIT_TIME;
  if (!explicitTime && !(timeStep > 0 && std::isfinite(timeStep))) {
    throw Error("in-line probe data: timeStep must be positive or EXPLICIT_TIME");
  }
  const size_t row = static_cast<size_t>(vsize) + (explicitTime ? 1 : 0);
  if (data.size() % row != 0) {
    throw Error("in-line probe data: " + std::to_string(data.size()) +
                " numbers is not a multiple of " + std::to_string(row) +
                (explicitTime ? " (time and vsize values per knot)" : " (vsize values per knot)"));
  }
  for (double x : data) {
    if (!std::isfinite(x)) throw Error("in-line probe data: a number is not finite");
  }
  // All checks are done, so the list is modified only on success.
  if (list.getVsize() == 0) list.setVsize(vsize);
  const size_t first = explicitTime ? 1 : 0;
  for (size_t i = 0; i * row < data.size(); ++i) {
    const double* r = data.data() + i * row;
    const double t = explicitTime ? r[0] : static_cast<double>(i) * timeStep;
    list.add(t, Eigen::Map<const Eigen::VectorXd>(r + first, vsize));
  }
}

}  // namespace sinew
