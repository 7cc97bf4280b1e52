// AArch64 executables from the Debian cross-compiler (aarch64-linux-gnu-gcc
// -O2 -ffreestanding -nostdlib -static): an ELF64 little-endian AArch64
// executable is read into a program (workloads/program.h) whose code is its
// executable segment decoded word by word (workloads/decoder.h), whose
// labels are its function symbols, and whose image is every loadable
// segment, written into simulated memory at its own address.
//
// Taken: ET_EXEC files (static, position-dependent), one executable
// segment, segments below cohsim's own areas (scenario.h: 0x10000000 and
// up). Not taken, with an error naming the file: other machines or
// classes, shared objects and position-independent executables (they need
// a dynamic loader's relocations), files without a symbol table (stripped).
#pragma once

#include <string>

#include "workloads/program.h"

namespace cohsim::asmx {

// True when `file` starts with the ELF magic number.
bool is_elf(const std::string& file);

// Reads `file`; throws cfg::config_error naming it and what is wrong.
// `limit`: the lowest address its segments may not reach.
program load_elf(const std::string& file, std::uint64_t limit);

// The code label (function) `name` of a machine-code program, as its
// instruction index; a config error listing the functions when absent.
std::size_t function_index(const program& p, const std::string& name, const std::string& key);

}  // namespace cohsim::asmx
