#! /usr/bin/env python3

# The module's examples that ns-3's test.py runs, in an ns-3 source tree configured with
# examples and tests, each with arguments that keep it well under a second. Each tuple is
#
#     (example and its arguments, condition to run, condition to run under valgrind)
#
# as test.py reads them. Their numbers are checked against the links' physics by the
# example.<name> tests of the Uniference-ns3 project (examples/test/ there); test.py checks
# that each builds and runs.
cpp_examples = [
    ("collective-long-links --bytes=65536", "True", "True"),
    ("leo-pass --interval=30s", "True", "True"),
    ("rdma-fat-tree-all-reduce --bytes=1048576", "True", "True"),
    ("superpod-all-to-all --servers=2 --bytes=1048576", "True", "True"),
]

# The module has no Python examples.
python_examples = []
