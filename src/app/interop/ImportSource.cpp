#include "app/interop/ImportSource.h"

#include "base/SecureBuffer.h"

#include <algorithm>
#include <utility>

namespace watchword::app {

ImportSource::ImportSource(QObject* parent) : QObject(parent) {}

ImportSource::~ImportSource() = default;

QStringList ImportSource::formatTitles() const
{
    QStringList titles;
    for (const auto format : m_formats)
        titles << QString::fromUtf8(importers::formatTitle(format));
    return titles;
}

QString ImportSource::knownFormats()
{
    // The apps first; a plain otpauth:// list last.
    QStringList titles;
    for (const auto format : importers::allFormats)
        if (format != importers::Format::OtpauthList)
            titles << QString::fromUtf8(importers::formatTitle(format));
    return tr("%1 and %2")
        .arg(titles.join(QStringLiteral(", ")),
             QString::fromUtf8(importers::formatTitle(importers::Format::OtpauthList)));
}

void ImportSource::setFormatIndex(int index)
{
    if (index < 0 || index >= int(m_formats.size()) || index == m_formatIndex)
        return;
    m_formatIndex = index;
    emit formatChanged();
    emit formatChosen();
}

bool ImportSource::needsPassword() const
{
    return m_data && !m_formats.empty() && importers::isEncrypted(format(), m_data->span());
}

void ImportSource::load(std::unique_ptr<SecureBuffer> data, const QString& name,
                        importers::CompanionFiles companions)
{
    m_formats = importers::guessFormats(data->span());
    m_guessed = int(m_formats.size());
    for (const auto format : importers::allFormats)
        if (std::find(m_formats.begin(), m_formats.end(), format) == m_formats.end())
            m_formats.push_back(format);
    m_formatIndex = 0;
    m_name = name;
    m_data = std::move(data);
    m_companions = std::move(companions);
    emit changed();
    emit formatChanged();
}

void ImportSource::clear()
{
    m_data.reset();
    m_companions = {};
    m_formats.clear();
    m_guessed = 0;
    m_formatIndex = 0;
    m_name.clear();
    emit changed();
    emit formatChanged();
}

void ImportSource::dropData()
{
    m_data.reset();
    emit formatChanged();
}

QString ImportSource::unrecognisedHint() const
{
    return m_data ? QString::fromUtf8(importers::describeUnrecognised(m_data->span())) : QString();
}

} // namespace watchword::app
