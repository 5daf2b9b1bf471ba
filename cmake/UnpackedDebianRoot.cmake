# A CMake toolchain file: builds programs on this machine against the
# libraries of an unpacked Debian root (scripts/fetch-libtorch2.sh --runtime
# unpacks Debian sid's LibTorch 2.x and what it needs into one), and makes
# them run here with that root's loader and libraries, never the system's:
# the root's glibc and libstdc++ are newer than this machine's.
#
#   cmake -S runtime -B build-rt -DCMAKE_TOOLCHAIN_FILE=cmake/UnpackedDebianRoot.cmake \
#     -DTORCHTIDY_DEBIAN_ROOT=build/libtorch2/sysroot -DCMAKE_CXX_COMPILER=clang++-22
#
# The compiler is this machine's (clang: one clang targets any sysroot); the
# headers, the C and C++ runtimes and LibTorch's CMake package are the root's.
# Every program and shared library gets the root's dynamic loader as its
# interpreter and the root's library directories as DT_RPATH (not RUNPATH:
# RPATH also applies to the libraries they load, LibTorch's dependencies
# included, and to a library preloaded into them, as the runtime shim is).
# The root has no ld.so.cache of its own and the loader's default directories
# are this machine's, so the RPATH must name every directory the root's
# libraries are in: the multiarch directory, /usr/lib (a few Debian libraries
# are there) and those of the root's ld.so.conf.d.
if(NOT TORCHTIDY_DEBIAN_ROOT)
  message(FATAL_ERROR "UnpackedDebianRoot.cmake: set TORCHTIDY_DEBIAN_ROOT to the unpacked root")
endif()
get_filename_component(TORCHTIDY_DEBIAN_ROOT "${TORCHTIDY_DEBIAN_ROOT}" ABSOLUTE)
# try_compile projects read the toolchain file again: hand the root on.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TORCHTIDY_DEBIAN_ROOT)

set(root_loader "${TORCHTIDY_DEBIAN_ROOT}/usr/lib64/ld-linux-x86-64.so.2")
if(NOT EXISTS "${root_loader}")
  message(FATAL_ERROR "UnpackedDebianRoot.cmake: ${TORCHTIDY_DEBIAN_ROOT} has no "
    "usr/lib64/ld-linux-x86-64.so.2 (unpack it with scripts/fetch-libtorch2.sh --runtime)")
endif()

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_SYSROOT "${TORCHTIDY_DEBIAN_ROOT}")
set(CMAKE_FIND_ROOT_PATH "${TORCHTIDY_DEBIAN_ROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(root_library_path
  "${TORCHTIDY_DEBIAN_ROOT}/usr/lib/x86_64-linux-gnu"
  "${TORCHTIDY_DEBIAN_ROOT}/usr/lib")
file(GLOB root_loader_configs "${TORCHTIDY_DEBIAN_ROOT}/etc/ld.so.conf.d/*.conf")
foreach(config ${root_loader_configs})
  file(STRINGS "${config}" directories REGEX "^/")
  foreach(directory ${directories})
    if(IS_DIRECTORY "${TORCHTIDY_DEBIAN_ROOT}${directory}")
      list(APPEND root_library_path "${TORCHTIDY_DEBIAN_ROOT}${directory}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES root_library_path)
string(REPLACE ";" ":" root_rpath "${root_library_path}")

set(root_link_flags
  "-Wl,--dynamic-linker=${root_loader} -Wl,--disable-new-dtags -Wl,-rpath,${root_rpath}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${root_link_flags}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-Wl,--disable-new-dtags -Wl,-rpath,${root_rpath}")
# CMake's own build and install RPATH handling would replace the one above.
set(CMAKE_SKIP_RPATH ON)
