# lit configuration for torchtidy. Run through ctest, which passes
# --param site=<build>/test/lit/lit.site.cfg.py for one LLVM version.
import os
import sys
import lit.formats

site = lit_config.params.get("site")
if not site:
    lit_config.fatal("pass --param site=<build>/test/lit/lit.site.cfg.py (ctest does)")
lit_config.load_config(config, site)

config.name = ("torchtidy-llvm" + config.torchtidy_llvm_major
               + "-libtorch" + config.libtorch_major)
# 'libtorch2': the tests run against LibTorch 2.x's headers, for what
# differs between the versions.
if config.libtorch_major == "2":
    config.available_features.add("libtorch2")
# %libtorch_include: the first -isystem directory of the torch flags.
flags = config.torch_flags.split()
config.substitutions.append(
    ("%libtorch_include", flags[flags.index("-isystem") + 1]))
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.binary_dir, "out")

torch_flags = config.torch_flags + " -include-pch " + config.pch

# %bug_checks: the bug level as a clang-tidy glob (clang-tidy has no levels),
# read from the catalogue through --list-checks, so no test repeats the list.
import subprocess
listing = subprocess.run([config.torchtidy, "--list-checks"], capture_output=True,
                         text=True, check=True).stdout
bug_checks = [row.split()[0] for row in listing.splitlines()
              if len(row.split()) > 1 and row.split()[1] == "bug"]
if not bug_checks:
    lit_config.fatal("torchtidy --list-checks lists no bug-level check")
# In the sanitizer build the modules are instrumented but clang-tidy and
# clang are not: they run with the sanitizer runtime preloaded (and without
# leak checking, which would report their own deliberate leaks).
# Each is a one-path wrapper script, so tests may pass it on as one argument.
# Writes an executable script. ctest runs suites in parallel and each lit
# loads this file: a script is replaced whole (a rename), never truncated
# while another suite's test runs it.
def write_script(path, text):
    temporary = "%s.%d" % (path, os.getpid())
    with open(temporary, "w") as script:
        script.write(text)
    os.chmod(temporary, 0o755)
    os.replace(temporary, path)


def with_sanitizer_runtime(tool):
    wrappers = os.path.join(config.binary_dir, "sanitizer-preload")
    os.makedirs(wrappers, exist_ok=True)
    wrapper = os.path.join(wrappers, os.path.basename(tool))
    write_script(wrapper,
                 "#!/bin/sh\n"
                 'LD_PRELOAD="%s${LD_PRELOAD:+:$LD_PRELOAD}" '
                 'ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" '
                 'exec "%s" "$@"\n' % (config.sanitizer_runtime, tool))
    return wrapper


clang_tidy = config.clang_tidy
clangxx = config.clangxx
if config.sanitizer_runtime:
    clang_tidy = with_sanitizer_runtime(clang_tidy)
    clangxx = with_sanitizer_runtime(clangxx)
    # 'REQUIRES: !sanitizer': a test that adds no code path to what the
    # sanitizer build already runs (docs/robustness.md says which and why).
    config.available_features.add("sanitizer")
# %check_lint: how the suites of the checks, the analysis and robustness
# lint a file. Through clang-tidy with the module where checks_through says
# so: the default configuration (LLVM 22, LibTorch 1.13, release build), and
# every configuration in the 'full' scope. Elsewhere (the second LLVM
# version, LibTorch 2.x, the sanitizer build) through the torchtidy command:
# the same checks on the same AST, and against the precompiled header a
# fraction of clang-tidy's parse (docs/robustness.md, "What CI samples").
# Its exit status is mapped to clang-tidy's: findings 1 -> 0, a file that
# does not parse 2 -> 1. Fix-it tests run clang-tidy everywhere.
if config.checks_through == "torchtidy":
    check_lint = os.path.join(config.binary_dir, "check-lint")
    write_script(check_lint,
                 "#!/bin/sh\n"
                 '"%s" --no-cache "$@"\n'
                 "status=$?\n"
                 "case $status in 1) exit 0 ;; 2) exit 1 ;; esac\n"
                 "exit $status\n" % config.torchtidy)
elif config.checks_through == "clang-tidy":
    check_lint = clang_tidy + " --quiet --load=" + config.plugin
else:
    lit_config.fatal("checks_through is '%s', expected clang-tidy or torchtidy"
                     % config.checks_through)
config.substitutions.append(("%check_lint", check_lint))
# Longer names first: lit substitutes in order.
config.substitutions.append(("%clang_tidy_bin", clang_tidy))
config.substitutions.append(
    ("%clang_tidy", clang_tidy + " --quiet --load=" + config.plugin))
config.substitutions.append(("%torch_flags", torch_flags))
# Without the tests' PCH: for what torchtidy itself precompiles.
config.substitutions.append(("%torch_plain_flags", config.torch_flags))
config.substitutions.append(("%bug_checks", "-*," + ",".join(bug_checks)))
# %shim_preload: LD_PRELOAD for a program to run under the shim. The
# sanitizer build's shim is instrumented and the programs are not: its
# runtime goes first, as torchtidy run of that build does.
shim_preload = config.torchtidy_rt
if config.sanitizer_runtime:
    shim_preload = config.sanitizer_runtime + ":" + shim_preload
config.substitutions.append(("%shim_preload", shim_preload))
# Before %torchtidy, whose name they extend.
config.substitutions.append(("%torchtidy_replay", config.torchtidy_replay))
config.substitutions.append(("%torchtidy_mutate", config.torchtidy_mutate))
config.substitutions.append(("%torchtidy", config.torchtidy))
config.substitutions.append(("%runtime_bin", config.runtime_bin))
if config.runtime_dir:
    config.environment["TORCHTIDY_RUNTIME_DIR"] = config.runtime_dir
config.substitutions.append(("%clang_plugin", config.clang_plugin))
config.substitutions.append(("%clangxx", clangxx))
# %catalogue: lib/Checks/CheckCatalogue.def as test/catalogue.py reads it
# ("%catalogue names", "%catalogue rows"), for the tests that compare a
# front-end's list of the checks with the catalogue instead of repeating it.
config.substitutions.append(
    ("%catalogue", "%s %s %s" % (
        sys.executable,
        os.path.join(config.test_source_root, "..", "catalogue.py"),
        os.path.join(config.test_source_root, "..", "..", "lib", "Checks",
                     "CheckCatalogue.def"))))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%plugin", config.plugin))
config.substitutions.append(("%llvm_major", config.torchtidy_llvm_major))
config.substitutions.append(("%libtorch_major", config.libtorch_major))
config.substitutions.append(("FileCheck", config.filecheck))

# 'language-server': this torchtidy has `torchtidy lsp` (built with an LLVM
# that ships the LSP library, 22 and later); the lsp/ suite tests the server
# where it is built and the error that says it is not where it is not.
if subprocess.run([config.torchtidy, "lsp", "--help"], capture_output=True).returncode == 0:
    config.available_features.add("language-server")

# 'sarif-schema': the SARIF 2.1.0 JSON schema (OASIS,
# sarif-2.1/schema/sarif-schema-2.1.0.json of oasis-tcs/sarif-spec), named
# by TORCHTIDY_SARIF_SCHEMA (the test also needs python3-jsonschema).
# Neither Debian nor this repository ships the schema, so where it is not
# given the schema test is reported unsupported, never passed; the
# structural check of formats.test runs everywhere.
sarif_schema = os.environ.get("TORCHTIDY_SARIF_SCHEMA", "")
if sarif_schema and os.path.isfile(sarif_schema):
    config.available_features.add("sarif-schema")
    config.substitutions.append(("%sarif_schema", sarif_schema))
