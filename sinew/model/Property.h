// Properties: typed, named parameters declared once per class and read or
// written generically by name or path (guide §1.4, §5.2).
//
// A class declares its properties in a static PropertyList built from its base
// class's list. Each entry knows how to get and set the value on an instance,
// its default, its range, whether it is numeric (and of what size) so probes
// can drive it, and, for inheritable properties (§1.4.3), how to read and set
// its Explicit/Inherited mode. Composite properties (e.g. a spring's
// `material`) expose a sub-object with properties of its own, reached with
// dotted names such as "material.stiffness".
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "sinew/Error.h"
#include "sinew/math/Spatial.h"

namespace sinew {

class HasProperties;

/// A property value of any supported type.
using PropertyValue = std::variant<bool, int, double, std::string, Eigen::VectorXd>;

enum class PropertyMode { Explicit, Inherited };

/// Names of the values of an enum used as a property; specialize per enum.
template <class E>
struct EnumNames;  // static const std::vector<std::string>& get();

std::string toString(const PropertyValue& v);

/// One property of a class.
struct PropertyInfo {
  enum class Kind { Bool, Int, Double, String, Enum, Vector, Composite };
  std::string name;
  std::string description;
  Kind kind = Kind::Double;
  int size = 1;  ///< numeric size (vectors); -1 = taken from the current value
  std::vector<std::string> enumNames;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  PropertyValue defaultValue;
  bool inheritable = false;
  std::function<PropertyValue(const HasProperties&)> get;
  std::function<void(HasProperties&, const PropertyValue&)> set;  ///< empty: read-only
  std::function<PropertyMode(const HasProperties&)> getMode;
  std::function<void(HasProperties&, PropertyMode)> setMode;
  std::function<HasProperties*(HasProperties&)> getComposite;

  bool isReadOnly() const { return !set; }
  bool isNumeric() const { return kind != Kind::String && kind != Kind::Composite; }
  /// Sets the numeric range [lo, hi]; set() rejects values outside it.
  PropertyInfo& setRange(double lo, double hi) { min = lo; max = hi; return *this; }
  /// Records the default value (what a new component has).
  PropertyInfo& setDefault(PropertyValue v) { defaultValue = std::move(v); hasDefault = true; return *this; }
  bool hasDefault = false;
};

/// Conversions between C++ values and PropertyValue.
template <class T, class = void>
struct PropertyTraits;

template <>
struct PropertyTraits<double> {
  static constexpr PropertyInfo::Kind kind = PropertyInfo::Kind::Double;
  static constexpr int size = 1;
  static PropertyValue to(double v) { return v; }
  static double from(const PropertyValue& v);
};
template <>
struct PropertyTraits<int> {
  static constexpr PropertyInfo::Kind kind = PropertyInfo::Kind::Int;
  static constexpr int size = 1;
  static PropertyValue to(int v) { return v; }
  static int from(const PropertyValue& v);
};
template <>
struct PropertyTraits<bool> {
  static constexpr PropertyInfo::Kind kind = PropertyInfo::Kind::Bool;
  static constexpr int size = 1;
  static PropertyValue to(bool v) { return v; }
  static bool from(const PropertyValue& v);
};
template <>
struct PropertyTraits<std::string> {
  static constexpr PropertyInfo::Kind kind = PropertyInfo::Kind::String;
  static constexpr int size = 0;
  static PropertyValue to(const std::string& v) { return v; }
  static std::string from(const PropertyValue& v);
};
template <>
struct PropertyTraits<Eigen::Vector3d> {
  static constexpr PropertyInfo::Kind kind = PropertyInfo::Kind::Vector;
  static constexpr int size = 3;
  static PropertyValue to(const Eigen::Vector3d& v) { return Eigen::VectorXd(v); }
  static Eigen::Vector3d from(const PropertyValue& v);
};
/// Three integers (a grid's resolution), as a vector of whole numbers.
template <>
struct PropertyTraits<Eigen::Vector3i> {
  static constexpr PropertyInfo::Kind kind = PropertyInfo::Kind::Vector;
  static constexpr int size = 3;
  static PropertyValue to(const Eigen::Vector3i& v) { return Eigen::VectorXd(v.cast<double>()); }
  static Eigen::Vector3i from(const PropertyValue& v);
};
template <>
struct PropertyTraits<Eigen::VectorXd> {
  static constexpr PropertyInfo::Kind kind = PropertyInfo::Kind::Vector;
  static constexpr int size = -1;
  static PropertyValue to(const Eigen::VectorXd& v) { return v; }
  static Eigen::VectorXd from(const PropertyValue& v);
};
template <>
struct PropertyTraits<Vector6d> {
  static constexpr PropertyInfo::Kind kind = PropertyInfo::Kind::Vector;
  static constexpr int size = 6;
  static PropertyValue to(const Vector6d& v) { return Eigen::VectorXd(v); }
  static Vector6d from(const PropertyValue& v);
};
/// AxisAngle as a 4-vector (axis x, y, z, angle in degrees), as the guide
/// prints orientations.
template <>
struct PropertyTraits<AxisAngle> {
  static constexpr PropertyInfo::Kind kind = PropertyInfo::Kind::Vector;
  static constexpr int size = 4;
  static PropertyValue to(const AxisAngle& a);
  static AxisAngle from(const PropertyValue& v);
};
template <class E>
struct PropertyTraits<E, std::enable_if_t<std::is_enum_v<E>>> {
  static constexpr PropertyInfo::Kind kind = PropertyInfo::Kind::Enum;
  static constexpr int size = 1;
  static PropertyValue to(E e) { return EnumNames<E>::get().at(static_cast<int>(e)); }
  static E from(const PropertyValue& v) {
    const auto& names = EnumNames<E>::get();
    if (auto* s = std::get_if<std::string>(&v)) {
      for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == *s) return static_cast<E>(i);
      throw ModelError("unknown value '" + *s + "'");
    }
    int i = PropertyTraits<int>::from(v);
    if (i < 0 || i >= static_cast<int>(names.size())) throw ModelError("enum value out of range");
    return static_cast<E>(i);
  }
};

