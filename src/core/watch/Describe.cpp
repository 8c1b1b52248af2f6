#include "watch/Describe.h"

#include "encoding/Decimal.h"

namespace watchword::watch {

std::string timeText(double milliseconds)
{
    std::string text = encoding::groupedNumber(milliseconds, milliseconds < 100 ? 2 : 0);
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0')
            text.pop_back();
        if (text.back() == '.')
            text.pop_back();
    }
    return text;
}

std::string millisecondsText(double milliseconds)
{
    return timeText(milliseconds) + " ms";
}

std::string spanText(const Span& milliseconds)
{
    if (milliseconds.low == milliseconds.high)
        return millisecondsText(milliseconds.low);
    return timeText(milliseconds.low) + " - " + millisecondsText(milliseconds.high);
}

std::string displayText(const Device& device)
{
    const auto& display = device.display;
    if (!display.technology)
        return "unknown";
    std::string text = display.technology == Technology::Mip      ? "MIP"
                       : display.technology == Technology::Amoled ? "AMOLED"
                                                                  : "LCD";
    if (display.colours)
        text += ", " + std::to_string(*display.colours) + " colours";
    else if (display.palette == Palette::Full)
        text += ", full colour";
    return text;
}

std::string resolutionText(const Device& device)
{
    const auto& display = device.display;
    if (!display.width || !display.height)
        return "unknown";
    return std::to_string(*display.width) + "x" + std::to_string(*display.height);
}

std::string memoryText(const Device& device)
{
    return device.appBytes ? std::to_string(*device.appBytes / 1024) + " KB" : "unknown";
}

} // namespace watchword::watch
