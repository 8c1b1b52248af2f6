import QtQuick
import QtQuick.Controls
import QtTest
import Watchword.App
import Watchword.Ui

// The Diagnostics page against real DiagnosticsControllers on fake
// benchmarks (the test setup's `testDiagnostics`: a tiny profile, a pair
// named as a comparison, one that fails; and `testEndlessDiagnostics`, whose
// run lasts until it is cancelled).
Item {
    id: root
    // Tall enough that every section is on screen without scrolling.
    width: 900
    height: 2600

    TestCase {
        id: testCase
        name: "DiagnosticsPage"
        when: windowShown

        Component {
            id: pageComponent
            DiagnosticsPage {
                width: root.width
                height: root.height
            }
        }

        function init() {
            failOnWarning(/.*/)
            testDiagnostics.benchmarks.selectAll()
            testDiagnostics.baselines.clearComparison()
            testDiagnostics.clearError()
        }

        function makePage(controller) {
            const page = createTemporaryObject(pageComponent, root, { controller: controller })
            verify(page)
            return page
        }

        function child(page, name) {
            const item = findChild(page, name)
            verify(item, name)
            return item
        }

        function type(item, text) {
            item.forceActiveFocus()
            for (let i = 0; i < text.length; ++i)
                keyClick(text[i])
        }

        // Clicks Run and waits for the run to end.
        function runAll(page) {
            const run = child(page, "runButton")
            verify(run.enabled)
            mouseClick(run)
            verify(testDiagnostics.run.running)
            verify(!run.enabled)
            tryCompare(testDiagnostics.run, "running", false, 30000)
        }

        function test_runFillsTheTableAndChart() {
            const page = makePage(testDiagnostics)
            const results = child(page, "resultsList")
            runAll(page)
            const total = testDiagnostics.benchmarks.count
            compare(results.count, total)
            compare(child(page, "overallProgress").value, 1)
            verify(child(page, "statusLabel").text.indexOf("1 failed") >= 0,
                   child(page, "statusLabel").text)

            const first = child(page, "resultRow0")
            compare(first.status, "measured")
            verify(first.point !== "")
            verify(first.low !== "" && first.high !== "")
            verify(/^\d+ \+ \d+$/.test(first.outliers), first.outliers)
            verify(first.detail.endsWith("sampling"), first.detail)
            const failed = child(page, "resultRow" + (total - 1))
            compare(failed.status, "failed")
            verify(failed.detail.indexOf("no such key") >= 0, failed.detail)
            compare(failed.point, "")

            // The pair named as a comparison: a ratio in its row and a chart.
            const compared = child(page, "resultRow2")
            verify(compared.ratio !== "", "no ratio")
            verify(compared.reference !== "")
            verify(child(page, "chartSection").visible)
            const loader = child(page, "chartLoader")
            tryCompare(loader, "status", Loader.Ready)
            const chart = loader.item
            compare(chart.bars.length, 1)
            compare(child(page, "targetsSection").title.indexOf("Targets: 0 of"), -1)
        }

        function test_interleaveRunsToTheEnd() {
            const page = makePage(testDiagnostics)
            const box = child(page, "interleaveBox")
            verify(!box.checked)
            mouseClick(box)
            verify(testDiagnostics.run.interleaved)
            runAll(page)
            verify(findChild(page, "resultRow0"))
            mouseClick(box)
            verify(!testDiagnostics.run.interleaved)
        }

        function test_logScaleSwitchesTheAxis() {
            const page = makePage(testDiagnostics)
            if (testDiagnostics.comparisons.bars.length === 0)
                runAll(page)
            const loader = child(page, "chartLoader")
            tryCompare(loader, "status", Loader.Ready)
            const chart = loader.item
            const check = child(page, "logScaleCheck")
            verify(check.checked)
            compare(chart.valueAxis.objectName, "logAxis")
            mouseClick(check)
            verify(!check.checked)
            compare(chart.logScale, false)
            compare(chart.valueAxis.objectName, "linearAxis")
            mouseClick(check)
            compare(chart.valueAxis.objectName, "logAxis")
        }

        function test_cancelStopsTheRun() {
            const page = makePage(testEndlessDiagnostics)
            const cancel = child(page, "cancelButton")
            verify(!cancel.enabled)
            mouseClick(child(page, "runButton"))
            verify(testEndlessDiagnostics.run.running)
            verify(cancel.enabled)
            // Under way: the benchmark is being measured.
            tryVerify(() => {
                const row = findChild(page, "resultRow0")
                return row !== null && row.status === "running"
            })
            compare(child(page, "currentNameLabel").text, "fake/endless")
            mouseClick(cancel)
            tryCompare(testEndlessDiagnostics.run, "running", false, 30000)
            verify(!cancel.enabled)
            compare(child(page, "resultRow0").status, "cancelled")
            verify(child(page, "statusLabel").text.indexOf("Cancelled") >= 0)
        }

        function test_chooser() {
            const page = makePage(testDiagnostics)
            const run = child(page, "runButton")
            const chosen = child(page, "chosenLabel")
            const total = testDiagnostics.benchmarks.count
            compare(chosen.text, total + " of " + total + " benchmarks chosen")
            mouseClick(child(page, "selectNoneButton"))
            compare(testDiagnostics.benchmarks.checkedCount, 0)
            verify(!run.enabled)
            type(child(page, "filterField"), "fake/f")
            mouseClick(child(page, "selectMatchingButton"))
            compare(testDiagnostics.benchmarks.checkedCount, 2) // fake/fast, fake/failing
            verify(run.enabled)
            type(child(page, "filterField"), "(")
            mouseClick(child(page, "selectMatchingButton"))
            verify(child(page, "filterErrorLabel").visible)
            compare(testDiagnostics.benchmarks.checkedCount, 2)

            // The list, shown: a click on a row unchecks it.
            const toggle = child(page, "chooserToggle")
            mouseClick(toggle)
            const list = child(page, "benchmarkChooser")
            verify(list.visible)
            tryVerify(() => list.itemAtIndex(0) !== null)
            const row = list.itemAtIndex(0)
            // Laid out before it is clicked.
            tryVerify(() => list.height >= row.height && row.width > 0)
            verify(row.checked)
            mouseClick(row)
            verify(!row.checked)
            compare(testDiagnostics.benchmarks.checkedCount, 1)
            mouseClick(child(page, "selectAllButton"))
            compare(testDiagnostics.benchmarks.checkedCount, total)
            verify(row.checked)
        }

        function test_saveAndCompareBaseline() {
            const page = makePage(testDiagnostics)
            runAll(page)
            const dialog = child(page, "saveBaselineDialog")
            mouseClick(child(page, "saveBaselineButton"))
            tryCompare(dialog, "opened", true)
            const field = child(dialog.contentItem, "baselineNameField")
            const confirm = findChild(dialog.footer, "saveBaselineConfirm")
            verify(confirm)
            type(field, ".hidden")
            verify(child(dialog.contentItem, "baselineNameHint").visible)
            verify(!confirm.enabled)
            field.clear()
            type(field, "page-test")
            verify(!child(dialog.contentItem, "baselineNameHint").visible)
            verify(confirm.enabled)
            mouseClick(confirm)
            tryCompare(dialog, "visible", false)
            verify(testDiagnostics.baselines.names.indexOf("page-test") >= 0)

            const box = child(page, "baselineBox")
            verify(box.count >= 1)
            box.currentIndex = box.find("page-test")
            mouseClick(child(page, "compareButton"))
            tryCompare(testDiagnostics.baselines, "comparedWith", "page-test", 30000)
            tryCompare(testDiagnostics.baselines, "comparing", false)
            const first = child(page, "resultRow0")
            verify(["improved", "regressed", "no change"].indexOf(first.verdict) >= 0, first.verdict)
            verify(first.change.indexOf(first.verdict) > 0, first.change)
            verify(child(page, "clearComparisonButton").visible)
            mouseClick(child(page, "clearComparisonButton"))
            compare(testDiagnostics.baselines.comparedWith, "")
            compare(first.verdict, "")
        }

        function test_exportDialog() {
            const page = makePage(testDiagnostics)
            if (testDiagnostics.results.count === 0)
                runAll(page)
            const dialog = findChild(page, "exportDialog")
            verify(dialog)
            mouseClick(child(page, "exportHtmlButton"))
            tryCompare(dialog, "visible", true)
            verify(String(dialog.currentFile).endsWith(".html"), dialog.currentFile)
            compare(findChild(dialog.contentItem, "pickerName").text,
                    String(dialog.currentFile).split("/").pop())
            compare(dialog.defaultSuffix, "html")
            compare(dialog.nameFilters, ["Web page (*.html)"])
            dialog.reject()
            tryCompare(dialog, "visible", false)
        }

        function test_runMatching() {
            const page = makePage(testDiagnostics)
            verify(!testDiagnostics.run.startMatching("("))
            verify(testDiagnostics.run.startMatching("^fake/fast$"))
            verify(testDiagnostics.run.running)
            tryCompare(testDiagnostics.run, "running", false, 30000)
            compare(child(page, "resultsList").count, 1)
            compare(child(page, "resultRow0").name, "fake/fast")
        }

        function test_sectionsAndSystem() {
            const page = makePage(testDiagnostics)
            verify(child(page, "selfTestSection").visible)
            verify(child(page, "selfTestList"))
            verify(child(page, "systemSection").visible)
            verify(!child(page, "appTargetsSection").visible)
            verify(testDiagnostics.systemInfo.line !== "")
        }

        Component {
            id: targetsComponent
            Label {
                objectName: "appTargetsStandIn"
                text: "app targets"
            }
        }

        function test_appTargetsSlot() {
            const page = createTemporaryObject(pageComponent, root,
                                               { controller: testDiagnostics, appTargets: targetsComponent })
            verify(page)
            verify(child(page, "appTargetsSection").visible)
            verify(child(page, "appTargetsStandIn"))
        }
    }
}
