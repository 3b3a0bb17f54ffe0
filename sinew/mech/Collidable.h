// Collidable groups (guide §8.1.2, Table 8.1): the arguments of
// MechModel::setDefaultCollisionBehavior and, in place of a second body, of
// setCollisionBehavior. `Collidable::Rigid` and the others read as the
// guide writes them. Collidability is the `collidable` property of a
// collidable body (§8.2.2).
#pragma once

#include <string>
#include <vector>

#include "sinew/model/Property.h"

namespace sinew {

/// Which collisions a body takes part in (§8.2.2): none, only with other
/// parts of its own compound collidable, only with other collidables, or
/// both. Rigid bodies have no internal collisions.
enum class Collidability { Off, Internal, External, All };
template <>
struct EnumNames<Collidability> {
  static const std::vector<std::string>& get();
};

class Collidable {
 public:
  enum class Group { Rigid, Deformable, AllBodies, Self, All };
  static constexpr Group Rigid = Group::Rigid;            ///< rigid bodies
  static constexpr Group Deformable = Group::Deformable;  ///< FEM models and their meshes
  static constexpr Group AllBodies = Group::AllBodies;    ///< rigid and deformable
  static constexpr Group Self = Group::Self;              ///< self-collision of compound collidables
  static constexpr Group All = Group::All;                ///< all bodies and self-collision
};

}  // namespace sinew
