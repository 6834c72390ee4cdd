import Foundation
import XCTest

/// `navstack completion SHELL` loaded into the real shells, and `navstack man-page`
/// against the committed navstack.1.
final class CompletionTests: XCTestCase {
    /// Runs `script` with `shell`, the binary's folder first on PATH.
    private func shell(_ shell: String, _ arguments: [String]) throws -> (stdout: String, stderr: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [shell] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = NavstackProcess.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["HOME"] = FileManager.default.temporaryDirectory.path
        environment["ZDOTDIR"] = FileManager.default.temporaryDirectory.path
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self), process.terminationStatus)
    }

    private func requireShell(_ name: String) throws {
        let found = ["/usr/bin/", "/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + name) }
        try XCTSkipUnless(found, "\(name) is not installed (scripts/test installs it)")
    }

    /// bash: the completion function called as bash calls it, for each partial line.
    private func bash(_ line: String) throws -> [String] {
        let script = """
            source <(navstack completion bash) || exit 3
            line=$1
            read -ra COMP_WORDS <<< "$line"
            [[ $line == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=$line; COMP_POINT=${#line}
            complete -p navstack >/dev/null || exit 4
            _navstack navstack "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try shell("bash", ["-c", script, "bash", line])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    func testBashCompletesOptionsSubcommandsAndValues() throws {
        XCTAssertEqual(try bash("navstack --fo"), ["--format"])
        XCTAssertEqual(try bash("navstack --format "), ["text", "json"])
        XCTAssertEqual(try bash("navstack --lang "), ["en", "pt", "es"])
        XCTAssertEqual(try bash("navstack im"), ["import"])
        XCTAssertEqual(try bash("navstack completion "), ["bash", "zsh", "fish"])
        XCTAssertEqual(try bash("navstack --store s.sqlite export --u"), ["--user"])
        XCTAssertEqual(try bash("navstack export --form"), [], "export has no --format")
        XCTAssertTrue(
            try bash("navstack --open navstack://account/").contains("//account/settings"),
            "bash splits words at ':', so the part after it is completed")
        XCTAssertEqual(try bash("navstack --open tasks/n"), ["tasks/new"])
    }

    func testZshCompletesFormatFromFo() throws {
        try requireShell("zsh")
        // An interactive zsh in a pseudo-terminal: type the line and Tab, then a key bound
        // to a widget that prints the edited line.
        let script = """
            zmodload zsh/zpty || exit 3
            out=$1
            zpty -b z 'zsh -f -i'
            zpty -w z 'PS1=; autoload -U compinit; compinit -u -D; source <(navstack completion zsh) || print LOAD-FAILED > $out.err'
            zpty -w z 'dump() { print -r -- "[$BUFFER]" > '$out'; }; zle -N dump; bindkey "^X" dump'
            zpty -w -n z $'navstack --fo\\t'
            sleep 1
            zpty -w -n z $'\\C-x'
            for i in {1..100}; do [[ -s $out ]] && break; sleep 0.1; done
            zpty -d z
            [[ -e $out.err ]] && exit 5
            cat $out
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("navstack-zsh-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try shell("zsh", ["-f", "-c", script, "zsh", file])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "[navstack --format ]\n", result.stderr)
    }

    func testZshScriptLoadsWithoutError() throws {
        try requireShell("zsh")
        let result = try shell("zsh", ["-f", "-c", "autoload -U compinit; compinit -u -D; source <(navstack completion zsh) && print ok"])
        XCTAssertEqual(result.stdout, "ok\n")
        XCTAssertEqual(result.stderr, "")
    }

    func testFishCompletesOptionsSubcommandsAndValues() throws {
        try requireShell("fish")
        func fish(_ line: String) throws -> [String] {
            let result = try shell(
                "fish", ["--no-config", "-c", "source (navstack completion fish | psub); and complete -C $argv[1]", line])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, "")
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        XCTAssertEqual(try fish("navstack --fo"), ["--format"])
        XCTAssertEqual(Set(try fish("navstack --format ")), ["text", "json"])
        XCTAssertEqual(Set(try fish("navstack --store s.sqlite export --u")), ["--user"])
        XCTAssertTrue(try fish("navstack --open ").contains("navstack://account/settings"))
        XCTAssertTrue(try fish("navstack ").contains("import"))
    }

    func testBadShellIsABadUsage() throws {
        let result = try NavstackProcess.run(["completion", "tcsh"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.hasPrefix("Error: the value 'tcsh' is invalid for '<shell>': use bash, zsh or fish\n"), result.stderr)
    }

    func testTheCommittedManPageIsWhatTheBinaryPrints() throws {
        let result = try NavstackProcess.run(["man-page"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let committed = try String(contentsOf: NavstackProcess.packageRoot.appendingPathComponent("navstack.1"), encoding: .utf8)
        XCTAssertEqual(result.stdout, committed, "regenerate it: .build/debug/navstack man-page > navstack.1")
        XCTAssertTrue(result.stdout.hasPrefix(".TH NAVSTACK 1"))
        for text in ["\\-\\-store", "\\-\\-format", "import", "completion"] {
            XCTAssertTrue(result.stdout.contains(text), text)
        }
    }
}
