import NavStackCore
import XCTest

/// Transcripts in Markdown files: which fenced blocks hold one, and rewriting a block.
final class TranscriptMarkdownTests: XCTestCase {
    private let document = """
        # Flows

        ```sh
        navstack --memory
        ```

        ```transcript
        #! navstack --width 40
        > login ana
        My Tasks
        ```

        Text between.

        ~~~~ transcript the sheet
        > new
        ```transcript
        ~~~~

        """

    func testOnlyBlocksTaggedTranscriptAreFound() throws {
        let blocks = Transcript.blocks(inMarkdown: document)
        XCTAssertEqual(blocks.map(\.fenceLine), [7, 15])
        XCTAssertEqual(blocks.map(\.firstLine), [8, 16])
        XCTAssertEqual(blocks[0].text, "#! navstack --width 40\n> login ana\nMy Tasks\n")
        XCTAssertEqual(blocks[0].fence, "```")
        // A backtick fence inside a tilde block neither closes it nor opens another.
        XCTAssertEqual(blocks[1].text, "> new\n```transcript\n")
        XCTAssertEqual(blocks[1].fence, "~~~~")
        XCTAssertTrue(blocks.allSatisfy(\.isClosed))
        let transcript = try Transcript(text: blocks[0].text)
        XCTAssertEqual(transcript.options, ["--width", "40"])
        XCTAssertEqual(transcript.commands, ["login ana"])
    }

    func testWhatIsNotATranscriptBlock() {
        let text = """
            ```
            > login ana
            ```
            ```console
            > login ana
            ```
            ```transcripts
            > login ana
            ```
                ```transcript
                > indented four spaces: code, not a fence
                ```
            `` `transcript
            ```transcript `with a backtick`
            > login ana
            ```

            """
        XCTAssertEqual(Transcript.blocks(inMarkdown: text), [])
        XCTAssertEqual(Transcript.blocks(inMarkdown: ""), [])
    }

    /// CommonMark closes a fence with a line of the same character, at least as long,
    /// with nothing after it but blanks.
    func testWhatClosesAFence() {
        let text = """
            ````transcript
            > a
            ```
            ~~~~
            ```` x
            `````  \t
            after
            ```transcript
            > never closed

            """
        let blocks = Transcript.blocks(inMarkdown: text)
        XCTAssertEqual(blocks.count, 2)
        XCTAssertEqual(blocks[0].text, "> a\n```\n~~~~\n```` x\n")
        XCTAssertTrue(blocks[0].isClosed)
        XCTAssertEqual(blocks[1].fenceLine, 8)
        XCTAssertEqual(blocks[1].text, "> never closed\n\n")
        XCTAssertFalse(blocks[1].isClosed)
        XCTAssertEqual(
            TranscriptError.unclosedBlock(fence: blocks[1].fence).message(in: .english),
            "the transcript block has no closing fence: end it with a line of ```")
    }

    func testAnIndentedFenceTakesItsIndentationOffTheLines() {
        let text = "- a flow:\n\n   ```transcript\n   > login ana\n     My Tasks\n  x\n   ```\n"
        let blocks = Transcript.blocks(inMarkdown: text)
        XCTAssertEqual(blocks.count, 1)
        XCTAssertEqual(blocks[0].indent, 3)
        XCTAssertEqual(blocks[0].text, "> login ana\n  My Tasks\nx\n")
    }

    func testReplacingABlockLeavesEveryOtherByteAsItWas() {
        let blocks = Transcript.blocks(inMarkdown: document)
        let replaced = Transcript.markdown(document, replacing: [(blocks[0], "> login ana\nSign in\n\n")])
        XCTAssertEqual(
            replaced,
            document.replacingOccurrences(
                of: "#! navstack --width 40\n> login ana\nMy Tasks\n",
                with: "> login ana\nSign in\n\n"))
        XCTAssertEqual(Transcript.markdown(document, replacing: []), document)
    }

    func testSeveralBlocksAreReplacedWhateverTheirOrder() {
        let blocks = Transcript.blocks(inMarkdown: document)
        let replaced = Transcript.markdown(document, replacing: [(blocks[0], "a\nb\nc\nd\n"), (blocks[1], "e\n")])
        let again = Transcript.blocks(inMarkdown: replaced)
        XCTAssertEqual(again.map(\.text), ["a\nb\nc\nd\n", "e\n"])
        XCTAssertEqual(again.map(\.fenceLine), [7, 16])
        XCTAssertTrue(replaced.hasPrefix("# Flows\n\n```sh\nnavstack --memory\n```\n\n```transcript\na\n"))
        XCTAssertTrue(replaced.hasSuffix("Text between.\n\n~~~~ transcript the sheet\ne\n~~~~\n"))
    }

    func testAReplacedBlockKeepsItsIndentationAndCRLF() throws {
        let text = "Intro\r\n\r\n  ```transcript\r\n  > where\r\n  old\r\n  ```\r\nEnd"
        let block = try XCTUnwrap(Transcript.blocks(inMarkdown: text).first)
        let transcript = try Transcript(text: block.text)
        XCTAssertTrue(transcript.crlf)
        XCTAssertEqual(transcript.expected, ["> where", "old"])
        let replaced = Transcript.markdown(text, replacing: [(block, transcript.text(with: ["> where", "", "new"]))])
        XCTAssertEqual(replaced, "Intro\r\n\r\n  ```transcript\r\n  > where\r\n\r\n  new\r\n  ```\r\nEnd")
    }

    /// A block's diff is numbered by the lines of the file it is in.
    func testABlocksDiffCountsTheFilesLines() throws {
        let block = Transcript.blocks(inMarkdown: document)[0]
        let transcript = try Transcript(text: block.text)
        let diff = transcript.unifiedDiff(["> login ana", "My Lists"], path: "flows.md:7", firstLine: block.firstLine)
        XCTAssertEqual(
            diff,
            """
            --- flows.md:7 (expected)
            +++ flows.md:7 (actual)
            @@ -8,3 +8,3 @@
             #! navstack --width 40
             > login ana
            -My Tasks
            +My Lists

            """)
    }
}
