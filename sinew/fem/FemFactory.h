// FemFactory (guide §6.2.1, §6.2.3): FEM models of simple shapes — boxes
// ("grids") of every element type of Table 6.1, cylinders, tubes,
// ellipsoids, tori, layers extruded from a surface mesh, and tetrahedral
// meshes of closed surfaces.
//
// Each function adds nodes and elements to `fem` (which may already hold
// some) and returns it, as the guide's `createHexGrid(fem, …)` does. Every
// model built is conforming (neighbouring elements share whole faces, and
// quadratic elements share their edge nodes) and every element has a
// positive rest volume. Bad arguments throw ModelError and leave `fem`
// unchanged.
#pragma once

#include <filesystem>
#include <string>

#include "sinew/fem/FemModel3d.h"
#include "sinew/geometry/PolygonalMesh.h"

namespace sinew {

class FemFactory {
 public:
  // Grids: a box centred at the origin with widths (wx, wy, wz) along x, y,
  // z and (nx, ny, nz) cells. The cell corners are numbered first, along x
  // fastest, then y, then z; pyramid grids add each cell's centre after
  // them, quadratic grids their edge nodes last. Cells (and so elements)
  // go z fastest, then y, then x, as in ArtiSynth: cell (i, j, k) holds
  // element (or its first element) number (i·ny + j)·nz + k times the
  // elements per cell.

  /// A grid of elements of any type of Table 6.1: each cell is one hex, two
  /// wedges (split across the diagonal of its z faces, extruded along z),
  /// six tetrahedra around its main diagonal (Kuhn), or six pyramids on its
  /// faces meeting at its centre; quadratic types add a node in the middle
  /// of each edge, shared by the elements on it.
  static FemModel3d& createGrid(FemModel3d& fem, FemElementType type, double wx, double wy, double wz, int nx, int ny,
                                int nz);
  static FemModel3d& createHexGrid(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz);
  static FemModel3d& createTetGrid(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz);
  static FemModel3d& createWedgeGrid(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz);
  static FemModel3d& createPyramidGrid(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz);
  static FemModel3d& createQuadtetGrid(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz);
  static FemModel3d& createQuadhexGrid(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz);
  static FemModel3d& createQuadwedgeGrid(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz);
  static FemModel3d& createQuadpyramidGrid(FemModel3d& fem, double wx, double wy, double wz, int nx, int ny, int nz);

  // Shapes of revolution. nt counts elements around the circle (at least
  // 3), nl along the length, nr (ns) through the radius. Curved boundaries
  // are approximated by straight element edges through nodes on them, so
  // volumes converge to the analytic ones as O(1/nt²) and stay just below.

  /// A flat sheet of shell elements (§6.1.2.3) wx × wy in the x–y plane,
  /// centred at the origin, of nx × ny cells with normals along +z: one
  /// ShellQuadElement per cell, or (Tri) two ShellTriElements split along
  /// the cell diagonal. Nodes are numbered x fastest; `thickness` and
  /// `membrane` are the elements' (regular shells bend, membranes do not).
  static FemModel3d& createShellQuadGrid(FemModel3d& fem, double wx, double wy, int nx, int ny, double thickness,
                                         bool membrane = false);
  static FemModel3d& createShellTriGrid(FemModel3d& fem, double wx, double wy, int nx, int ny, double thickness,
                                        bool membrane = false);
  /// One shell per face of a mesh of triangles and quads (a node per used
  /// vertex, face orientation giving the normals).
  static FemModel3d& createShellModel(FemModel3d& fem, const PolygonalMesh& mesh, double thickness,
                                      bool membrane = false);

