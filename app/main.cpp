#include <systemc>

#include "app/cli.h"

int sc_main(int argc, char* argv[]) { return cohsim::cli_main(argc, argv); }
