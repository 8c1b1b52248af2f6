#include "app/diagnostics/DiagnosticsController.h"

#include "app/common/Notify.h"

#include <QtGlobal>

namespace watchword::app {

namespace {

QString fromStd(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

DiagnosticsController::DiagnosticsController(QObject* parent)
    : QObject(parent), m_benchmarks(perf::catalogue()), m_run(*this), m_baselines(*this),
      m_reports(*this)
{
    m_choices.setBenchmarks(m_benchmarks);
    connect(&m_run, &BenchmarkRun::runningChanged, this, &DiagnosticsController::updateBusy);
    connect(&m_baselines, &Baselines::comparingChanged, this, &DiagnosticsController::updateBusy);
    connect(&m_run, &BenchmarkRun::started, &m_baselines, &Baselines::forgetComparison);
}

DiagnosticsController::~DiagnosticsController() = default;

void DiagnosticsController::setBenchmarks(std::vector<perf::Benchmark> benchmarks)
{
    if (busy())
        return;
    m_benchmarks = std::move(benchmarks);
    m_choices.setBenchmarks(m_benchmarks);
    m_results.clear();
    resultsChanged();
}

const perf::MachineInfo& DiagnosticsController::machine() const
{
    if (!m_machine)
        m_machine = perf::currentMachine(qVersion());
    return *m_machine;
}

QVariantMap DiagnosticsController::systemInfo() const
{
    const perf::MachineInfo& info = machine();
    return {{QStringLiteral("cpuModel"), fromStd(info.cpuModel)},
            {QStringLiteral("logicalCpus"), info.logicalCpus},
            {QStringLiteral("shaNi"), info.shaNi},
            {QStringLiteral("aesNi"), info.aesNi},
            {QStringLiteral("os"), fromStd(info.os)},
            {QStringLiteral("kernel"), fromStd(info.kernel)},
            {QStringLiteral("compiler"), fromStd(info.compiler)},
            {QStringLiteral("buildType"), fromStd(info.buildType)},
            {QStringLiteral("openssl"), fromStd(info.openssl)},
            {QStringLiteral("secp256k1"), fromStd(info.secp256k1)},
            {QStringLiteral("qt"), fromStd(info.qt)},
            {QStringLiteral("line"), fromStd(perf::machineLine(info))}};
}

perf::Report DiagnosticsController::report() const
{
    const perf::Profile& profile = m_run.resultsProfile();
    perf::Report report;
    report.machine = machine();
    report.machine.harness =
        "Criterion-model runner (Diagnostics view), " + profile.name + " profile";
    report.profile = profile;
    report.measurements = m_results.measurements();
    if (!m_baselines.comparedWith().isEmpty()) {
        report.baselineName = m_baselines.comparedWith().toStdString();
        report.changes = m_baselines.changes();
    }
    return report;
}

void DiagnosticsController::resultsChanged()
{
    m_comparisons.update(m_results.typicalTimes());
}

void DiagnosticsController::updateBusy()
{
    assignAndNotify(this, m_busy, m_run.running() || m_baselines.comparing(),
                    &DiagnosticsController::busyChanged);
}

void DiagnosticsController::setStatusText(QString text)
{
    assignAndNotify(this, m_statusText, std::move(text), &DiagnosticsController::statusTextChanged);
}

void DiagnosticsController::setError(QString error)
{
    assignAndNotify(this, m_error, std::move(error), &DiagnosticsController::errorChanged);
}

void DiagnosticsController::clearError()
{
    setError({});
}

} // namespace watchword::app
