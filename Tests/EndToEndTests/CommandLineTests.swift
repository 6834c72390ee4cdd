import Foundation
import XCTest

/// The binary as scripts and people use it: options, exit codes, piped input of every
/// kind, and the order of stdout and stderr.
final class CommandLineTests: XCTestCase {
    private let memory = ["--memory"]

    func testExitStatusIsZeroWhenEveryCommandSucceeds() throws {
        let result = try NavstackProcess.run(memory, lines: ["login ana", "open 1", "back"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "")
    }

    func testExitStatusIsOneWhenACommandFailsAndTheScriptGoesOn() throws {
        let result = try NavstackProcess.run(memory + ["--format", "json"], lines: ["login ana", "open 9", "open 1"])
        XCTAssertEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 4, "launch, login, the error, open 1")
        XCTAssertTrue(lines[3].hasPrefix(#"{"screen":"detail""#))
    }

    func testBailStopsAtTheFirstFailure() throws {
        let result = try NavstackProcess.run(memory + ["--bail", "--format", "json"], lines: ["login ana", "open 9", "open 1"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 3)
        XCTAssertTrue(result.stdout.hasSuffix(#"{"error":{"message":"there is no row 9: the list has 3 rows","line":2}}"# + "\n"))
    }

    func testCommandsFromOptionsInsteadOfStdin() throws {
        let result = try NavstackProcess.run(
            memory + ["--format", "json", "-c", "login ana", "-c", "go tasks/2/edit"],
            lines: ["open 1"])
        XCTAssertEqual(result.status, 0)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 3, "stdin is not read")
        XCTAssertTrue(lines[2].contains(#""path":["detail/2","edit/2"]"#))
        let failing = try NavstackProcess.run(memory + ["-c", "login ana", "-c", "opne"])
        XCTAssertEqual(failing.status, 1)
        XCTAssertEqual(failing.stderr, "navstack: line 2: unknown command 'opne'; did you mean 'open'? (help lists the commands)\n")
    }

    func testQuitStopsReadingWithStatusZero() throws {
        let result = try NavstackProcess.run(memory + ["--format", "json"], lines: ["login ana", "quit", "open 9"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 2)
    }

    func testBadUsageExitsWith64() throws {
        for arguments in [
            ["--width", "5"], ["--width", "wide"], ["--page-size", "0"], ["--format", "xml"],
            ["--open", "http://x"], ["--lang", "fr"], ["--no-such-option"], ["extra"],
        ] {
            let result = try NavstackProcess.run(memory + arguments)
            XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
            XCTAssertEqual(result.stdout, "", arguments.joined(separator: " "))
            XCTAssertFalse(result.stderr.isEmpty, arguments.joined(separator: " "))
        }
    }

    func testHelpAndVersion() throws {
        let help = try NavstackProcess.run(["--help"])
        XCTAssertEqual(help.status, 0)
        for option in ["--memory", "--format", "--echo", "--bail", "--open", "--width", "--page-size", "-c", "--lang"] {
            XCTAssertTrue(help.stdout.contains(option), option)
        }
        let version = try NavstackProcess.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.stdout, "0.2.0\n")
    }

    func testTheLocaleChoosesTheLanguageAsLangDoes() throws {
        let script = Data("login ana\nopen 2\nedit\nopne\ntab account\nhelp\n".utf8)
        for (locale, lang) in [("pt_BR.UTF-8", "pt"), ("es_ES.UTF-8", "es")] {
            let byLocale = try NavstackProcess.run(memory, input: script, merged: true, environment: ["LANG": locale])
            let byOption = try NavstackProcess.run(memory + ["--lang", lang], input: script, merged: true)
            XCTAssertEqual(byLocale.stdout, byOption.stdout, locale)
            XCTAssertTrue(byLocale.stdout.contains(lang == "pt" ? "Minhas Tarefas" : "Mis tareas"), locale)
        }
        let english = try NavstackProcess.run(memory + ["--lang", "en"], input: script, environment: ["LANG": "pt_BR.UTF-8"])
        XCTAssertTrue(english.stdout.contains("My Tasks"), "--lang wins over the locale")
        XCTAssertEqual(try NavstackProcess.run(memory + ["--lang", "fr"]).status, 64)
    }

    func testErrorsFollowTheScreensBeforeThemWhenMerged() throws {
        let result = try NavstackProcess.run(memory + ["--echo"], lines: ["login ana", "opne", "where"], merged: true)
        let echo = result.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("> ") || $0.hasPrefix("navstack: line") }
        XCTAssertEqual(
            echo,
            [
                "> login ana", "> opne", "navstack: line 2: unknown command 'opne'; did you mean 'open'? (help lists the commands)",
                "> where",
            ])
    }

    func testPipedOutputHasNoEscapeSequences() throws {
        let result = try NavstackProcess.run(memory, lines: ["login ana", "new", "save", "opne"], merged: true)
        XCTAssertFalse(result.stdout.contains("\u{1B}"))
    }

    func testBadBytesOnStdinGetOneErrorEach() throws {
        var input = Data("login ana\n".utf8)
        input += Data([0x6F, 0x70, 0x65, 0x6E, 0x20, 0xC3, 0x28, 0x0A])  // invalid UTF-8
        input += Data("open 1\u{0}\n".utf8)  // NUL
        input += Data("add \u{1B}]0;pwned\u{7}\n".utf8)  // escape sequence
        input += Data(repeating: UInt8(ascii: "x"), count: 1 << 20) + Data("\n".utf8)  // a megabyte
        input += Data("open 1\r\n".utf8)  // CRLF is fine
        input += Data("where".utf8)  // no final newline
        let result = try NavstackProcess.run(memory + ["--format", "json"], input: input)
        XCTAssertEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 8)
        XCTAssertEqual(lines[2], #"{"error":{"message":"the text is not valid UTF-8","line":2}}"#)
        XCTAssertEqual(lines[3], #"{"error":{"message":"line contains a NUL byte","line":3}}"#)
        XCTAssertEqual(lines[4], #"{"error":{"message":"line contains the control character \\u{1B}; type plain text","line":4}}"#)
        XCTAssertEqual(lines[5], #"{"error":{"message":"line too long (1048576 bytes; the limit is 4096)","line":5}}"#)
        XCTAssertTrue(lines[6].hasPrefix(#"{"screen":"detail""#))
        XCTAssertEqual(lines[7], #"{"url":"navstack://tasks/1","breadcrumb":["My Tasks","Buy fruit"]}"#)
    }

    func testEchoShowsBadBytesEscaped() throws {
        let result = try NavstackProcess.run(memory + ["--echo"], input: Data("find \u{1B}[2J\n".utf8), merged: true)
        XCTAssertTrue(result.stdout.contains("> find \\u{1B}[2J\n"))
        XCTAssertFalse(result.stdout.contains("\u{1B}"))
    }

    func testNoLineIsWiderThanTheWidth() throws {
        let script = [
            "login ana", "add " + String(repeating: "長い題名 ", count: 30), "edit",
            "notes " + String(repeating: "word ", count: 100), "save", "back", "help", "tab account", "about",
        ]
        for width in [20, 40, 80] {
            let result = try NavstackProcess.run(memory + ["--width", String(width)], lines: script)
            for line in result.stdout.split(separator: "\n") {
                XCTAssertLessThanOrEqual(Self.columns(line), width, "\(width): \(line)")
            }
        }
    }

    func testTheOpenOptionIsOpenedByLogin() throws {
        let result = try NavstackProcess.run(memory + ["--format", "json", "--open", "navstack://tasks/new"], lines: ["login ana"])
        let lines = result.stdout.split(separator: "\n")
        XCTAssertTrue(lines[0].contains(#""pending":"navstack://tasks/new""#))
        XCTAssertTrue(lines[1].hasPrefix(#"{"screen":"new-task""#))
    }

    func testPageSize() throws {
        let result = try NavstackProcess.run(memory + ["--format", "json", "--page-size", "1"], lines: ["login ana", "page 3"])
        XCTAssertTrue(result.stdout.contains(#""items":[{"row":3,"id":3"#))
        XCTAssertTrue(result.stdout.contains(#""page":3,"pages":3"#))
    }

    // MARK: - Options

    func testUsageErrorsAndTheExecutablesMessagesSpeakTheLanguage() throws {
        let pt = try NavstackProcess.run(["--lang", "pt", "--width", "5"])
        XCTAssertEqual(pt.status, 64)
        XCTAssertTrue(pt.stderr.hasPrefix("Erro: o valor '5' é inválido para '--width': use de 20 a 1000\nUso: navstack "), pt.stderr)
        XCTAssertTrue(pt.stderr.hasSuffix("  Veja 'navstack --help' para mais informações.\n"), pt.stderr)
        let es = try NavstackProcess.run(["--formt", "json"], environment: ["LANG": "es_ES.UTF-8"])
        XCTAssertTrue(es.stderr.hasPrefix("Error: opción desconocida '--formt'; ¿quisiste decir '--format'?\nUso: "), es.stderr)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-lang-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tasks = folder.appendingPathComponent("tasks.json")
        try Data(#"[{"title": "Um"}, {"title": "Dois"}]"#.utf8).write(to: tasks)
        let imported = try NavstackProcess.run(
            [
                "import", "--store", folder.appendingPathComponent("s.sqlite").path,
                "--user", "ana", tasks.path,
            ], environment: ["LC_ALL": "pt_BR.UTF-8"])
        XCTAssertEqual(imported.stdout, "2 tarefas importadas\n", imported.stderr)
    }

    func testMemoryWithStoreIsABadUsageNamingBoth() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-cl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("s.sqlite").path
        for arguments in [
            ["--memory", "--store", store, "-c", "login ana"], ["--store", store, "--memory", "-c", "login ana"],
            ["export", "--memory", "--store", store],
        ] {
            let result = try NavstackProcess.run(arguments)
            XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.hasPrefix("Error: '--memory' cannot be used with '--store <path>'\n"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: store))
        }
    }

    func testARelativeXDGDataHomeIsIgnored() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-home-\(UUID().uuidString)")
        let relative = "navstack-relative-\(UUID().uuidString)"
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(relative)
        defer {
            try? FileManager.default.removeItem(at: home)
            try? FileManager.default.removeItem(at: here)
        }
        let result = try NavstackProcess.run(["-c", "login ana"], environment: ["XDG_DATA_HOME": relative, "HOME": home.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.path + "/.local/share/navstack/navstack.sqlite"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: here.path), "the relative folder is not created")
    }

    func testAValueOptionRefusesAnOptionAsItsValue() throws {
        let folder = FileManager.default.currentDirectoryPath
        for (arguments, option) in [
            (["--store", "--memory"], "--store <path>"), (["--format", "--echo"], "--format <format>"),
            (["-c", "-x"], "-c <command>"), (["--store", "--"], "--store <path>"),
        ] {
            let result = try NavstackProcess.run(arguments)
            XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.hasPrefix("Error: missing value for '\(option)'\n"), result.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/--memory"), "no store named --memory")
    }

    func testAnUnknownOptionSuggestsTheCloseOne() throws {
        let result = try NavstackProcess.run(memory + ["--formt", "json"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.hasPrefix("Error: unknown option '--formt'; did you mean '--format'?\n"), result.stderr)
        let far = try NavstackProcess.run(memory + ["--zzzzzz"])
        XCTAssertTrue(far.stderr.hasPrefix("Error: unknown option '--zzzzzz'\n"), far.stderr)
        let sub = try NavstackProcess.run(["export", "--memroy"])
        XCTAssertTrue(sub.stderr.hasPrefix("Error: unknown option '--memroy'; did you mean '--memory'?\n"), sub.stderr)
    }

    func testStoreOptionsMayComeBeforeTheSubcommand() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-cl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("s.sqlite").path
        let tasks = folder.appendingPathComponent("tasks.json")
        try Data(#"[{"title": "Before"}]"#.utf8).write(to: tasks)
        let imported = try NavstackProcess.run(["--store", store, "--user", "ana", "import", tasks.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(imported.stdout, "imported 1 task\n")
        let exported = try NavstackProcess.run(["--store=\(store)", "export", "--user", "ana"])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        XCTAssertTrue(exported.stdout.contains(#""title":"Before""#), exported.stdout)
        // Before the subcommand as after it, --memory is refused by export.
        let memory = try NavstackProcess.run(["--memory", "--sample", "export", "--user", "ana"])
        XCTAssertEqual(memory.status, 64, memory.stderr)
        XCTAssertTrue(memory.stderr.hasPrefix("Error: export --memory: "), memory.stderr)
        let wrong = try NavstackProcess.run(["--echo", "export"])
        XCTAssertEqual(wrong.status, 64)
        XCTAssertTrue(wrong.stderr.hasPrefix("Error: unknown option '--echo'\nUsage: navstack export"), wrong.stderr)
    }

    func testHelpNamesTheCompletionAndManPageSubcommands() throws {
        let help = try NavstackProcess.run(["--help"])
        XCTAssertTrue(help.stdout.contains("\n  completion "), help.stdout)
        XCTAssertTrue(help.stdout.contains("\n  man-page "), help.stdout)
        let completion = try NavstackProcess.run(["help", "completion"])
        XCTAssertTrue(
            completion.stdout.contains("\n  fish: navstack completion fish > ~/.config/fish/completions/navstack.fish\n"),
            "install lines are shown as they are: \(completion.stdout)")
    }

    /// Display columns of a line (wide characters count 2).
    static func columns(_ line: Substring) -> Int {
        line.unicodeScalars.reduce(0) { total, scalar in
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60, 0x1F300...0x1FAFF:
                total + 2
            case 0x0300...0x036F, 0x200D, 0xFE0F:
                total
            default:
                total + 1
            }
        }
    }
}
