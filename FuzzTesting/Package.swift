// swift-tools-version: 6.0
// libFuzzer targets for navstack's parsers. Build and run with scripts/fuzz:
//   swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
import PackageDescription

let package = Package(
    name: "FuzzTesting",
    dependencies: [
        .package(name: "navstack", path: ".."),
    ],
    targets: [
        // Any bytes as an input line: decoding, the command parser, every error message.
        .executableTarget(
            name: "FuzzCommandParser",
            dependencies: [.product(name: "NavStackCore", package: "navstack")]
        ),
        // Any bytes as stored JSON: the reader, and strings written back and read again.
        .executableTarget(
            name: "FuzzJSONValue",
            dependencies: [.product(name: "NavStackCore", package: "navstack")]
        ),
        // Any bytes as an import file: records or one clear error, never a crash.
        .executableTarget(
            name: "FuzzImport",
            dependencies: [.product(name: "NavStackCore", package: "navstack"), .product(name: "NavStackSQLite", package: "navstack")]
        ),
        // Any bytes as a Taskwarrior export: read whole and in blocks, alike.
        .executableTarget(
            name: "FuzzTaskwarrior",
            dependencies: [.product(name: "NavStackCore", package: "navstack"), .product(name: "NavStackSQLite", package: "navstack")]
        ),
        // Any bytes as a sync request and as an answer: the one codec, both ways.
        .executableTarget(
            name: "FuzzSyncCodec",
            dependencies: [.product(name: "NavStackCore", package: "navstack"), .product(name: "NavStackSync", package: "navstack")]
        ),
        // Any bytes as a deep link: the parser, and printing what it parsed back.
        .executableTarget(
            name: "FuzzDeepLink",
            dependencies: [.product(name: "NavStackCore", package: "navstack")]
        ),
    ]
)