/// Inheritable storage (§1.4.3): a local value, its mode, and a cache of the
/// effective value that is refreshed when anything inheritable changes.
template <class T>
struct Inheritable {
  T value{};
  PropertyMode mode = PropertyMode::Inherited;
  mutable T cached{};
  mutable std::uint64_t epoch = ~std::uint64_t(0);
};

/// Global counter bumped whenever an inheritable value, a mode, or the
/// component tree changes; caches compare against it.
std::uint64_t propertyEpoch();
void bumpPropertyEpoch();

/// The ordered set of properties of one class, extending its base class's.
class PropertyList {
 public:
  PropertyList() = default;


  /// Adds (or redefines) a property with a getter and an optional setter;
  /// both may be member-function pointers or callables on C.
  template <class C, class Getter, class Setter = std::nullptr_t>
  PropertyInfo& add(const std::string& name, const std::string& doc, Getter g, Setter s = nullptr) {
    using T = std::decay_t<std::invoke_result_t<Getter, const C&>>;
    using Tr = PropertyTraits<T>;
    PropertyInfo info;
    info.name = name;
    info.description = doc;
    info.kind = Tr::kind;
    info.size = Tr::size;
    if constexpr (std::is_enum_v<T>) info.enumNames = EnumNames<T>::get();
    info.get = [g](const HasProperties& h) {
      return Tr::to(std::invoke(g, static_cast<const C&>(h)));
    };
    if constexpr (!std::is_same_v<Setter, std::nullptr_t>) {
      info.set = [s](HasProperties& h, const PropertyValue& v) {
        std::invoke(s, static_cast<C&>(h), Tr::from(v));
      };
    }
    return put(std::move(info));
  }

  /// Adds an inheritable double-valued property stored in an Inheritable<T>
  /// member; `setter` is called with the new value (it should store it and
  /// make the mode Explicit, e.g. via setInheritable()).
  template <class C, class T>
  PropertyInfo& addInheritable(const std::string& name, const std::string& doc,
                               Inheritable<T> C::*member, T defaultValue);

  /// Adds a composite property: a sub-object with its own properties.
  template <class C, class Getter>
  PropertyInfo& addComposite(const std::string& name, const std::string& doc, Getter g) {
    PropertyInfo info;
    info.name = name;
    info.description = doc;
    info.kind = PropertyInfo::Kind::Composite;
    info.size = 0;
    info.getComposite = [g](HasProperties& h) -> HasProperties* {
      return std::invoke(g, static_cast<C&>(h));
    };
    return put(std::move(info));
  }

  const PropertyInfo* find(const std::string& name) const;
  const std::vector<PropertyInfo>& all() const { return myProps; }

 private:
  PropertyInfo& put(PropertyInfo info);
  std::vector<PropertyInfo> myProps;
};

/// A handle on one property of one object (guide §1.4.2).
class Property {
 public:
  Property() = default;
  Property(HasProperties* host, const PropertyInfo* info, std::string where = {})
      : myHost(host), myInfo(info), myWhere(std::move(where)) {}
  explicit operator bool() const { return myHost && myInfo; }
  const PropertyInfo& info() const { return *myInfo; }
  HasProperties* host() const { return myHost; }
  const std::string& getName() const { return myInfo->name; }
  /// "component-path:prop.sub", for messages.
  std::string where() const;

