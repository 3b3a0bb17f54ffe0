#include "sinew/geometry/MassProperties.h"

#include <string>

#include "sinew/Error.h"

namespace sinew {

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

// Running integrals of a uniform distribution, taken relative to a reference
// point: measure W (volume, area, length or count), first moment S = ∫ r and
// second moment M2 = ∫ r rᵀ. Working relative to the vertex centroid keeps
// precision for meshes placed far from the origin.
struct Moments {
  double W = 0;
  Vector3d S = Vector3d::Zero();
  Matrix3d M2 = Matrix3d::Zero();
};

// For a simplex with vertices v_i (one of them possibly the reference point
// at 0) and measure w, ∫ r rᵀ = w/((d+1)(d+2)) (Σ v_i v_iᵀ + (Σ v_i)(Σ v_i)ᵀ),
// d the simplex dimension: 1/20 for tetrahedra, 1/12 triangles, 1/6 segments.
Matrix3d simplexSecondMoment(const Vector3d& a, const Vector3d& b, const Vector3d& c) {
  const Vector3d s = a + b + c;
  return a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose();
}

Moments solidMoments(const PolygonalMesh& mesh, const Vector3d& ref) {
  Moments m;
  mesh.forEachTriangle([&](const Vector3d& pa, const Vector3d& pb, const Vector3d& pc) {
    const Vector3d a = pa - ref, b = pb - ref, c = pc - ref;
    const double v = a.dot(b.cross(c)) / 6.0;  // signed tet volume (ref, a, b, c)
    m.W += v;
    m.S += v * (a + b + c) / 4.0;
    m.M2 += v / 20.0 * simplexSecondMoment(a, b, c);
  });
  return m;
}

Moments shellMoments(const PolygonalMesh& mesh, const Vector3d& ref) {
  Moments m;
  mesh.forEachTriangle([&](const Vector3d& pa, const Vector3d& pb, const Vector3d& pc) {
    const Vector3d a = pa - ref, b = pb - ref, c = pc - ref;
    const double area = 0.5 * (b - a).cross(c - a).norm();
    m.W += area;
    m.S += area * (a + b + c) / 3.0;
    m.M2 += area / 12.0 * simplexSecondMoment(a, b, c);
  });
  return m;
}

Moments wireMoments(const PolylineMesh& mesh, const Vector3d& ref) {
  Moments m;
  mesh.forEachSegment([&](const Vector3d& pa, const Vector3d& pb) {
    const Vector3d a = pa - ref, b = pb - ref;
    const double len = (b - a).norm();
    m.W += len;
    m.S += len * (a + b) / 2.0;
    m.M2 += len / 6.0 * simplexSecondMoment(a, b, Vector3d::Zero());
  });
  return m;
}

Moments pointMoments(const MeshBase& mesh, const Vector3d& ref) {
  Moments m;
  for (const auto& p : mesh.getVertices()) {
    const Vector3d r = p - ref;
    m.W += 1;
    m.S += r;
    m.M2 += r * r.transpose();
  }
  return m;
}

// Scales the moments to the requested mass and converts the second moment to
// the inertia tensor about the centre of mass: J = tr(C) I − C, with C the
// mass covariance about the COM.
MassProperties finish(const Moments& m, double mass, const Vector3d& ref, MassDistribution dist) {
  if (!(m.W > 0)) {
    // Zero measure (empty or degenerate), or negative volume (inside-out).
    throw ModelError(std::string("cannot compute ") + toString(dist) +
                     " mass properties: the mesh's measure is " + std::to_string(m.W));
  }
  const double rho = mass / m.W;
  const Vector3d c = m.S / m.W;
  const Matrix3d C = rho * m.M2 - mass * c * c.transpose();
  MassProperties props;
  props.mass = mass;
  props.com = ref + c;
  props.inertia = C.trace() * Matrix3d::Identity() - C;
  props.inertia = 0.5 * (props.inertia + props.inertia.transpose()).eval();  // exact symmetry
  return props;
}

void checkMass(double mass) {
  if (!(mass >= 0)) throw ModelError("mass must be non-negative, got " + std::to_string(mass));
}

[[noreturn]] void unsupported(const char* meshKind, MassDistribution dist) {
  throw ModelError(std::string("mass distribution ") + toString(dist) + " is not supported for a " +
                   meshKind);
}

}  // namespace

