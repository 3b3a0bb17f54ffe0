// MeshFactory: ready-made polygonal meshes in a standard frame (Guide §2.5.1;
// checklist ME-07, ME-08).
//
// Every shape is centred at the origin; axial shapes (cylinder, capsule,
// prism, torus) run along z. Closed shapes are closed and consistently
// oriented with outward counter-clockwise faces, so computeVolume() > 0.
// Curved shapes are inscribed polyhedra: their vertices lie on the exact
// surface, so volumes and areas approach the analytic values from below as
// the resolution grows (error ~ 1/n² for n slices).
// Solid shapes meant for collision (box, sphere, cylinder, ...) are made of
// triangles; createQuadBox and createPlane keep quadrilaterals.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "sinew/geometry/PolygonalMesh.h"

namespace sinew {

class MeshFactory {
 public:
  /// Triangulated box with widths wx, wy, wz and nx, ny, nz divisions per axis.
  static PolygonalMesh createBox(double wx, double wy, double wz, int nx = 1, int ny = 1,
                                 int nz = 1);
  /// The same box made of quadrilaterals.
  static PolygonalMesh createQuadBox(double wx, double wy, double wz, int nx = 1, int ny = 1,
                                     int nz = 1);
  /// UV sphere: nslices around z, nlevels from pole to pole (<= 0 means
  /// nslices/2, which keeps the facets roughly square).
  static PolygonalMesh createSphere(double r, int nslices = 24, int nlevels = 0);
  /// Sphere from an icosahedron whose triangles are split in four `divisions`
  /// times (20·4^divisions faces), with vertices pushed onto the sphere.
  static PolygonalMesh createIcosahedralSphere(double r, int divisions);
  /// The same from an octahedron (8·4^divisions faces), as FemEmbeddedSphere
  /// uses (§6.3.3).
  static PolygonalMesh createOctahedralSphere(double r, int divisions);
  /// Ellipsoid with semi-axes rx, ry, rz: a UV sphere scaled per axis.
  static PolygonalMesh createEllipsoid(double rx, double ry, double rz, int nslices = 24);
  /// Cylinder of radius r and length h along z.
  static PolygonalMesh createCylinder(double r, double h, int nslices = 24);
  /// Cylinder with nr radial rings on each end cap and nh divisions along z.
  static PolygonalMesh createCylinder(double r, double h, int nslices, int nr, int nh);
  /// Cylinder of length h along z closed by hemispheres of radius r
  /// (total length h + 2r).
  static PolygonalMesh createCapsule(double r, double h, int nslices = 24);
  /// Torus about z: tube of radius rminor whose centre circle has radius
  /// rmajor; nmajor segments around z, nminor around the tube.
  static PolygonalMesh createTorus(double rmajor, double rminor, int nmajor, int nminor);
  /// Extrudes the polygon xy = {x0,y0, x1,y1, ...} along z by h (centred).
  /// Either winding is accepted; the caps are single polygons.
  static PolygonalMesh createPrism(const std::vector<double>& xy, double h);
  /// Open rectangle in the xy plane facing +z, nx × ny quadrilaterals.
  static PolygonalMesh createPlane(double wx, double wy, int nx = 1, int ny = 1);
  /// The same rectangle split into triangles.
  static PolygonalMesh createTriangularPlane(double wx, double wy, int nx = 1, int ny = 1);
  /// Guide name for createPlane.
  static PolygonalMesh createRectangle(double wx, double wy, int nx = 1, int ny = 1) {
    return createPlane(wx, wy, nx, ny);
  }
  /// Closed surface of revolution about z. profile holds (radius, z) points
  /// from the south pole to the north pole; the first and last radius must
  /// be 0 (the poles) and the others > 0. Interior lies left of the profile
  /// when it is drawn with radius to the right and z up.
  static PolygonalMesh createRevolution(const std::vector<Eigen::Vector2d>& profile, int nslices);
};

}  // namespace sinew
