#!/usr/bin/env bash
# Fresh Debian machine -> every test passing, for LLVM 22 and LLVM 19.
# Installs the dependencies, builds once per LLVM version and runs ctest
# (GoogleTest unit tests and the lit suites on the real LibTorch headers:
# Debian's LibTorch 1.13, and LibTorch 2.x's, fetched into build/libtorch2,
# whose libraries LLVM 22's runtime suite runs on too), then the sanitizer
# build. Prints the time of each stage at the end, also when a stage fails,
# so that a slower CI shows where the time went.
set -euo pipefail
cd "$(dirname "$0")/.."

stage_names=()
stage_seconds=()
run_started=$SECONDS
running_stage_started=""
print_stage_times() {
  local status=$?
  if [ -n "$running_stage_started" ]; then  # the stage that failed
    stage_seconds[${#stage_seconds[@]}-1]=$((SECONDS - running_stage_started))
    stage_names[${#stage_names[@]}-1]+=" (failed)"
  fi
  echo "== stage times (exit status $status)"
  local i
  for i in "${!stage_names[@]}"; do
    printf '%-30s %5d s\n' "${stage_names[$i]}" "${stage_seconds[$i]}"
  done
  printf '%-30s %5d s\n' "total" $((SECONDS - run_started))
}
trap print_stage_times EXIT

# stage NAME COMMAND...: runs COMMAND and records how long it took.
stage() {
  local name=$1
  shift
  echo "== $name"
  running_stage_started=$SECONDS
  stage_names+=("$name")
  stage_seconds+=(0)
  "$@"
  stage_seconds[${#stage_seconds[@]}-1]=$((SECONDS - running_stage_started))
  running_stage_started=""
}

stage "install-deps" scripts/install-deps.sh
# LibTorch 2.x, for the libtorch-2 tests (LLVM 22: static and runtime; LLVM
# 19: the checks' suites): its headers into build/libtorch2/root, and its
# libraries with what they need into build/libtorch2/sysroot, once (private
# apt lists; the system's packages stay).
stage "fetch LibTorch 2.x" scripts/fetch-libtorch2.sh --runtime build/libtorch2
for v in 22 19; do
  options=(-DTORCHTIDY_LIBTORCH2_INCLUDE="$PWD/build/libtorch2/include")
  if [ "$v" = 22 ]; then
    options+=(-DTORCHTIDY_LIBTORCH2_ROOT="$PWD/build/libtorch2/sysroot")
  else
    # LLVM 19 samples (docs/robustness.md): it builds neither the runtime
    # checker, which never links LLVM and whose suite LLVM 22 runs, nor the
    # benchmark tools, whose tests only LLVM 22 runs.
    options+=(-DTORCHTIDY_RUNTIME=OFF -DTORCHTIDY_BENCHMARKS=OFF)
  fi
  stage "build llvm-$v" scripts/build.sh "$v" "${options[@]}"
  # The LibTorch 2.x tests (label libtorch-2) run with the rest: one ctest
  # starts the costliest first and keeps both cores busy to its end, where
  # two would each end on one long test. ctest's label summary at the end
  # gives their share of the time.
  stage "ctest llvm-$v" \
    ctest --test-dir "build/llvm-$v" --output-on-failure -j "$(nproc)"
done
# Again under AddressSanitizer and UndefinedBehaviorSanitizer: unit tests, the
# lit suites of the static tool, its front-ends and the runtime checker, and a
# bounded fuzz run (docs/robustness.md).
# What it builds without the sanitizers (the lit PCH, the runtime tests'
# programs) it takes from the LLVM 22 release build, which built the same.
stage "build llvm-22 sanitize" scripts/build.sh 22 sanitize \
  -DTORCHTIDY_RELEASE_BUILD_DIR="$PWD/build/llvm-22"
stage "ctest llvm-22 sanitize" \
  ctest --test-dir build/llvm-22-sanitize --output-on-failure -j "$(nproc)"
