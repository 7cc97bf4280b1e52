// `--explain LINE`: the first coherence transactions of one cache line as a
// readable message sequence: each access with the L1 state it meets, each
// request the home serves with its state and the snoops it sends, each snoop
// and grant at an L1 with the state before and after, and the consequences
// (a reservation cleared, a core woken, an STXR failing).
//
// The models report through the explain_observer interface (sim/observer.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/observer.h"
#include "sim/units.h"

namespace cohsim {

class explainer : public explain_observer {
public:
    // Explains `line` until `transactions` requests for it have been served
    // by its home (and what follows from the last one).
    explainer(std::uint64_t line, unsigned transactions) : m_line(line), m_left(transactions) {}

    bool wants(std::uint64_t line) const override { return line == m_line && m_open; }
    // A request for the line is being served by its home: counts a transaction.
    void served() override {
        if (m_left == 0) m_open = false;
        else --m_left;
    }
    void note(duration t, const std::string& text) override;
    std::uint64_t line() const { return m_line; }
    // The sequence, one message per line.
    std::string text() const;

private:
    std::uint64_t m_line;
    unsigned m_left;
    bool m_open = true;
    std::vector<std::string> m_lines;
};


}  // namespace cohsim
