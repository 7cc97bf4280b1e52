// `cohsim calibrate PLATFORM`: which draws of the platform's ranges
// reproduce every measured figure of the calibration cases (case_members.h
// runs them)? Their extent becomes the platform's calibrated ranges,
// written back into the platform file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cohsim {

// The platform file's text with its calibrated block (between the markers
// `cohsim calibrate` writes) replaced by `block`, or `block` appended.
// Throws std::runtime_error when the file has a `calibrated:` key outside
// the markers (a hand edit it will not overwrite).
std::string replace_calibrated_block(const std::string& text, const std::string& block);

// How often `kept` draws that the cases did not constrain at all (uniform
// over the prior, independent) would span no more than `width_kept` (0..1)
// of the prior's width: the extent of k uniform points has the Beta(k-1, 2)
// law, P = k w^(k-1) - (k-1) w^k. A narrowing this likely by chance is no
// evidence that the cases pin the value (7 kept draws keep 75% of an
// unconstrained value's width on average). 1 for one draw or none.
double narrowing_by_chance(std::size_t kept, double width_kept);

// What `cohsim calibrate` was asked: the platform file (`platform_arg` as
// given, `platform` its canonical name), the cases file, `draws` Latin
// hypercube draws of `replicates` runs each, `jobs` at once, each run capped
// at `max_duration`, the runs under `out_dir`.
struct calibration_request {
    std::string platform, platform_arg, cases_file, max_duration, out_dir;
    std::size_t draws = 48, replicates = 3;
    unsigned jobs = 1;
    std::uint64_t seed = 1;          // of the Latin hypercube
    std::vector<std::string> also;   // further files to write the block into
    bool dry_run = false;            // report, write nothing
    bool references = true;          // check the published c2c / latmem rows per draw
};

// Runs the cases that use the platform once per draw and replicate, keeps the
// draws that pass every check (and every published reference row), prints
// the table of checks and the narrowed ranges, writes OUT/calibration.json
// and, unless a dry run, the calibrated block into every file holding a
// drawn value. 0 when some draw was kept, 1 when none was.
int calibrate(const calibration_request& request);

}  // namespace cohsim
