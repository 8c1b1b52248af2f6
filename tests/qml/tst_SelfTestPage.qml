import QtQuick
import QtTest
import Watchword.App
import Watchword.Ui

TestCase {
    id: testCase
    name: "SelfTestPage"
    when: windowShown
    width: 640
    height: 480

    Component {
        id: pageComponent
        SelfTestPage { anchors.fill: parent }
    }

    function test_failureIsNamedAndEveryTestListed() {
        const page = createTemporaryObject(pageComponent, testCase)
        verify(page)
        const banner = findChild(page, "selfTestBanner")
        verify(banner)
        const bannerLabel = banner.children[0]
        verify(bannerLabel.text.indexOf("AES-256-CBC (injected failure)") >= 0, bannerLabel.text)
        verify(bannerLabel.text.indexOf("Crypto is disabled") >= 0, bannerLabel.text)
        compare(banner.color, Qt.color("#fce8e6"))

        const list = findChild(page, "selfTestList")
        verify(list)
        tryCompare(list, "count", 3)
    }
}
