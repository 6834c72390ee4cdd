import XCTest

@testable import NavStackCore

/// A catalog finds a template by the phrase's ordinal: each one must be the template its
/// language gives that phrase, else English's.
final class CatalogTableTests: XCTestCase {
    func testOrdinalsAreThePlacesAmongAllCases() {
        for (place, phrase) in Phrase.allCases.enumerated() {
            XCTAssertEqual(phrase.ordinal, place, phrase.rawValue)
        }
    }

    func testEachTemplateIsTheOneItsLanguageGives() {
        let english = Dictionary(Catalog.englishPhrases.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        for language in Language.allCases {
            let catalog = Catalog(language)
            // Listed once each: a phrase listed twice would keep its last template silently.
            XCTAssertEqual(catalog.phrases.map(\.count).reduce(0, +), catalog.keys.count, "\(language) lists a phrase twice")
            let own = Dictionary(catalog.phrases.joined().map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
            for phrase in Phrase.allCases {
                XCTAssertEqual(catalog.template(phrase), own[phrase] ?? english[phrase], "\(language): \(phrase.rawValue)")
            }
        }
        XCTAssertEqual(Catalog(.pt).template(.titleMyTasks), "Minhas Tarefas")
        XCTAssertEqual(Catalog(.es).template(.syncWireNotJSON), "JSON mal formado: {reason}")
        XCTAssertEqual(Catalog(.en).template(.syncWireNotJSON), "malformed JSON: {reason}")
    }
}
