// Fuzz target: a watch export payload opened as the watch would
// (watch::openExport over the native-primitives interface), with the PIN of
// the seed payloads. Anyone can hand a watch a payload, so a damaged or
// hostile one must be refused with a message, never crash, never read out of
// bounds, and never open with a tampered account.
#include "FuzzCheck.h"
#include "watch/WatchOpener.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace watchword;
    // The seeds (fuzz/corpus/fuzz-watch-payload) were written with this PIN
    // and the floor's 2,000 rounds, so mutations past the slot reach the
    // records.
    static watch::OpenSslPrimitives primitives;
    const std::string_view payload(reinterpret_cast<const char*>(data), size);
    const auto opened = watch::openExport(payload, "482916", primitives);
    if (!opened) {
        fuzz::expect(!opened.error().message.empty(), "a refusal says why");
        return 0;
    }
    for (const auto& account : opened->accounts)
        fuzz::expect(!account.secret.empty(), "an opened account has a secret");
    return 0;
}
