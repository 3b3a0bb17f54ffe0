// Reading and writing numeric probe data files (guide §5.4.4) and adding
// probe data in-line (guide §5.4.5).
//
// A probe file is ASCII: two header lines, then one knot per line.
//
//     startTime stopTime scale
//     interpolation vsize ( explicit | timeStep )
//     [time] value_1 ... value_vsize
//
// Knot times are relative to the probe's start time. With "explicit" each
// knot line starts with its time; otherwise knot i is at i*timeStep.
//
// Choices where ArtiSynth's reader differs or the guide is silent:
//  - Parsing is line based: each knot is exactly one line, and a line with
//    the wrong count of numbers is an error (ArtiSynth reads a token stream
//    and silently drops an incomplete last knot).
//  - '#' starts a comment to the end of the line; blank lines are skipped.
//  - ArtiSynth reads an integer start or stop time ("4") as nanoseconds. We
//    reject a nonzero integer start or stop time with a ParseError instead of
//    guessing; write "4.0" for 4 seconds. The writer always adds a decimal
//    point, so written files read the same in ArtiSynth.
//  - Explicit knot times must increase strictly; scale must be positive;
//    every number must be finite (no nan/inf).
// Every malformed input throws sinew::ParseError naming the file and the
// 1-based line.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "sinew/control/Interpolation.h"
#include "sinew/control/NumericList.h"

namespace sinew {

/// The contents of a probe data file.
struct ProbeData {
  double startTime = 0;
  double stopTime = 1;
  double scale = 1;
  InterpolationOrder order = InterpolationOrder::Linear;
  int vsize = 0;
  bool explicitTime = true;  ///< knot lines carry their own times
  double timeStep = 0;       ///< uniform knot spacing; 0 when explicitTime
  NumericList data;          ///< knots, times relative to startTime
};

/// Reads a probe file. Throws sinew::Error if it cannot be opened and
/// sinew::ParseError if it is malformed.
ProbeData readProbeFile(const std::string& path);

/// Parses probe data from a stream; nameForErrors names it in ParseErrors.
ProbeData parseProbeData(std::istream& in, const std::string& nameForErrors);

/// Writes probe data in the §5.4.4 format, with explicit knot times or with
/// a uniform time step (explicitTime = false; then data.timeStep, or the
/// first knot spacing if that is 0, must match every knot time to within
/// 1e-9 of a step, and the first knot must be at 0). numberFormat is a
/// printf conversion for one double; the default "%.17g" reads back
/// bit-identical. Throws sinew::Error for data that cannot be written.
void writeProbeFile(const std::string& path, const ProbeData& data, bool explicitTime = true,
                    const std::string& numberFormat = "%.17g");

/// As writeProbeFile, to a stream.
void writeProbeData(std::ostream& out, const ProbeData& data, bool explicitTime = true,
                    const std::string& numberFormat = "%.17g");

/// Time step meaning "each knot row starts with its time" (guide §5.4.5,
/// NumericInputProbe.EXPLICIT_TIME).
constexpr double EXPLICIT_TIME = -1;

/// Adds row-major knot data to list (guide §5.4.5). With timeStep ==
/// EXPLICIT_TIME each row is (time, vsize values) and data.size() must be
/// (vsize+1)*m; otherwise rows are vsize values at times 0, timeStep,
/// 2*timeStep, ... and data.size() must be vsize*m. vsize must equal the
/// list's vector size (an empty list of size 0 takes it). Throws sinew::Error.
void addInlineData(NumericList& list, int vsize, const std::vector<double>& data,
                   double timeStep);

}  // namespace sinew
