// Text from the core (UTF-8 in std::string, messages and labels) as a
// QString, the one conversion the app and the CLI share.
#pragma once

#include <QString>
#include <string_view>

namespace watchword::text {

[[nodiscard]] inline QString fromCore(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace watchword::text
