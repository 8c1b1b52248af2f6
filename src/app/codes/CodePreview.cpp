#include "app/codes/CodePreview.h"

#include "app/codes/AccountListModel.h"
#include "otp/OtpGenerator.h"

#include <cmath>

namespace watchword::app {

CodePreview::CodePreview(QObject* parent) : QObject(parent) {}

void CodePreview::setNow(double now)
{
    if (now == m_now)
        return;
    const bool newSecond = std::floor(now) != std::floor(m_now);
    m_now = now;
    emit nowChanged();
    if (newSecond)
        update();
}

QString CodePreview::groupedCode() const
{
    return groupCode(m_code);
}

int CodePreview::secondsLeft() const
{
    if (!m_generator || m_code.isEmpty() || !m_generator->parameters().isTimeBased())
        return 0;
    return static_cast<int>(
        m_generator->secondsRemaining(static_cast<std::int64_t>(std::floor(m_now))));
}

void CodePreview::follow(const otp::OtpGenerator* generator)
{
    m_generator = generator;
    m_step = -1;
    update();
}

void CodePreview::update()
{
    QString code;
    if (m_generator) {
        const auto& parameters = m_generator->parameters();
        if (!parameters.isTimeBased()) {
            code = QString::fromStdString(m_generator->codeForCounter(parameters.counter));
        } else if (m_now >= 0) {
            const auto seconds = static_cast<std::int64_t>(std::floor(m_now));
            const auto step = static_cast<std::int64_t>(seconds / parameters.period);
            if (step == m_step) {
                code = m_code;
            } else if (auto computed = m_generator->codeForTime(seconds); computed) {
                code = QString::fromStdString(*computed);
                m_step = step;
            }
        }
    }
    // Emitted also when only the second changed: secondsLeft did.
    m_code = code;
    emit changed();
}

} // namespace watchword::app
