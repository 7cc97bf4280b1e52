// `cohsim calibrate PLATFORM`: which draws of the platform's ranges
// reproduce every measured figure of the calibration cases (case_members.h
// runs them)? Their extent becomes the platform's calibrated ranges,
// written back into the platform file.
#pragma once

#include <string>
#include <vector>

namespace cohsim {

// The platform file's text with its calibrated block (between the markers
// `cohsim calibrate` writes) replaced by `block`, or `block` appended.
// Throws std::runtime_error when the file has a `calibrated:` key outside
// the markers (a hand edit it will not overwrite).
std::string replace_calibrated_block(const std::string& text, const std::string& block);

int cmd_calibrate(const std::vector<std::string>& args);

}  // namespace cohsim