const char* toString(MassDistribution dist) {
  switch (dist) {
    case MassDistribution::Default:
      return "Default";
    case MassDistribution::Volume:
      return "Volume";
    case MassDistribution::Area:
      return "Area";
    case MassDistribution::Length:
      return "Length";
    case MassDistribution::Point:
      return "Point";
  }
  return "?";
}

MassDistribution defaultMassDistribution(const PolygonalMesh& mesh) {
  return mesh.isClosed() ? MassDistribution::Volume : MassDistribution::Area;
}
MassDistribution defaultMassDistribution(const PolylineMesh&) {
  return MassDistribution::Length;
}
MassDistribution defaultMassDistribution(const PointMesh&) {
  return MassDistribution::Point;
}

MassDistribution defaultMassDistribution(const MeshBase& mesh) {
  if (auto* pm = dynamic_cast<const PolygonalMesh*>(&mesh)) return defaultMassDistribution(*pm);
  if (dynamic_cast<const PolylineMesh*>(&mesh)) return MassDistribution::Length;
  return MassDistribution::Point;
}

MassProperties computeMassProperties(const PolygonalMesh& mesh, double mass,
                                     MassDistribution dist) {
  checkMass(mass);
  if (dist == MassDistribution::Default) dist = defaultMassDistribution(mesh);
  const Vector3d ref = mesh.computeCentroid();
  switch (dist) {
    case MassDistribution::Volume:
      // The tetrahedral sum only measures the enclosed solid when the
      // surface is closed and consistently oriented.
      if (!mesh.isClosed()) throw ModelError("Volume mass distribution needs a closed mesh");
      return finish(solidMoments(mesh, ref), mass, ref, dist);
    case MassDistribution::Area:
      return finish(shellMoments(mesh, ref), mass, ref, dist);
    case MassDistribution::Point:
      return finish(pointMoments(mesh, ref), mass, ref, dist);
    default:
      unsupported("PolygonalMesh", dist);
  }
}

MassProperties computeMassProperties(const PolylineMesh& mesh, double mass, MassDistribution dist) {
  checkMass(mass);
  if (dist == MassDistribution::Default) dist = MassDistribution::Length;
  const Vector3d ref = mesh.computeCentroid();
  switch (dist) {
    case MassDistribution::Length:
      return finish(wireMoments(mesh, ref), mass, ref, dist);
    case MassDistribution::Point:
      return finish(pointMoments(mesh, ref), mass, ref, dist);
    default:
      unsupported("PolylineMesh", dist);
  }
}

MassProperties computeMassProperties(const PointMesh& mesh, double mass, MassDistribution dist) {
  checkMass(mass);
  if (dist == MassDistribution::Default) dist = MassDistribution::Point;
  if (dist != MassDistribution::Point) unsupported("PointMesh", dist);
  const Vector3d ref = mesh.computeCentroid();
  return finish(pointMoments(mesh, ref), mass, ref, dist);
}

MassProperties computeMassProperties(const MeshBase& mesh, double mass, MassDistribution dist) {
  if (auto* pm = dynamic_cast<const PolygonalMesh*>(&mesh))
    return computeMassProperties(*pm, mass, dist);
  if (auto* lm = dynamic_cast<const PolylineMesh*>(&mesh))
    return computeMassProperties(*lm, mass, dist);
  if (auto* tm = dynamic_cast<const PointMesh*>(&mesh))
    return computeMassProperties(*tm, mass, dist);
  throw ModelError("computeMassProperties: unknown mesh type");
}

}  // namespace sinew
