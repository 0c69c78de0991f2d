/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Debian's ns-3 ships no test-runner; this one runs the module's TestSuites, which register
// themselves when the program starts.

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
