# Builds the Debian package of the build tree with CPack into a scratch
# directory and checks its name, dependencies and files. Run by ctest:
#   cmake -DCPACK=... -DBUILD_DIR=... -DWORK_DIR=... -DVERSION=... -DLLVM_MAJOR=...
#         [-DWITH_RUNTIME=OFF] -P deb.cmake
if(NOT DEFINED WITH_RUNTIME)
  set(WITH_RUNTIME ON)
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(
  COMMAND "${CPACK}" -G DEB -B "${WORK_DIR}" --config "${BUILD_DIR}/CPackConfig.cmake"
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
set(deb "${WORK_DIR}/torchtidy_${VERSION}_amd64.deb")
if(NOT status EQUAL 0 OR NOT EXISTS "${deb}")
  message(FATAL_ERROR "cpack -G DEB did not make ${deb} (${status}):\n${out}")
endif()
execute_process(COMMAND dpkg-deb -f "${deb}" Depends OUTPUT_VARIABLE depends)
foreach(package clang-tidy-${LLVM_MAJOR} libclang-cpp${LLVM_MAJOR}
                libllvm${LLVM_MAJOR} libtorch-dev)
  if(NOT depends MATCHES "(^|, )${package}(,|\n|$)")
    message(FATAL_ERROR "Depends lacks ${package}: ${depends}")
  endif()
endforeach()
execute_process(COMMAND dpkg-deb -c "${deb}" OUTPUT_VARIABLE files)
set(runtime_files "")
if(WITH_RUNTIME)  # the runtime checker, where the build has it
  set(runtime_files ./usr/lib/libtorchtidy_rt.so ./usr/bin/torchtidy-replay)
endif()
foreach(file ./usr/bin/torchtidy
             ./usr/lib/torchtidy-clang-tidy-llvm${LLVM_MAJOR}.so
             ./usr/lib/torchtidy-clang-plugin-llvm${LLVM_MAJOR}.so
             ./usr/lib/cmake/torchtidy/torchtidyConfig.cmake
             ${runtime_files}
             ./usr/share/man/man1/torchtidy.1
             ./usr/share/doc/torchtidy/docs/checks/libtorch-mixed-device-operands.md)
  string(FIND "${files}" " ${file}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${deb} lacks ${file}:\n${files}")
  endif()
endforeach()
# apt-get resolves its dependencies on this machine (a simulation: nothing is
# installed), as `apt-get install ./torchtidy_*.deb` would.
find_program(APT_GET apt-get)
if(APT_GET)
  execute_process(COMMAND "${APT_GET}" install -s "${deb}"
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT out MATCHES "Inst torchtidy ")
    message(FATAL_ERROR "apt-get install -s ${deb} fails (${status}):\n${out}${err}")
  endif()
endif()
message(STATUS "${deb}: Depends: ${depends}")
