#!/usr/bin/env bash
# The runtime checker on a real GPU. For a machine with a CUDA PyTorch 2.x
# wheel (its LibTorch is inside the wheel) and maybe no LLVM:
#   1. builds runtime/ (the shim and torchtidy-replay) and the samples of
#      examples/runtime/ against the wheel's LibTorch;
#   2. runs each sample on cuda under LD_PRELOAD=libtorchtidy_rt.so and checks
#      its report and that the shim changed neither its output nor its exit
#      status;
#   3. replays every op torchtidy-replay knows, and accumulation, on cuda;
#   4. times the shim (bench/runtime_overhead.py --device cuda);
#   5. with a torchtidy binary (--torchtidy, or on PATH): torchtidy run,
#      validate and replay on the samples, with the shim and the replay
#      program of step 1 (--runtime-dir build-cuda-rt): torchtidy itself
#      may be built against any LibTorch;
# then prints one table: case, expected, outcome, PASS/FAIL.
#
# Usage: scripts/cuda-runtime-check.sh [--torchtidy PATH] [--python PYTHON]
# Needs cmake, a C++17 compiler and the CUDA toolkit (nvcc): the CMake config
# inside a CUDA wheel looks for it. Builds into build-cuda-rt/ and
# build-cuda-samples/. Exit status: 0 every row passed, 1 some row failed,
# 2 nothing could be checked (setup or build failed).
set -euo pipefail
cd "$(dirname "$0")/.."

die() {
  echo "cuda-runtime-check: error: $*" >&2
  exit 2
}

python=python3
torchtidy=""
while (($# > 0)); do
  case "$1" in
  --torchtidy) torchtidy="${2:?--torchtidy needs a path}"; shift 2 ;;
  --torchtidy=*) torchtidy="${1#*=}"; shift ;;
  --python) python="${2:?--python needs a path}"; shift 2 ;;
  --python=*) python="${1#*=}"; shift ;;
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) die "unknown argument '$1' (--torchtidy PATH, --python PYTHON)" ;;
  esac
done
if [[ -z "$torchtidy" ]]; then
  torchtidy="$(command -v torchtidy || true)"
fi

# ---- Setup: the wheel, CUDA, the toolkit -----------------------------------
prefix="$("$python" -c 'import torch; print(torch.utils.cmake_prefix_path)')" ||
  die "$python cannot import torch (pass --python, or install a CUDA PyTorch wheel)"
torch_root="$("$python" -c 'import os, torch; print(os.path.dirname(torch.__file__))')"
torch_version="$("$python" -c 'import torch; print(torch.__version__)')"
"$python" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)' ||
  die "torch $torch_version: torch.cuda.is_available() is false (a CPU wheel, or no GPU visible)"
if ! command -v nvcc >/dev/null; then
  for cuda_home in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
    if [[ -n "$cuda_home" && -x "$cuda_home/bin/nvcc" ]]; then
      PATH="$cuda_home/bin:$PATH"
      break
    fi
  done
fi
command -v nvcc >/dev/null ||
  die "no nvcc: find_package(Torch) of a CUDA wheel needs the CUDA toolkit (install it, or set CUDA_HOME)"
echo "== torch $torch_version at $torch_root; $(nvcc --version | tail -1)"

generator=()
if command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
logs="$PWD/build-cuda-rt/logs"
mkdir -p "$logs"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Runs a build step with its output in a log; on failure shows the end of it.
step() {
  local log="$logs/$1.log"
  shift
  if ! "$@" >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    die "$* failed (log: $log)"
  fi
}

# ---- 1. Build ---------------------------------------------------------------
echo "== building runtime/ and examples/runtime/ against $prefix"
step configure-runtime cmake -S runtime -B build-cuda-rt "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix"
step build-runtime cmake --build build-cuda-rt -j "$(nproc)"
step configure-samples cmake -S examples/runtime -B build-cuda-samples \
  "${generator[@]}" -DCMAKE_PREFIX_PATH="$prefix"
step build-samples cmake --build build-cuda-samples -j "$(nproc)"

shim="$PWD/build-cuda-rt/lib/libtorchtidy_rt.so"
replay="$PWD/build-cuda-rt/bin/torchtidy-replay"
samples="$PWD/build-cuda-samples"
[[ -f "$shim" ]] || die "no $shim after the build (see $logs/configure-runtime.log)"
[[ -x "$replay" ]] || die "no $replay after the build (see $logs/configure-runtime.log)"

