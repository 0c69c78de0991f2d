/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ATTRIBUTE_CHECK_H
#define ATTRIBUTE_CHECK_H

#include "ns3/attribute.h"
#include "ns3/type-id.h"

#include <string>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Check, without aborting, that an object of a type has an attribute and that a value
 * written as a string is valid for it.
 *
 * For validating user input (a scenario file, a command line) before it reaches
 * ObjectFactory::Set or Object::SetAttribute, which abort on a bad name or value. The
 * attribute may be declared by \p tid or by any of its parents. Some of ns-3's own parsers
 * abort on malformed strings instead of failing (a number with trailing text, a time with an
 * unknown unit, a space inside a data rate), so the string is parsed here first for the value
 * types that scenarios set: integers, floating point, booleans, enums, strings, times, TypeIds,
 * data rates and queue sizes. A value of any other type is reported as not checkable.
 *
 * \param tid the object's type
 * \param name the attribute's name, for example "ChunkBytes"
 * \param value the value as a user writes it, for example "1048576"
 * \return "" when the value is valid, otherwise a one-line reason, for example
 *         <tt>ns3::RingAllReduce has no attribute "Foo"; it has: ChunkBytes</tt>
 */
std::string CheckAttributeValue(TypeId tid, const std::string& name, const std::string& value);

/**
 * \ingroup uniference
 *
 * \brief Check, without aborting, that an attribute value is valid for an object of a type.
 *
 * A StringValue is checked as CheckAttributeValue(TypeId, const std::string&, const
 * std::string&) checks strings; any other value must be of the attribute's own value type
 * and within its checker's bounds.
 *
 * \param tid the object's type
 * \param name the attribute's name
 * \param value the value
 * \return "" when the value is valid, otherwise a one-line reason
 */
std::string CheckAttributeValue(TypeId tid, const std::string& name, const AttributeValue& value);

/**
 * \ingroup uniference
 *
 * \brief Check, without aborting, that Config::SetDefault (fullName, StringValue (value))
 * would succeed.
 *
 * \p fullName is split at its last "::" into a TypeId name and an attribute name. As
 * Config::SetDefault does, the attribute must be declared by that TypeId itself: for an
 * attribute declared by a parent the reason names the parent to use instead
 * (ns3::TcpSocket::InitialCwnd, not ns3::TcpSocketBase::InitialCwnd).
 *
 * \param fullName for example "ns3::TcpSocket::InitialCwnd"
 * \param value the value as a user writes it, for example "10"
 * \return "" when the default can be set, otherwise a one-line reason
 */
std::string CheckAttributeDefault(const std::string& fullName, const std::string& value);

} // namespace ns3

#endif /* ATTRIBUTE_CHECK_H */
