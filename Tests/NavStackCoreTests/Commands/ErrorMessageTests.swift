import NavStackCore
import XCTest

/// The exact words of every message a user can meet.
final class ErrorMessageTests: XCTestCase {
    func testMessages() {
        let cases: [(NavError, String)] = [
            (.lineTooLong(bytes: 5000), "line too long (5000 bytes; the limit is 4096)"),
            (.invalidUTF8, "the text is not valid UTF-8"),
            (.nulByte, "line contains a NUL byte"),
            (.controlCharacter("\u{1B}"), "line contains the control character \\u{1B}; type plain text"),
            (.unknownCommand("opne", suggestion: .open), "unknown command 'opne'; did you mean 'open'? (help lists the commands)"),
            (.unknownCommand("xyzzy", suggestion: nil), "unknown command 'xyzzy' (help lists the commands)"),
            (.missingArgument(.open), "'open' needs a row number: open N"),
            (.missingArgument(.go), "'go' needs a link: go URL"),
            (.unexpectedArgument(.edit, "2"), "unexpected '2' after 'edit': edit"),
            (.notANumber(.open, "two"), "'two' is not a number: open N"),
            (.numberBelowOne(.back, "0"), "'0' is not allowed: screens count from 1"),
            (.numberBelowOne(.open, "-1"), "'-1' is not allowed: rows count from 1"),
            (.numberTooLarge(.page, "99999999999999999999"), "'99999999999999999999' is too large"),
            (.badChoice(.tab, "home"), "'home' is not one of tasks, agenda, account: tab tasks|agenda|account"),
            (.textTooLong(.title, count: 201, limit: 200), "title too long (201 characters; the limit is 200)"),
            (.blankTitle, "a title cannot be blank"),
            (.notAvailable(.edit, screen: .list, available: [.open, .add]), "'edit' is not available on the task list; here: open, add"),
            (.needsRow(.toggle), "'toggle' needs a row number here: toggle N"),
            (.takesNoRow(.delete), "'delete' here takes no row number; it acts on this task"),
            (.noSuchRow(9, rows: 3), "there is no row 9: the list has 3 rows"),
            (.noSuchRow(2, rows: 1), "there is no row 2: the list has 1 row"),
            (.noSuchRow(1, rows: 0), "there is no row 1: the list is empty"),
            (.noSuchPage(3, pages: 2), "there is no page 3: the list has 2 pages"),
            (.alreadyFirstPage, "already on the first page"),
            (.alreadyLastPage(pages: 2), "already on the last page (page 2 of 2)"),
            (.nothingToGoBack, "nothing to go back to: this is the root of the tab"),
            (.cannotGoBack(3, depth: 2), "cannot go back 3 screens: only 2 are open above the root"),
            (.cannotGoBack(2, depth: 1), "cannot go back 2 screens: only 1 is open above the root"),
            (.cannotSaveBlankTitle, "cannot save: the title is blank (set it with: title TEXT)"),
            (.unsavedDraft(.back), "'back' would discard unsaved changes: save them, cancel them, or use back! to discard"),
            (.nothingToUndo, "nothing to undo"),
            (.nothingToRedo, "nothing to redo"),
            (.foreignScheme("http"), "'http://' links are not navstack links: use navstack://… (help go lists them)"),
            (.malformedLink("tasks/x"), "'tasks/x' is not a navstack link (help go lists them)"),
            (.noSuchTask("42"), "there is no task 42"),
            (.taskVanished(2), "task 2 no longer exists"),
            (.store("disk full"), "store failed: disk full"),
        ]
        for (error, message) in cases {
            XCTAssertEqual(error.message, message)
        }
    }

    func testTheGuardMessageNamesTheWaysOut() {
        let message = NavError.unsavedDraft(.root).message
        for word in ["save", "cancel", "back!"] {
            XCTAssertTrue(message.contains(word), word)
        }
    }
}
