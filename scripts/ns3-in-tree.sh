#!/usr/bin/env bash
# The module as ns-3 users work with it: placed as contrib/uniference in an ns-3 source tree
# (the one scripts/build-ns3.sh built; `build-ns3.sh --in-tree` runs this), built with the
# tree's own ./ns3, its TestSuites run by ./test.py and each of its examples by ./ns3 run.
# Tests and examples are turned on for this module alone (ns-3's
# NS3_FILTER_MODULE_EXAMPLES_AND_TESTS), so the tree's other modules are not rebuilt.
#
#   scripts/ns3-in-tree.sh NS3_TREE
#
# The tree's installed prefix was installed before the module was placed here and is never
# installed again: it must not carry a second copy of the module.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd -P)
tree=$(cd "${1:?usage: ns3-in-tree.sh NS3_TREE}" && pwd -P)
cd "$tree"
step() { printf '\nns3-in-tree: %s\n' "$*"; }
elapsed() { echo "$(( $(date +%s) - $1 )) s"; }

start=$(date +%s)
step "placing ns3-module as contrib/uniference"
rm -rf contrib/uniference
cp -r "$here/ns3-module" contrib/uniference

modules=$(sed -n 's/^NS3_ENABLED_MODULES:[A-Z]*=//p' cmake-cache/CMakeCache.txt)
modules=${modules%;uniference}
step "configuring with tests and examples for uniference only"
./ns3 configure --enable-tests --enable-examples --enable-modules="$modules;uniference" \
    --filter-module-examples-and-tests=uniference >"$tree/../in-tree-configure.log" 2>&1 ||
    { tail -40 "$tree/../in-tree-configure.log"; exit 1; }

step "building (./ns3's cmake-cache, $(nproc) jobs)"
t=$(date +%s)
cmake --build cmake-cache -j "$(nproc)" >"$tree/../in-tree-build.log" 2>&1 ||
    { tail -40 "$tree/../in-tree-build.log"; exit 1; }
echo "built in $(elapsed "$t")"

step "./test.py (the tree's test-runner holds this module's suites alone)"
t=$(date +%s)
failed=0
./test.py --no-build || failed=1
echo "test.py ran in $(elapsed "$t")"

step "./ns3 run on each of the module's examples"
for example in $(sed -n 's/^ *NAME \([a-z0-9-]*\).*/\1/p' contrib/uniference/examples/CMakeLists.txt); do
    echo "\$ ./ns3 run --no-build $example"
    ./ns3 run --no-build "$example" || { echo "FAIL: example $example"; failed=1; }
done

step "done in $(elapsed "$start")"
exit $failed
