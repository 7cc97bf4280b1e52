// A model process: code with its own stack (a core's program) that the event
// queue runs, and that gives control back whenever it waits. It is what a
// SystemC thread would be, without the SystemC kernel: resuming one is a
// switch of stacks (~12 ns here, Boost.Context's fcontext), not a kernel
// activation, and the event queue decides exactly when each runs (see
// event_queue.h), so a whole stretch of simulated time can pass in one
// activation of the queue.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <utility>

namespace cohsim {

class process {
public:
    process(std::string name, std::function<void()> body);
    ~process();  // a process still waiting is unwound (its stack's destructors run)
    process(const process&) = delete;
    process& operator=(const process&) = delete;

    const std::string& name() const { return m_name; }
    bool finished() const { return m_finished; }

    // From the scheduler: runs the process until it waits or its body
    // returns; an exception its body throws is thrown here.
    void resume();
    // From the process itself: gives control back to the scheduler.
    static void suspend();
    // The process running now, or null (the scheduler, or a SystemC process).
    static process* current();

    bool queued = false;  // in the event queue's ready list

private:
    struct impl;
    std::string m_name;
    std::function<void()> m_body;
    bool m_finished = false;
    bool m_exiting = false;  // being destroyed: suspend() unwinds
    std::exception_ptr m_error;
    std::unique_ptr<impl> m;
};

// What a process waits for (a core's memory answer, its wake-up). Like a
// SystemC event notified at once: notify() readies the process waiting on it,
// if any, and is forgotten otherwise.
struct signal {
    process* waiter = nullptr;
};

}  // namespace cohsim
