extension Catalog {
    /// The words of sync and its HTTP client.
    static let portugueseSyncPhrases: KeyValuePairs<Phrase, String> = [
        .syncWireNotJSON: "JSON malformado: {reason}",
        .syncWireNotAnObject: "{path} deve ser um objeto JSON",
        .syncWireNotAnArray: "{path} deve ser um array",
        .syncWireNotABoolean: "{path} deve ser true ou false",
        .syncWireMissing: "falta {path}",
        .syncWireRepeated: "{path} aparece duas vezes",
        .syncWireBadReplica: "{path} deve ter 32 dígitos hexadecimais minúsculos",
        .syncWireNotAWholeNumber: "{path} deve ser um número inteiro de {low} a {high}",
        .syncWireBadTask: "{path} deve ser um texto de 1 a {limit} caracteres sem caracteres de controle",
        .syncWireBadField: "{path} deve ser um de {fields}",
        .syncWireTooManyOperations: "mais de {limit} operações num pedido",
        .syncWireStampAhead:
            "{path} está {ahead} à frente do relógio do servidor (ele permite {limit}): o relógio da máquina que envia está errado",
        .syncWireRefusedValue: "{path} define um id de tarefa ou um {field} que o navstack não aceita",
        .syncWireReplicaTaken:
            "{path} reutiliza o seq {seq} da réplica {replica}, que o servidor guarda com outro conteúdo: a réplica deve tomar um novo id",
        .syncWireBadSealed:
            "{path} deve ser texto base64 de um conteúdo selado",
        .syncWireSealedAndClear:
            "{path} tem um conteúdo selado e campos às claras ao lado",
        .syncWireBadKey:
            "key deve ser texto imprimível de no máximo {limit} bytes",
        .syncWireNotSealed:
            "{path} não está selado, e as operações desta conta são cifradas de ponta a ponta: atualize o navstack",
        .syncWireSealedWithoutKey:
            "{path} está selado, mas a conta ainda não tem chave: envie a chave antes",
        .syncWireDropWithoutKey:
            "drop_clear precisa antes da chave da conta",
        .syncWireSnapshotWithOperations:
            "um snapshot vai num pedido só dele, sem ops",
        .syncWireSnapshotWithoutKey:
            "um snapshot precisa antes da chave da conta",
        .syncWireSnapshotNeeded:
            "o registo desta conta começa num snapshot, que este navstack não sabe ler: atualize o navstack",
        .syncWrongPassphrase:
            "a frase-senha não abre as tarefas desta conta",
        .syncNoPassphrase:
            "o perfil '{user}' não tem a frase-senha das tarefas da conta: informe-a com NAVSTACK_SYNC_PASSPHRASE ou --passphrase-file FILE, ou rode navstack sync num terminal para que seja pedida",
        .syncPassphrasePrompt:
            "Frase-senha das tarefas desta conta (não aparece ao digitar): ",
        .syncPassphraseNewPrompt:
            "Uma nova frase-senha para as tarefas desta conta (não aparece ao digitar; cada dispositivo vai pedi-la): ",
        .syncPassphraseAgainPrompt:
            "A mesma frase-senha de novo: ",
        .syncPassphraseMismatch:
            "as duas frases-senha digitadas diferem: nada foi guardado",
        .syncBadPassphrase:
            "{source}: uma frase-senha tem de 8 a 1024 bytes de texto sem caracteres de controle",
        .syncPassphraseFileUnreadable:
            "--passphrase-file: não foi possível ler {file}: {reason}",
        .syncPassphraseTyped:
            "a frase-senha digitada",
        .syncUnopenable:
            "o servidor enviou uma operação que a chave desta conta não abre (réplica {replica}, seq {seq}): ela foi alterada no servidor; nada foi aplicado",
        .syncUnopenableSnapshot:
            "o servidor enviou um snapshot desta conta (até {seq}) que a chave dela não abre ou que não se consegue ler: foi alterado no servidor; nada foi aplicado",
        .syncKeyChanged:
            "o servidor tem outra chave para esta conta que não a deste armazenamento: a conta foi removida e criada de novo, ou este é outro servidor; nada foi aplicado",
        .syncBadKeyRecord:
            "o registro de chave desta conta no servidor não pode ser lido",
        .syncWireNotAKeyRecord:
            "key não é um registro de chave: um objeto JSON de kdf \"pbkdf2-hmac-sha256\", iterations, salt, check e write_check, de no máximo {limit} bytes",
        .syncWireBadWriteKey:
            "write_key deve ser texto base64 de 32 bytes",
        .syncSetAside:
            "{count} operação(ões) da réplica {replica} que a chave desta conta não abre ficaram de lado (enviadas com um token, sem a frase secreta, ou alteradas no servidor); o resto foi aplicado. No servidor, navstack-server user drop-replica NOME {replica} as remove",
        .syncClearNeedsMigrate:
            "o servidor guarda as tarefas desta conta sem chave, sem criptografia de ponta a ponta: se a conta nunca foi criptografada, execute navstack sync --migrate para criptografá-la com esta frase secreta; se foi, o servidor perdeu ou descartou a chave. Nada foi aplicado nem enviado",
        .syncMadeKey:
            "foi criada uma nova chave para as tarefas desta conta a partir da frase secreta: todos os outros dispositivos da conta precisam da mesma frase secreta",
        .syncKeyMissing:
            "o servidor respondeu sem a chave desta conta, que ele tinha antes: ele a perdeu ou descartou (uma restauração de um backup antigo, ou um servidor alterado); nada foi aplicado nem enviado",
        .syncRestored:
            "o registro do servidor foi restaurado de um backup desde a última sincronização deste dispositivo: ele baixou a conta de novo desde o início e enviou de novo todas as tarefas que tem",
        .syncWireBadEpoch:
            "epoch deve ter de 1 a 64 letras, dígitos, - ou _",
        .syncKeyNotKept:
            "o servidor não guarda a chave que este dispositivo ofereceu para a conta: respondeu sem ela e não tinha mais nada a enviar; nada foi enviado",
        .syncKeyTaken:
            "o servidor respondeu 409: as operações da conta estão seladas com outra chave",
        .syncMalformedAnswer: "a resposta do servidor não é uma resposta de sincronização ({reason})",
        .syncNotConfigured: "o perfil '{user}' não tem servidor de sincronização: informe --server URL uma vez, com o seu token",
        .syncNoProfile: "não há perfil '{user}' neste armazenamento",
        .syncRefusedToken:
            "o servidor recusou o token (401): informe um válido (navstack-server user token) com NAVSTACK_TOKEN, --token-file FILE ou --token",
        .syncServerAnswered: "o servidor respondeu {status}",
        .syncServerAnsweredWith: "o servidor respondeu {status}: {message}",
        .syncOutOfTime: "a sincronização não terminou a tempo",
        .syncReplicaTaken: "o servidor guarda alterações deste armazenamento com outro conteúdo (409), também com um novo id de réplica",
        .syncStampsAhead: "o servidor recusou alterações marcadas à frente do relógio dele",
        .syncClockAhead:
            "o relógio desta máquina está {ahead} à frente do relógio do servidor: acerte o relógio; as suas alterações foram mantidas",
        .syncTimedOut: "a sincronização não terminou em {seconds} s",
        .syncTimedOutByOption: "a sincronização não terminou em {seconds} s (--timeout)",
        .syncProgress: "sync: enviadas {sent} de {total}",
        .syncProgressReceived: "sync: enviadas {sent} de {total}, recebidas {received}",
        .syncProgressReceivedOnly: "sync: recebidas {received}",
        .syncChangesKept: "{reason}; suas mudanças ficam guardadas e serão enviadas da próxima vez",
        .syncGivenNotKept: "{reason} (o servidor e o token informados não foram guardados)",
        .syncGivenKept: "{reason} (o servidor e o token informados ficam guardados: {why})",
        .syncNoToken:
            "o perfil '{user}' não tem token: informe-o com NAVSTACK_TOKEN, --token-file FILE ou --token, ou rode navstack sync num terminal para que seja pedido",
        .syncBadToken: "{source}: um token tem de 1 a 1024 caracteres imprimíveis sem espaços (navstack-server user add imprime um)",
        .syncTokenFileUnreadable: "--token-file: não foi possível ler {file}: {reason}",
        .syncTokenPrompt: "Token de {server} (não aparece ao digitar): ",
        .syncTokenTyped: "o token digitado",
        .syncNoticeChanged: "'{task}': {fields} alterado em outro dispositivo; undo restaura o seu",
        .syncNoticeDeleted: "'{task}': apagada em outro dispositivo; undo restaura a sua",
        .syncNoticeAnd: " e ",
        .syncFieldDone: "feita",
        .syncFieldPlace: "lugar",
        .httpInvalidURL: "\"{text}\" não é um endereço de servidor (https://host[:porta][/caminho]): {reason}",
        .httpUnsupportedScheme: "só endereços https:// (e http:// nesta máquina) são aceitos, não {scheme}://",
        .httpInvalidHeader: "o cabeçalho \"{name}\" não pode ser enviado: o nome ou o valor não é válido, ou o próprio cliente o define",
        .httpCannotResolve: "o host {host} não foi encontrado",
        .httpRefused: "o servidor em {address} recusou a conexão",
        .httpUnreachable: "o servidor em {address} não pode ser alcançado: {reason}",
        .httpTimedOut: "o servidor não respondeu em {time}",
        .httpConnectionClosed: "o servidor fechou a conexão antes de terminar a resposta",
        .httpMalformedResponse: "a resposta do servidor não é HTTP válido: {what}",
        .httpResponseTooLarge: "a resposta do servidor é maior que {size}",
        .httpSystem: "{call} falhou: {reason}",
        .httpPlainTextRefused:
            "http:// enviaria o token e as tarefas para {host} em texto aberto; use https:// (http:// é só para localhost, 127.0.0.0/8 e ::1)",
        .httpUntrusted: "o servidor em {address} não é confiável: {reason}",
        .httpTLSFailed: "o handshake TLS com o servidor em {address} falhou: {reason}",
        .httpNotTLS: "o servidor em {address} respondeu em HTTP simples, não em TLS",
        .httpNoSystemAuthorities:
            "nenhuma autoridade certificadora foi encontrada nesta máquina: defina SSL_CERT_FILE ou informe a autoridade do servidor com --ca ARQUIVO",
        .httpUnreadableAuthorities: "as autoridades certificadoras em {file} não podem ser lidas: {reason}",
        .httpTLSUnavailable: "o TLS não pode ser preparado: {reason}",
        .syncWireUnknownFormat:
            "o formato {format} não é um que este servidor conhece (ele conhece de 1 a {current}): atualize o navstack-server",
        .syncStrayAnswer:
            "a resposta do servidor não nomeou as operações que este dispositivo enviou: era a resposta de outro pedido (uma resposta perdida na conexão); nada dela foi aplicado",
        .syncAsideFull:
            "este dispositivo guarda no máximo {count} operações ({bytes} MiB) postas de lado; as outras foram contadas, não guardadas. No servidor, navstack-server user drop-replica NAME REPLICA as remove, e este dispositivo então descarta as que guarda",
        .syncWireDropWithoutWriteCheck:
            "o registro de chave desta conta não tem verificação de escrita (foi feito antes das chaves de escrita): ela não aceita snapshot nem drop_clear, que descartam operações, pois não distingue um dispositivo de quem só tem o token",
        .syncWireTooManyReplicas: "{path} nomeia mais de {limit} réplicas",
    ]
}
