// What the models tell the tools that watch a run: the timeline writer
// (`--trace`) and the line explainer (`--explain`). A model holds an
// `observers` (two pointers, null when nobody watches: each hook is then one
// branch) given to it after elaboration; it never reads a global, and it
// knows nothing of the file formats. Observers only watch: nothing they do
// changes a result.
#pragma once

#include <cstdint>
#include <string>

#include "sim/units.h"

namespace cohsim {

// The timeline: slices and instants on named tracks, grouped by kind, and
// flow arrows between them.
class timeline_observer {
public:
    enum class group { cores, lines, system };
    virtual ~timeline_observer() = default;
    // Lines whose L1 states get their own tracks.
    virtual bool traces_line(std::uint64_t line) const = 0;
    // A slice [t0, t1) on a track.
    virtual void slice(group g, const std::string& track, const std::string& name, duration t0, duration t1) = 0;
    // A moment on a track.
    virtual void instant(group g, const std::string& track, const std::string& name, duration t) = 0;
    // A flow arrow's start (its id), and its end on another track.
    virtual std::uint64_t flow_start(group g, const std::string& track, duration t) = 0;
    virtual void flow_end(group g, const std::string& track, duration t, std::uint64_t id) = 0;
    // The L1 of `core` now holds `line` in `state`.
    virtual void line_state(std::uint64_t line, unsigned agent, const std::string& core, const char* state, duration t) = 0;
};

// A line's story: the coherence messages of one line, in words.
class explain_observer {
public:
    virtual ~explain_observer() = default;
    // Whether the story of `line` is still being told.
    virtual bool wants(std::uint64_t line) const = 0;
    // The line's home serves a request: one more transaction told.
    virtual void served() = 0;
    // One step of the story, at simulated time `t`.
    virtual void note(duration t, const std::string& text) = 0;
};

struct observers {
    timeline_observer* trace = nullptr;
    explain_observer* explain = nullptr;
};

}  // namespace cohsim
