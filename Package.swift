// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "navstack",
    products: [
        .executable(name: "navstack", targets: ["navstack"]),
        .library(name: "NavStackCore", targets: ["NavStackCore"]),
        .library(name: "NavStackSQLite", targets: ["NavStackSQLite"]),
    ],
    targets: [
        // The app as values (routes, the router, commands, screens, renderers) plus the
        // TaskStore protocol: commands read and write tasks only through the store they are
        // given, and output goes to a sink they are given. It opens no file itself.
        .target(name: "NavStackCore"),
        // The system SQLite.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The store: one SQLite file (or an in-memory database) through SQLite's own API.
        .target(
            name: "NavStackSQLite",
            dependencies: ["NavStackCore", "CSQLite"]
        ),
        // libedit, reached through static inline wrappers (el_set and history are variadic).
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // The parts of the C library Swift does not see.
        .systemLibrary(name: "CPosix"),
        // A small HTTP/1.1 client over the C library's sockets, for the sync server: no
        // Foundation networking and no package, so the static executable stays as it is.
        .target(
            name: "NavStackHTTP",
            dependencies: ["CPosix"]
        ),
        // The thin executable: options, the line reader, the loop.
        .executableTarget(
            name: "navstack",
            dependencies: [
                "NavStackCore",
                "NavStackSQLite",
                "CEditLine",
                "CPosix",
                "NavStackHTTP",
            ]
        ),
        .testTarget(
            name: "NavStackCoreTests",
            dependencies: ["NavStackCore", "NavStackSQLite"]
        ),
        .testTarget(
            name: "NavStackSQLiteTests",
            dependencies: ["NavStackSQLite", "CSQLite"]
        ),
        .testTarget(
            name: "NavStackHTTPTests",
            dependencies: ["NavStackHTTP"]
        ),
        // Runs the built binary: golden transcripts, exit codes, piped input.
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["navstack"],
            exclude: ["README.md"]
        ),
    ]
)
