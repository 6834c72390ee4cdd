extension SyncAnswer {
    /// The answer to a pull after `after`, from the rows that follow it: the other
    /// replicas' operations with a `server_seq` past `after`, in `server_seq` order, a page
    /// and one more at most (the one more says whether there are more). `highest` is the
    /// account's highest `server_seq`, its own replica's included (0 for none), where the
    /// next pull starts when nothing more is waiting.
    /// `pageSize`: how many operations a page holds at most (a test's log may page by fewer).
    public init(after: Int64, highest: Int64, following rows: [SyncOperation], pageSize: Int = SyncLimits.pageSize) {
        var operations = rows
        let fits = SyncLimits.fitting(operations, count: pageSize, bytes: SyncLimits.maximumAnswerBytes)
        let more = operations.count > fits
        if more { operations.removeLast(operations.count - fits) }
        let last = more ? operations[operations.count - 1].serverSeq : max(after, highest)
        self.init(operations: operations, last: last, more: more)
    }
}
