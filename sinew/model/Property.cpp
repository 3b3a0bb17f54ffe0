#include "sinew/model/Property.h"

#include <atomic>
#include <cmath>
#include <sstream>

namespace sinew {

namespace {
std::atomic<std::uint64_t> gEpoch{0};

double asDouble(const PropertyValue& v) {
  if (auto* d = std::get_if<double>(&v)) return *d;
  if (auto* i = std::get_if<int>(&v)) return *i;
  if (auto* b = std::get_if<bool>(&v)) return *b ? 1.0 : 0.0;
  if (auto* x = std::get_if<Eigen::VectorXd>(&v); x && x->size() == 1) return (*x)[0];
  throw ModelError("value is not a number: " + toString(v));
}

Eigen::VectorXd asVector(const PropertyValue& v) {
  if (auto* x = std::get_if<Eigen::VectorXd>(&v)) return *x;
  if (std::holds_alternative<std::string>(v)) throw ModelError("value is not numeric: " + toString(v));
  return Eigen::VectorXd::Constant(1, asDouble(v));
}
}  // namespace

std::uint64_t propertyEpoch() { return gEpoch.load(std::memory_order_relaxed); }
void bumpPropertyEpoch() { gEpoch.fetch_add(1, std::memory_order_relaxed); }

std::string toString(const PropertyValue& v) {
  std::ostringstream os;
  os.precision(17);
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Eigen::VectorXd>) {
          for (Eigen::Index i = 0; i < x.size(); ++i) os << (i ? " " : "") << x[i];
        } else if constexpr (std::is_same_v<T, bool>) {
          os << (x ? "true" : "false");
        } else {
          os << x;
        }
      },
      v);
  return os.str();
}

double PropertyTraits<double>::from(const PropertyValue& v) { return asDouble(v); }
int PropertyTraits<int>::from(const PropertyValue& v) {
  double d = asDouble(v);
  if (d != std::floor(d)) throw ModelError("value is not an integer: " + toString(v));
  return static_cast<int>(d);
}
bool PropertyTraits<bool>::from(const PropertyValue& v) { return asDouble(v) != 0; }
std::string PropertyTraits<std::string>::from(const PropertyValue& v) {
  if (auto* s = std::get_if<std::string>(&v)) return *s;
  return toString(v);
}
Eigen::Vector3d PropertyTraits<Eigen::Vector3d>::from(const PropertyValue& v) {
  Eigen::VectorXd x = asVector(v);
  if (x.size() != 3) throw ModelError("expected 3 values, got " + std::to_string(x.size()));
  return x;
}
Eigen::Vector3i PropertyTraits<Eigen::Vector3i>::from(const PropertyValue& v) {
  const Eigen::Vector3d x = PropertyTraits<Eigen::Vector3d>::from(v);
  if ((x.array() != x.array().round()).any() || (x.array().abs() > 1e9).any())
    throw ModelError("expected 3 whole numbers");
  return x.cast<int>();
}
Eigen::VectorXd PropertyTraits<Eigen::VectorXd>::from(const PropertyValue& v) { return asVector(v); }
Vector6d PropertyTraits<Vector6d>::from(const PropertyValue& v) {
  Eigen::VectorXd x = asVector(v);
  if (x.size() != 6) throw ModelError("expected 6 values, got " + std::to_string(x.size()));
  return x;
}
PropertyValue PropertyTraits<AxisAngle>::to(const AxisAngle& a) {
  Eigen::VectorXd x(4);
  x << a.axis, a.angle * 180.0 / M_PI;
  return x;
}
AxisAngle PropertyTraits<AxisAngle>::from(const PropertyValue& v) {
  Eigen::VectorXd x = asVector(v);
  if (x.size() != 4) throw ModelError("expected 4 values (axis, degrees), got " + std::to_string(x.size()));
  if (x.head<3>().norm() == 0) throw ModelError("axis of an AxisAngle must be non-zero");
  return AxisAngle(x.head<3>(), x[3] * M_PI / 180.0);
}

const PropertyList& HasProperties::staticPropertyInfo() {
  static const PropertyList empty;
  return empty;
}

PropertyInfo& PropertyList::put(PropertyInfo info) {
  for (auto& p : myProps)
    if (p.name == info.name) return p = std::move(info);
  myProps.push_back(std::move(info));
  return myProps.back();
}

