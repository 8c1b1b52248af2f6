import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Qt.labs.folderlistmodel
import Watchword.App
import Watchword.Ui

// Choosing a file to open or save, or a folder. Callers call ask(): it
// shows the desktop's own chooser where there is one (DesktopFileChooser,
// over the XDG desktop portal) and this picker where there is none.
//
// This picker opens in the home folder
// (or the last folder used), lists folders first, scrolls with the wheel,
// and in save mode takes a new name (Enter or "Save" saves). Double-click a
// folder (or Enter on it) to go in, Backspace or "Up" to go up. The caller
// reads selectedFile in onAccepted, as with Qt's FileDialog.
Dialog {
    id: picker
    objectName: "filePicker"

    enum Mode { OpenFile, SaveFile, Folder }
    property int fileMode: FilePicker.OpenFile
    // "Exports (*.json *.txt)" and the like; the first one applies.
    property var nameFilters: []
    // The name (or whole file URL) to suggest in save mode.
    property url currentFile
    property url currentFolder
    // What the person chose.
    property url selectedFile
    // The folder the list shows.
    property url shownFolder
    // Save mode: ask before replacing a file (off where the caller asks).
    property bool confirmOverwrite: true
    property bool replacing: false
    // The modal popup this picker is opened from, if any. Qt 6.4's overlay
    // gives the mouse wheel to no popup that lies under another modal popup:
    // the lower one eats it, and the list would not scroll. So the popup
    // below stops being modal while the picker is open; the picker, modal
    // itself, still keeps input from everything under it.
    property Popup over: null
    property bool overWasModal: false

    readonly property bool saving: fileMode === FilePicker.SaveFile
    readonly property bool choosingFolder: fileMode === FilePicker.Folder
    // Save mode: added to a typed name that has no extension.
    property string defaultSuffix: ""
    readonly property url typedFile: Places.resolve(picker.shownFolder, picker.withSuffix(nameField.text))

    function withSuffix(name) {
        const last = name.trim().split("/").pop()
        return picker.defaultSuffix === "" || last === "" || last.indexOf(".") >= 0
               ? name : name.trim() + "." + picker.defaultSuffix
    }

    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    width: Math.min(parent ? parent.width - 32 : 640, Math.round(metrics.averageCharacterWidth * 80))
    height: Math.min(parent ? parent.height - 32 : 560, Math.round(metrics.height * 30))
    padding: Math.round(metrics.height * 0.6)

    FontMetrics {
        id: metrics
        font: picker.font
    }

    // The desktop chooser's question in flight (0: none).
    property int desktopRequest: 0
    // The last file was chosen in the desktop's chooser, which asked itself
    // before a file was replaced (GNOME's and KDE's do).
    property bool chosenOnDesktop: false

    // The desktop's chooser if there is one, else this picker.
    function ask() {
        if (picker.desktopRequest !== 0)
            return // already asked; the desktop's dialog is open
        const folder = String(picker.currentFolder) !== "" && Places.isFolder(picker.currentFolder)
                     ? picker.currentFolder : Places.startFolder()
        picker.desktopRequest = DesktopFileChooser.ask(picker.fileMode, picker.title, folder,
                                                       picker.nameFilters, picker.suggestedName(),
                                                       picker.parent ? picker.parent.Window.window : null)
    }

    Connections {
        target: DesktopFileChooser
        function onChosen(request, file) {
            if (request !== picker.desktopRequest)
                return
            picker.desktopRequest = 0
            picker.chosenOnDesktop = true
            picker.selectedFile = file
            Places.remember(file)
            picker.accepted()
        }
        function onCancelled(request) {
            if (request === picker.desktopRequest)
                picker.desktopRequest = 0
        }
        function onUnavailable(request, reason) {
            if (request !== picker.desktopRequest)
                return
            picker.desktopRequest = 0
            picker.chosenOnDesktop = false
            picker.open()
        }
    }

    function suggestedName() {
        const text = String(picker.currentFile)
        return text === "" ? "" : decodeURIComponent(text.split("/").pop())
    }

    onAboutToShow: {
        picker.overWasModal = picker.over !== null && picker.over.modal
        if (picker.overWasModal)
            picker.over.modal = false
        const start = String(picker.currentFolder) !== "" && Places.isFolder(picker.currentFolder)
                      ? picker.currentFolder : Places.startFolder()
        picker.shownFolder = start
        list.currentIndex = -1
        nameField.text = picker.saving ? picker.suggestedName() : ""
        problem.text = ""
        picker.replacing = false
    }
    onClosed: {
        if (picker.overWasModal)
            picker.over.modal = true
        picker.overWasModal = false
    }
    onOpened: {
        if (picker.saving) {
            nameField.forceActiveFocus()
            // The name without its extension, ready to be typed over.
            const dot = nameField.text.lastIndexOf(".")
            nameField.select(0, dot > 0 ? dot : nameField.text.length)
        } else {
            list.forceActiveFocus()
        }
    }

    function openFolder(url) {
        picker.shownFolder = url
        list.currentIndex = -1
    }

    function goUp() {
        picker.openFolder(Places.parentOf(picker.shownFolder))
    }

    // Accepts what is chosen; false (with a reason shown) if nothing is.
    function choose() {
        let chosen
        if (picker.choosingFolder) {
            chosen = list.currentIndex >= 0 && folder.isFolder(list.currentIndex)
                     ? folder.get(list.currentIndex, "fileUrl") : picker.shownFolder
        } else if (picker.saving) {
            chosen = picker.typedFile
            if (String(chosen) === "") {
                problem.text = nameField.text.trim() === "" ? qsTr("Type a name for the file.")
                                                            : qsTr("That is a folder: type a file name.")
                return false
            }
            if (!Places.isFolder(Places.parentOf(chosen))) {
                problem.text = qsTr("There is no folder %1.")
                               .arg(Places.displayPath(Places.parentOf(chosen)))
                return false
            }
            if (picker.confirmOverwrite && Places.exists(chosen) && !picker.replacing) {
                picker.replacing = true
                problem.text = qsTr("%1 already exists. Save again to replace it.")
                               .arg(decodeURIComponent(String(chosen).split("/").pop()))
                return false
            }
        } else {
            if (list.currentIndex < 0 || folder.isFolder(list.currentIndex)) {
                problem.text = qsTr("Choose a file.")
                return false
            }
            chosen = folder.get(list.currentIndex, "fileUrl")
        }
        picker.selectedFile = chosen
        Places.remember(chosen)
        picker.accept()
        return true
    }

    // Enter in the list: into a folder, or (opening) the file.
    function activate(row) {
        if (row < 0)
            return
        if (folder.isFolder(row)) {
            picker.openFolder(folder.get(row, "fileUrl"))
        } else if (picker.saving) {
            nameField.text = folder.get(row, "fileName")
            nameField.forceActiveFocus()
        } else if (!picker.choosingFolder) {
            list.currentIndex = row
            picker.choose()
        }
    }

    header: Label {
        text: picker.title
        font.bold: true
        font.pixelSize: Math.round(picker.font.pixelSize * 1.2)
        padding: picker.padding
        bottomPadding: 0
        elide: Text.ElideRight
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Math.round(metrics.height * 0.4)

        RowLayout {
            Layout.fillWidth: true
            Button {
                objectName: "pickerUp"
                text: qsTr("Up")
                enabled: String(Places.parentOf(picker.shownFolder)) !== String(picker.shownFolder)
                Accessible.name: qsTr("Go up one folder")
                onClicked: picker.goUp()
            }
            Button {
                objectName: "pickerHome"
                text: qsTr("Home")
                Accessible.name: qsTr("Go to your home folder")
                onClicked: picker.openFolder(Places.home())
            }
            Label {
                objectName: "pickerFolder"
                text: Places.displayPath(picker.shownFolder)
                elide: Text.ElideMiddle
                Layout.fillWidth: true
                Accessible.name: qsTr("Folder %1").arg(text)
            }
            ComboBox {
                objectName: "pickerFilter"
                visible: picker.nameFilters.length > 1
                model: picker.nameFilters
                onActivated: (index) => folder.nameFilters = Places.patterns(picker.nameFilters[index])
                Accessible.name: qsTr("Show files of this kind")
            }
        }

        Frame {
            Layout.fillWidth: true
            Layout.fillHeight: true
            padding: 1

            ListView {
                id: list
                objectName: "pickerList"
                anchors.fill: parent
                clip: true
                activeFocusOnTab: true
                keyNavigationEnabled: true
                boundsBehavior: Flickable.StopAtBounds
                highlightMoveDuration: 0
                Accessible.role: Accessible.List
                Accessible.name: qsTr("Files in %1").arg(Places.displayPath(picker.shownFolder))
                ScrollBar.vertical: ScrollBar {}

                model: FolderListModel {
                    id: folder
                    folder: picker.shownFolder
                    showDirsFirst: true
                    showDotAndDotDot: false
                    showFiles: !picker.choosingFolder
                    sortCaseSensitive: false
                    nameFilters: picker.nameFilters.length > 0 ? Places.patterns(picker.nameFilters[0]) : ["*"]
                }

                delegate: ItemDelegate {
                    id: entry
                    required property int index
                    required property string fileName
                    required property bool fileIsDir
                    width: ListView.view.width
                    text: fileIsDir ? fileName + "/" : fileName
                    highlighted: ListView.isCurrentItem
                    focusPolicy: Qt.NoFocus
                    Accessible.name: fileIsDir ? qsTr("Folder %1").arg(fileName) : fileName
                    onClicked: {
                        list.currentIndex = index
                        list.forceActiveFocus()
                        if (picker.saving && !fileIsDir)
                            nameField.text = fileName
                    }
                    onDoubleClicked: picker.activate(index)
                }

                Keys.onReturnPressed: picker.activate(currentIndex)
                Keys.onEnterPressed: picker.activate(currentIndex)
                Keys.onPressed: (event) => {
                    if (event.key === Qt.Key_Backspace) {
                        picker.goUp()
                        event.accepted = true
                    }
                }

                Label {
                    anchors.centerIn: parent
                    visible: list.count === 0
                    text: picker.choosingFolder ? qsTr("No folders here") : qsTr("No matching files here")
                    color: picker.palette.placeholderText
                }
            }
        }

        RowLayout {
            visible: picker.saving
            Layout.fillWidth: true
            Label {
                text: qsTr("Name:")
            }
            TextField {
                id: nameField
                objectName: "pickerName"
                Layout.fillWidth: true
                selectByMouse: true
                Accessible.name: qsTr("File name")
                onTextEdited: {
                    problem.text = ""
                    picker.replacing = false
                }
                onAccepted: picker.choose()
            }
        }

        Label {
            id: problem
            objectName: "pickerProblem"
            visible: text !== ""
            color: picker.palette.window.hslLightness < 0.5 ? "#f2b8b5" : "#b3261e"
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: "pickerCancel"
            text: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
        Button {
            objectName: "pickerAccept"
            text: picker.saving ? (picker.replacing ? qsTr("Replace") : qsTr("Save"))
                                : picker.choosingFolder ? qsTr("Choose this folder")
                                                                      : qsTr("Open")
            highlighted: true
            DialogButtonBox.buttonRole: DialogButtonBox.ApplyRole
            onClicked: picker.choose()
        }
    }
}
