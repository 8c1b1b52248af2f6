// Errors are values: a fallible core function returns Result<T, E>, holding
// either the value or an error. E is usually Error<SomeCode>, a typed code for
// the program and a sentence for the person.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace watchword {

// A typed error code with a human sentence. The code is for callers that
// branch; the message is what the user is shown, never a substitute for data.
template <typename Code> struct Error
{
    Code code;
    std::string message;
};

// Wraps an error so it can be returned where a Result is expected.
template <typename E> struct Failure
{
    E error;
};

template <typename E> [[nodiscard]] Failure<std::decay_t<E>> fail(E&& error)
{
    return {std::forward<E>(error)};
}

template <typename Code> [[nodiscard]] Failure<Error<Code>> fail(Code code, std::string message)
{
    return {Error<Code>{code, std::move(message)}};
}

template <typename T, typename E> class [[nodiscard]] Result
{
public:
    Result(T value) : m_storage(std::in_place_index<0>, std::move(value)) {}
    Result(Failure<E> failure) : m_storage(std::in_place_index<1>, std::move(failure.error)) {}

    bool ok() const { return m_storage.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() &
    {
        assert(ok());
        return std::get<0>(m_storage);
    }
    const T& value() const&
    {
        assert(ok());
        return std::get<0>(m_storage);
    }
    T&& value() &&
    {
        assert(ok());
        return std::get<0>(std::move(m_storage));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const E& error() const
    {
        assert(!ok());
        return std::get<1>(m_storage);
    }

private:
    std::variant<T, E> m_storage;
};

template <typename E> class [[nodiscard]] Result<void, E>
{
public:
    Result() = default;
    Result(Failure<E> failure) : m_error(std::move(failure.error)) {}

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }

    const E& error() const
    {
        assert(!ok());
        return *m_error;
    }

private:
    std::optional<E> m_error;
};

} // namespace watchword
