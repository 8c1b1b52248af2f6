// WinAuth's export (docs/FORMAT.md section 9): a text file of otpauth://
// URIs, one a line ("otpauth://totp/Name?secret=...&digits=6&icon=WinAuth"),
// either as it is or as the one file of a ZIP archive, encrypted with the
// password the user gave (WinAuth writes traditional PKWARE encryption).
// Authenticator Plus's export is the same kind of archive (Accounts.txt).
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/ZipArchive.h"

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "winauth";

} // namespace

bool isWinAuthArchive(const std::vector<ZipFile>& files)
{
    if (files.size() != 1)
        return false;
    const std::string_view name = files.front().name;
    return name.size() > 4 && startsWithFolded(name.substr(name.size() - 4), ".txt");
}

bool winAuthEncrypted(ByteView data)
{
    const auto files = zipFiles(data);
    return files && files->size() == 1 && files->front().encrypted;
}

ImportResult<Imported> importWinAuth(ByteView data, Password password)
{
    if (auto sized = checkSize(formatLabel, data); !sized)
        return sized.failure();
    if (!isZipArchive(data))
        return importUriLines(formatLabel, Format::WinAuth, data);
    auto text = readZipFile(formatLabel, data, {}, "WinAuth's holds one", password);
    if (!text)
        return text.failure();
    return importUriLines(formatLabel, Format::WinAuth, text->span());
}

} // namespace watchword::importers::detail
