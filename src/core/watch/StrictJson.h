// Strict JSON for the watch's files (device profiles, export payloads): no
// comments, nothing after the value, and a key given twice in one object is
// noted (nlohmann would silently keep the last one). Internal to watch/.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::watch::detail {

// Parses text; throws nlohmann::json::exception if it is not JSON. repeated
// is set to the first key that appears twice in one object (left empty if
// none does).
inline nlohmann::json parseStrictJson(std::string_view text, std::string& repeated)
{
    using Json = nlohmann::json;
    std::vector<std::set<std::string>> open;
    auto noteRepeats = [&](int, Json::parse_event_t event, Json& parsed) {
        if (event == Json::parse_event_t::object_start)
            open.emplace_back();
        else if (event == Json::parse_event_t::object_end && !open.empty())
            open.pop_back();
        else if (event == Json::parse_event_t::key && !open.empty() &&
                 !open.back().insert(parsed.get<std::string>()).second && repeated.empty())
            repeated = parsed.get<std::string>();
        return true;
    };
    return Json::parse(text.begin(), text.end(), noteRepeats, /*allow_exceptions=*/true,
                       /*ignore_comments=*/false);
}

} // namespace watchword::watch::detail
