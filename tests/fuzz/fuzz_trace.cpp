// Fuzzes the trace reader (workload.trace files).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_main.h"
#include "workloads/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    cohsim::fuzz::only_config_errors([&] { (void)cohsim::parse_trace(in, "fuzz.trace"); });
    return 0;
}
