import NavStackCore
import XCTest

@testable import navstack

/// Every text of `--help`, of navstack and of each subcommand, exists in every language.
final class HelpTranslationTests: XCTestCase {
    private var specs: [CommandSpec] { [Navstack.spec] + Navstack.subcommands.map(\.spec) }

    func testEveryHelpTextIsTranslated() {
        for language in Language.allCases {
            for spec in specs {
                XCTAssertEqual(spec.untranslatedTexts(in: Catalog(language)), [], "\(spec.name), \(language)")
            }
        }
    }

    func testTheTablesHoldNoTextTheHelpNoLongerHas() {
        let texts = Set(specs.flatMap(\.texts))
        XCTAssertEqual(Set(Catalog.portugueseHelpTexts.keys).subtracting(texts), [])
        XCTAssertEqual(Set(Catalog.spanishHelpTexts.keys).subtracting(texts), [])
    }

    func testHelpIsShownInTheLanguageAsked() throws {
        let pt = try NavstackProcess.run(["--help"], environment: ["LANG": "pt_BR.UTF-8"])
        XCTAssertTrue(pt.stdout.hasPrefix("VISÃO GERAL: "), pt.stdout)
        XCTAssertTrue(pt.stdout.contains("\nOPÇÕES:\n"), pt.stdout)
        let esHelp = try NavstackProcess.run(["import", "--help"], environment: ["LC_ALL": "es_ES.UTF-8"])
        XCTAssertTrue(esHelp.stdout.hasPrefix("DESCRIPCIÓN: "), esHelp.stdout + esHelp.stderr)
        let en = try NavstackProcess.run(["--help"])
        XCTAssertTrue(en.stdout.hasPrefix("OVERVIEW: "))
    }
}
