// Compiled against one layer's include path (tests/CMakeLists.txt): with
// COHSIM_PROBE_HEADER a header of that layer or below, it builds; with one
// of a layer above, the build must fail to find it. This is how the build
// enforces the layer order sim <- models <- workloads <- app.
#include COHSIM_PROBE_HEADER

int cohsim_layer_probe() { return 0; }
