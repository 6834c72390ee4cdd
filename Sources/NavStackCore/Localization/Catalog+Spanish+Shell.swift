extension Catalog {
    /// As ``englishShellPhrases``.
    static let spanishShellPhrases: KeyValuePairs<Phrase, String> = [
        .badTaskReference:
            "'{text}' no nombra ninguna tarea: un ID es el número de la tarea (como en su URL), su uuid, o los primeros 8 o más dígitos hexadecimales de su uuid",
        .ambiguousTaskReference: "'{text}' empieza el uuid de varias tareas ({matches}): escriba más",
        .modifyNeedsWords: "modify necesita qué cambiar: un título nuevo, ATTR:VALOR, ATTR: (lo borra), +TAG o -TAG",
        .noProfileSignedIn: "ningún perfil ha iniciado sesión: nombre uno con --user NOMBRE (o inicie sesión: navstack -c 'login NOMBRE')",
        .shellAdded: "añadida {id} {title}",
        .shellCompleted: "completada {id} {title}",
        .shellAlreadyDone: "{id} {title} ya estaba completada",
        .shellModified: "modificada {id} {title} ({fields})",
        .shellAnnotated: "anotada {id} {title}",
        .shellDeleted: "borrada {id} {title}",
        .shellDeletedWithSubtasks: "borrada {id} {title} y sus {count} subtareas",
        .shellUndid: "deshecho: {change}",
        .shellRedid: "rehecho: {change}",
        .shellChangeOne: "{kind} de {id} {title}",
        .shellChangeMany: "{kind} de {id} {title} y {more} más",
        .shellChangeImport: "import de {count} tareas",
        .summaryModify:
            "Cambia la fila N (en un detalle: la tarea mostrada) en un solo paso con las palabras de add: ATTR:VALOR, ATTR: lo borra, +TAG, -TAG, las demás palabras son el título nuevo",
    ]
}
