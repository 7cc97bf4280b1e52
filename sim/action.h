// An action for the event queue: a callable whose captures live inside it, so
// scheduling a message allocates nothing (a std::function with more than two
// pointers of captures would allocate, and free, once per message). The
// captures must be plain data (pointers, numbers, plain structs): the action is
// copied byte for byte, and never destroyed.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>

namespace cohsim {

class action {
public:
    static constexpr std::size_t capacity = 48;  // bytes of captures: a pointer and a request message

    action() = default;
    template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, action>>>
    action(F f) {  // NOLINT: implicit, like std::function
        set(f);
    }
    // Becomes `f` (built in place: no copy of the whole buffer).
    template <class F>
    void set(const F& f) {
        static_assert(sizeof(F) <= capacity, "an event-queue action captures at most 48 bytes");
        static_assert(alignof(F) <= alignof(std::max_align_t), "an event-queue action's captures are over-aligned");
        static_assert(std::is_trivially_copyable_v<F> && std::is_trivially_destructible_v<F>,
                      "an event-queue action captures plain data only (pointers, numbers, plain structs)");
        ::new (static_cast<void*>(m_buf)) F(f);
        m_call = [](void* p) { (*static_cast<F*>(p))(); };
    }
    void operator()() { m_call(m_buf); }

private:
    void (*m_call)(void*) = nullptr;
    alignas(std::max_align_t) unsigned char m_buf[capacity];
};

}  // namespace cohsim
