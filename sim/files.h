// Result files: whole files read as text, and written atomically so that an
// interrupted run or a reader never sees half a file.
#pragma once

#include <string>

namespace cohsim {

// Writes via a temporary file in the same directory and rename(2), so a
// reader sees either the old file or the whole new one. Throws
// std::runtime_error naming the path on failure.
void write_file_atomic(const std::string& path, const std::string& content);

// A file written bit by bit and put in place whole: a temporary file beside
// `path` (created at once, so an unwritable path fails before any work) until
// commit() renames it. Destroyed without commit(), the temporary is removed.
// Errors throw std::runtime_error naming the path.
class atomic_file {
public:
    explicit atomic_file(const std::string& path);
    ~atomic_file();
    atomic_file(const atomic_file&) = delete;
    atomic_file& operator=(const atomic_file&) = delete;
    void write(const std::string& bytes);
    void commit();

private:
    [[noreturn]] void fail(const std::string& what);
    std::string m_path, m_tmp;
    int m_fd = -1;
};
// `path` as one canonical name (the same file however it is named: relative,
// through links, with ..), or `path` itself when it cannot be resolved.
std::string same_file(const std::string& path);

// A whole file as text ("" when it cannot be read).
std::string read_file(const std::string& path);


}  // namespace cohsim
