/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// doc/uniference.rst documents the module as ns-3 registers it: under "Attributes and trace
// sources", one paragraph per TypeId of the module, titled with its name, whose "Attributes:"
// and "Trace sources:" lists have one bullet ("* ``Name`` ...") per attribute and trace source
// the TypeId declares itself. A TypeId of the module is one registered with the group name
// "Uniference"; every TypeId that model/ and helper/ define must carry it, so that a new class
// cannot slip past by leaving it out (TypeIds that tests define use another group).

#include "module-source.h"

#include "ns3/test.h"
#include "ns3/type-id.h"

#include <cctype>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The module's TypeIds' group name.
const std::string GROUP = "Uniference";
/// The file, relative to the module's folder.
const std::string DOC = "doc/uniference.rst";
/// The reference section's title.
const std::string SECTION = "Attributes and trace sources";

/// What the reference section says about one TypeId.
struct Documented
{
    std::set<std::string> attributes;   //!< Bullets of its "Attributes:" list
    std::set<std::string> traceSources; //!< Bullets of its "Trace sources:" list
};

/// The reference section, parsed.
struct Reference
{
    bool found = false;                        //!< The section's title was there
    std::map<std::string, Documented> typeIds; //!< By paragraph title
};

/// The lines of a text.
std::vector<std::string>
Lines(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
    {
        lines.push_back(line);
    }
    return lines;
}

/**
 * \param lines a text's lines
 * \param i a line
 * \return the character that underlines line i as a reStructuredText title (a line of one
 *         punctuation character repeated, at least as long as the title), or 0 if none does
 */
char
Underline(const std::vector<std::string>& lines, std::size_t i)
{
    if (i + 1 >= lines.size() || lines[i].empty() || lines[i][0] == ' ')
    {
        return 0;
    }
    const std::string& under = lines[i + 1];
    if (under.size() < lines[i].size() || !std::ispunct(static_cast<unsigned char>(under[0])) ||
        under.find_first_not_of(under[0]) != std::string::npos)
    {
        return 0;
    }
    return under[0];
}

/**
 * Read the reference section: it is a subsection ('=' in the document's hierarchy) and ends at
 * the next chapter, section or subsection ('-', '*', '='); each of its paragraphs ('#') is a
 * TypeId.
 * \param text the document
 * \return what it documents
 */
Reference
ParseReference(const std::string& text)
{
    const std::vector<std::string> lines = Lines(text);
    const std::string higher = "-*=";
    const std::regex bullet("^\\* ``([A-Za-z0-9_]+)``");
    Reference reference;
    Documented* current = nullptr;
    std::set<std::string>* list = nullptr;
    bool inSection = false;
    for (std::size_t i = 0; i < lines.size(); ++i)
    {
        const std::string& line = lines[i];
        if (char under = Underline(lines, i))
        {
            if (higher.find(under) != std::string::npos)
            {
                inSection = under == '=' && line == SECTION;
                reference.found = reference.found || inSection;
                current = nullptr;
            }
            else if (inSection && under == '#')
            {
                current = &reference.typeIds[line];
            }
            list = nullptr;
            ++i; // the underline
            continue;
        }
        if (!current)
        {
            continue;
        }
        std::smatch match;
        if (line == "Attributes:")
        {
            list = &current->attributes;
        }
        else if (line == "Trace sources:")
        {
            list = &current->traceSources;
        }
        else if (list && std::regex_search(line, match, bullet))
        {
            list->insert(match[1]);
        }
        else if (!line.empty() && line[0] != ' ')
        {
            list = nullptr; // a paragraph of text ends the list
        }
    }
    return reference;
}

/// \return the names of the module's registered TypeIds
std::set<std::string>
ModuleTypeIds()
{
    std::set<std::string> names;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (tid.GetName().rfind("ns3::", 0) == 0 && tid.GetGroupName() == GROUP)
        {
            names.insert(tid.GetName());
        }
    }
    return names;
}

/**
 * \ingroup uniference-tests
 * Every TypeId that model/ and helper/ define is registered, in the module's group.
 */
class DocTypeIdGroupTestCase : public ModuleSourceTestCase
{
  public:
    DocTypeIdGroupTestCase()
        : ModuleSourceTestCase("every TypeId of model and helper is registered in group " + GROUP)
    {
    }

