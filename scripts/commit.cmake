# Writes OUT (a C++ file defining cohsim::commit) with the source tree's git
# commit, "-dirty" when the work tree has changes, or "unknown" outside git.
# Run at every build (CMakeLists.txt, target cohsim_commit); the file is
# rewritten only when the text changes, so an unchanged commit rebuilds nothing.
execute_process(COMMAND git -C "${SRC}" rev-parse --short=12 HEAD
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
else()
  execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT dirty STREQUAL "")
    set(commit "${commit}-dirty")
  endif()
endif()
set(text "// Generated at build time by scripts/commit.cmake.\nnamespace cohsim {\nextern const char* const commit;\nconst char* const commit = \"${commit}\";\n}  // namespace cohsim\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
