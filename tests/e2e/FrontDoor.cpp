#include "FrontDoor.h"

#include "app/vault/VaultController.h"
#include "crypto/Random.h"
#include "keychain/Keychain.h"
#include "vault/Calibration.h"
#include "vault/Storage.h"
#include "vault/Vault.h"

#include <QDateTime>
#include <QFile>
#include <QGuiApplication>
#include <QMutex>
#include <QQuickItem>
#include <QQuickWindow>
#include <QStandardPaths>
#include <QTest>
#include <QWheelEvent>
#include <cstdio>

namespace watchword::e2e {

namespace {

QMutex g_mutex;
QStringList g_messages;
QtMessageHandler g_previous = nullptr;

void trapMessage(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type == QtWarningMsg || type == QtCriticalMsg || type == QtFatalMsg) {
        const QMutexLocker lock(&g_mutex);
        g_messages << message;
    }
    // Printed as well: a failing run shows what was said, where.
    if (g_previous != nullptr)
        g_previous(type, context, message);
    else
        std::fprintf(stderr, "%s\n", qPrintable(message));
}

bool isVisible(const QQuickItem* item)
{
    for (const QQuickItem* at = item; at != nullptr; at = at->parentItem()) {
        if (!at->isVisible() || at->opacity() <= 0.0)
            return false;
    }
    return item->width() > 0 && item->height() > 0;
}

void visit(QQuickItem* item, const std::function<bool(QQuickItem*)>& visitor)
{
    if (item == nullptr || !item->isVisible())
        return;
    if (!visitor(item))
        return;
    const auto children = item->childItems();
    for (QQuickItem* child : children)
        visit(child, visitor);
}

// The item tree's root: the window's content and its overlay (popups,
// dialogs, menus).
QQuickItem* rootOf(QQuickWindow* window)
{
    QQuickItem* root = window->contentItem();
    while (root->parentItem() != nullptr)
        root = root->parentItem();
    return root;
}

QString textOf(const QQuickItem* item)
{
    const QVariant text = item->property("text");
    return text.typeId() == QMetaType::QString ? text.toString() : QString();
}

} // namespace

WarningTrap::WarningTrap()
{
    g_previous = qInstallMessageHandler(trapMessage);
}

WarningTrap::~WarningTrap()
{
    qInstallMessageHandler(g_previous);
    g_previous = nullptr;
}

QStringList WarningTrap::take()
{
    const QMutexLocker lock(&g_mutex);
    QStringList messages;
    messages.swap(g_messages);
    return messages;
}

FrontDoor::FrontDoor(const QString& vaultFile)
{
    m_clock.start();
    // A home of its own: file dialogs open here, the backup folder and the
    // settings live here, and nothing of the user's is read or written.
    qputenv("HOME", m_home.path().toUtf8());
    qputenv("XDG_CONFIG_HOME", m_home.filePath(QStringLiteral("config")).toUtf8());
    qputenv("XDG_DATA_HOME", m_home.filePath(QStringLiteral("data")).toUtf8());
    if (!vaultFile.isEmpty())
        QFile::copy(vaultFile, vaultPath());
}

FrontDoor::~FrontDoor()
{
    stop();
}

bool FrontDoor::start(bool demo)
{
    app::ShellOptions options;
    options.vaultPath = vaultPath();
    options.demo = demo;
    if (!demo)
        options.settingsFile = settingsPath();
    options.tray = false;
    options.desktopBus = false;
    QElapsedTimer sinceMain;
    sinceMain.start();
    m_shell = std::make_unique<app::AppShell>(std::move(options), sinceMain);
    if (!m_shell->load())
        return false;
    QQuickWindow* shown = window();
    shown->show();
    shown->requestActivate();
    if (!QTest::qWaitForWindowExposed(shown) || !QTest::qWaitForWindowActive(shown))
        return false;
    // The vault's first state is known at once; a frame or two for the page.
    settle(100);
    return true;
}

void FrontDoor::stop()
{
    m_shell.reset();
    // Deferred deletions and the last frames, inside the test that caused
    // them (their warnings count).
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    settle(20);
}

