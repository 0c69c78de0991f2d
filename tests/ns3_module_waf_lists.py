#!/usr/bin/env python3
"""Checks that ns3-module/wscript builds what ns3-module/CMakeLists.txt builds.

waf-era ns-3 trees (3.35 and older) read the module's wscript; CMake-era trees and the
standalone build read its CMakeLists.txt. A file added to one list and not the other builds
in one kind of tree and is missing in the other, and nothing else would notice, so this
compares them: the module's name, sources, headers, test sources and the ns-3 modules it
depends on (${libcore} in CMake is 'core' in waf), and, where ns3-module/examples/ has a
CMakeLists.txt, each example's name, sources and dependencies against examples/wscript.

Neither file is run: CMakeLists.txt is read as text (its build_lib and build_lib_example
calls) and the wscripts are parsed with Python's ast module, so only literal lists count.

  tests/ns3_module_waf_lists.py [MODULE_DIR]     MODULE_DIR defaults to ../ns3-module

Exit status: 0 when the lists match, 1 when they differ (each difference is printed,
naming the file present in one list and missing from the other), 2 when a file cannot be
read or does not have the expected shape.
"""

import ast
import os
import re
import sys

CMAKE_KEYWORDS = {
    "build_lib": {
        "one": {"LIBNAME"},
        "many": {
            "SOURCE_FILES",
            "HEADER_FILES",
            "DEPRECATED_HEADER_FILES",
            "PRIVATE_HEADER_FILES",
            "LIBRARIES_TO_LINK",
            "TEST_SOURCES",
            "MODULE_ENABLED_FEATURES",
        },
        "flags": {"IGNORE_PCH"},
    },
    "build_lib_example": {
        "one": {"NAME"},
        "many": {"SOURCE_FILES", "HEADER_FILES", "LIBRARIES_TO_LINK"},
        "flags": {"IGNORE_PCH"},
    },
}


class ShapeError(Exception):
    """A file that is missing or not shaped as this check expects."""


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise ShapeError(f"cannot read {path}: {e.strerror}")


def strip_cmake_comments(text):
    """Drops '#' comments (CMake has no '#' inside the unquoted arguments used here)."""
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def cmake_calls(text, command, path):
    """The argument lists of every call of `command` in CMake text, as dicts keyword -> values."""
    spec = CMAKE_KEYWORDS[command]
    calls = []
    for m in re.finditer(r"(?<![\w-])" + re.escape(command) + r"\s*\(", text):
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        if depth:
            raise ShapeError(f"{path}: {command}( is never closed")
        args = {}
        key = None
        for token in text[m.end():i - 1].split():
            if token in spec["one"] or token in spec["many"]:
                key = token
                args.setdefault(key, [])
            elif token in spec["flags"]:
                key = None
            elif key is None:
                raise ShapeError(f"{path}: {command}: '{token}' comes before any keyword")
            else:
                args[key].append(token)
        for key in spec["one"]:
            if len(args.get(key, [])) != 1:
                raise ShapeError(f"{path}: {command} needs exactly one {key}")
        calls.append(args)
    return calls


def waf_dependency(cmake_library, path):
    """${libfoo} in CMake names the ns-3 module 'foo', as waf lists it."""
    m = re.fullmatch(r"\$\{lib([\w-]+)\}", cmake_library)
    if not m:
        raise ShapeError(f"{path}: '{cmake_library}' in LIBRARIES_TO_LINK is not an "
                         "ns-3 module (${lib<name>}), which a wscript cannot list")
    return m.group(1)


def literal(node, path, what):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError):
        raise ShapeError(f"{path}, line {node.lineno}: {what} is not a literal")


