// The one way a fuzz target reports a broken property: a message on stderr,
// then abort(), which libFuzzer treats as a crash and saves the input for.
// Sanitizer reports and crashes inside the code under test need nothing here.
#pragma once

#include "base/Bytes.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace watchword::fuzz {

[[noreturn]] inline void propertyBroken(const std::string& what)
{
    std::fprintf(stderr, "\n== property broken: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

// what is a literal: building a std::string for every check that holds
// would slow each run down.
inline void expect(bool holds, const char* what)
{
    if (!holds)
        propertyBroken(what);
}

// Byte-for-byte equality of two ranges of any lengths.
inline bool equalBytes(ByteView a, ByteView b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

} // namespace watchword::fuzz