QQuickWindow* FrontDoor::window() const
{
    return m_shell ? m_shell->window() : nullptr;
}

QQuickItem* FrontDoor::byName(const QString& objectName) const
{
    QQuickItem* found = nullptr;
    visit(rootOf(window()), [&](QQuickItem* item) {
        if (found != nullptr)
            return false;
        if (item->objectName() == objectName && isVisible(item)) {
            found = item;
            return false;
        }
        return true;
    });
    return found;
}

QQuickItem* FrontDoor::byText(const QString& text) const
{
    QQuickItem* found = nullptr;
    visit(rootOf(window()), [&](QQuickItem* item) {
        if (found != nullptr)
            return false;
        if (textOf(item) == text && isVisible(item)) {
            found = item;
            return false;
        }
        return true;
    });
    return found;
}

QList<QQuickItem*> FrontDoor::textsContaining(const QString& part) const
{
    QList<QQuickItem*> found;
    visit(rootOf(window()), [&](QQuickItem* item) {
        if (textOf(item).contains(part) && isVisible(item))
            found << item;
        return true;
    });
    return found;
}

QVariant FrontDoor::read(const QString& objectName, const char* property) const
{
    const QQuickItem* item = byName(objectName);
    if (item == nullptr) {
        qWarning("no visible item called %s on screen", qPrintable(objectName));
        return {};
    }
    return item->property(property);
}

QStringList FrontDoor::overlaps() const
{
    struct Shown
    {
        QQuickItem* item;
        QRectF rect;
        QString label;
        const QQuickItem* layer; // the popup it is drawn in; null: the page
        bool box;                // a control's box, not a text
    };
    std::vector<Shown> shown;
    QQuickItem* root = rootOf(window());
    QQuickItem* content = window()->contentItem();
    // The popup an item is drawn in, or null for the page.
    const auto layerOf = [&](QQuickItem* item) -> const QQuickItem* {
        for (QQuickItem* at = item; at != nullptr && at != content; at = at->parentItem()) {
            if (at->inherits("QQuickPopupItem"))
                return at;
        }
        return nullptr;
    };
    visit(root, [&](QQuickItem* item) {
        if (!isVisible(item) || item->opacity() < 0.05)
            return false;
        const bool text = item->inherits("QQuickText") || item->inherits("QQuickTextInput") ||
                          item->inherits("QQuickTextEdit");
        // A control's box: a text drawn over a field or a button is as wrong
        // as one drawn over another text.
        const bool box = item->inherits("QQuickTextField") || item->inherits("QQuickTextArea") ||
                         item->inherits("QQuickAbstractButton") ||
                         item->inherits("QQuickComboBox") || item->inherits("QQuickSpinBox");
        if (box) {
            shown.push_back({item,
                             item->mapRectToScene(QRectF(0, 0, item->width(), item->height())),
                             QString::fromLatin1(item->metaObject()->className())
                                     .section(QLatin1Char('_'), 0, 0) +
                                 QLatin1Char(' ') + item->objectName(),
                             layerOf(item), true});
        }
        if (text && !box && !textOf(item).trimmed().isEmpty()) {
            // What a text paints: its content, wherever it runs over its item.
            const double contentHeight = item->property("contentHeight").toDouble();
            const double contentWidth = item->property("contentWidth").toDouble();
            QRectF local(0, 0, item->width(), std::max(item->height(), contentHeight));
            if (item->property("elide").toInt() == 0 && item->property("wrapMode").toInt() == 0)
                local.setWidth(std::max(item->width(), contentWidth));
            // One pixel more all round: descenders and antialiasing reach it, and
            // a text whose layout made no room for it touches what follows.
            shown.push_back({item, item->mapRectToScene(local).adjusted(-1, -1, 1, 1),
                             item->objectName() + QStringLiteral(" '") + textOf(item).left(40) +
                                 QLatin1Char('\''),
                             layerOf(item), false});
        }
        return true;
    });
    const auto related = [](QQuickItem* a, QQuickItem* b) {
        for (QQuickItem* at = a; at != nullptr; at = at->parentItem())
            if (at == b)
                return true;
        for (QQuickItem* at = b; at != nullptr; at = at->parentItem())
            if (at == a)
                return true;
        // Inside one control (a field's text and its placeholder, a button's
        // label): the control draws them, not the layout.
        QQuickItem* control = a->parentItem();
        return control != nullptr && control == b->parentItem() &&
               (control->inherits("QQuickControl") || control->inherits("QQuickTextInput"));
    };
    QStringList found;
    // A popup (menu, drop-down list, dialog) runs out of the window: the
    // window cuts it.
    const QRectF windowRect(0, 0, window()->width(), window()->height());
    visit(root, [&](QQuickItem* item) {
        if (!isVisible(item))
            return false;
        if (item->inherits("QQuickPopupItem")) {
            const QRectF rect = item->mapRectToScene(QRectF(0, 0, item->width(), item->height()));
            if (!windowRect.adjusted(-1, -1, 1, 1).contains(rect))
                found << QStringLiteral("popup %1 at %2,%3 %4x%5 runs out of the window %6x%7")
                             .arg(item->objectName())
                             .arg(rect.x())
                             .arg(rect.y())
                             .arg(rect.width())
                             .arg(rect.height())
                             .arg(windowRect.width())
                             .arg(windowRect.height());
        }
        return true;
    });
    // A wrapped text taller than the place its layout gave it runs over
    // whatever comes next.
    for (const Shown& entry : shown) {
        if (entry.box || !entry.item->inherits("QQuickText"))
            continue;
        const double contentHeight = entry.item->property("contentHeight").toDouble();
        if (entry.item->property("wrapMode").toInt() != 0 &&
            entry.item->property("elide").toInt() == 0 && contentHeight > entry.item->height() + 1)
            found << entry.label + QStringLiteral(" needs %1 px, has %2")
                                       .arg(contentHeight)
                                       .arg(entry.item->height());
    }
    for (std::size_t i = 0; i < shown.size(); ++i)
        for (std::size_t j = i + 1; j < shown.size(); ++j) {
            const Shown& a = shown[i];
            const Shown& b = shown[j];
            if (a.layer != b.layer || (a.box && b.box) || related(a.item, b.item))
                continue;
            // Two texts may touch (a layout without spacing); a text and a
            // box may not.
            const bool touch = a.box || b.box;
            const QRectF first = touch ? a.rect : a.rect.adjusted(2, 2, -2, -2);
            const QRectF second = touch ? b.rect : b.rect.adjusted(2, 2, -2, -2);
            if (first.intersects(second))
                found << a.label + QStringLiteral(" over ") + b.label;
        }
    return found;
}

