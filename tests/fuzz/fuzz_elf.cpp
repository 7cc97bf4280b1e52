// Fuzzes the ELF loader and the decoder: the input is an executable's bytes
// (written to a file, as cohsim reads one), loaded as a workload's program;
// then every word of it decoded on its own. A malformed file may only end in
// a located config error; the decoder never throws (a word it does not know
// is an undefined instruction).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

#include "fuzz_main.h"
#include "workloads/decoder.h"
#include "workloads/elf.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path = "/tmp/cohsim-fuzz-elf-" + std::to_string(::getpid()) + ".elf";
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    cohsim::fuzz::only_config_errors([&] {
        const cohsim::asmx::program p = cohsim::asmx::load_elf(path, 0x10000000);
        for (const auto& [name, at] : p.labels)
            if (at >= p.code.size()) std::abort();  // a label must name an instruction
    });
    for (std::size_t k = 0; k + 4 <= size; k += 4) {
        std::uint32_t w;
        std::memcpy(&w, data + k, 4);
        const cohsim::asmx::insn i = cohsim::asmx::decode(w, 0x400000 + k);
        if (i.text.empty()) std::abort();  // every word has a text, if only `.inst`
    }
    return 0;
}
