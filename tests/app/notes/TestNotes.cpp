// The notes' C++ side: the editor's draft, the store's changes and undo, and
// the filter that decides which notes show and which one is chosen.
#include "app/notes/NoteDraft.h"
#include "app/notes/NoteFilterModel.h"
#include "app/notes/NoteListModel.h"
#include "app/notes/NoteStore.h"
#include "app/vault/UndoHistory.h"
#include "app/vault/VaultController.h"

#include <QSignalSpy>
#include <QtTest>
#include <memory>

using watchword::app::NoteDraft;
using watchword::app::NoteFilterModel;
using watchword::app::NoteListModel;
using watchword::app::NoteStore;
using watchword::app::VaultController;

namespace {

// An in-memory vault with no notes but the ones a test adds.
struct Notes
{
    std::unique_ptr<VaultController> session = VaultController::makeDemo();
    NoteStore store{*session};

    bool open()
    {
        if (session->state() != VaultController::State::Unlocked) {
            QSignalSpy finished(session.get(), &VaultController::unlockFinished);
            if (!finished.wait(10'000))
                return false;
        }
        auto* model = store.model();
        while (model->rowCount() > 0)
            if (!store.remove(model->data(model->index(0), NoteListModel::IdRole).toString()))
                return false;
        session->history()->clear();
        return true;
    }

    QString add(const QString& title, const QString& body, const QString& tags = {})
    {
        NoteDraft draft;
        draft.setTitle(title);
        draft.setBody(body);
        draft.setTagsText(tags);
        return store.add(&draft);
    }
};

QStringList titles(const QAbstractItemModel& model)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out << model.data(model.index(row, 0), NoteListModel::TitleRole).toString();
    return out;
}

} // namespace

class TestNotes : public QObject
{
    Q_OBJECT

private slots:
    void draftTags_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QStringList>("tags");
        QTest::newRow("empty") << QString() << QStringList();
        QTest::newRow("one") << QStringLiteral("home") << QStringList{QStringLiteral("home")};
        QTest::newRow("spaces and empties")
            << QStringLiteral(" home ,, alarm ,") << QStringList{"home", "alarm"};
        QTest::newRow("each once, first place kept")
            << QStringLiteral("b, a, b") << QStringList{"b", "a"};
        QTest::newRow("case is kept apart")
            << QStringLiteral("Home, home") << QStringList{"Home", "home"};
    }

    void draftTags()
    {
        QFETCH(QString, typed);
        QFETCH(QStringList, tags);
        NoteDraft draft;
        QSignalSpy changed(&draft, &NoteDraft::tagsChanged);
        draft.setTagsText(typed);
        QCOMPARE(draft.tags(), tags);
        QCOMPARE(draft.tagsText(), typed); // as typed: the field is not rewritten
        QCOMPARE(changed.count(), typed.isEmpty() ? 0 : 1);
    }

    void draftValidAndClear()
    {
        NoteDraft draft;
        QVERIFY(!draft.valid());
        draft.setTitle(QStringLiteral("   "));
        QVERIFY(!draft.valid());
        draft.setTitle(QStringLiteral(" x "));
        QVERIFY(draft.valid());
        draft.load(QStringLiteral("ab"), QStringLiteral("T"), {"a", "b"}, QStringLiteral("body"));
        QCOMPARE(draft.recordId(), QStringLiteral("ab"));
        QCOMPARE(draft.tagsText(), QStringLiteral("a, b"));
        QCOMPARE(draft.body(), QStringLiteral("body"));
        draft.clear();
        QVERIFY(draft.recordId().isEmpty());
        QVERIFY(draft.title().isEmpty() && draft.tagsText().isEmpty() && draft.body().isEmpty());
    }

    // Add, edit through a draft, remove, undo: the restored note comes back
    // under a new id, which undo() gives.
    void storeChangesAndUndo()
    {
        Notes notes;
        QVERIFY(notes.open());
        QVERIFY(notes.add(QStringLiteral(" "), QStringLiteral("x")).isEmpty());
        QVERIFY(!notes.session->error().isEmpty());
        const QString id = notes.add(QStringLiteral(" Door "), QStringLiteral("1234"),
                                     QStringLiteral("home, alarm, home"));
        QVERIFY(!id.isEmpty());
        const auto entry = notes.store.model()->entry(id);
        QCOMPARE(entry.title, QStringLiteral("Door"));
        QCOMPARE(entry.tags, (QStringList{"alarm", "home"}));

        NoteDraft draft;
        QVERIFY(notes.store.edit(id, &draft));
        QCOMPARE(draft.body(), QStringLiteral("1234"));
        QCOMPARE(draft.tagsText(), QStringLiteral("alarm, home"));
        draft.setBody(QStringLiteral("4321"));
        QVERIFY(notes.store.update(&draft));
        QCOMPARE(notes.store.reveal(id), QStringLiteral("4321"));

        QVERIFY(notes.store.remove(id));
        QCOMPARE(notes.store.model()->rowCount(), 0);
        QVERIFY(!notes.store.update(&draft)); // it is gone
        QCOMPARE(notes.session->history()->undoText(), QStringLiteral("Deleted note Door"));
        const QString restored = notes.session->history()->undo();
        QVERIFY(!restored.isEmpty());
        QVERIFY(restored != id);
        QCOMPARE(notes.store.reveal(restored), QStringLiteral("4321"));
        QCOMPARE(notes.store.model()->entry(restored).title, QStringLiteral("Door"));
        QVERIFY(notes.session->history()->undo().isEmpty()); // nothing left
    }