QQuickItem* FrontDoor::focused() const
{
    return window()->activeFocusItem();
}

void FrontDoor::scrollIntoView(QQuickItem* item)
{
    // As a person scrolls each scrolling area around the item until it shows.
    for (QQuickItem* at = item->parentItem(); at != nullptr; at = at->parentItem()) {
        if (!at->inherits("QQuickFlickable"))
            continue;
        const QRectF rect = item->mapRectToItem(at, QRectF(0, 0, item->width(), item->height()));
        double offset = 0;
        if (rect.bottom() > at->height())
            offset = rect.bottom() - at->height();
        if (rect.top() - offset < 0)
            offset = rect.top();
        if (offset != 0) {
            at->setProperty("contentY", at->property("contentY").toDouble() + offset);
            settle(20);
        }
    }
}

void FrontDoor::click(QQuickItem* item, Qt::MouseButton button)
{
    if (item == nullptr) {
        QTest::qFail("click: no such item on screen", __FILE__, __LINE__);
        return;
    }
    scrollIntoView(item);
    clickAt(item->mapToScene(QPointF(item->width() / 2, item->height() / 2)), button);
}

void FrontDoor::clickAt(QPointF scenePoint, Qt::MouseButton button)
{
    QTest::mouseClick(window(), button, Qt::NoModifier, scenePoint.toPoint());
    settle();
}