# ---- The table --------------------------------------------------------------
rows_case=()
rows_expected=()
rows_outcome=()
rows_result=()
failures=0
# record CASE EXPECTED OUTCOME PASSED(0|1)
record() {
  rows_case+=("$1")
  rows_expected+=("$2")
  rows_outcome+=("$3")
  if [[ "$4" == 1 ]]; then
    rows_result+=(PASS)
  else
    rows_result+=(FAIL)
    failures=$((failures + 1))
  fi
}

# check_report REPORT END EXPECTATION...: prints a one-line summary of a
# runtime report and exits 0 when it meets every expectation. END is
# "exception" or "exit:<code>"; an expectation is +KIND[:OP] (an event of
# that kind, whose op contains OP, is present) or -KIND (none is).
check_report() {
  "$python" - "$@" <<'PY'
import json, sys

path, end, expectations = sys.argv[1], sys.argv[2], sys.argv[3:]
try:
    with open(path) as f:
        report = json.load(f)
except (OSError, ValueError) as error:
    print(f"no report: {error}")
    sys.exit(1)
how = report.get("end", {}).get("how")
got_end = f"exit:{report['end'].get('code')}" if how == "exit" else str(how)
events = report.get("events", [])
kinds = sorted({f"{e.get('kind')} {e.get('op')}" for e in events})
missed = [] if got_end == end else [f"end {end}"]
for expectation in expectations:
    kind, _, op = expectation[1:].partition(":")
    found = any(e.get("kind") == kind and op in str(e.get("op")) for e in events)
    if found != (expectation[0] == "+"):
        missed.append(expectation)
summary = f"end={got_end}; " + (", ".join(kinds) or "no events")
if report.get("problems"):
    summary += f"; problems: {report['problems']}"
print(summary + (f"; MISSED {' '.join(missed)}" if missed else ""))
sys.exit(1 if missed else 0)
PY
}

# run_sample NAME DEVICE EXPECTED-TEXT END EXPECTATION...: runs a sample with
# and without the shim; it passes when its report meets the expectations and
# its stdout and exit status are the same both ways.
run_sample() {
  local name="$1" device="$2" expected="$3"
  shift 3
  local report="$work/$name-$device.json" shim_rc=0 plain_rc=0 summary passed=1
  echo "== $name $device under the shim"
  TORCHTIDY_REPORT="$report" LD_PRELOAD="$shim" "$samples/$name" "$device" \
    >"$work/$name-$device.shim.out" 2>"$work/$name-$device.shim.err" || shim_rc=$?
  "$samples/$name" "$device" >"$work/$name-$device.plain.out" 2>/dev/null || plain_rc=$?
  tail -n 3 "$work/$name-$device.shim.out" "$work/$name-$device.shim.err"
  summary="$(check_report "$report" "$@")" || passed=0
  if [[ "$shim_rc" != "$plain_rc" ]] ||
    ! cmp -s "$work/$name-$device.shim.out" "$work/$name-$device.plain.out"; then
    summary="OUTPUT OR EXIT STATUS CHANGED BY THE SHIM ($shim_rc vs $plain_rc); $summary"
    passed=0
  fi
  record "$name $device" "$expected" "exit $shim_rc; $summary" "$passed"
  cp -f "$report" "$logs/" 2>/dev/null || true
}

# ---- 2. The samples under the shim ------------------------------------------
run_sample train_regression cuda "dies of (a); mixed_device mse_loss, non_blocking_unpinned" \
  exception +mixed_device:mse_loss +non_blocking_unpinned
run_sample train_regression cpu "exit 0; graph_growth (c)" \
  exit:0 +graph_growth -mixed_device
run_sample evaluate cuda "dies; mixed_device mul" \
  exception +mixed_device:mul
run_sample train_correct cuda "exit 0; no bug events" \
  exit:0 -mixed_device -graph_growth -non_blocking_unpinned

# ---- 3. Replay on cuda -------------------------------------------------------
echo "== torchtidy-replay --device cuda"
# replay_case CASE-ARGS...: one replay; expected: confirmed.
replay_case() {
  local line rc=0 outcome
  line="$("$replay" --device cuda "$@" 2>&1)" || rc=$?
  echo "$line"
  outcome="$(printf '%s' "$line" | "$python" -c \
    'import json, sys; print(json.loads(sys.stdin.read())["outcome"])' 2>/dev/null ||
    echo "exit $rc, no JSON")"
  record "replay $*" confirmed "$outcome" "$([[ "$rc" == 0 && "$outcome" == confirmed ]] && echo 1 || echo 0)"
}
while read -r op; do
  replay_case mixed-device "$op"
