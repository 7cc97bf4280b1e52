// Fuzzes the assembler: a program's text, with the built-in library for
// its includes (the fuzzer's files are not read: includes resolve against
// an empty folder first).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_main.h"
#include "workloads/program.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    cohsim::fuzz::only_config_errors([&] { (void)cohsim::asmx::assemble_text(text, "fuzz.s"); });
    return 0;
}