  PropertyValue get() const;
  /// Sets the value, checking read-only, range and type (throws ModelError).
  void set(const PropertyValue& v) const;
  /// Numeric access for probes: the value as a vector (bool/int/enum as one number).
  Eigen::VectorXd getNumeric() const;
  void setNumeric(const Eigen::VectorXd& v) const;
  int numericSize() const;
  PropertyMode getMode() const;
  void setMode(PropertyMode mode) const;
  /// Restores the declared default (inheritable properties go back to
  /// Inherited); throws ModelError if the property declares none.
  void resetToDefault() const;

 private:
  HasProperties* myHost = nullptr;
  const PropertyInfo* myInfo = nullptr;
  std::string myWhere;
};

/// Anything that exposes properties: components, materials, render props.
class HasProperties {
 public:
  virtual ~HasProperties() = default;
  /// The (empty) root of every class's property list.
  static const PropertyList& staticPropertyInfo();
  virtual const PropertyList& getAllPropertyInfo() const = 0;
  /// Parent in the inheritance chain for inheritable properties; components
  /// return their parent component.
  virtual HasProperties* getPropertyParent() const { return nullptr; }
  /// A name used in error messages (a component's path).
  virtual std::string describe() const { return "object"; }

  /// Handle on a property of this object; dotted names reach composite
  /// sub-properties ("material.stiffness"). Throws ModelError if unknown.
  Property getProperty(const std::string& name);
  /// Like getProperty but returns an empty handle when not found.
  Property findProperty(const std::string& name);

  /// Effective value of an inheritable property: the local value if its mode
  /// is Explicit, else the nearest Explicit ancestor's, else the default.
  template <class T>
  T inherited(std::string_view name, const Inheritable<T>& v, T defaultValue) const {
    // A view, not a string: forces read these at every step, and the name
    // is needed only when the cache is stale.
    if (v.mode == PropertyMode::Explicit) return v.value;
    if (v.epoch != propertyEpoch()) {
      v.cached = PropertyTraits<T>::from(lookupInherited(std::string(name), PropertyTraits<T>::to(defaultValue)));
      v.epoch = propertyEpoch();
    }
    return v.cached;
  }
  template <class T>
  static void setInheritable(Inheritable<T>& v, T value) {
    v.value = value;
    v.mode = PropertyMode::Explicit;
    bumpPropertyEpoch();
  }

 private:
  PropertyValue lookupInherited(const std::string& name, const PropertyValue& dflt) const;
};

template <class C, class T>
PropertyInfo& PropertyList::addInheritable(const std::string& name, const std::string& doc,
                                           Inheritable<T> C::*member, T defaultValue) {
  using Tr = PropertyTraits<T>;
  PropertyInfo info;
  info.name = name;
  info.description = doc;
  info.kind = Tr::kind;
  info.size = Tr::size;
  info.inheritable = true;
  info.defaultValue = Tr::to(defaultValue);
  info.hasDefault = true;
  info.get = [member, name, defaultValue](const HasProperties& h) {
    const C& c = static_cast<const C&>(h);
    return Tr::to(c.inherited(name, c.*member, defaultValue));
  };
  info.set = [member](HasProperties& h, const PropertyValue& v) {
    HasProperties::setInheritable(static_cast<C&>(h).*member, Tr::from(v));
  };
  info.getMode = [member](const HasProperties& h) { return (static_cast<const C&>(h).*member).mode; };
  info.setMode = [member, name, defaultValue](HasProperties& h, PropertyMode m) {
    C& c = static_cast<C&>(h);
    Inheritable<T>& v = c.*member;
    // Becoming Explicit keeps the value that was being inherited.
    if (m == PropertyMode::Explicit && v.mode == PropertyMode::Inherited)
      v.value = c.inherited(name, v, defaultValue);
    v.mode = m;
    bumpPropertyEpoch();
  };
  return put(std::move(info));
}

/// Declares the static property list of a class; define it in the .cpp with
/// SINEW_PROPERTIES(Class, Base) { list.add<Class>(...); }
#define SINEW_DECLARE_PROPERTIES                                \
 public:                                                        \
  static const ::sinew::PropertyList& staticPropertyInfo();     \
  const ::sinew::PropertyList& getAllPropertyInfo() const override { return staticPropertyInfo(); } \
                                                                \
 private:                                                       \
  static void buildProperties(::sinew::PropertyList& list);     \
                                                                \
 public:

#define SINEW_PROPERTIES(Class, Base)                                   \
  const ::sinew::PropertyList& Class::staticPropertyInfo() {            \
    static const ::sinew::PropertyList props = [] {                     \
      ::sinew::PropertyList list(Base::staticPropertyInfo());           \
      Class::buildProperties(list);                                     \
      return list;                                                      \
    }();                                                                \
    return props;                                                       \
  }                                                                     \
  void Class::buildProperties(::sinew::PropertyList& list)

}  // namespace sinew
