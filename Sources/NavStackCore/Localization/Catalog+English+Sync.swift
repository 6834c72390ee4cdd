extension Catalog {
    /// The words of sync and its HTTP client.
    static let englishSyncPhrases: KeyValuePairs<Phrase, String> = [
        .syncWireNotJSON: "malformed JSON: {reason}",
        .syncWireNotAnObject: "{path} must be a JSON object",
        .syncWireNotAnArray: "{path} must be an array",
        .syncWireNotABoolean: "{path} must be true or false",
        .syncWireMissing: "{path} is missing",
        .syncWireRepeated: "{path} is given twice",
        .syncWireBadReplica: "{path} must be 32 lowercase hexadecimal digits",
        .syncWireNotAWholeNumber: "{path} must be a whole number from {low} to {high}",
        .syncWireBadTask: "{path} must be a string of 1 to {limit} characters without control characters",
        .syncWireBadField: "{path} must be one of {fields}",
        .syncWireTooManyOperations: "more than {limit} ops in one request",
        .syncWireStampAhead: "{path} is {ahead} ahead of the server's clock (it allows {limit}): the sending machine's clock is wrong",
        .syncWireRefusedValue: "{path} sets a task id or a {field} that navstack does not take",
        .syncWireReplicaTaken:
            "{path} reuses seq {seq} of replica {replica}, which the server holds with other content: the replica must take a new id",
        .syncWireBadSealed:
            "{path} must be base64 text of a sealed payload",
        .syncWireSealedAndClear:
            "{path} has a sealed payload and clear fields beside it",
        .syncWireBadKey:
            "key must be printable text of at most {limit} bytes",
        .syncWireNotSealed:
            "{path} is not sealed, and this account's operations are end-to-end encrypted: update navstack",
        .syncWireSealedWithoutKey:
            "{path} is sealed, but the account has no key yet: send the key first",
        .syncWireDropWithoutKey:
            "drop_clear needs the account's key first",
        .syncWireSnapshotWithOperations:
            "a snapshot goes in a request of its own, without ops",
        .syncWireSnapshotWithoutKey:
            "a snapshot needs the account's key first",
        .syncWireSnapshotNeeded:
            "this account's log starts at a snapshot, which this navstack cannot take: update navstack",
        .syncWrongPassphrase:
            "the passphrase does not open this account's tasks",
        .syncNoPassphrase:
            "profile '{user}' has no passphrase for its account's tasks: give it with NAVSTACK_SYNC_PASSPHRASE or --passphrase-file FILE, or run navstack sync at a terminal to be asked",
        .syncPassphrasePrompt:
            "Passphrase of this account's tasks (not shown as you type): ",
        .syncPassphraseNewPrompt:
            "A new passphrase for this account's tasks (not shown as you type; each device will ask for it): ",
        .syncPassphraseAgainPrompt:
            "The same passphrase again: ",
        .syncPassphraseMismatch:
            "the two passphrases typed differ: nothing was kept",
        .syncBadPassphrase:
            "{source}: a passphrase is 8 to 1024 bytes of text without control characters",
        .syncPassphraseFileUnreadable:
            "--passphrase-file: cannot read {file}: {reason}",
        .syncPassphraseTyped:
            "the passphrase typed",
        .syncUnopenable:
            "the server sent an operation that this account's key does not open (replica {replica}, seq {seq}): it was changed on the server; nothing was applied",
        .syncUnopenableSnapshot:
            "the server sent a snapshot of this account (through {seq}) that its key does not open or that cannot be read: it was changed on the server; nothing was applied",
        .syncKeyChanged:
            "the server holds another key for this account than this store: the account was removed and made again, or this is another server; nothing was applied",
        .syncBadKeyRecord:
            "the server's key record of this account cannot be read",
        .syncWireNotAKeyRecord:
            "key is not a key record: a JSON object of kdf \"pbkdf2-hmac-sha256\", iterations, salt, check and write_check, of at most {limit} bytes",
        .syncWireBadWriteKey:
            "write_key must be base64 text of 32 bytes",
        .syncSetAside:
            "set aside {count} operation(s) from replica {replica} that this account's key does not open (sent with a token, without the passphrase, or changed on the server); the rest was applied. On the server, navstack-server user drop-replica NAME {replica} removes them",
        .syncClearNeedsMigrate:
            "the server holds this account's tasks without a key, not end-to-end encrypted: if the account was never encrypted, run navstack sync --migrate to encrypt it with this passphrase; if it was, the server lost or dropped its key. Nothing was applied or sent",
        .syncMadeKey:
            "made a new key for this account's tasks from the passphrase: every other device of the account needs the same passphrase",
        .syncKeyMissing:
            "the server answered without this account's key, which it held before: it lost or dropped it (a restore from an old backup, or a changed server); nothing was applied or sent",
        .syncRestored:
            "the server's log was restored from a backup since this device last synced: it pulled the account again from the start and sent again every task it holds",
        .syncWireBadEpoch:
            "epoch must be 1 to 64 letters, digits, - or _",
        .syncKeyNotKept:
            "the server does not keep the key this device offered for the account: it answered without it and had nothing more to send; nothing was sent",
        .syncKeyTaken:
            "the server answered 409: the account's operations are sealed with another key",
        .syncMalformedAnswer: "the server's answer is not a sync answer ({reason})",
        .syncNotConfigured: "profile '{user}' has no sync server: give --server URL once, with its token",
        .syncNoProfile: "there is no profile '{user}' in this store",
        .syncRefusedToken:
            "the server refused the token (401): give a valid one (navstack-server user token) with NAVSTACK_TOKEN, --token-file FILE or --token",
        .syncServerAnswered: "the server answered {status}",
        .syncServerAnsweredWith: "the server answered {status}: {message}",
        .syncOutOfTime: "the sync did not finish in time",
        .syncReplicaTaken: "the server holds changes of this store with other content (409), also under a new replica id",
        .syncStampsAhead: "the server refused changes stamped ahead of its clock",
        .syncClockAhead: "this machine's clock is {ahead} ahead of the server's: fix the clock; your changes are kept",
        .syncTimedOut: "the sync did not finish within {seconds} s",
        .syncTimedOutByOption: "the sync did not finish within {seconds} s (--timeout)",
        .syncProgress: "sync: sent {sent} of {total}",
        .syncProgressReceived: "sync: sent {sent} of {total}, received {received}",
        .syncProgressReceivedOnly: "sync: received {received}",
        .syncChangesKept: "{reason}; your changes are kept and will be sent next time",
        .syncGivenNotKept: "{reason} (the server and token given were not kept)",
        .syncGivenKept: "{reason} (the server and token given are kept: {why})",
        .syncNoToken:
            "profile '{user}' has no token: give it with NAVSTACK_TOKEN, --token-file FILE or --token, or run navstack sync at a terminal to be asked",
        .syncBadToken: "{source}: a token is 1 to 1024 printable characters without spaces (navstack-server user add prints one)",
        .syncTokenFileUnreadable: "--token-file: cannot read {file}: {reason}",
        .syncTokenPrompt: "Token for {server} (not shown as you type): ",
        .syncTokenTyped: "the token typed",
        .syncNoticeChanged: "'{task}': {fields} changed on another device; undo restores yours",
        .syncNoticeDeleted: "'{task}': deleted on another device; undo restores yours",
        .syncNoticeAnd: " and ",
        .syncFieldDone: "done",
        .syncFieldPlace: "place",
        .httpInvalidURL: "\"{text}\" is not a server address (https://host[:port][/path]): {reason}",
        .httpUnsupportedScheme: "only https:// (and http:// on this machine) addresses are supported, not {scheme}://",
        .httpInvalidHeader: "the header \"{name}\" cannot be sent: its name or value is not valid, or the client sets it itself",
        .httpCannotResolve: "the host {host} could not be found",
        .httpRefused: "the server at {address} refused the connection",
        .httpUnreachable: "the server at {address} cannot be reached: {reason}",
        .httpTimedOut: "the server did not answer within {time}",
        .httpConnectionClosed: "the server closed the connection before it finished answering",
        .httpMalformedResponse: "the server's answer is not valid HTTP: {what}",
        .httpResponseTooLarge: "the server's answer is larger than {size}",
        .httpSystem: "{call} failed: {reason}",
        .httpPlainTextRefused:
            "http:// would send the token and tasks to {host} in clear text; use https:// (http:// is only for localhost, 127.0.0.0/8 and ::1)",
        .httpUntrusted: "the server at {address} is not trusted: {reason}",
        .httpTLSFailed: "the TLS handshake with the server at {address} failed: {reason}",
        .httpNotTLS: "the server at {address} answered in plain HTTP, not TLS",
        .httpNoSystemAuthorities:
            "no certificate authorities were found on this machine: set SSL_CERT_FILE, or give the server's authority with --ca FILE",
        .httpUnreadableAuthorities: "the certificate authorities in {file} cannot be read: {reason}",
        .httpTLSUnavailable: "TLS cannot be set up: {reason}",
        .syncWireUnknownFormat:
            "format {format} is not one this server knows (it knows 1 to {current}): update navstack-server",
        .syncStrayAnswer:
            "the server's answer did not name the operations this device sent: it was the answer to another request (a stray answer on the connection); nothing of it was applied",
        .syncAsideFull:
            "this device keeps at most {count} operations ({bytes} MiB) set aside; the others were counted, not kept. On the server, navstack-server user drop-replica NAME REPLICA removes them, and this device then lets go of those it keeps",
        .syncWireDropWithoutWriteCheck:
            "this account's key record has no write check (it was made before write keys): it takes no snapshot and no drop_clear, which drop operations, since it cannot tell a device from a token holder",
        .syncWireTooManyReplicas: "{path} names more than {limit} replicas",
    ]
}