void FrontDoor::wheel(QQuickItem* item, int notches)
{
    if (item == nullptr) {
        QTest::qFail("wheel: no such item on screen", __FILE__, __LINE__);
        return;
    }
    const QPointF local = item->mapToScene(QPointF(item->width() / 2, item->height() / 2));
    const QPointF global = window()->mapToGlobal(local);
    // One notch at a time, as a wheel turns (120 eighths of a degree each).
    for (int i = 0; i < std::abs(notches); ++i) {
        QWheelEvent event(local, global, QPoint(), QPoint(0, notches < 0 ? -120 : 120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        // A time that moves on, as a real device's does: Flickable reads the
        // wheel's speed from it. A steady 40 ms a notch, whatever the time
        // the test itself takes: a busy machine must not make the wheel slow.
        m_wheelTime =
            i == 0 ? std::max(m_wheelTime + 40, quint64(m_clock.elapsed())) : m_wheelTime + 40;
        event.setTimestamp(m_wheelTime);
        QGuiApplication::sendEvent(window(), &event);
        settle(20);
    }
    settle();
}

void FrontDoor::key(int key, Qt::KeyboardModifiers modifiers)
{
    QTest::keyClick(window(), Qt::Key(key), modifiers);
    settle();
}

void FrontDoor::type(const QString& text)
{
    // Each character as a key press that carries it, as a keyboard layout
    // sends it (QTest has no keyClicks for a window in Qt 6.4).
    for (const QChar character : text) {
        const char latin = character.toLatin1();
        if (character.unicode() < 0x80 && latin != 0) {
            QTest::keyClick(window(), latin);
        } else {
            QTest::sendKeyEvent(QTest::Press, window(), Qt::Key_unknown, QString(character),
                                Qt::NoModifier);
            QTest::sendKeyEvent(QTest::Release, window(), Qt::Key_unknown, QString(character),
                                Qt::NoModifier);
        }
    }
    settle();
}

void FrontDoor::resize(int width, int height)
{
    window()->resize(width, height);
    settle(200);
}

void FrontDoor::settle(int milliseconds)
{
    QTest::qWait(milliseconds);
}

bool FrontDoor::waitFor(const std::function<bool()>& predicate, int timeout)
{
    QElapsedTimer waited;
    waited.start();
    while (!predicate()) {
        if (waited.elapsed() > timeout)
            return false;
        QTest::qWait(20);
    }
    return true;
}

namespace {

// A vault with FrontDoor::password() and no accounts at file; the KDF at its
// floor (the tests are about the window, not the KDF). Empty on failure.
SharedVault makeVault(const QString& file)
{
    SharedVault result;
    const vault::Calibration floor;
    auto keychain = keychain::Keychain::create(crypto::systemRandom(), 24);
    const QByteArray password = FrontDoor::password().toUtf8();
    const ByteView passwordBytes(reinterpret_cast<const std::uint8_t*>(password.constData()),
                                 std::size_t(password.size()));
    const std::int64_t now = QDateTime::currentSecsSinceEpoch();
    if (!keychain)
        return result;
    auto created =
        vault::Vault::create(passwordBytes, *keychain, floor, crypto::systemRandom(), now);
    if (!created)
        return result;
    auto bytes = created->serialize(crypto::systemRandom(), now);
    if (!bytes)
        return result;
    auto storage = vault::VaultStorage::create(file.toStdString(), *bytes, crypto::systemRandom());
    if (!storage)
        return result;
    result.file = file;
    result.phrase = QString::fromUtf8(keychain->mnemonic().view().data(),
                                      qsizetype(keychain->mnemonic().view().size()));
    return result;
}

const QTemporaryDir& vaultFolder()
{
    static const QTemporaryDir folder;
    return folder;
}

} // namespace

const SharedVault& sharedVault()
{
    static const SharedVault made = makeVault(vaultFolder().filePath(QStringLiteral("shared.wwv")));
    return made;
}

const SharedVault& otherPersonsVault()
{
    static const SharedVault made = makeVault(vaultFolder().filePath(QStringLiteral("other.wwv")));
    return made;
}

} // namespace watchword::e2e
