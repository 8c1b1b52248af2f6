#include "crypto/Random.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sys/random.h>

namespace watchword::crypto {

void SystemRandom::fill(std::span<std::uint8_t> out)
{
    std::size_t done = 0;
    while (done < out.size()) {
        const ssize_t got = getrandom(out.data() + done, out.size() - done, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            // No randomness means no keys we could trust: stop, loudly.
            std::fputs("watchword: getrandom(2) failed; refusing to continue without a CSPRNG\n",
                       stderr);
            std::abort();
        }
        done += static_cast<std::size_t>(got);
    }
}

RandomSource& systemRandom()
{
    static SystemRandom source;
    return source;
}

} // namespace watchword::crypto
