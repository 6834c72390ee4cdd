import NavStackCore
import XCTest

final class CatalogTests: XCTestCase {
    /// Every phrase exists in every language, with the same values to fill in.
    func testEveryKeyExistsInAllThreeLanguages() {
        let english = Catalog(.en)
        for language in Language.allCases {
            let catalog = Catalog(language)
            XCTAssertEqual(catalog.keys, Set(Phrase.allCases), "\(language) misses \(Set(Phrase.allCases).subtracting(catalog.keys))")
            for phrase in Phrase.allCases {
                XCTAssertEqual(
                    Self.placeholders(catalog.template(phrase)), Self.placeholders(english.template(phrase)),
                    "\(language): \(phrase.rawValue)")
                XCTAssertFalse(catalog.template(phrase).isEmpty, "\(language): \(phrase.rawValue)")
            }
        }
        // `exit` is `quit` by another name and shares its summary.
        for word in CommandWord.allCases where word != .exit {
            XCTAssertNotNil(Phrase(rawValue: "summary." + word.rawValue), word.rawValue)
        }
        for language in Language.allCases {
            XCTAssertEqual(Catalog(language).summary(.exit), Catalog(language).summary(.quit))
        }
    }

    func testTheVocabularyOfTheTutorials() {
        let pt = Catalog(.pt)
        XCTAssertEqual(pt(.titleMyTasks), "Minhas Tarefas")
        XCTAssertEqual(pt(.crumbEdit), "Editar")
        XCTAssertEqual(pt(.labelDone), "Concluída")
        XCTAssertEqual(pt(.titleNotFound), "Tarefa não encontrada")
        XCTAssertTrue(pt.summary(.save).contains("Salva"))
        let es = Catalog(.es)
        XCTAssertEqual(es(.titleMyTasks), "Mis tareas")
        XCTAssertEqual(es(.labelDone), "Completada")
        XCTAssertEqual(es(.titleNotFound), "Tarea no encontrada")
        XCTAssertTrue(es.summary(.save).contains("Guarda"))
    }

    func testCountsAreGroupedAsTheLanguageWritesThem() {
        let english = Catalog(.en)
        XCTAssertEqual(
            [0, 999, 1000, 40_000, 100_000, 1_234_567, -12_345].map(english.grouped),
            ["0", "999", "1,000", "40,000", "100,000", "1,234,567", "-12,345"])
        XCTAssertEqual(Catalog(.pt).grouped(100_000), "100.000")
        XCTAssertEqual(Catalog(.es).grouped(1_234_567), "1.234.567")
    }

    func testTheLanguageComesFromTheLocale() {
        XCTAssertEqual(Language.from(environment: ["LANG": "pt_BR.UTF-8"]), .pt)
        XCTAssertEqual(Language.from(environment: ["LANG": "es_ES.UTF-8"]), .es)
        XCTAssertEqual(Language.from(environment: ["LC_ALL": "es_MX", "LANG": "pt_BR.UTF-8"]), .es)
        XCTAssertEqual(Language.from(environment: ["LC_MESSAGES": "pt_PT", "LANG": "en_US"]), .pt)
        XCTAssertEqual(Language.from(environment: ["LANG": "fr_FR.UTF-8"]), .en)
        XCTAssertEqual(Language.from(environment: ["LANG": "C.UTF-8"]), .en)
        XCTAssertEqual(Language.from(environment: [:]), .en)
    }

    func testMessagesInEachLanguage() {
        XCTAssertEqual(NavError.noSuchRow(9, rows: 3).message(in: Catalog(.pt)), "não há linha 9: a lista tem 3 linhas")
        XCTAssertEqual(NavError.noSuchTask("42").message(in: Catalog(.es)), "no existe la tarea 42")
        XCTAssertEqual(
            NavError.notAvailable(.edit, screen: .list, available: [.open]).message(in: Catalog(.es)),
            "'edit' no está disponible en la lista de tareas; aquí: open")
    }

    private static func placeholders(_ text: String) -> Set<String> {
        var names = Set<String>()
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.insert(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
