// An action for the event queue: a callable whose captures live inside it, so
// scheduling a message allocates nothing (a std::function with more than two
// pointers of captures would allocate, and free, once per message). The
// captures must be plain data (pointers, numbers, plain structs): the action is
// copied byte for byte, and never destroyed. basic_action<Args...> is the same
// for a callable that takes arguments (an access's completion, which the
// memory system hands on from the core to its L1 and back: moved for
// nothing, as a std::function's manager would be on every hand-over).
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>

namespace cohsim {

template <class... Args>
class basic_action {
public:
    static constexpr std::size_t capacity = 48;  // bytes of captures: a pointer and a request message

    basic_action() = default;
    template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, basic_action>>>
    basic_action(F f) {  // NOLINT: implicit, like std::function
        set(f);
    }
    // Becomes `f` (built in place: no copy of the whole buffer).
    template <class F>
    void set(const F& f) {
        static_assert(sizeof(F) <= capacity, "an action captures at most 48 bytes");
        static_assert(alignof(F) <= alignof(std::max_align_t), "an action's captures are over-aligned");
        static_assert(std::is_trivially_copyable_v<F> && std::is_trivially_destructible_v<F>,
                      "an action captures plain data only (pointers, numbers, plain structs)");
        ::new (static_cast<void*>(m_buf)) F(f);
        m_call = [](void* p, Args... a) { (*static_cast<F*>(p))(a...); };
    }
    void operator()(Args... a) { m_call(m_buf, a...); }

private:
    void (*m_call)(void*, Args...) = nullptr;
    alignas(std::max_align_t) unsigned char m_buf[capacity];
};

using action = basic_action<>;

}  // namespace cohsim
