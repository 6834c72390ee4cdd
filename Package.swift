// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "navstack",
    products: [
        .executable(name: "navstack", targets: ["navstack"]),
        .library(name: "NavStackCore", targets: ["NavStackCore"]),
        .library(name: "NavStackSQLite", targets: ["NavStackSQLite"]),
        .library(name: "NavStackSync", targets: ["NavStackSync"]),
        .executable(name: "navstack-server", targets: ["navstack-server"]),
    ],
    // Only the sync server uses these: navstack itself depends on none of them, so its
    // static release build compiles none of them.
    dependencies: [
        // Hummingbird's default traits add swift-configuration and full Foundation, which
        // the server does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // The server's own channel handlers: timeouts and the cap on connections.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // The server's listener for tokens that go runs beside the pool as a service.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // The app as values (routes, the router, commands, screens, renderers) plus the
        // TaskStore protocol: commands read and write tasks only through the store they are
        // given, and output goes to a sink they are given. It opens no file itself.
        .target(
            name: "NavStackCore",
            dependencies: ["NavStackBytes", "NavStackTime"]
        ),
        // Byte-level work behind a safe API (NIO's ByteBuffer is the model): bytes lent
        // as a view with checked indices, the scans made eight bytes at a time, buffers
        // written piece by piece, and the bytes the other modules' C calls take and give,
        // lent for one call. The app's pointers are here alone.
        .target(name: "NavStackBytes"),
        // Time as values: instants and their ISO 8601 text, the tz database's rules read from
        // its TZif files (and POSIX TZ strings), civil dates and times in a zone, and the
        // DATE forms a user types. The C library and the byte module alone: it reads no
        // clock and no variable, "now" and TZ are handed to it.
        .target(
            name: "NavStackTime",
            dependencies: ["NavStackBytes"]
        ),
        // Sync as values (docs/sync.md): the wire format with its one codec, the hybrid
        // clock and stamps, the registers and where a task stands. The client's store, the
        // server and the tests all use it; it opens no file and no socket.
        .target(
            name: "NavStackSync",
            dependencies: ["NavStackCore", "NavStackBytes", "NavStackTime"]
        ),
        // The system SQLite.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The store: one SQLite file (or an in-memory database) through SQLite's own API.
        .target(
            name: "NavStackSQLite",
            dependencies: ["NavStackCore", "NavStackBytes", "NavStackSync", "NavStackTime", "CSQLite"]
        ),
        // libedit, reached through static inline wrappers (el_set and history are variadic).
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // The parts of the C library Swift does not see.
        .systemLibrary(name: "CPosix"),
        // OpenSSL 3 (libssl, libcrypto), for the sync client's TLS: linked statically into
        // the release build, started only when an https:// address is used.
        .systemLibrary(
            name: "COpenSSL",
            providers: [.apt(["libssl-dev"])]
        ),
        // A small HTTP/1.1 client over the C library's sockets and OpenSSL, for the sync
        // server: no Foundation networking and no package, so the static executable stays
        // one file that starts at once.
        .target(
            name: "NavStackHTTP",
            dependencies: ["NavStackBytes", "CPosix", "COpenSSL"]
        ),
        // End-to-end encryption of sync: the key from a passphrase (PBKDF2-HMAC-SHA256) and
        // each operation's payload sealed (ChaCha20-Poly1305), through OpenSSL's libcrypto,
        // which TLS already links. Only replicas use it: the server never opens a payload.
        .target(
            name: "NavStackSeal",
            dependencies: ["NavStackCore", "NavStackBytes", "NavStackSync", "COpenSSL"]
        ),
        // The executable's input and output: the standard streams, the terminal, the line
        // readers (libedit, a pipe, -c), files read and written whole, and the runner that
        // replays transcripts in processes of their own (navstack test).
        .target(
            name: "NavStackIO",
            dependencies: ["NavStackCore", "NavStackBytes", "CEditLine", "CPosix"]
        ),
        // The sync client (docs/sync.md): the rounds, the key's offer and probe, sealing,
        // the transport (HTTP, or any other a test puts behind the protocol), progress, the
        // token and passphrase from a file or a prompt (through NavStackIO). It reads no
        // option and no variable: the executable hands it what they say.
        .target(
            name: "NavStackSyncClient",
            dependencies: ["NavStackCore", "NavStackSync", "NavStackSQLite", "NavStackHTTP", "NavStackSeal", "NavStackIO"]
        ),
        // The application between the core and the executable: what every command shares
        // (the words of errors, the options several take), commit-then-print, the store's
        // options, the automatic sync policy, and the commands beside the REPL (sync,
        // watch, test).
        .target(
            name: "NavStackApp",
            dependencies: [
                "NavStackCore",
                "NavStackSQLite",
                "NavStackSync",
                "NavStackSyncClient",
                "NavStackIO",
                "NavStackHTTP",
                "NavStackTime",
            ]
        ),
        // The thin executable: options, the line reader, the loop.
        .executableTarget(
            name: "navstack",
            dependencies: [
                "NavStackApp",
                "NavStackBytes",
                "NavStackCore",
                "NavStackSQLite",
                "NavStackSync",
                "NavStackSyncClient",
                "NavStackIO",
                "NavStackHTTP",
                "NavStackTime",
            ]
        ),
        // The sync server: the wire format, the PostgreSQL log of operations, the routes.
        .target(
            name: "NavStackServer",
            dependencies: [
                // The wire format's one codec, so the server reads and writes exactly what
                // navstack does.
                "NavStackBytes",
                "NavStackCore",
                "NavStackSync",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The server's thin executable: options, then the server or `user add`.
        .executableTarget(
            name: "navstack-server",
            dependencies: ["NavStackServer"]
        ),
        // The seeded generator the property tests share, the seeds they run
        // (NAVSTACK_TEST_SEED chooses one) and the text the twin tests draw.
        .target(name: "TestSeeds", path: "Tests/TestSeeds"),
        .testTarget(
            name: "NavStackCoreTests",
            dependencies: ["NavStackCore", "NavStackBytes", "NavStackSQLite", "TestSeeds"]
        ),
        // The byte module's views, buffers and scans, each scan held equal to its plain
        // definition over generated input.
        .testTarget(
            name: "NavStackBytesTests",
            dependencies: ["NavStackBytes", "TestSeeds"]
        ),
        // Conversions held to the system's own tz code (date(1) run as a process) around
        // every zone's changes, round trips, and each DATE form and each bad one.
        .testTarget(
            name: "NavStackTimeTests",
            dependencies: ["NavStackTime", "TestSeeds"]
        ),
        .testTarget(
            name: "NavStackSQLiteTests",
            dependencies: ["NavStackSQLite", "NavStackSync", "CSQLite", "TestSeeds"]
        ),
        .testTarget(
            name: "NavStackSyncTests",
            dependencies: ["NavStackSync", "NavStackBytes", "TestSeeds"]
        ),
        .testTarget(
            name: "NavStackHTTPTests",
            dependencies: ["NavStackHTTP", "NavStackBytes"]
        ),
        .testTarget(
            name: "NavStackSealTests",
            dependencies: ["NavStackSeal", "NavStackSync"]
        ),
        // The server's request decoding, answer, options and database URL, and its routes
        // in-process over the sync module's log in memory (HummingbirdTesting); the
        // PostgreSQL log held to the one in memory case by case (OperationLogParityTests,
        // on NAVSTACK_PG_URL under scripts/sync-env, skipped without); the server against
        // PostgreSQL end to end by Tests/Sync (scripts/sync-env).
        .testTarget(
            name: "NavStackServerTests",
            dependencies: [
                "NavStackServer",
                "NavStackCore",
                "NavStackSync",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // The sync client against the routes served in-process over the sync module's log
        // in memory (a whole sync, a restored store, a wrong passphrase, a stalled server),
        // and the merges of many replicas through it.
        .testTarget(
            name: "NavStackSyncClientTests",
            dependencies: [
                "NavStackSyncClient",
                "NavStackServer",
                "NavStackCore",
                "NavStackSync",
                "NavStackSQLite",
                "NavStackSeal",
                "NavStackHTTP",
                "TestSeeds",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        // Runs the built binary: golden transcripts, exit codes, piped input.
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["navstack", "NavStackApp", "NavStackSyncClient", "TestSeeds"],
            exclude: ["README.md"]
        ),
    ]
)
