extension Catalog {
    /// As ``englishShellPhrases``.
    static let portugueseShellPhrases: KeyValuePairs<Phrase, String> = [
        .badTaskReference:
            "'{text}' não nomeia nenhuma tarefa: um ID é o número da tarefa (como no seu URL), o seu uuid, ou os primeiros 8 ou mais dígitos hexadecimais do seu uuid",
        .ambiguousTaskReference: "'{text}' começa o uuid de várias tarefas ({matches}): escreva mais dele",
        .modifyNeedsWords: "modify precisa do que mudar: um novo título, ATTR:VALOR, ATTR: (apaga-o), +TAG ou -TAG",
        .noProfileSignedIn: "nenhum perfil tem sessão iniciada: nomeie um com --user NOME (ou entre: navstack -c 'login NOME')",
        .shellAdded: "adicionada {id} {title}",
        .shellCompleted: "concluída {id} {title}",
        .shellAlreadyDone: "{id} {title} já estava concluída",
        .shellModified: "modificada {id} {title} ({fields})",
        .shellAnnotated: "anotada {id} {title}",
        .shellDeleted: "apagada {id} {title}",
        .shellDeletedWithSubtasks: "apagada {id} {title} e as suas {count} subtarefas",
        .shellUndid: "desfeito: {change}",
        .shellRedid: "refeito: {change}",
        .shellChangeOne: "{kind} de {id} {title}",
        .shellChangeMany: "{kind} de {id} {title} e mais {more}",
        .shellChangeImport: "import de {count} tarefas",
        .summaryModify:
            "Muda a linha N (num detalhe: a tarefa mostrada) num só passo com as palavras de add: ATTR:VALOR, ATTR: apaga-o, +TAG, -TAG, as outras palavras são o novo título",
    ]
}
