# Installs the build tree into a scratch prefix, builds examples/consumer
# against it (find_package(torchtidy), torchtidy_lint()) and checks that the
# build reports the consumer's device bug. Run by ctest:
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=...
#         -DLLVM_MAJOR=... [-DCLANGXX=...] -P consumer.cmake
# The consumer is built with the default C++ compiler (or DEFAULT_CXX), so
# clang-tidy runs the checks (CXX_CLANG_TIDY); with CLANGXX, a second build
# uses that clang, the compiler plugin and WERROR.
# Against another LibTorch, unpacked into a root (LibTorch 2.x, CI):
#   -DDEBIAN_ROOT=<root> (cmake/UnpackedDebianRoot.cmake builds against it)
#   -DRUNTIME_DIR=<a build of runtime/ against it> (TORCHTIDY_RUNTIME_DIR)
#   -DCLANG_TIDY_WERROR=OFF: no WERROR build through clang-tidy (what
#     torchtidy_lint() adds for it does not depend on LibTorch)
# A build without the runtime checker (TORCHTIDY_RUNTIME=OFF): -DWITH_RUNTIME=OFF,
# and the consumer defines no test program linked with the shim.
if(NOT DEFINED WITH_RUNTIME)
  set(WITH_RUNTIME ON)
endif()
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR LLVM_MAJOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "consumer.cmake: pass -D${var}=...")
  endif()
endforeach()

function(run_step name)
  execute_process(COMMAND ${ARGN}
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(step_output "${out}${err}" PARENT_SCOPE)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${name} failed (${status}):\n${out}${err}")
  endif()
endfunction()

# The consumer's bug: batch.target used with the model's output, never moved.
# (An error with WERROR through clang-tidy: "[<check>,-warnings-as-errors]".)
set(expected_warning
  "main.cpp:23:[0-9]+: (warning|error): 'batch.target' is on the CPU[^\n]*\\[libtorch-missing-target-migration(\\]|,)")

file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
run_step("cmake --install"
  "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")

# The installed command finds the installed modules (lib/ next to bin/).
run_step("installed torchtidy --print-plugin-path"
  "${prefix}/bin/torchtidy" --print-plugin-path)
if(NOT step_output MATCHES "^${prefix}/lib/torchtidy-clang-tidy-llvm${LLVM_MAJOR}")
  message(FATAL_ERROR "installed torchtidy prints '${step_output}'")
endif()
run_step("installed torchtidy --explain"
  "${prefix}/bin/torchtidy" --explain libtorch-missing-target-migration)
set(runtime_files lib/libtorchtidy_rt.so bin/torchtidy-replay)
foreach(file share/doc/torchtidy/README.md
             share/doc/torchtidy/docs/runtime.md
             share/man/man1/torchtidy.1
             share/doc/torchtidy/docs/checks/libtorch-missing-target-migration.md
             lib/cmake/torchtidy/torchtidyConfig.cmake
             lib/cmake/torchtidy/torchtidyConfigVersion.cmake)
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
foreach(file IN LISTS runtime_files)
  if(WITH_RUNTIME AND NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "not installed: ${file}")
  elseif(NOT WITH_RUNTIME AND EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "installed without the runtime checker: ${file}")
  endif()
endforeach()

# The default compiler builds and warns (clang-tidy); with WERROR the same
# finding fails the build, through clang-tidy (default-werror) and through
# the compiler plugin (clang).
# Every configure of the consumer: against the root's LibTorch when given.
# The toolchain file looks for packages inside the root only: torchtidy's is
# named.
set(common_options "")
if(DEBIAN_ROOT)
  list(APPEND common_options
    "-DCMAKE_TOOLCHAIN_FILE=${SOURCE_DIR}/cmake/UnpackedDebianRoot.cmake"
    "-DTORCHTIDY_DEBIAN_ROOT=${DEBIAN_ROOT}"
    "-Dtorchtidy_DIR=${prefix}/lib/cmake/torchtidy")
endif()
if(RUNTIME_DIR)
  list(APPEND common_options "-DTORCHTIDY_RUNTIME_DIR=${RUNTIME_DIR}")
endif()

set(builds default)
if(NOT DEFINED CLANG_TIDY_WERROR OR CLANG_TIDY_WERROR)
  list(APPEND builds default-werror)
endif()
if(CLANGXX)
  list(APPEND builds clang)
endif()
foreach(build IN LISTS builds)
  set(dir "${WORK_DIR}/consumer-${build}")
  set(options ${common_options})
  if(DEFAULT_CXX AND NOT build STREQUAL "clang")
    list(APPEND options "-DCMAKE_CXX_COMPILER=${DEFAULT_CXX}")
  endif()
  # The WERROR builds are about the linted target: the shim's test program
  # (one more LibTorch compile each) is built and run by the default one.
  set(targets "")
  if(build STREQUAL "clang")
    list(APPEND options "-DCMAKE_CXX_COMPILER=${CLANGXX}" -DTRAIN_LINT_WERROR=ON)
    set(targets --target train)
  elseif(build STREQUAL "default-werror")
    list(APPEND options -DTRAIN_LINT_WERROR=ON)
    set(targets --target train)
  endif()
  run_step("configuring the consumer (${build} compiler)"
    "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/examples/consumer" -B "${dir}"
    -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}"
    ${options})
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${dir}" ${targets}
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT "${out}${err}" MATCHES "${expected_warning}")
    message(FATAL_ERROR
      "the ${build} build does not report the consumer's bug:\n${out}${err}")
  endif()
  if(build STREQUAL "clang")
    if(status EQUAL 0 OR NOT "${out}${err}" MATCHES "torchtidy finding treated as error")
      message(FATAL_ERROR "WERROR did not fail the clang build:\n${out}${err}")
    endif()
  elseif(build STREQUAL "default-werror")
    if(status EQUAL 0 OR NOT "${out}${err}" MATCHES "-warnings-as-errors")
      message(FATAL_ERROR "WERROR did not fail the clang-tidy build:\n${out}${err}")
    endif()
  elseif(NOT status EQUAL 0)
    message(FATAL_ERROR "the ${build} build failed (${status}):\n${out}${err}")
  endif()
  message(STATUS "${build} compiler: torchtidy reported the bug")
endforeach()

if(NOT WITH_RUNTIME)
  return()
endif()
# torchtidy_runtime(): the test executable, linked with the shim, writes a
# runtime report of its own accord, with the loss graph it grows.
set(report "${WORK_DIR}/train_step_test.json")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env "TORCHTIDY_REPORT=${report}"
          "${WORK_DIR}/consumer-default/train_step_test"
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT out MATCHES "mean loss")
  message(FATAL_ERROR "train_step_test failed (${status}):\n${out}${err}")
endif()
if(NOT EXISTS "${report}")
  message(FATAL_ERROR "train_step_test, linked with the shim, wrote no report")
endif()
file(READ "${report}" report_text)
if(NOT report_text MATCHES "\"kind\": *\"graph_growth\"")
  message(FATAL_ERROR "the shim's report shows no graph growth:\n${report_text}")
endif()
message(STATUS "torchtidy_runtime: the linked shim reported the graph growth")