    void filterSearchesTitlesTagsAndText()
    {
        Notes notes;
        QVERIFY(notes.open());
        notes.add(QStringLiteral("Bank"), QStringLiteral("PIN 4711"), QStringLiteral("money"));
        notes.add(QStringLiteral("Trip"), QStringLiteral("Hotel near Z\u00fcrich"));
        NoteFilterModel filter;
        filter.setStore(&notes.store);
        QCOMPARE(titles(filter), (QStringList{"Bank", "Trip"}));
        filter.setSearchText(QStringLiteral("zurich"));
        QCOMPARE(titles(filter), QStringList{"Trip"});
        filter.setSearchText(QStringLiteral("MONEY"));
        QCOMPARE(titles(filter), QStringList{"Bank"});
        filter.setSearchText(QStringLiteral("  "));
        QCOMPARE(filter.count(), 2);
        // A note added while searching shows only if it matches.
        filter.setSearchText(QStringLiteral("bank"));
        notes.add(QStringLiteral("Other"), QStringLiteral("x"));
        QCOMPARE(titles(filter), QStringList{"Bank"});
        notes.add(QStringLiteral("Bank 2"), QStringLiteral("x"));
        QCOMPARE(titles(filter), (QStringList{"Bank", "Bank 2"}));
    }

    // The choice follows the notes: gone or hidden, it is dropped, unless
    // kept while it is being edited.
    void filterChoiceFollowsTheNotes()
    {
        Notes notes;
        QVERIFY(notes.open());
        const QString bank = notes.add(QStringLiteral("Bank"), QStringLiteral("1"));
        const QString trip = notes.add(QStringLiteral("Trip"), QStringLiteral("2"));
        NoteFilterModel filter;
        filter.setStore(&notes.store);
        QSignalSpy changed(&filter, &NoteFilterModel::selectedChanged);
        filter.setSelectedId(trip);
        QCOMPARE(filter.selectedId(), trip);
        QCOMPARE(filter.selected().title, QStringLiteral("Trip"));
        QCOMPARE(filter.selectedRow(), 1);
        QCOMPARE(changed.count(), 1);
        filter.setSelectedId(QStringLiteral("00"));
        QVERIFY(filter.selectedId().isEmpty()); // no such note
        QCOMPARE(filter.selectedRow(), -1);

        filter.setSelectedId(trip);
        filter.setSearchText(QStringLiteral("bank"));
        QVERIFY(filter.selectedId().isEmpty()); // hidden by the search

        filter.setSearchText({});
        filter.setSelectedId(trip);
        filter.setKeepSelected(true);
        filter.setSearchText(QStringLiteral("bank"));
        QCOMPARE(filter.selectedId(), trip); // kept while edited
        QCOMPARE(filter.selectedRow(), -1);  // but not shown
        filter.setKeepSelected(false);
        filter.setSearchText({});
        QCOMPARE(filter.selectedRow(), 1);

        // Renamed: still chosen, at its new row.
        NoteDraft draft;
        QVERIFY(notes.store.edit(trip, &draft));
        draft.setTitle(QStringLiteral("A trip"));
        QVERIFY(notes.store.update(&draft));
        QCOMPARE(filter.selectedId(), trip);
        QCOMPARE(filter.selected().title, QStringLiteral("A trip"));
        QCOMPARE(filter.selectedRow(), 0);

        QVERIFY(notes.store.remove(trip));
        QVERIFY(filter.selectedId().isEmpty());
        filter.setSelectedId(bank);
        notes.session->lock();
        QVERIFY(filter.selectedId().isEmpty());
        QCOMPARE(filter.count(), 0);
    }
};

QTEST_MAIN(TestNotes)
#include "TestNotes.moc"
