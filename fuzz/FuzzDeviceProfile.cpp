// Fuzz target: a watch device profile (watch::parseDevice). Profiles are
// shipped data, but a user may add or edit one, so the loader must refuse
// anything malformed with an error naming the file and the field, and never
// crash or hand back a profile outside the documented ranges.
#include "FuzzCheck.h"
#include "watch/Device.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace watchword;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto device = watch::parseDevice(text, "fuzz.json");
    if (!device) {
        fuzz::expect(device.error().message.starts_with("fuzz.json: "),
                     "an error must name the file first");
        return 0;
    }
    fuzz::expect(!device->id.empty(), "a profile that loads has an id");
    return 0;
}
