// The shared test main fails any test during which SystemC reports a warning
// or an error; a test that provokes `n` such reports on purpose says so.
#pragma once

void expected_systemc_reports(int n);