def strings(value, path, what):
    """A source attribute: one string or a list of strings."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ShapeError(f"{path}: {what} is not a string or a list of strings")


class WafBuild(ast.NodeVisitor):
    """What a wscript's build(bld) declares, read from its syntax tree in source order.

    Task generators are followed through plain names: `x = bld.create_ns3_module(...)`,
    then `x.source = [...]`, `x.source.extend([...])`, `x.source.append('...')` and
    `x.module = '...'`.
    """

    def __init__(self, path):
        self.path = path
        try:
            tree = ast.parse(read(path), filename=path)
        except SyntaxError as e:
            raise ShapeError(f"{path}, line {e.lineno}: {e.msg}")
        builds = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "build"]
        if len(builds) != 1:
            raise ShapeError(f"{path}: no build(bld) function")
        self.generators = {}  # variable -> {kind, name, deps, source, module}
        self.made = []        # every generator, in order, including reassigned names
        self.recursed = []
        self.visit(builds[0])

    def visit_Assign(self, node):
        self._assign(node)
        self.generic_visit(node)

    def visit_Call(self, node):
        self._call(node)
        self.generic_visit(node)

    def _generator(self, call):
        """The kind of task generator a call makes, with its name and dependencies."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in (
                "create_ns3_module", "create_ns3_module_test_library", "create_ns3_program"):
            args = [literal(a, self.path, f"an argument of {func.attr}") for a in call.args]
            if not args or not isinstance(args[0], str):
                raise ShapeError(f"{self.path}, line {call.lineno}: {func.attr} without a name")
            deps = args[1] if len(args) > 1 else []
            return {"kind": func.attr, "name": args[0],
                    "deps": strings(deps, self.path, f"{args[0]}'s dependencies"),
                    "source": [], "module": None}
        if isinstance(func, ast.Name) and func.id == "bld":
            features = [literal(k.value, self.path, "features")
                        for k in call.keywords if k.arg == "features"]
            if features and "ns3header" in str(features[0]).split():
                return {"kind": "ns3header", "name": None, "deps": [], "source": [],
                        "module": None}
        return None

    def _assign(self, node):
        if len(node.targets) != 1:
            return
        target = node.targets[0]
        if isinstance(target, ast.Name) and isinstance(node.value, ast.Call):
            made = self._generator(node.value)
            if made:
                self.generators[target.id] = made
                self.made.append(made)
        elif (isinstance(target, ast.Attribute) and target.attr in ("source", "module")
              and isinstance(target.value, ast.Name) and target.value.id in self.generators):
            made = self.generators[target.value.id]
            value = literal(node.value, self.path, f"{target.value.id}.{target.attr}")
            if target.attr == "source":
                made["source"] = strings(value, self.path, f"{target.value.id}.source")
            else:
                made["module"] = value

    def _call(self, node):
        func = node.func
        if not isinstance(func, ast.Attribute):
            return
        if func.attr == "recurse" and node.args:
            self.recursed.append(literal(node.args[0], self.path, "recurse's argument"))
        owner = func.value
        if (func.attr in ("extend", "append") and isinstance(owner, ast.Attribute)
                and owner.attr == "source" and isinstance(owner.value, ast.Name)
                and owner.value.id in self.generators and node.args):
            value = literal(node.args[0], self.path, f"{owner.value.id}.source.{func.attr}")
            added = [value] if func.attr == "append" else value
            self.generators[owner.value.id]["source"] += strings(
                added, self.path, f"{owner.value.id}.source.{func.attr}")

    def of_kind(self, kind):
        return [g for g in self.made if g["kind"] == kind]


class Report:
    def __init__(self):
        self.problems = []

    def compare(self, what, cmake_path, cmake_list, waf_path, waf_list):
        """Names each entry in one list and not the other, and each entry listed twice."""
        for path, listed in ((cmake_path, cmake_list), (waf_path, waf_list)):
            seen = set()
            for item in listed:
                if item in seen:
                    self.problems.append(f"{what}: '{item}' is listed twice in {path}")
                seen.add(item)
        for item in sorted(set(cmake_list) - set(waf_list)):
            self.problems.append(f"{what}: '{item}' is in {cmake_path} and missing from {waf_path}")
        for item in sorted(set(waf_list) - set(cmake_list)):
            self.problems.append(f"{what}: '{item}' is in {waf_path} and missing from {cmake_path}")

    def fail(self, message):
        self.problems.append(message)


def one(items, what, path):
    if len(items) != 1:
        raise ShapeError(f"{path}: expected exactly one {what}, found {len(items)}")
    return items[0]


