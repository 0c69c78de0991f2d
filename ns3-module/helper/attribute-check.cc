/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "attribute-check.h"

#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/string.h"

#include <cmath>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AttributeCheck");

namespace
{

/**
 * Whether a string reads as one T, with nothing left over, as ns-3's attribute values read
 * numbers (they abort when something is left over).
 * \tparam T the number type
 * \param text the string
 * \param [out] result the number read
 * \return whether all of it was read
 */
template <typename T>
bool
ReadsWhole(const std::string& text, T* result)
{
    std::istringstream in(text);
    in >> *result;
    return !in.fail() && in.eof();
}

/**
 * Whether a string is a time as ns3::Time (const std::string&) reads it, which aborts on an
 * unknown unit: a number, then nothing (seconds) or a unit; and whether it fits in a Time.
 * \param text the string
 * \return whether it is a valid time
 */
bool
IsTime(const std::string& text)
{
    static const std::pair<const char*, double> units[] = {
        {"", 1},
        {"s", 1},
        {"ms", 1e-3},
        {"us", 1e-6},
        {"ns", 1e-9},
        {"ps", 1e-12},
        {"fs", 1e-15},
        {"min", 60},
        {"h", 3600},
        {"d", 86400},
        {"y", 365 * 86400.0},
    };
    // Where ns-3's parser ends the number.
    std::string::size_type split = text.find_first_not_of("+-0123456789.eE");
    std::string number = text.substr(0, split);
    std::string unit = split == std::string::npos ? "" : text.substr(split);
    double value = 0;
    if (!ReadsWhole(number, &value) || !std::isfinite(value))
    {
        return false;
    }
    for (const auto& [name, seconds] : units)
    {
        if (unit == name)
        {
            return std::fabs(value * seconds) <= Time::Max().GetSeconds();
        }
    }
    return false;
}

/**
 * \param valueType a checker's value type name, with or without its namespace
 * \return the name without "ns3::"
 */
std::string
WithoutNamespace(const std::string& valueType)
{
    const std::string prefix = "ns3::";
    return valueType.compare(0, prefix.size(), prefix) == 0 ? valueType.substr(prefix.size())
                                                            : valueType;
}

/**
 * The names of a type's attributes, its parents' included.
 * \param tid the type
 * \param ownOnly leave out the parents' attributes
 * \return the names, comma-separated, or "none"
 */
std::string
ListAttributes(TypeId tid, bool ownOnly)
{
    std::ostringstream names;
    std::set<std::string> seen;
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (uint32_t i = 0; i < t.GetAttributeN(); ++i)
        {
            const std::string& name = t.GetAttribute(i).name;
            if (seen.insert(name).second)
            {
                names << (seen.size() > 1 ? ", " : "") << name;
            }
        }
        if (ownOnly || t == t.GetParent())
        {
            break;
        }
    }
    return seen.empty() ? "none" : names.str();
}

/**
 * Check a string against an attribute, without letting ns-3's parsers abort.
 * \param info the attribute
 * \param where the attribute's full name, for the reason
 * \param value the string
 * \return "" or the reason
 */
std::string
CheckString(const TypeId::AttributeInformation& info,
            const std::string& where,
            const std::string& value)
{
    static const std::set<std::string> safeTypes = {"BooleanValue", "EnumValue", "StringValue"};
    static const std::set<std::string> tokenTypes = {"TypeIdValue",
                                                     "DataRateValue",
                                                     "QueueSizeValue"};
    const std::string valueType = WithoutNamespace(info.checker->GetValueTypeName());
    const std::string underlying = info.checker->HasUnderlyingTypeInformation()
                                       ? info.checker->GetUnderlyingTypeInformation()
                                       : valueType;
    std::ostringstream invalid;
    invalid << "\"" << value << "\" is not a valid value for " << where << " (";
    bool parses = true;
    if (valueType == "UintegerValue")
    {
        uint64_t number;
        // Reading "-1" into an unsigned number wraps around instead of failing.
        parses = value.find('-') == std::string::npos && ReadsWhole(value, &number);
    }
    else if (valueType == "IntegerValue")
    {
        int64_t number;
        parses = ReadsWhole(value, &number);
    }
    else if (valueType == "DoubleValue")
    {
        double number;
        parses = ReadsWhole(value, &number);
    }
    else if (valueType == "TimeValue")
    {
        if (!IsTime(value))
        {
            return invalid.str() + "a time: a number and one of the units s, ms, us, ns, ps, "
                                   "fs, min, h, d, y)";
        }
    }
    else if (tokenTypes.count(valueType) != 0)
    {
        // These read one word and abort when more follows.
        parses = !value.empty() && value.find_first_of(" \t\n\r\f\v") == std::string::npos;
    }
    else if (safeTypes.count(valueType) == 0)
    {
        return where + " holds a " + underlying + " (" + valueType +
               "), which cannot be checked from a string";
    }
    if (!parses || !info.checker->CreateValidValue(StringValue(value)))
    {
        return invalid.str() + underlying + ")";
    }
    return "";
}

/**
 * Check a value against an attribute.
 * \param info the attribute
 * \param where the attribute's full name, for the reason
 * \param value the value
 * \return "" or the reason
 */
std::string
CheckValue(const TypeId::AttributeInformation& info,
           const std::string& where,
           const AttributeValue& value)
{
    if (const auto* text = dynamic_cast<const StringValue*>(&value))
    {
        return CheckString(info, where, text->Get());
    }
    if (!info.checker->Check(value))
    {
        std::string underlying = info.checker->HasUnderlyingTypeInformation()
                                     ? " (" + info.checker->GetUnderlyingTypeInformation() + ")"
                                     : "";
        return "the value given for " + where + " is not a valid " +
               info.checker->GetValueTypeName() + underlying;
    }
    return "";
}

} // namespace

std::string
CheckAttributeValue(TypeId tid, const std::string& name, const std::string& value)
{
    NS_LOG_FUNCTION(tid.GetName() << name << value);
    return CheckAttributeValue(tid, name, StringValue(value));
}

std::string
CheckAttributeValue(TypeId tid, const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(tid.GetName() << name);
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        return tid.GetName() + " has no attribute \"" + name +
               "\"; it has: " + ListAttributes(tid, false);
    }
    return CheckValue(info, tid.GetName() + "::" + name, value);
}

std::string
CheckAttributeDefault(const std::string& fullName, const std::string& value)
{
    NS_LOG_FUNCTION(fullName << value);
    std::string::size_type split = fullName.rfind("::");
    if (split == std::string::npos || split == 0 || split + 2 == fullName.size())
    {
        return "\"" + fullName + "\" is not of the form ns3::Type::Attribute";
    }
    const std::string typeName = fullName.substr(0, split);
    const std::string name = fullName.substr(split + 2);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        return "\"" + fullName + "\": no type named " + typeName;
    }
    // Config::SetDefault only looks at the attributes the type declares itself.
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        if (tid.GetAttribute(i).name == name)
        {
            return CheckString(tid.GetAttribute(i), fullName, value);
        }
    }
    for (TypeId child = tid, parent = tid.GetParent(); parent != child;
         child = parent, parent = parent.GetParent())
    {
        for (uint32_t i = 0; i < parent.GetAttributeN(); ++i)
        {
            if (parent.GetAttribute(i).name == name)
            {
                return typeName + " inherits \"" + name + "\" from " + parent.GetName() +
                       "; a default must name the type that declares it: " + parent.GetName() +
                       "::" + name;
            }
        }
    }
    return typeName + " has no attribute \"" + name + "\"; it has: " + ListAttributes(tid, true);
}

} // namespace ns3
