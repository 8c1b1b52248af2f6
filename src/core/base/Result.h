// Errors are values: a fallible core function returns Result<T, E>, holding
// either the value or an error. E is usually Error<SomeCode>, a typed code for
// the program and a sentence for the person.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
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

// How a failed Result passes its error up, the base of Result<T, E> and
// Result<void, E>:
//   return parsed.failure();                          // the same error
//   return parsed.failure(VaultError::Malformed);     // its message, another code
//   return parsed.failure(VaultError::Malformed, "record: "); // ... after a prefix
// failure() moves the error out unless the Result is const; call it last.
template <typename Self, typename E> class PassesErrorUp
{
public:
    [[nodiscard]] Failure<E> failure() { return {std::move(self().mutableError())}; }
    [[nodiscard]] Failure<E> failure() const { return {self().error()}; }

    // The message, between `before` and `after`, under another code.
    template <typename Code>
    [[nodiscard]] Failure<Error<Code>> failure(Code code, std::string before = {},
                                               std::string_view after = {}) const
    {
        before += self().error().message;
        before += after;
        return {Error<Code>{code, std::move(before)}};
    }

private:
    Self& self() { return static_cast<Self&>(*this); }
    const Self& self() const { return static_cast<const Self&>(*this); }
};

template <typename T, typename E> class [[nodiscard]] Result : public PassesErrorUp<Result<T, E>, E>
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
    friend PassesErrorUp<Result, E>;

    E& mutableError()
    {
        assert(!ok());
        return std::get<1>(m_storage);
    }

    std::variant<T, E> m_storage;
};

template <typename E> class [[nodiscard]] Result<void, E> : public PassesErrorUp<Result<void, E>, E>
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
    friend PassesErrorUp<Result, E>;

    E& mutableError()
    {
        assert(!ok());
        return *m_error;
    }

    std::optional<E> m_error;
};

} // namespace watchword
