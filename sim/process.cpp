#include "sim/process.h"

#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>

#include <stdexcept>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define COHSIM_ASAN 1
#endif

namespace cohsim {

namespace ctx = boost::context;

namespace {
process* g_current = nullptr;
// Thrown from suspend() into a process being destroyed: its stack unwinds
// (destructors run) on its own stack, with every switch announced to the
// sanitizers. Not a std::exception: nothing the models catch can swallow it.
struct process_exit {};
// A core's program is shallow; the sanitizers' frames are larger.
#ifdef COHSIM_ASAN
constexpr std::size_t stack_bytes = 1024 * 1024;
#else
constexpr std::size_t stack_bytes = 256 * 1024;
#endif

// AddressSanitizer must be told about every switch of stacks.
void start_switch(void** fake, const void* bottom, std::size_t size) {
#ifdef COHSIM_ASAN
    __sanitizer_start_switch_fiber(fake, bottom, size);
#else
    (void)fake, (void)bottom, (void)size;
#endif
}
void finish_switch(void* fake, const void** bottom, std::size_t* size) {
#ifdef COHSIM_ASAN
    __sanitizer_finish_switch_fiber(fake, bottom, size);
#else
    (void)fake, (void)bottom, (void)size;
#endif
}
}  // namespace

struct process::impl {
    ctx::protected_fixedsize_stack alloc{stack_bytes};
    ctx::stack_context stack;
    ctx::fiber self;    // the process, while it is not running
    ctx::fiber caller;  // the scheduler, while the process runs
    const void* caller_bottom = nullptr;
    std::size_t caller_size = 0;
    const void* bottom() const { return static_cast<const char*>(stack.sp) - stack.size; }
};

process::process(std::string name, std::function<void()> body)
    : m_name(std::move(name)), m_body(std::move(body)), m(std::make_unique<impl>()) {
    m->stack = m->alloc.allocate();
    m->self = ctx::fiber{std::allocator_arg, ctx::preallocated(m->stack.sp, m->stack.size, m->stack), m->alloc,
                         [this](ctx::fiber&& caller) {
                             finish_switch(nullptr, &m->caller_bottom, &m->caller_size);
                             m->caller = std::move(caller);
                             try {
                                 if (!m_exiting) m_body();  // destroyed before it ever ran: nothing to do
                             } catch (const process_exit&) {
                                 // destroyed while waiting: unwound
                             } catch (const ctx::detail::forced_unwind&) {
                                 throw;
                             } catch (...) {
                                 m_error = std::current_exception();
                             }
                             m_finished = true;
                             start_switch(nullptr, m->caller_bottom, m->caller_size);
                             return std::move(m->caller);
                         }};
}

process::~process() {
    // A process still waiting (a core idling forever) unwinds its stack now.
    if (m && m->self && !m_finished) {
        m_exiting = true;
        try {
            resume();
        } catch (...) {  // an error while unwinding has nowhere to go
        }
    }
}

void process::resume() {
    if (m_finished) throw std::logic_error("process " + m_name + " resumed after it finished");
    process* outer = g_current;
    g_current = this;
    void* fake = nullptr;
    start_switch(&fake, m->bottom(), m->stack.size);
    m->self = std::move(m->self).resume();
    finish_switch(fake, nullptr, nullptr);
    g_current = outer;
    if (m_error) std::rethrow_exception(std::exchange(m_error, nullptr));
}

void process::suspend() {
    process* p = g_current;
    if (!p) throw std::logic_error("process::suspend outside a process");
    void* fake = nullptr;
    start_switch(&fake, p->m->caller_bottom, p->m->caller_size);
    p->m->caller = std::move(p->m->caller).resume();
    finish_switch(fake, &p->m->caller_bottom, &p->m->caller_size);
    if (p->m_exiting) throw process_exit{};
}

process* process::current() { return g_current; }

}  // namespace cohsim
