// Written for MSVC too: its warning pragmas and a region around the
// includes, which clang ignores without Microsoft extensions (and acts on
// with them: that ends the prefix).
#pragma once
#pragma warning(push)
#pragma warning(disable : 4996)
#pragma region includes
#include <torch/core.h>
#pragma endregion
#pragma warning(pop)
