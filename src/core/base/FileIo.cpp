#include "base/FileIo.h"

#include <cerrno>
#include <unistd.h>

namespace watchword {

int writeAll(int descriptor, ByteView bytes) noexcept
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t written = ::write(descriptor, bytes.data() + done, bytes.size() - done);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        done += static_cast<std::size_t>(written);
    }
    return 0;
}

} // namespace watchword
