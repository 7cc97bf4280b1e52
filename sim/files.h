// Result files: whole files read as text, and written atomically so that an
// interrupted run or a reader never sees half a file.
#pragma once

#include <string>

namespace cohsim {

// Writes via a temporary file in the same directory and rename(2), so a
// reader sees either the old file or the whole new one. Throws
// std::runtime_error naming the path on failure.
void write_file_atomic(const std::string& path, const std::string& content);
// A whole file as text ("" when it cannot be read).
std::string read_file(const std::string& path);


}  // namespace cohsim