const PropertyInfo* PropertyList::find(const std::string& name) const {
  for (auto& p : myProps)
    if (p.name == name) return &p;
  return nullptr;
}

PropertyValue Property::get() const { return myInfo->get(*myHost); }

std::string Property::where() const {
  return myWhere.empty() ? myHost->describe() + ":" + myInfo->name : myWhere;
}

void Property::set(const PropertyValue& v) const {
  const std::string where = this->where();
  if (myInfo->isReadOnly()) throw ModelError("property is read-only", where);
  if (myInfo->kind == PropertyInfo::Kind::Double || myInfo->kind == PropertyInfo::Kind::Int) {
    double d = asDouble(v);
    if (std::isnan(d)) throw ModelError("value is NaN", where);
    if (d < myInfo->min || d > myInfo->max)
      throw ModelError("value " + toString(v) + " outside range [" + toString(myInfo->min) + ", " +
                           toString(myInfo->max) + "]",
                       where);
  } else if (auto* x = std::get_if<Eigen::VectorXd>(&v); x && !x->allFinite()) {
    throw ModelError("value is not finite: " + toString(v), where);
  }
  try {
    myInfo->set(*myHost, v);
  } catch (const ModelError& e) {
    if (!e.path().empty()) throw;
    throw ModelError(e.what(), where);
  }
  // Descendants may inherit this value (even from a plain property).
  bumpPropertyEpoch();
}

Eigen::VectorXd Property::getNumeric() const {
  if (!myInfo->isNumeric())
    throw ModelError("property is not numeric", where());
  PropertyValue v = get();
  if (auto* s = std::get_if<std::string>(&v)) {  // enum: its index
    for (size_t i = 0; i < myInfo->enumNames.size(); ++i)
      if (myInfo->enumNames[i] == *s) return Eigen::VectorXd::Constant(1, double(i));
  }
  return asVector(v);
}

void Property::setNumeric(const Eigen::VectorXd& x) const {
  if (x.size() == 1 && myInfo->kind != PropertyInfo::Kind::Vector)
    set(myInfo->kind == PropertyInfo::Kind::Enum ? PropertyValue(int(std::lround(x[0])))
                                                 : PropertyValue(x[0]));
  else
    set(x);
}

int Property::numericSize() const {
  if (!myInfo->isNumeric()) return 0;
  return myInfo->size >= 0 ? myInfo->size : static_cast<int>(getNumeric().size());
}

PropertyMode Property::getMode() const {
  return myInfo->getMode ? myInfo->getMode(*myHost) : PropertyMode::Explicit;
}

void Property::setMode(PropertyMode mode) const {
  if (!myInfo->setMode)
    throw ModelError("property is not inheritable", where());
  myInfo->setMode(*myHost, mode);
}

void Property::resetToDefault() const {
  if (!myInfo->hasDefault) throw ModelError("property has no declared default", where());
  if (myInfo->inheritable) {
    myInfo->setMode(*myHost, PropertyMode::Inherited);
    return;
  }
  set(myInfo->defaultValue);
}

Property HasProperties::findProperty(const std::string& name) {
  HasProperties* host = this;
  std::string rest = name;
  for (;;) {
    auto dot = rest.find('.');
    const PropertyInfo* info = host->getAllPropertyInfo().find(rest.substr(0, dot));
    if (!info) return {};
    if (dot == std::string::npos) return {host, info, describe() + ":" + name};
    if (info->kind != PropertyInfo::Kind::Composite) return {};
    host = info->getComposite(*host);
    if (!host) return {};
    rest = rest.substr(dot + 1);
  }
}

Property HasProperties::getProperty(const std::string& name) {
  Property p = findProperty(name);
  if (!p) throw ModelError("no property '" + name + "'", describe());
  return p;
}

PropertyValue HasProperties::lookupInherited(const std::string& name, const PropertyValue& dflt) const {
  for (HasProperties* a = getPropertyParent(); a; a = a->getPropertyParent()) {
    const PropertyInfo* info = a->getAllPropertyInfo().find(name);
    if (!info) continue;
    if (!info->inheritable || info->getMode(*a) == PropertyMode::Explicit) return info->get(*a);
  }
  return dflt;
}

}  // namespace sinew
