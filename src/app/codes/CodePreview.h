// The code an account being added or edited would show now: the form's
// "Code now". It follows the clock (now) and the draft's generator, which
// the draft hands it while its fields are valid; a new code is computed only
// when the time step changes (two hash compressions), so following the clock
// costs almost nothing. It holds no secret: a generator's key is the
// draft's.
#pragma once

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>
#include <cstdint>

namespace watchword::otp {
class OtpGenerator;
}

namespace watchword::app {

class CodePreview : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the preview is AccountDraft's")
    // Unix seconds (fractional, as the app's Clock gives them).
    Q_PROPERTY(double now READ now WRITE setNow NOTIFY nowChanged)
    // The code at now (HOTP: at the counter), plain and grouped for reading;
    // empty while the draft is not valid.
    Q_PROPERTY(QString code READ code NOTIFY changed)
    Q_PROPERTY(QString groupedCode READ groupedCode NOTIFY changed)
    // Seconds the code stays valid; 0 for HOTP and while there is none.
    Q_PROPERTY(int secondsLeft READ secondsLeft NOTIFY changed)

public:
    explicit CodePreview(QObject* parent = nullptr);

    double now() const { return m_now; }
    void setNow(double now);
    const QString& code() const { return m_code; }
    QString groupedCode() const;
    int secondsLeft() const;

    // The generator to follow (the draft's, valid until the next call), or
    // null when the draft is not valid; the code is computed again.
    void follow(const otp::OtpGenerator* generator);

signals:
    void nowChanged();
    // The code or the seconds left changed.
    void changed();

private:
    void update();

    const otp::OtpGenerator* m_generator = nullptr; // not owned
    double m_now = 0;
    std::int64_t m_step = -1; // the time step of m_code (time-based kinds)
    QString m_code;
};

} // namespace watchword::app
