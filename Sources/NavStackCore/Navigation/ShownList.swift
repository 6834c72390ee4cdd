/// The rows of the list as a router last showed them: the row numbers typed next name
/// these tasks. `open`, `toggle` and `delete N` act on row N only while it still holds
/// the task shown there; another process that added, deleted or moved tasks since makes
/// them refuse instead of acting on a task never seen.
///
/// Kept in memory, not with the saved navigation state: a run shows its first screen at
/// launch and, after each command that succeeds, the screen it leaves, so a row command
/// always follows a list the same run showed (a one-shot `-c 'delete 1'` names a row of
/// the list it printed at launch). A router that showed no list yet reads rows from the
/// list as it is now; so do rows the list did not show (another page).
struct ShownList: Equatable {
    var user: String
    var query: ListQuery
    var rows: [ListRow]

    /// The task shown on a row, when the row was shown on this profile's list as the
    /// query shows it.
    func task(atRow row: Int, user: String, query: ListQuery) -> TaskItem? {
        guard user == self.user, query.isSameList(as: self.query) else { return nil }
        return rows.first { $0.row == row }?.task
    }
}
