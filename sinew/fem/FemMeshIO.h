// Reading and writing volumetric FEM meshes (guide §6.2.2, Table 6.4): the
// readers fill a FemModel3d with nodes and elements, the writers save one.
//
//   format            files          element types
//   ANSYS             .node + .elem  Tet, Pyramid, Wedge, Hex, QuadTet, QuadHex
//   TetGen            .node + .ele   Tet, QuadTet
//   Abaqus            .inp           C3D4, C3D5, C3D6, C3D8, C3D10, C3D15, C3D20
//   VTK legacy ASCII  .vtk           VTK types 10, 12, 13, 14, 24, 25, 26, 27
//   Gmsh ASCII 2.2/4.1 .msh          Gmsh types 4, 5, 6, 7, 11, 17, 18, 19
//
// Each format has its own node order per element type; readers convert it to
// Sinew's (ArtiSynth's, see ReferenceElement) and writers back. The mappings
// and where they come from are documented in each format's .cpp file.
//
// Numbers: where a format numbers nodes and elements, a file number n
// becomes the persistent number n − 1 (n if the file numbers from 0), and
// writers write number + 1; gaps are kept. Reading into a model that already
// has nodes or elements numbers the new ones after the existing ones.
//
// Errors: a file that cannot be opened or is malformed — truncated, a
// non-number, an unknown element type, a node that does not exist, wrong
// counts, an element inverted at rest — throws ParseError naming the file and
// the 1-based line (0 when the file cannot be opened), and leaves the model as
// it was. Writers throw Error for element types the format cannot hold.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>

#include "sinew/fem/FemModel3d.h"

namespace sinew {

/// ANSYS node (.node: "number x y z") and element (.elem) files as ArtiSynth
/// reads and writes them: per element a row of 8 node numbers, 5 attributes
/// and the element number, then a row with the further nodes of quadratic
/// elements. Linear tets, pyramids and wedges repeat nodes (ANSYS degenerate
/// forms) or leave them 0.
class AnsysReader {
 public:
  static FemModel3d& read(FemModel3d& fem, const std::filesystem::path& nodeFile,
                          const std::filesystem::path& elemFile);
  static FemModel3d& read(FemModel3d& fem, std::istream& nodes, std::istream& elems,
                          const std::string& nodeName = "<nodes>", const std::string& elemName = "<elems>");
};

class AnsysWriter {
 public:
  static void write(const FemModel3d& fem, const std::filesystem::path& nodeFile,
                    const std::filesystem::path& elemFile);
  static void write(const FemModel3d& fem, std::ostream& nodes, std::ostream& elems);
};

/// TetGen .node ("count 3 attributes markers", then "number x y z ...") and
/// .ele ("count 4|10 attributes", then "number n1 … nk ...") files; numbers
/// may start at 0 or 1, '#' starts a comment.
class TetGenReader {
 public:
  static FemModel3d& read(FemModel3d& fem, const std::filesystem::path& nodeFile,
                          const std::filesystem::path& eleFile);
  static FemModel3d& read(FemModel3d& fem, std::istream& nodes, std::istream& eles,
                          const std::string& nodeName = "<nodes>", const std::string& eleName = "<eles>");
};

class TetGenWriter {
 public:
  /// Only Tet or only QuadTet elements (a .ele file has one node count).
  static void write(const FemModel3d& fem, const std::filesystem::path& nodeFile,
                    const std::filesystem::path& eleFile);
  static void write(const FemModel3d& fem, std::ostream& nodes, std::ostream& eles);
};

/// Abaqus input files: the *NODE and *ELEMENT, TYPE=C3Dn[suffix] sections
/// (keywords case-insensitive, "**" comments, element rows continued on the
/// next line after a trailing comma); other keywords are not mesh data and
/// are passed over.
class AbaqusReader {
 public:
  static FemModel3d& read(FemModel3d& fem, const std::filesystem::path& file);
  static FemModel3d& read(FemModel3d& fem, std::istream& in, const std::string& name = "<inp>");
};

class AbaqusWriter {
 public:
  static void write(const FemModel3d& fem, const std::filesystem::path& file);
  static void write(const FemModel3d& fem, std::ostream& out);
};

/// VTK legacy ASCII unstructured grids (versions up to 4.2 and 5.1): POINTS,
/// CELLS and CELL_TYPES. Cells of dimension 0–2 (vertices, lines, triangles,
/// quads, …), which mesh generators add for boundaries, are passed over.
class VtkAsciiReader {
 public:
  static FemModel3d& read(FemModel3d& fem, const std::filesystem::path& file);
  static FemModel3d& read(FemModel3d& fem, std::istream& in, const std::string& name = "<vtk>");
};

/// Writes legacy version 3.0, which every VTK reader accepts.
class VtkAsciiWriter {
 public:
  static void write(const FemModel3d& fem, const std::filesystem::path& file);
  static void write(const FemModel3d& fem, std::ostream& out);
};

/// Gmsh .msh ASCII files, versions 2.2 and 4.1 (chosen from $MeshFormat).
/// Elements of dimension 0–2 (boundary points, lines and faces of physical
/// groups) are passed over; other sections are skipped.
class GmshReader {
 public:
  static FemModel3d& read(FemModel3d& fem, const std::filesystem::path& file);
  static FemModel3d& read(FemModel3d& fem, std::istream& in, const std::string& name = "<msh>");
};

class GmshWriter {
 public:
  enum class Version { V22, V41 };
  static void write(const FemModel3d& fem, const std::filesystem::path& file, Version v = Version::V41);
  static void write(const FemModel3d& fem, std::ostream& out, Version v = Version::V41);
};

/// Reads any format of the table, chosen by the extension: .inp Abaqus,
/// .vtk VTK, .msh Gmsh, .elem ANSYS, .ele TetGen (each with the .node file
/// of the same stem); a .node file is ANSYS if a .elem file sits beside it,
/// else TetGen. An unknown extension throws ParseError (line 0).
FemModel3d& readFem(FemModel3d& fem, const std::filesystem::path& path);

/// Writes in the format of the extension (as readFem; .elem and .ele also
/// write the .node file of the same stem; a bare .node is ambiguous).
void writeFem(const FemModel3d& fem, const std::filesystem::path& path);

}  // namespace sinew
