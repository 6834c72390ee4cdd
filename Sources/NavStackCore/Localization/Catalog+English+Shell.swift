extension Catalog {
    /// The words of the shell's one-shot commands (`navstack add`, `navstack done 42`, …).
    static let englishShellPhrases: KeyValuePairs<Phrase, String> = [
        .badTaskReference:
            "'{text}' names no task: an ID is a task's number (as in its URL), its uuid, or the first 8 or more hexadecimal digits of its uuid",
        .ambiguousTaskReference: "'{text}' starts the uuid of several tasks ({matches}): type more of it",
        .modifyNeedsWords: "modify needs what to change: a new title, ATTR:VALUE, ATTR: (clears it), +TAG or -TAG",
        .noProfileSignedIn: "no profile is signed in: name one with --user NAME (or sign in: navstack -c 'login NAME')",
        .shellAdded: "added {id} {title}",
        .shellCompleted: "completed {id} {title}",
        .shellAlreadyDone: "{id} {title} was done already",
        .shellModified: "modified {id} {title} ({fields})",
        .shellAnnotated: "annotated {id} {title}",
        .shellDeleted: "deleted {id} {title}",
        .shellDeletedWithSubtasks: "deleted {id} {title} and its {count} subtasks",
        .shellUndid: "undid {change}",
        .shellRedid: "redid {change}",
        .shellChangeOne: "{kind} of {id} {title}",
        .shellChangeMany: "{kind} of {id} {title} and {more} more",
        .shellChangeImport: "import of {count} tasks",
        .summaryModify:
            "Change row N (on a detail: the task shown) in one step with add's words: ATTR:VALUE, ATTR: clears it, +TAG, -TAG, other words the new title",
    ]
}
