#!/bin/sh
# Builds cohsim three times and runs the whole test suite:
#   build/       release (-O2): unit, model and end-to-end tests;
#   build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer: the same tests;
#   build-fuzz/  clang + libFuzzer: the fuzz harnesses, a fixed number of runs each.
# Tests labelled "soak" run only when COHSIM_SOAK=1.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc)
exclude="soak"
[ "${COHSIM_SOAK:-0}" = 1 ] && exclude="^$"

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
ctest --test-dir build -j"$jobs" --output-on-failure --timeout 600 -LE "$exclude"

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DCOHSIM_SANITIZE=ON
cmake --build build-asan -j"$jobs"
ctest --test-dir build-asan -j"$jobs" --output-on-failure --timeout 600 -LE "$exclude"

# The libFuzzer harnesses (tests/fuzz/), with clang: only the fuzz targets
# (and the C workloads, the ELF harness's seeds) are built; each replays its regression inputs and runs a fixed number of
# executions from the shipped files (the hour-long runs are "soak").
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DCOHSIM_FUZZ=ON
cmake --build build-fuzz -j"$jobs" --target fuzz_config fuzz_assembler fuzz_trace fuzz_elf c_workloads
ctest --test-dir build-fuzz -j"$jobs" --output-on-failure -L fuzz -LE "$exclude"
