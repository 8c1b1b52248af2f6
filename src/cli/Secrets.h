// watchword-cli: secrets typed at a hidden prompt or read from stdin, for
// the commands that need them (vault, watch export).
#pragma once

#include "Cli.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"

#include <string>
#include <string_view>
#include <vector>

namespace watchword::cli {

// Reads one line from the terminal with echo off. The terminal settings are
// restored before returning, whatever happens, and if a signal ends the
// process at the prompt.
Result<SecureBuffer, std::string> promptHidden(std::string_view prompt);

// Where the secrets of one command come from: stdin lines or the terminal.
class SecretSource
{
public:
    // With fromStdin, reads all stdin lines the command needs at once.
    static Result<SecretSource, std::string>
    make(bool fromStdin, std::size_t lineCount,
         std::string_view help = "watchword-cli vault --help")
    {
        SecretSource source;
        source.m_fromStdin = fromStdin;
        source.m_help = help;
        if (fromStdin) {
            auto input = readStdinLines(lineCount + 1);
            if (!input.error.empty())
                return fail(std::move(input.error));
            if (input.lines.size() > lineCount) {
                // Appended piece by piece: g++ 12 at -O3 misreports
                // "literal" + std::string as an overlapping copy (-Wrestrict).
                std::string error = "standard input has more than ";
                error += std::to_string(lineCount);
                error += lineCount == 1 ? " line (see " : " lines (see ";
                error += help;
                error += ")";
                return fail(std::move(error));
            }
            source.m_lines = std::move(input.lines);
        }
        return source;
    }

    bool fromStdin() const { return m_fromStdin; }

    // The next stdin line (named what in errors) or the answer to prompt.
    Result<SecureBuffer, std::string> next(std::string_view what, std::string_view prompt)
    {
        if (!m_fromStdin)
            return promptHidden(prompt);
        if (m_next >= m_lines.size())
            return fail("standard input ends before " + std::string(what) + " (line " +
                        std::to_string(m_next + 1) + "; see " + m_help + ")");
        return std::move(m_lines[m_next++]);
    }

private:
    bool m_fromStdin = false;
    std::string m_help;
    std::vector<SecureBuffer> m_lines;
    std::size_t m_next = 0;
};

} // namespace watchword::cli