  private:
    void DoRun() override
    {
        // TypeId ("ns3::Name"), not SetTypeId ("ns3::Name"), which names another's.
        const std::regex defined("(^|[^A-Za-z_])TypeId\\s*\\(\\s*\"(ns3::[A-Za-z0-9_]+)\"");
        uint32_t found = 0;
        for (const char* folder : {"model", "helper"})
        {
            const std::filesystem::path dir = ModuleDir() / folder;
            if (!std::filesystem::is_directory(dir))
            {
                continue;
            }
            for (const auto& entry : std::filesystem::directory_iterator(dir))
            {
                if (entry.path().extension() != ".cc" || !IsBuilt(entry.path()))
                {
                    continue;
                }
                const std::string text = ReadText(entry.path());
                const std::string file =
                    std::string(folder) + "/" + entry.path().filename().string();
                for (std::sregex_iterator m(text.begin(), text.end(), defined), end; m != end; ++m)
                {
                    ++found;
                    const std::string name = (*m)[2];
                    TypeId tid;
                    const bool registered = TypeId::LookupByNameFailSafe(name, &tid);
                    NS_TEST_EXPECT_MSG_EQ(registered,
                                          true,
                                          name << " of " << file << " is not registered: "
                                               << "NS_OBJECT_ENSURE_REGISTERED is missing");
                    if (registered)
                    {
                        NS_TEST_EXPECT_MSG_EQ(tid.GetGroupName(),
                                              GROUP,
                                              name << " of " << file << " is in group \""
                                                   << tid.GetGroupName() << "\": SetGroupName (\""
                                                   << GROUP << "\")");
                    }
                }
            }
        }
        // Over 50 such TypeIds: fewer means the folders were not found.
        NS_TEST_ASSERT_MSG_GT(found, 40, "model/ and helper/ not found in " << ModuleDir());
    }
};

/**
 * \ingroup uniference-tests
 * Every TypeId of the module has its paragraph in doc/uniference.rst, listing exactly the
 * attributes and trace sources it declares.
 */
class DocCoverageTestCase : public ModuleSourceTestCase
{
  public:
    DocCoverageTestCase()
        : ModuleSourceTestCase(
              "every TypeId, attribute and trace source is in the module documentation")
    {
    }

  private:
    void DoRun() override
    {
        const std::filesystem::path path = ModuleDir() / DOC;
        const Reference reference = ParseReference(ReadText(path));
        NS_TEST_ASSERT_MSG_EQ(reference.found,
                              true,
                              path << " has no subsection \"" << SECTION << "\"");
        const std::set<std::string> module = ModuleTypeIds();
        NS_TEST_ASSERT_MSG_GT(module.size(), 40, "too few TypeIds in group " << GROUP);
        for (const std::string& name : module)
        {
            auto it = reference.typeIds.find(name);
            NS_TEST_EXPECT_MSG_EQ((it != reference.typeIds.end()),
                                  true,
                                  name << " has no paragraph under \"" << SECTION << "\" in "
                                       << DOC);
            if (it == reference.typeIds.end())
            {
                continue;
            }
            const TypeId tid = TypeId::LookupByName(name);
            std::set<std::string> attributes;
            for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
            {
                attributes.insert(tid.GetAttribute(i).name);
            }
            std::set<std::string> traceSources;
            for (uint32_t i = 0; i < tid.GetTraceSourceN(); ++i)
            {
                traceSources.insert(tid.GetTraceSource(i).name);
            }
            Compare(name, "attribute", "Attributes:", attributes, it->second.attributes);
            Compare(name, "trace source", "Trace sources:", traceSources, it->second.traceSources);
        }
        for (const auto& [title, documented] : reference.typeIds)
        {
            if (!IsBuilt(title))
            {
                continue; // documented for the builds that have it
            }
            NS_TEST_EXPECT_MSG_EQ(module.count(title),
                                  1u,
                                  DOC << " documents " << title << ", not a TypeId of the module");
        }
    }

    /**
     * Fail for each name the TypeId has and the document lacks, and each one it lists that the
     * TypeId does not have.
     * \param tid the TypeId's name
     * \param kind "attribute" or "trace source"
     * \param list the title of the list in the TypeId's paragraph
     * \param actual what the TypeId declares
     * \param documented what the paragraph lists
     */
    void Compare(const std::string& tid,
                 const std::string& kind,
                 const std::string& list,
                 const std::set<std::string>& actual,
                 const std::set<std::string>& documented)
    {
        for (const std::string& name : actual)
        {
            NS_TEST_EXPECT_MSG_EQ(documented.count(name),
                                  1u,
                                  tid << " " << kind << " " << name << " is not in " << DOC << " ("
                                      << tid << ", " << list << " * ``" << name << "`` ...)");
        }
        for (const std::string& name : documented)
        {
            NS_TEST_EXPECT_MSG_EQ(actual.count(name),
                                  1u,
                                  DOC << " lists " << kind << " " << name << " under " << tid
                                      << ", which has no such " << kind);
        }
    }
};

/**
 * \ingroup uniference-tests
 * The module's reference documentation covers what it registers with ns-3.
 */
class DocCoverageTestSuite : public TestSuite
{
  public:
    DocCoverageTestSuite()
        : TestSuite("uniference-doc-coverage", UNIT)
    {
        AddTestCase(new DocTypeIdGroupTestCase, TestCase::QUICK);
        AddTestCase(new DocCoverageTestCase, TestCase::QUICK);
    }
};

/// The suite's one instance.
DocCoverageTestSuite g_docCoverageTestSuite;

} // namespace
