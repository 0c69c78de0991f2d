/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Every model and helper source file defines one NS_LOG component, named after its class (or,
// for a file of several classes with no common base, after the file), and every such component
// is registered with ns-3 at run time by the linked module, so that NS_LOG=Name reaches it.

#include "module-source.h"

#include "ns3/collective-helper.h"
#include "ns3/log.h"
#include "ns3/test.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One source file and the components it defines.
struct SourceFile
{
    std::filesystem::path path;     //!< the .cc file
    std::vector<std::string> names; //!< what its NS_LOG_COMPONENT_DEFINE lines name
};

/// \return ib-net-device as IbNetDevice: the file name in the module's class-name style
std::string
CamelCase(const std::string& stem)
{
    std::string name;
    bool upper = true;
    for (char c : stem)
    {
        if (c == '-')
        {
            upper = true;
            continue;
        }
        name += upper ? char(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return name;
}

/**
 * \param moduleDir the module's folder
 * \return the model and helper .cc files of the module, in path order, with their components
 */
std::vector<SourceFile>
ModuleSources(const std::filesystem::path& moduleDir)
{
    const std::regex define("NS_LOG_COMPONENT_DEFINE\\s*\\(\\s*\"([^\"]*)\"\\s*\\)");
    std::vector<SourceFile> sources;
    for (const char* folder : {"model", "helper"})
    {
        const std::filesystem::path dir = moduleDir / folder;
        if (!std::filesystem::is_directory(dir))
        {
            continue;
        }
        for (const auto& entry : std::filesystem::directory_iterator(dir))
        {
            if (entry.path().extension() != ".cc" || !ModuleSourceTestCase::IsBuilt(entry.path()))
            {
                continue;
            }
            SourceFile source{entry.path(), {}};
            const std::string text = ModuleSourceTestCase::ReadText(entry.path());
            for (std::sregex_iterator m(text.begin(), text.end(), define), end; m != end; ++m)
            {
                source.names.push_back((*m)[1]);
            }
            sources.push_back(source);
        }
    }
    std::sort(sources.begin(), sources.end(), [](const SourceFile& a, const SourceFile& b) {
        return a.path < b.path;
    });
    return sources;
}

/**
 * \ingroup uniference-tests
 * Each model and helper file defines exactly one component, named after a class its header
 * declares or after the file, and no two files share a name.
 */
class LogComponentPerFileTestCase : public ModuleSourceTestCase
{
  public:
    LogComponentPerFileTestCase()
        : ModuleSourceTestCase(
              "every model and helper file defines one NS_LOG component, after its class")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<SourceFile> sources = ModuleSources(ModuleDir());
        // The module has over 40 such files: fewer means the folders were not found, and the
        // checks below would pass on nothing.
        NS_TEST_ASSERT_MSG_GT(sources.size(),
                              40,
                              "model/ and helper/ not found in " << ModuleDir());
        std::map<std::string, std::string> fileOf;
        for (const SourceFile& source : sources)
        {
            const std::string file = source.path.filename().string();
            NS_TEST_EXPECT_MSG_EQ(source.names.size(),
                                  1,
                                  file << " must define exactly one NS_LOG component");
            for (const std::string& name : source.names)
            {
                std::filesystem::path header = source.path;
                header.replace_extension(".h");
                const std::regex declared("\\b(class|struct)\\s+" + name + "\\b");
                const bool namesClass = std::regex_search(ReadText(header), declared);
                const bool namesClassOrFile =
                    namesClass || name == CamelCase(source.path.stem().string());
                NS_TEST_EXPECT_MSG_EQ(namesClassOrFile,
                                      true,
                                      file << ": component \"" << name
                                           << "\" names neither a class of "
                                           << header.filename().string() << " nor the file ("
                                           << CamelCase(source.path.stem().string()) << ")");
                auto [it, fresh] = fileOf.emplace(name, file);
                NS_TEST_EXPECT_MSG_EQ(fresh,
                                      true,
                                      file << " and " << it->second << " both define \"" << name
                                           << "\"");
            }
        }
    }
};

/**
 * \ingroup uniference-tests
 * Every component a model or helper file defines is in ns-3's registry at run time, registered
 * from that very file: the module was linked and its components are there to enable.
 */
class LogComponentRegisteredTestCase : public ModuleSourceTestCase
{
  public:
    LogComponentRegisteredTestCase()
        : ModuleSourceTestCase("every component of a model or helper file is registered with ns-3")
    {
    }

  private:
    void DoRun() override
    {
        const LogComponent::ComponentList& registered = *LogComponent::GetComponentList();
        uint32_t checked = 0;
        for (const SourceFile& source : ModuleSources(ModuleDir()))
        {
            const std::string file = source.path.parent_path().filename().string() + "/" +
                                     source.path.filename().string();
            for (const std::string& name : source.names)
            {
                ++checked;
                auto it = registered.find(name);
                const bool known = it != registered.end();
                NS_TEST_EXPECT_MSG_EQ(known,
                                      true,
                                      "\"" << name << "\" of " << file
                                           << " is not in LogComponent::GetComponentList(): is "
                                           << file << " in the module's SOURCE_FILES?");
                if (it == registered.end())
                {
                    continue;
                }
                const std::string from = it->second->File();
                const bool sameFile =
                    from.size() >= file.size() &&
                    from.compare(from.size() - file.size(), file.size(), file) == 0;
                NS_TEST_EXPECT_MSG_EQ(sameFile,
                                      true,
                                      "\"" << name << "\" is registered from " << from
                                           << ", not from " << file);
            }
        }
        NS_TEST_ASSERT_MSG_GT(checked, 40, "too few components found to check");
    }
};

#ifdef NS3_LOG_ENABLE
/**
 * \ingroup uniference-tests
 * A component of the module, enabled at run time, prints its statements. Only where ns-3 was
 * built with logging (NS3_LOG_ENABLE, as Debian's package and ns-3's debug builds are): a
 * release ns-3 compiles every NS_LOG statement out, while the checks above hold in both, since
 * ns-3 defines and registers components either way.
 */
class LogComponentPrintsTestCase : public TestCase
{
  public:
    LogComponentPrintsTestCase()
        : TestCase("an enabled component of the module prints its statements")
    {
    }

  private:
    void DoRun() override
    {
        std::ostringstream captured;
        std::streambuf* console = std::clog.rdbuf(captured.rdbuf());
        LogComponentEnable("CollectiveHelper", LOG_LEVEL_FUNCTION);
        CollectiveHelper("all_reduce", "ring");
        LogComponentDisable("CollectiveHelper", LOG_LEVEL_ALL);
        std::clog.rdbuf(console);
        const bool printed = captured.str().find("CollectiveHelper") != std::string::npos &&
                             captured.str().find("all_reduce") != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(printed,
                              true,
                              "CollectiveHelper at level function printed \"" << captured.str()
                                                                              << "\"");
    }
};
#endif

/**
 * \ingroup uniference-tests
 * The module's log components: one per model and helper file, all known to ns-3, and, where
 * ns-3 has logging, printing when enabled.
 */
class LogComponentTestSuite : public TestSuite
{
  public:
    LogComponentTestSuite()
        : TestSuite("uniference-log-components", UNIT)
    {
        AddTestCase(new LogComponentPerFileTestCase, TestCase::QUICK);
        AddTestCase(new LogComponentRegisteredTestCase, TestCase::QUICK);
#ifdef NS3_LOG_ENABLE
        AddTestCase(new LogComponentPrintsTestCase, TestCase::QUICK);
#endif
    }
};

/// The suite's one instance.
LogComponentTestSuite g_logComponentTestSuite;

} // namespace
