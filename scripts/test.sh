#!/usr/bin/env bash
# Fresh Debian machine -> every test passing, for LLVM 22 and LLVM 19.
# Installs the dependencies, builds once per LLVM version and runs ctest
# (GoogleTest unit tests and the lit suites on the real LibTorch headers),
# then the sanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
for v in 22 19; do
  echo "== LLVM $v"
  scripts/build.sh "$v"
  ctest --test-dir "build/llvm-$v" --output-on-failure -j "$(nproc)"
done
# Again under AddressSanitizer and UndefinedBehaviorSanitizer: unit tests, the
# lit suites of the static tool, its front-ends and the runtime checker, and a
# bounded fuzz run (docs/robustness.md).
echo "== LLVM 22, ASan + UBSan"
scripts/build.sh 22 sanitize
ctest --test-dir build/llvm-22-sanitize --output-on-failure -j "$(nproc)"
