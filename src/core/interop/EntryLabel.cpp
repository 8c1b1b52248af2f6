#include "interop/EntryLabel.h"

namespace watchword::interop {

std::string entryLabel(std::size_t index, std::string_view issuer, std::string_view accountName)
{
    std::string label = "entry " + std::to_string(index + 1);
    const std::string_view shown = issuer.empty() ? accountName : issuer;
    if (!shown.empty())
        label.append(" (").append(shown).append(")");
    return label;
}

} // namespace watchword::interop