done < <("$replay" --list-ops)
replay_case accumulation

# ---- 4. Overhead -------------------------------------------------------------
echo "== bench/runtime_overhead.py --device cuda"
bench_out="$("$python" bench/runtime_overhead.py --program "$samples/train_correct" \
  --shim "$shim" --device cuda 2>&1)" || true
echo "$bench_out"
for device in cpu cuda; do
  # "train_correct <device>  <shim s> <plain s> <ratio> <= <target> <result>"
  read -r _ _ _ _ ratio _ target result < <(
    grep -E "^train_correct $device " <<<"$bench_out" || echo "- - - - - - - missing")
  record "overhead train_correct $device" "ratio <= $target" "ratio $ratio ($result)" \
    "$([[ "$result" == ok ]] && echo 1 || echo 0)"
done

# ---- 5. torchtidy run / validate / replay ------------------------------------
# validate and replay exit 1 when a bug-level finding is confirmed, 0 when
# none is, 2 on an error.
if [[ -n "$torchtidy" && -x "$torchtidy" ]]; then
  echo "== $torchtidy run / validate / replay"
  # LibTorch 2.12 and later need C++20 (cmake/LibTorchDirectory.cmake).
  cxx_standard=c++17
  if "$python" -c 'import sys, torch; v = tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2]); sys.exit(0 if v >= (2, 12) else 1)'; then
    cxx_standard=c++20
  fi
  torch_flags=(-std=$cxx_standard -isystem "$torch_root/include"
    -isystem "$torch_root/include/torch/csrc/api/include")
  # tidy_row CASE EXPECTED-EXIT RC
  tidy_row() {
    local meaning="no bug confirmed"
    [[ "$2" == 1 ]] && meaning="bugs confirmed"
    record "$1" "exit $2 ($meaning)" "exit $3" "$([[ "$3" == "$2" ]] && echo 1 || echo 0)"
  }
  # tidy_sample NAME DEVICE LEVEL EXPECTED-EXIT: the static findings at
  # LEVEL, torchtidy run, validate against its report, replay on cuda.
  tidy_sample() {
    local name="$1" device="$2" level="$3" expected="$4"
    local static="$work/$name-$level.static.json" runtime="$work/$name-$device.run.json"
    local rc=0
    "$torchtidy" --level="$level" --format=json "examples/runtime/$name.cpp" -- \
      "${torch_flags[@]}" >"$static" 2>"$work/$name.static.err" || true
    "$torchtidy" run --runtime-dir "$PWD/build-cuda-rt" --report "$runtime" -- "$samples/$name" "$device" \
      >/dev/null 2>&1 || true
    if [[ ! -f "$runtime" ]]; then
      record "torchtidy run $name $device" "a report" "no report" 0
      return
    fi
    "$torchtidy" validate --findings "$static" --runtime "$runtime" || rc=$?
    tidy_row "validate $name $device ($level)" "$expected" "$rc"
    cp -f "$runtime" "$logs/" 2>/dev/null || true
    if [[ "$device" == cuda ]]; then
      rc=0
      "$torchtidy" replay --runtime-dir "$PWD/build-cuda-rt" --findings "$static" --device cuda || rc=$?
      tidy_row "torchtidy replay $name ($level)" "$expected" "$rc"
    fi
  }
  tidy_sample train_regression cuda performance 1
  tidy_sample train_regression cpu performance 1
  tidy_sample evaluate cuda bug 1
  tidy_sample train_correct cuda bug 0
  tidy_note="torchtidy run/validate/replay: $torchtidy"
else
  tidy_note="torchtidy run/validate/replay: SKIPPED (no torchtidy on PATH; pass --torchtidy PATH)"
fi

# ---- The table ---------------------------------------------------------------
echo
echo "== torch $torch_version, $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
echo "== $tidy_note"
printf '%-54s %-58s %-6s %s\n' CASE EXPECTED RESULT OUTCOME
for i in "${!rows_case[@]}"; do
  printf '%-54s %-58s %-6s %s\n' "${rows_case[$i]}" "${rows_expected[$i]}" \
    "${rows_result[$i]}" "${rows_outcome[$i]}"
done
echo "== ${#rows_case[@]} checks, $failures failed; logs and reports in $logs"
((failures == 0))
