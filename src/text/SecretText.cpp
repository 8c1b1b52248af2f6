#include "text/SecretText.h"

#include <QByteArray>
#include <QStringDecoder>

namespace watchword::text {

void wipe(QString& text)
{
    // data() detaches a shared string first: only this copy is wiped then.
    if (!text.isEmpty())
        secureWipe(text.data(), static_cast<std::size_t>(text.size()) * sizeof(QChar));
    text.clear();
}

namespace {

SecureBuffer normalizedUtf8(const QString& decoded,
                            QString::NormalizationForm form = QString::NormalizationForm_KD)
{
    QString normalized = decoded.normalized(form);
    QByteArray utf8 = normalized.toUtf8();
    SecureBuffer result(ByteView(reinterpret_cast<const std::uint8_t*>(utf8.constData()),
                                 static_cast<std::size_t>(utf8.size())));
    secureWipe(utf8.data(), static_cast<std::size_t>(utf8.size()));
    wipe(normalized);
    return result;
}

} // namespace

Result<SecureBuffer, std::string> normalizeSecretText(const SecureBuffer& text,
                                                      std::string_view what)
{
    const QByteArray raw = QByteArray::fromRawData(reinterpret_cast<const char*>(text.data()),
                                                   static_cast<qsizetype>(text.size()));
    // A leading U+FEFF is part of the secret, not a byte-order mark to drop.
    QStringDecoder decoder(QStringConverter::Utf8, QStringConverter::Flag::ConvertInitialBom |
                                                       QStringConverter::Flag::Stateless);
    QString decoded = decoder.decode(raw);
    if (decoder.hasError()) {
        wipe(decoded);
        return fail(std::string(what) + " is not valid UTF-8");
    }
    SecureBuffer result = normalizedUtf8(decoded);
    wipe(decoded);
    return result;
}

SecureBuffer normalizeSecretText(QString& text)
{
    SecureBuffer result = normalizedUtf8(text);
    wipe(text);
    return result;
}

SecureBuffer composedText(QString& text)
{
    SecureBuffer result = normalizedUtf8(text, QString::NormalizationForm_C);
    wipe(text);
    return result;
}

} // namespace watchword::text
