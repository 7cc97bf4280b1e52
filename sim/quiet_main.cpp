// main() for every cohsim executable. The executable's own main() wins over
// the one in libsystemc; this one only silences the banner that SystemC
// would otherwise print on stderr before sc_main runs.
#include <cstdlib>

#include <systemc>

int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
