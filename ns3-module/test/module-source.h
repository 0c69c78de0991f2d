/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef UNIFERENCE_MODULE_SOURCE_H
#define UNIFERENCE_MODULE_SOURCE_H

#include "ns3/test.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ns3
{

/**
 * \ingroup uniference-tests
 *
 * A test case that reads files of the module's own folder (its sources, its documentation).
 * Where that folder is depends on the build: the stand-alone runner (ns3-standalone.cmake) is
 * compiled with NS_TEST_SOURCEDIR the absolute path of test/, ns-3's source tree with the
 * path relative to the tree's top ("contrib/uniference/test"), which ns-3's TestRunner finds
 * from its own binary, whatever the working directory.
 */
class ModuleSourceTestCase : public TestCase
{
  public:
    /// \param path a file \return its text, empty if it cannot be read
    static std::string ReadText(const std::filesystem::path& path)
    {
        std::ifstream in(path);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }

    /**
     * \param path a file of model/ or helper/
     * \return whether this build compiles it: the cables between processes of a distributed
     * simulation need ns-3's mpi module (NS3_MPI, which ns-3 defines where it has one)
     */
    static bool IsBuilt(const std::filesystem::path& path)
    {
#ifdef NS3_MPI
        (void)path;
        return true;
#else
        return path.stem() != "ib-remote-channel" && path.stem() != "ethernet-remote-channel";
#endif
    }

    /**
     * \param name a TypeId's name
     * \return whether this build has it (IsBuilt's files' TypeIds are missing without MPI)
     */
    static bool IsBuilt(const std::string& name)
    {
#ifdef NS3_MPI
        (void)name;
        return true;
#else
        return name != "ns3::IbRemoteChannel" && name != "ns3::EthernetRemoteChannel";
#endif
    }

  protected:
    /// \param name the test case's name
    explicit ModuleSourceTestCase(const std::string& name)
        : TestCase(name)
    {
        SetDataDir(NS_TEST_SOURCEDIR);
    }

    /**
     * Only from DoRun: the runner that finds ns-3's tree is known once the case runs.
     * \return the module's folder (the parent of test/)
     */
    std::filesystem::path ModuleDir()
    {
        const std::filesystem::path tests(NS_TEST_SOURCEDIR);
        const std::filesystem::path up =
            tests.is_absolute() ? tests / ".." : std::filesystem::path(CreateDataDirFilename(".."));
        return up.lexically_normal();
    }
};

} // namespace ns3

#endif /* UNIFERENCE_MODULE_SOURCE_H */
