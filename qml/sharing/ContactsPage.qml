import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// The people the vault's owner shares with: each their identity under a
// name, verified or not. A contact is added by pasting the identity text
// someone gave (watchword-cli identity show, or their Settings page) or by
// reading it from an image of its QR code; it is verified after its eight
// fingerprint words were compared with the person by another channel.
// Presentation only: the list, the rules and every refusal come from the
// ContactBook.
Pane {
    id: page
    objectName: "contactsPage"

    // The VaultController (busy) and the ContactBook.
    required property var vault
    required property var contacts
    // The contact being renamed ("" for none).
    property string renaming: ""
    // A contact was just removed: the page offers to put it back (Ctrl+Z
    // in the window does the same).
    property bool undoOffered: false

    function removeContact(recordId) {
        page.undoOffered = page.contacts.remove(recordId)
    }

    // The list is made again after every change (its delegates too), so
    // what follows a change runs here, on the page, not in a delegate.
    function renameTo(recordId, name) {
        page.undoOffered = false
        if (page.contacts.rename(recordId, name))
            page.renaming = ""
    }

    function addTyped() {
        page.undoOffered = false
        if (page.contacts.add(identityField.text, nameField.text) !== "") {
            identityField.clear()
            nameField.clear()
        }
    }

    FontMetrics {
        id: metrics
        font: page.font
    }

    QrReader {
        id: qr
        onFound: (texts) => {
            const identity = page.contacts.identityAmong(texts)
            if (identity !== "") {
                identityField.text = identity
                nameField.forceActiveFocus()
            }
        }
        onFailed: (error) => page.contacts.readFailed(error)
    }

    // The identity someone handed over as a file: a text file holding it,
    // or their vault file.
    function takeFile(url) {
        const identity = page.contacts.identityInFile(url)
        if (identity !== "") {
            identityField.text = identity
            nameField.forceActiveFocus()
        }
    }

    FilePicker {
        id: identityFileDialog
        title: qsTr("Choose their identity file or vault file")
        nameFilters: [qsTr("Identities and vaults (*.txt *.wwv)"), qsTr("All files (*)")]
        onAccepted: page.takeFile(selectedFile)
    }

    // An image of their QR code, or their identity or vault file, dropped
    // anywhere on the page.
    DropArea {
        objectName: "contactDrop"
        anchors.fill: parent
        keys: ["text/uri-list"]
        onDropped: (drop) => {
            if (!drop.hasUrls || drop.urls.length === 0)
                return
            const url = drop.urls[0]
            if (/\.(png|jpe?g|bmp|gif|webp)$/i.test(String(url)))
                qr.readFile(url)
            else
                page.takeFile(url)
            drop.accept(Qt.CopyAction)
        }
    }

    FilePicker {
        id: imageDialog
        title: qsTr("Choose an image with a QR code")
        nameFilters: [qsTr("Images (*.png *.jpg *.jpeg *.bmp *.gif *.webp)"), qsTr("All files (*)")]
        onAccepted: qr.readFile(selectedFile)
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Math.round(metrics.height * 0.6)

        Label {
            text: qsTr("Contacts")
            font.pixelSize: Math.round(page.font.pixelSize * 1.3)
            font.bold: true
        }
        Label {
            text: qsTr("The people you share accounts and notes with. Add someone with the identity "
                       + "they give you (watchword-id:…), then compare the eight fingerprint words "
                       + "with them by another channel (aloud, side by side) before you mark them "
                       + "verified.")
            wrapMode: Text.Wrap
            color: page.palette.placeholderText
            Layout.fillWidth: true
        }

        GridLayout {
            columns: 3
            columnSpacing: 8
            Layout.fillWidth: true
            TextField {
                id: identityField
                objectName: "contactIdentityField"
                placeholderText: qsTr("watchword-id:…")
                font.family: "monospace"
                selectByMouse: true
                Layout.fillWidth: true
                Layout.columnSpan: 2
                Accessible.name: qsTr("Their identity")
                onAccepted: nameField.forceActiveFocus()
            }
            Button {
                objectName: "contactQrButton"
                text: qsTr("From a QR image…")
                enabled: !qr.busy
                onClicked: imageDialog.ask()
            }
            TextField {
                id: nameField
                objectName: "contactNameField"
                placeholderText: qsTr("Name")
                selectByMouse: true
                Layout.fillWidth: true
                Layout.columnSpan: 2
                Accessible.name: qsTr("Their name")
                onAccepted: page.addTyped()
            }
            Button {
                objectName: "addContactButton"
                text: qsTr("Add contact")
                enabled: identityField.text.length > 0 && nameField.text.trim().length > 0
                         && !page.vault.busy
                onClicked: page.addTyped()
            }
            Flow {
                spacing: 8
                Layout.fillWidth: true
                Layout.columnSpan: 3
                Button {
                    objectName: "contactScreenButton"
                    text: qsTr("Scan the screen")
                    enabled: !qr.busy
                    Accessible.description: qsTr("Read their identity's QR code from the screen")
                    onClicked: qr.readScreen()
                }
                Button {
                    id: contactFileButton
                    objectName: "contactFileButton"
                    text: qsTr("From their file\u2026")
                    Accessible.description: qsTr("Read their identity from a text file or their vault file")
                    onClicked: identityFileDialog.ask()
                }
                Label {
                    text: qsTr("or drop an image of their code, or their file, here.")
                    color: page.palette.placeholderText
                    height: contactFileButton.height
                    verticalAlignment: Text.AlignVCenter
                }
            }
        }
        Label {
            objectName: "contactError"
            visible: page.contacts.error !== ""
            text: page.contacts.error
            color: page.palette.window.hslLightness < 0.5 ? "#f2b8b5" : "#b3261e"
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }

        RowLayout {
            objectName: "contactUndoRow"
            visible: page.undoOffered && page.vault.history.canUndo
            Label {
                text: page.vault.history.undoText
                elide: Text.ElideRight
                Layout.fillWidth: true
            }
            Button {
                objectName: "undoContactButton"
                text: qsTr("Undo")
                enabled: !page.vault.busy
                Accessible.name: qsTr("Undo: %1").arg(page.vault.history.undoText)
                onClicked: {
                    page.undoOffered = false
                    page.vault.history.undo()
                }
            }
        }
        Label {
            objectName: "noContactsLabel"
            visible: contactsList.count === 0
            text: qsTr("No contacts yet.")
            color: page.palette.placeholderText
        }
        ListView {
            id: contactsList
            objectName: "contactsList"
            model: page.contacts.contacts
            clip: true
            spacing: 6
            Layout.fillWidth: true
            Layout.fillHeight: true
            ScrollBar.vertical: ScrollBar {}

            delegate: Frame {
                id: row
                required property var modelData
                required property int index
                readonly property bool editingName: page.renaming === modelData.recordId
                objectName: "contactRow" + index
                width: ListView.view.width - 12

                ColumnLayout {
                    anchors.fill: parent
                    spacing: 4
                    RowLayout {
                        Layout.fillWidth: true
                        Label {
                            objectName: "contactName"
                            visible: !row.editingName
                            text: row.modelData.name
                            font.bold: true
                            elide: Text.ElideRight
                            Layout.fillWidth: true
                        }
                        TextField {
                            id: renameField
                            objectName: "renameField"
                            visible: row.editingName
                            text: row.modelData.name
                            selectByMouse: true
                            Layout.fillWidth: true
                            Accessible.name: qsTr("New name")
                            onAccepted: page.renameTo(row.modelData.recordId, text)
                            Keys.onEscapePressed: page.renaming = ""
                        }
                        Label {
                            objectName: "contactVerified"
                            text: row.modelData.verified ? qsTr("Verified") : qsTr("Not verified")
                            font.bold: row.modelData.verified
                            color: row.modelData.verified ? page.palette.windowText
                                                          : page.palette.placeholderText
                        }
                    }
                    Label {
                        objectName: "contactFingerprint"
                        text: qsTr("Fingerprint: %1").arg(row.modelData.fingerprint)
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                    }
                    Label {
                        text: row.modelData.identity
                        font.family: "monospace"
                        elide: Text.ElideMiddle
                        color: page.palette.placeholderText
                        Layout.fillWidth: true
                    }
                    RowLayout {
                        Button {
                            objectName: "verifyContactButton"
                            text: row.modelData.verified ? qsTr("Mark not verified")
                                                         : qsTr("Mark verified")
                            enabled: !page.vault.busy
                            onClicked: page.contacts.setVerified(row.modelData.recordId,
                                                                 !row.modelData.verified)
                        }
                        Button {
                            objectName: "renameContactButton"
                            text: row.editingName ? qsTr("Save name") : qsTr("Rename")
                            enabled: !page.vault.busy
                            onClicked: {
                                if (!row.editingName) {
                                    page.renaming = row.modelData.recordId
                                    renameField.forceActiveFocus()
                                    renameField.selectAll()
                                } else {
                                    page.renameTo(row.modelData.recordId, renameField.text)
                                }
                            }
                        }
                        Button {
                            objectName: "removeContactButton"
                            text: qsTr("Remove")
                            enabled: !page.vault.busy
                            onClicked: page.removeContact(row.modelData.recordId)
                        }
                    }
                }
            }
        }
    }
}
