// This file is part of the Luau programming language and is licensed under MIT License; see LICENSE.txt for details
// This code is based on Lua 5.x implementation licensed under MIT License; see lua_LICENSE.txt for details
#pragma once

// This is a forwarding header for Luau bytecode definition
#include "Luau/Bytecode.h"

#include "Luau/BytecodeUtils.h"
