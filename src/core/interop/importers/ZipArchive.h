// ZIP archives of other apps' exports (WinAuth's, Authenticator Plus's,
// Raivo's), read from memory by libzip: deflated or stored, and encrypted
// with the archive password (traditional PKWARE or WinZip AES) or not. A
// file is read straight into a wiped buffer, no larger than the archive
// says it is. Internal to importers/.
#pragma once

#include "interop/importers/Formats.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::importers::detail {

bool isZipArchive(ByteView data) noexcept;

struct ZipFile
{
    std::string name;
    bool encrypted = false;
};

// The files of the archive data (directories aside), in order; nullopt if
// data is not a ZIP archive libzip reads. For the quick checks, which must
// not fail.
std::optional<std::vector<ZipFile>> zipFiles(ByteView data);

// The file called name in the archive data (empty name: its one file, which
// must be alone), decrypted with password if it is encrypted. Errors name
// format: PasswordRequired; WrongPassword (also when a wrong password passes
// traditional encryption's check byte and the inflate or CRC-32 then fails:
// the two cannot be told apart); Malformed for a damaged archive, one
// without that file or, with no name, with more than one ("<format>: the
// archive holds more than one file; <expected>"); Unsupported for an
// encryption or compression libzip does not read; TooLarge over
// maximumImportBytes.
[[nodiscard]] ImportResult<SecureBuffer> readZipFile(std::string_view format, ByteView data,
                                                     std::string_view name,
                                                     std::string_view expected, Password password);

} // namespace watchword::importers::detail
