// Mass, centre of mass and rotational inertia of a mesh for a given total
// mass and mass distribution (Guide §3.2.5, §3.2.9; checklist ME-22, RB-04,
// RB-13 — ArtiSynth's mesh.createInertia(mass, massDistribution)).
//
// Distributions:
//  - Volume: uniform solid bounded by a closed polygonal mesh (exact for the
//    polyhedron, by signed tetrahedra and the divergence theorem),
//  - Area:   uniform thin shell over the faces,
//  - Length: uniform wire along polyline segments,
//  - Point:  equal point masses at the vertices,
//  - Default: chosen from the mesh kind (defaultMassDistribution).
#pragma once

#include "sinew/geometry/MeshBase.h"
#include "sinew/geometry/PointMesh.h"
#include "sinew/geometry/PolygonalMesh.h"
#include "sinew/geometry/PolylineMesh.h"

namespace sinew {

enum class MassDistribution { Default, Volume, Area, Length, Point };

const char* toString(MassDistribution dist);

struct MassProperties {
  double mass = 0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  /// Rotational inertia about the centre of mass, in mesh coordinates.
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

/// Closed polygonal -> Volume, open polygonal -> Area, polyline -> Length,
/// point -> Point.
MassDistribution defaultMassDistribution(const PolygonalMesh& mesh);
MassDistribution defaultMassDistribution(const PolylineMesh& mesh);
MassDistribution defaultMassDistribution(const PointMesh& mesh);
MassDistribution defaultMassDistribution(const MeshBase& mesh);

/// Supports Volume (closed meshes only), Area and Point. Throws ModelError for
/// an open mesh with Volume, an empty mesh, or an unsupported distribution.
MassProperties computeMassProperties(const PolygonalMesh& mesh, double mass,
                                     MassDistribution dist = MassDistribution::Default);
/// Supports Length and Point.
MassProperties computeMassProperties(const PolylineMesh& mesh, double mass,
                                     MassDistribution dist = MassDistribution::Default);
/// Supports Point only.
MassProperties computeMassProperties(const PointMesh& mesh, double mass,
                                     MassDistribution dist = MassDistribution::Default);
/// Dispatches on the dynamic mesh type.
MassProperties computeMassProperties(const MeshBase& mesh, double mass,
                                     MassDistribution dist = MassDistribution::Default);

}  // namespace sinew