def check_module(root, rel, report):
    cmake_path = os.path.join(rel, "CMakeLists.txt")
    waf_path = os.path.join(rel, "wscript")
    lib = one(cmake_calls(strip_cmake_comments(read(os.path.join(root, "CMakeLists.txt"))),
                          "build_lib", cmake_path), "build_lib call", cmake_path)
    waf = WafBuild(os.path.join(root, "wscript"))
    module = one(waf.of_kind("create_ns3_module"), "create_ns3_module call", waf_path)
    tests = waf.of_kind("create_ns3_module_test_library")
    headers = one(waf.of_kind("ns3header"), "bld(features='ns3header')", waf_path)

    name = lib["LIBNAME"][0]
    for what, got in (("create_ns3_module's name", module["name"]),
                      ("headers.module", headers["module"])):
        if got != name:
            report.fail(f"module name: {waf_path} has {what} '{got}', "
                        f"{cmake_path} has LIBNAME '{name}'")
    for t in tests:
        if t["name"] != name:
            report.fail(f"module name: {waf_path} has create_ns3_module_test_library "
                        f"'{t['name']}', {cmake_path} has LIBNAME '{name}'")

    report.compare("sources", f"{cmake_path} (SOURCE_FILES)", lib.get("SOURCE_FILES", []),
                   f"{waf_path} (module.source)", module["source"])
    report.compare("headers", f"{cmake_path} (HEADER_FILES)", lib.get("HEADER_FILES", []),
                   f"{waf_path} (headers.source)", headers["source"])
    cmake_tests = lib.get("TEST_SOURCES", [])
    waf_tests = [s for t in tests for s in t["source"]]
    if cmake_tests and not tests:
        report.fail(f"tests: {cmake_path} has TEST_SOURCES and {waf_path} has no "
                    "create_ns3_module_test_library")
    report.compare("tests", f"{cmake_path} (TEST_SOURCES)", cmake_tests,
                   f"{waf_path} (module_test.source)", waf_tests)
    # waf's NS_TEST_SOURCEDIR is the folder of the test library's last source.
    for t in tests:
        if t["source"] and os.path.dirname(t["source"][-1]) != "test":
            report.fail(f"tests: the last test source in {waf_path} is '{t['source'][-1]}'; "
                        "waf takes NS_TEST_SOURCEDIR from its folder, which must be test/")
    report.compare("dependencies", f"{cmake_path} (LIBRARIES_TO_LINK)",
                   [waf_dependency(d, cmake_path) for d in lib.get("LIBRARIES_TO_LINK", [])],
                   f"{waf_path} (create_ns3_module)", module["deps"])
    return name, waf


def check_examples(root, rel, name, waf, report):
    examples = os.path.join(root, "examples")
    cmake_file = os.path.join(examples, "CMakeLists.txt")
    waf_file = os.path.join(examples, "wscript")
    cmake_path = os.path.join(rel, "examples", "CMakeLists.txt")
    waf_path = os.path.join(rel, "examples", "wscript")
    recurses = "examples" in waf.recursed
    if not os.path.isfile(cmake_file):
        if recurses and not os.path.isfile(waf_file):
            report.fail(f"examples: {rel}/wscript recurses into examples/ and {waf_path} "
                        "does not exist")
        print(f"examples: no {cmake_path} yet; examples not compared")
        return
    if not os.path.isfile(waf_file):
        report.fail(f"examples: {cmake_path} exists and {waf_path} does not")
        return
    if not recurses:
        report.fail(f"examples: {waf_path} exists and {rel}/wscript never calls "
                    "bld.recurse('examples')")

    cmake = {}
    for call in cmake_calls(strip_cmake_comments(read(cmake_file)), "build_lib_example",
                            cmake_path):
        cmake.setdefault(call["NAME"][0], []).append(call)
    programs = {}
    for program in WafBuild(waf_file).of_kind("create_ns3_program"):
        programs.setdefault(program["name"], []).append(program)
    report.compare("examples", f"{cmake_path} (build_lib_example NAME)",
                   [n for n, calls in cmake.items() for _ in calls],
                   f"{waf_path} (create_ns3_program)",
                   [n for n, made in programs.items() for _ in made])
    for example in sorted(set(cmake) & set(programs)):
        call, program = cmake[example][0], programs[example][0]
        report.compare(f"example {example} sources", cmake_path, call.get("SOURCE_FILES", []),
                       waf_path, program["source"])
        # CMake's build_lib_example links the module itself; waf links only what it is told.
        if name not in program["deps"]:
            report.fail(f"example {example} dependencies: {waf_path} does not list "
                        f"'{name}', which waf needs to link the example against the module")
        report.compare(f"example {example} dependencies", f"{cmake_path} (LIBRARIES_TO_LINK)",
                       [d for d in (waf_dependency(l, cmake_path)
                                    for l in call.get("LIBRARIES_TO_LINK", [])) if d != name],
                       waf_path, [d for d in program["deps"] if d != name])


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print("usage: ns3_module_waf_lists.py [MODULE_DIR]", file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.join(here, os.pardir, "ns3-module")
    root = os.path.normpath(root)
    rel = os.path.basename(root)
    report = Report()
    try:
        name, waf = check_module(root, rel, report)
        check_examples(root, rel, name, waf, report)
    except ShapeError as e:
        print(f"ns3_module_waf_lists: {e}", file=sys.stderr)
        return 2
    if report.problems:
        print(f"{rel}/wscript and {rel}/CMakeLists.txt differ; make each list of the wscript "
              "name exactly the files of the CMakeLists.txt:", file=sys.stderr)
        for problem in report.problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    print(f"{rel}/wscript lists what {rel}/CMakeLists.txt lists")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