  /// A solid cylinder of length l along z (z from −l/2 to l/2) and radius r:
  /// hexes, with wedges around the axis.
  static FemModel3d& createCylinder(FemModel3d& fem, double l, double r, int nt, int nl, int nr);
  /// A tube (hollow cylinder) of length l along z, centred at the origin,
  /// with radii rin < rout, of elements of any type (each hexahedral cell
  /// split as in createGrid, its local axes radial, around, along z).
  static FemModel3d& createTube(FemModel3d& fem, FemElementType type, double l, double rin, double rout, int nt, int nl,
                                int nr);
  /// createTube of hexes (the guide's createHexTube).
  static FemModel3d& createHexTube(FemModel3d& fem, double l, double rin, double rout, int nt, int nl, int nr);
  static FemModel3d& createTube(FemModel3d& fem, double l, double rin, double rout, int nt, int nl, int nr) {
    return createHexTube(fem, l, rin, rout, nt, nl, nr);
  }
  /// A torus about the z axis, centred at the origin: a tube of cross
  /// section rin ≤ ρ ≤ rout bent round the circle of radius R > rout in the
  /// x–y plane. nt elements around the cross section, nl around the z axis,
  /// nr through the thickness. rin = 0 gives a solid torus, of hexes with
  /// wedges round its centre circle (type Hex or QuadHex only).
  static FemModel3d& createTorus(FemModel3d& fem, FemElementType type, double R, double rin, double rout, int nt,
                                 int nl, int nr);
  /// createTorus of hexes (the guide's createHexTorus).
  static FemModel3d& createHexTorus(FemModel3d& fem, double R, double rin, double rout, int nt, int nl, int nr);
  static FemModel3d& createTorus(FemModel3d& fem, double R, double rin, double rout, int nt, int nl, int nr) {
    return createHexTorus(fem, R, rin, rout, nt, nl, nr);
  }
  /// The part of createHexTorus from azimuth 0 to `angle` (0 < angle ≤ 2π)
  /// about z, open at both ends unless angle = 2π.
  static FemModel3d& createPartialHexTorus(FemModel3d& fem, double R, double rin, double rout, int nt, int nl, int nr,
                                           double angle);
  /// A solid ellipsoid centred at the origin with semi-axis rl along its
  /// polar axis z and rs1, rs2 along x and y: nt elements around the polar
  /// axis (at least 3), nl from pole to pole (at least 2), ns from the
  /// centre out. Hexes, with wedges along the polar axis, pyramids round the
  /// centre and tetrahedra where the two meet.
  static FemModel3d& createEllipsoid(FemModel3d& fem, double rl, double rs1, double rs2, int nt, int nl, int ns);

  /// Extrudes a surface of triangles and quads along its vertex normals
  /// (area-weighted) into n layers of thickness d (§6.2.3): layer boundary
  /// m (m = 0…n) lies at p + (m d − zOffset) n̂ for each vertex p, so
  /// zOffset = n d / 2 centres the layers on the surface. Triangles become
  /// wedges, quads hexes. The surface must be non-empty and manifold: each
  /// edge used by one face, or by two in opposite directions. An element
  /// that would be inverted at rest (curvature too high for the thickness)
  /// throws ModelError naming its face and layer.
  static FemModel3d& createExtrusion(FemModel3d& fem, int n, double d, double zOffset, const PolygonalMesh& surface);

  // Tetrahedral meshes of closed surfaces (§6.2.3), made by running the
  // external tetgen 1.5 program (FemFactoryTetGen.cpp). TetGen is AGPL-3+,
  // so it is never linked (DESIGN §5); without the program these throw.

  /// The tetgen program createFromMesh runs: $SINEW_TETGEN if set (a path,
  /// or a name looked up on $PATH), else `tetgen` on $PATH. Empty if there
  /// is no such executable file.
  static std::filesystem::path findTetGenProgram();
  /// What createFromMesh's ModelError says when findTetGenProgram() finds
  /// nothing (names $SINEW_TETGEN when it is set).
  static std::string tetgenNotFoundMessage();

  /// Fills a closed, manifold, outward-oriented surface that does not
  /// intersect itself with linear tetrahedra whose boundary is the surface.
  /// quality = 0 adds no points (the surface vertices only); quality ≥ 1
  /// adds Steiner points, inside and on the surface's faces, until no
  /// tetrahedron's radius–edge ratio (circumradius over shortest edge)
  /// exceeds it (TetGen's -q; 1.2 usually works). A surface that is empty,
  /// open, non-manifold, inward-oriented, degenerate or self-intersecting,
  /// or a quality in (0, 1), throws ModelError saying which, as do a
  /// missing tetgen program and a tetgen run that fails or crashes.
  static FemModel3d& createFromMesh(FemModel3d& fem, const PolygonalMesh& surface, double quality);
  /// A tetrahedral sphere of radius r centred at the origin: createFromMesh
  /// of MeshFactory::createIcosahedralSphere(r, ndivisions) (20·4^ndivisions
  /// faces, every vertex on the sphere).
  static FemModel3d& createIcosahedralSphere(FemModel3d& fem, double r, int ndivisions, double quality);
};

}  // namespace sinew
