# Included by the directories whose code links LibTorch (the runtime side and
# the programs its tests run). Inside the whole build it drops what the top
# level set up for LLVM: LibTorch is built with RTTI, and no LLVM header may be
# reachable from runtime code. Then it finds LibTorch for this directory, and
# the C++ standard its headers need: TORCHTIDY_LIBTORCH_CXX_STANDARD.
if(NOT CMAKE_SOURCE_DIR STREQUAL CMAKE_CURRENT_SOURCE_DIR)
  get_directory_property(inherited_options COMPILE_OPTIONS)
  list(REMOVE_ITEM inherited_options -fno-rtti)
  set_directory_properties(PROPERTIES
    COMPILE_OPTIONS "${inherited_options}"
    INCLUDE_DIRECTORIES ""
    COMPILE_DEFINITIONS "")
endif()
find_package(Torch QUIET)
# LibTorch 2.12 and later need C++20 (torch/all.h stops with an #error
# below it; c10 uses operator<=>); before, C++17. The runtime side and the
# programs its tests run are built with the standard of the LibTorch they
# are built against.
set(TORCHTIDY_LIBTORCH_CXX_STANDARD 17)
if(Torch_FOUND AND Torch_VERSION VERSION_GREATER_EQUAL 2.12)
  set(TORCHTIDY_LIBTORCH_CXX_STANDARD 20)
endif()
