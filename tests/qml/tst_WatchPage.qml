import QtQuick
import QtQuick.Controls
import QtTest
import Watchword.App
import Watchword.Ui

// The watch simulator's page against a real WatchSimulator on the shipped
// device profiles (the test setup's `testWatchDevices`, whose *.json files
// are `testWatchDeviceFiles`), the demo vault (`testWatchVault`) and a clock
// that stands still (`testWatchClock`).
Item {
    id: root
    // Wide enough for the two columns, tall enough that nothing scrolls.
    width: 1400
    height: 2600

    readonly property var operationKeys: ["totp-sha1", "totp-sha256", "totp-sha512",
                                          "pbkdf2-1000", "seal-open", "self-test"]

    TestCase {
        id: testCase
        name: "WatchPage"
        when: windowShown

        // As Main.qml makes it: the simulator belongs to the page, and goes
        // after it.
        Component {
            id: pageComponent
            WatchPage {
                id: watchPage
                property string deviceDirectory: testWatchDevices
                width: root.width
                height: root.height
                simulator: WatchSimulator {
                    vault: testWatchVault
                    accounts: testWatchAccounts.model
                    clock: testWatchClock
                    profiles.deviceDirectory: watchPage.deviceDirectory
                }
            }
        }

        function init() {
            failOnWarning(/.*/)
            tryCompare(testWatchVault, "state", VaultController.Unlocked, 10000)
        }

        // A page on a simulator with fr255 chosen and nothing measured.
        function makePage() {
            const page = createTemporaryObject(pageComponent, root)
            verify(page)
            const profiles = page.simulator.profiles
            compare(profiles.loadError, "")
            profiles.deviceId = "fr255"
            compare(profiles.deviceId, "fr255")
            for (const key of root.operationKeys)
                verify(profiles.setMeasured(key, 0))
            return page
        }

        function child(page, name) {
            const item = findChild(page, name)
            verify(item, name)
            return item
        }

        // The first visual descendant of item that satisfies test.
        function findItem(item, test) {
            for (let i = 0; i < item.children.length; ++i) {
                const c = item.children[i]
                if (test(c))
                    return c
                const found = findItem(c, test)
                if (found)
                    return found
            }
            return null
        }
        function findItems(item, test, into) {
            const list = into || []
            for (let i = 0; i < item.children.length; ++i) {
                const c = item.children[i]
                if (test(c))
                    list.push(c)
                findItems(c, test, list)
            }
            return list
        }

        function costGroup(page) {
            const group = findItem(page, c => c instanceof GroupBox
                                         && String(c.title).startsWith("What it costs on"))
            verify(group, "the cost group")
            return group
        }

        function type(item, text) {
            item.forceActiveFocus()
            for (let i = 0; i < text.length; ++i)
                keyClick(text[i])
        }

        function chooseDevice(page, id) {
            const picker = child(page, "devicePicker")
            picker.forceActiveFocus()
            const steps = picker.count
            for (let i = 0; i < steps && picker.currentValue !== id; ++i) {
                const index = page.profiles.devices.findIndex(d => d.id === id)
                keyClick(index > picker.currentIndex ? Qt.Key_Down : Qt.Key_Up)
            }
            compare(picker.currentValue, id)
            compare(page.profiles.deviceId, id)
        }

        function visibleLabelStarting(page, start) {
            return findItem(page, c => c instanceof Label && c.visible
                                   && String(c.text).startsWith(start))
        }

        // Ticks the first count accounts, types the PINs and makes the export.
        function exportThroughTheForm(page, count, pin) {
            const titles = page.exportFile.choices.map(c => c.title)
            verify(titles.length >= count)
            const boxes = findItems(page, c => c instanceof CheckBox && titles.indexOf(c.text) >= 0)
            compare(boxes.length, titles.length)
            const button = child(page, "createExportButton")
            verify(!button.enabled)
            for (let i = 0; i < count; ++i) {
                mouseClick(boxes[i])
                verify(boxes[i].checked)
            }
            type(child(page, "pinField"), pin)
            type(child(page, "repeatField"), pin)
            verify(button.enabled)
            mouseClick(button)
            compare(page.simulator.error, "")
            verify(page.exportFile.loaded)
            compare(page.exportFile.info.accounts, count)
            compare(page.watch.view, "pin")
            // The form is emptied and the watch has the keyboard.
            compare(child(page, "pinField").text, "")
            verify(child(page, "watchArea").activeFocus)
        }

        function test_devicePickerListsEveryProfile() {
            const page = makePage()
            const picker = child(page, "devicePicker")
            compare(picker.count, testWatchDeviceFiles.length)
            const ids = []
            for (let i = 0; i < picker.count; ++i)
                ids.push(picker.valueAt(i))
            compare(ids.slice().sort(), testWatchDeviceFiles.slice().sort())
            compare(picker.currentValue, "fr255")
            compare(picker.currentText, page.profiles.device.name)
        }

        function test_choosingADeviceUpdatesTheCostsAndScreen_data() {
            return [
                { tag: "round", id: "epix2", name: "epix (Gen 2)", width: 416, height: 416 },
                { tag: "semi-octagon", id: "instinct2", name: "Instinct 2", width: 176, height: 176 },
                { tag: "rectangle", id: "venusq2", name: "Venu Sq 2", width: 320, height: 360 },
            ]
        }
        function test_choosingADeviceUpdatesTheCostsAndScreen(data) {
            const page = makePage()
            const screen = child(page, "watchScreen")
            tryCompare(screen, "nativeWidth", 260)
            const group = costGroup(page)
            compare(group.title, "What it costs on Forerunner 255")
            chooseDevice(page, data.id)
            compare(page.profiles.device.name, data.name)
            compare(group.title, "What it costs on " + data.name)
            tryCompare(screen, "nativeWidth", data.width)
            tryCompare(screen, "nativeHeight", data.height)
            verify(child(page, "watchArea").visible)
        }

        function test_fr70ShowsWhyItCannotBeDrawn() {
            const page = makePage()
            chooseDevice(page, "fr70")
            verify(!page.profiles.device.drawable)
            const reason = page.profiles.undrawableReason
            verify(reason.indexOf(page.profiles.device.name) >= 0, reason)
            verify(findItem(page, c => c instanceof Label && c.visible && c.text === reason),
                   "the reason is shown")
            verify(!child(page, "watchArea").visible)
            // Its costs are still there, from what is known.
            compare(page.costs.operations.length, 6)
        }

        // No profiles could be read: the reason is shown and no figures of
        // no watch; nothing reads a value that is not there (init fails the
        // test on any warning).
        function test_withoutProfilesTheReasonIsShown() {
            const page = createTemporaryObject(pageComponent, root,
                                               { deviceDirectory: testWatchDevices + "/missing" })
            verify(page)
            const simulator = page.simulator
            verify(simulator.profiles.loadError !== "")
            compare(simulator.profiles.devices.length, 0)
            compare(simulator.profiles.device.id, "")
            compare(simulator.costs.operations.length, 0)
            verify(visibleLabelStarting(page, simulator.profiles.loadError), "the reason is shown")
            verify(!visibleLabelStarting(page, "Not verified"))
            verify(!costGroup(page).visible)
            compare(child(page, "devicePicker").count, 0)
        }

        function test_costTableHasSixRowsWithTheirBasis() {
            const page = makePage()
            const table = child(page, "costTable")
            const bases = ["simulator", "estimate", "measured", "unknown"]
            const basisLabels = findItems(table, c => c instanceof Label && bases.indexOf(c.text) >= 0)
            compare(basisLabels.length, 6)
            for (const label of basisLabels)
                compare(label.text, "estimate")
            for (const key of root.operationKeys)
                child(table, "measured_" + key)
            const titles = page.costs.operations.map(c => c.title)
            compare(titles.length, 6)
            for (const title of titles)
                verify(findItem(table, c => c instanceof Label && c.text === title), title)
            verify(child(page, "inconsistencyLabel").text.indexOf("19,231") >= 0)
        }

        function test_aMeasuredValueChangesTheBasisAndTheWarning() {
            const page = makePage()
            // fr255 at 1,000 ms: even the floor of 2,000 rounds is too slow.
            compare(page.costs.targetMs, 1000)
            verify(page.costs.calibration.warnings.length > 0)
            const warning = child(page, "calibrationWarning")
            verify(warning.visible)
            verify(warning.text.indexOf(page.costs.calibration.warnings[0]) >= 0)

            const field = child(page, "measured_pbkdf2-1000")
            type(field, "10")
            keyClick(Qt.Key_Return)
            const row = page.costs.operations.find(c => c.key === "pbkdf2-1000")
            compare(row.basis, "measured")
            compare(row.measuredMs, 10)
            const table = child(page, "costTable")
            tryVerify(() => findItems(table, c => c instanceof Label && c.text === "measured").length === 1)
            tryVerify(() => child(page, "measured_pbkdf2-1000").text === "10")
            compare(page.costs.unlock.iterations, 100000)
            // 100,000 rounds at 10 ms per 1,000: on target, no warning.
            compare(page.costs.calibration.warnings.length, 0)
            tryVerify(() => findChild(page, "calibrationWarning") === null)
            verify(child(page, "calibrationLabel").text.indexOf("100,000") >= 0,
                   child(page, "calibrationLabel").text)

            // Emptied: the estimate again.
            const again = child(page, "measured_pbkdf2-1000")
            again.forceActiveFocus()
            again.selectAll()
            keyClick(Qt.Key_Backspace)
            keyClick(Qt.Key_Return)
            compare(page.costs.operations.find(c => c.key === "pbkdf2-1000").basis, "estimate")
            tryVerify(() => findChild(page, "calibrationWarning") !== null)
        }

        function test_anExportMadeInTheFormOpensWithTheKeyboard() {
            const page = makePage()
            exportThroughTheForm(page, 2, "4821")
            const loaded = visibleLabelStarting(page, "Loaded:")
            verify(loaded, "the Loaded line")
            verify(loaded.text.indexOf("2 accounts") >= 0, loaded.text)
            verify(loaded.text.indexOf("Forerunner 255") >= 0, loaded.text)

            const watchArea = child(page, "watchArea")
            verify(watchArea.activeFocus)
            // A wrong PIN first.
            for (const key of [Qt.Key_1, Qt.Key_1, Qt.Key_1, Qt.Key_1])
                keyClick(key)
            keyClick(Qt.Key_Enter)
            tryCompare(page.watch, "busy", false, 30000)
            compare(page.watch.view, "pin")
            compare(page.watch.openedAccounts, 0)

            for (const key of [Qt.Key_4, Qt.Key_8, Qt.Key_2, Qt.Key_1])
                keyClick(key)
            keyClick(Qt.Key_Return)
            tryCompare(page.watch, "view", "code", 30000)
            compare(page.watch.openedAccounts, 2)
            const first = page.watch.selectedTitle
            verify(first !== "")
            keyClick(Qt.Key_Down)
            verify(page.watch.selectedTitle !== first)
            keyClick(Qt.Key_Up)
            compare(page.watch.selectedTitle, first)
            keyClick(Qt.Key_Return)
            compare(page.watch.view, "list")
            keyClick(Qt.Key_Escape)
            compare(page.watch.view, "code")
            keyClick(Qt.Key_Escape)
            compare(page.watch.view, "glance")
        }

        function test_theRoundScreenIsOpaqueInsideAndClearAtTheCorners() {
            const page = makePage()
            exportThroughTheForm(page, 1, "4821")
            const screen = child(page, "watchScreen")
            tryCompare(screen, "nativeWidth", 260)
            compare(screen.nativeHeight, 260)
            verify(screen.pixelScale >= 1, "drawn at least at true size: " + screen.pixelScale)
            compare(screen.pixelAt(130, 130).a, 1)
            compare(screen.pixelAt(1, 1).a, 0)
            compare(screen.pixelAt(258, 258).a, 0)
            compare(screen.pixelAt(1, 258).a, 0)
        }
    }
}
