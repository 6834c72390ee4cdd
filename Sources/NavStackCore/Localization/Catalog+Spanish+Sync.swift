extension Catalog {
    /// The words of sync and its HTTP client.
    static let spanishSyncPhrases: KeyValuePairs<Phrase, String> = [
        .syncWireNotJSON: "JSON mal formado: {reason}",
        .syncWireNotAnObject: "{path} debe ser un objeto JSON",
        .syncWireNotAnArray: "{path} debe ser un array",
        .syncWireNotABoolean: "{path} debe ser true o false",
        .syncWireMissing: "falta {path}",
        .syncWireRepeated: "{path} aparece dos veces",
        .syncWireBadReplica: "{path} debe tener 32 dígitos hexadecimales en minúscula",
        .syncWireNotAWholeNumber: "{path} debe ser un número entero de {low} a {high}",
        .syncWireBadTask: "{path} debe ser un texto de 1 a {limit} caracteres sin caracteres de control",
        .syncWireBadField: "{path} debe ser uno de {fields}",
        .syncWireTooManyOperations: "más de {limit} operaciones en una petición",
        .syncWireStampAhead:
            "{path} va {ahead} por delante del reloj del servidor (permite {limit}): el reloj de la máquina que envía está mal",
        .syncWireRefusedValue: "{path} fija un id de tarea o un {field} que navstack no acepta",
        .syncWireReplicaTaken:
            "{path} reutiliza el seq {seq} de la réplica {replica}, que el servidor guarda con otro contenido: la réplica debe tomar un id nuevo",
        .syncWireBadSealed:
            "{path} debe ser texto base64 de un contenido sellado",
        .syncWireSealedAndClear:
            "{path} tiene un contenido sellado y campos en claro al lado",
        .syncWireBadKey:
            "key debe ser texto imprimible de como mucho {limit} bytes",
        .syncWireNotSealed:
            "{path} no está sellado, y las operaciones de esta cuenta se cifran de extremo a extremo: actualiza navstack",
        .syncWireSealedWithoutKey:
            "{path} está sellado, pero la cuenta aún no tiene clave: envía la clave antes",
        .syncWireDropWithoutKey:
            "drop_clear necesita antes la clave de la cuenta",
        .syncWireSnapshotWithOperations:
            "un snapshot va en una petición propia, sin ops",
        .syncWireSnapshotWithoutKey:
            "un snapshot necesita antes la clave de la cuenta",
        .syncWireSnapshotNeeded:
            "el registro de esta cuenta empieza en un snapshot, que este navstack no puede leer: actualice navstack",
        .syncWrongPassphrase:
            "la frase de paso no abre las tareas de esta cuenta",
        .syncNoPassphrase:
            "el perfil '{user}' no tiene la frase de paso de las tareas de su cuenta: indícala con NAVSTACK_SYNC_PASSPHRASE o --passphrase-file FILE, o ejecuta navstack sync en una terminal para que se pida",
        .syncPassphrasePrompt:
            "Frase de paso de las tareas de esta cuenta (no se muestra al escribir): ",
        .syncPassphraseNewPrompt:
            "Una nueva frase de paso para las tareas de esta cuenta (no se muestra al escribir; cada dispositivo la pedirá): ",
        .syncPassphraseAgainPrompt:
            "La misma frase de paso otra vez: ",
        .syncPassphraseMismatch:
            "las dos frases de paso escritas difieren: no se guardó nada",
        .syncBadPassphrase:
            "{source}: una frase de paso tiene de 8 a 1024 bytes de texto sin caracteres de control",
        .syncPassphraseFileUnreadable:
            "--passphrase-file: no se pudo leer {file}: {reason}",
        .syncPassphraseTyped:
            "la frase de paso escrita",
        .syncUnopenable:
            "el servidor envió una operación que la clave de esta cuenta no abre (réplica {replica}, seq {seq}): se cambió en el servidor; no se aplicó nada",
        .syncUnopenableSnapshot:
            "el servidor envió un snapshot de esta cuenta (hasta {seq}) que su clave no abre o que no se puede leer: se cambió en el servidor; no se aplicó nada",
        .syncKeyChanged:
            "el servidor tiene otra clave para esta cuenta que la de este almacén: la cuenta se eliminó y se creó de nuevo, o este es otro servidor; no se aplicó nada",
        .syncBadKeyRecord:
            "el registro de clave de esta cuenta en el servidor no se puede leer",
        .syncWireNotAKeyRecord:
            "key no es un registro de clave: un objeto JSON de kdf \"pbkdf2-hmac-sha256\", iterations, salt, check y write_check, de {limit} bytes como máximo",
        .syncWireBadWriteKey:
            "write_key debe ser texto base64 de 32 bytes",
        .syncSetAside:
            "se apartaron {count} operación(es) de la réplica {replica} que la clave de esta cuenta no abre (enviadas con un token, sin la frase de paso, o cambiadas en el servidor); el resto se aplicó. En el servidor, navstack-server user drop-replica NOMBRE {replica} las quita",
        .syncClearNeedsMigrate:
            "el servidor guarda las tareas de esta cuenta sin clave, sin cifrado de extremo a extremo: si la cuenta nunca se cifró, ejecute navstack sync --migrate para cifrarla con esta frase de paso; si se cifró, el servidor perdió o descartó su clave. No se aplicó ni se envió nada",
        .syncMadeKey:
            "se creó una clave nueva para las tareas de esta cuenta a partir de la frase de paso: todos los demás dispositivos de la cuenta necesitan la misma frase de paso",
        .syncKeyMissing:
            "el servidor respondió sin la clave de esta cuenta, que tenía antes: la perdió o la descartó (una restauración de una copia antigua, o un servidor cambiado); no se aplicó ni se envió nada",
        .syncRestored:
            "el registro del servidor se restauró desde una copia desde la última sincronización de este dispositivo: descargó la cuenta de nuevo desde el principio y volvió a enviar todas las tareas que tiene",
        .syncWireBadEpoch:
            "epoch debe tener de 1 a 64 letras, dígitos, - o _",
        .syncKeyNotKept:
            "el servidor no guarda la clave que este dispositivo ofreció para la cuenta: respondió sin ella y no tenía nada más que enviar; no se envió nada",
        .syncKeyTaken:
            "el servidor respondió 409: las operaciones de la cuenta están selladas con otra clave",
        .syncMalformedAnswer: "la respuesta del servidor no es una respuesta de sincronización ({reason})",
        .syncNotConfigured: "el perfil '{user}' no tiene servidor de sincronización: indica --server URL una vez, con su token",
        .syncNoProfile: "no hay perfil '{user}' en este almacén",
        .syncRefusedToken:
            "el servidor rechazó el token (401): indica uno válido (navstack-server user token) con NAVSTACK_TOKEN, --token-file FILE o --token",
        .syncServerAnswered: "el servidor respondió {status}",
        .syncServerAnsweredWith: "el servidor respondió {status}: {message}",
        .syncOutOfTime: "la sincronización no terminó a tiempo",
        .syncReplicaTaken: "el servidor guarda cambios de este almacén con otro contenido (409), también con un nuevo id de réplica",
        .syncStampsAhead: "el servidor rechazó cambios marcados por delante de su reloj",
        .syncClockAhead:
            "el reloj de esta máquina va {ahead} por delante del reloj del servidor: corrige el reloj; tus cambios se conservan",
        .syncTimedOut: "la sincronización no terminó en {seconds} s",
        .syncTimedOutByOption: "la sincronización no terminó en {seconds} s (--timeout)",
        .syncProgress: "sync: enviadas {sent} de {total}",
        .syncProgressReceived: "sync: enviadas {sent} de {total}, recibidas {received}",
        .syncProgressReceivedOnly: "sync: recibidas {received}",
        .syncChangesKept: "{reason}; tus cambios se guardan y se enviarán la próxima vez",
        .syncGivenNotKept: "{reason} (el servidor y el token indicados no se guardaron)",
        .syncGivenKept: "{reason} (el servidor y el token indicados quedan guardados: {why})",
        .syncNoToken:
            "el perfil '{user}' no tiene token: indícalo con NAVSTACK_TOKEN, --token-file FILE o --token, o ejecuta navstack sync en una terminal para que se pida",
        .syncBadToken: "{source}: un token tiene de 1 a 1024 caracteres imprimibles sin espacios (navstack-server user add imprime uno)",
        .syncTokenFileUnreadable: "--token-file: no se pudo leer {file}: {reason}",
        .syncTokenPrompt: "Token de {server} (no se muestra al escribir): ",
        .syncTokenTyped: "el token escrito",
        .syncNoticeChanged: "'{task}': {fields} cambiado en otro dispositivo; undo restaura el tuyo",
        .syncNoticeDeleted: "'{task}': eliminada en otro dispositivo; undo restaura la tuya",
        .syncNoticeAnd: " y ",
        .syncFieldDone: "hecha",
        .syncFieldPlace: "lugar",
        .httpInvalidURL: "\"{text}\" no es una dirección de servidor (https://host[:puerto][/ruta]): {reason}",
        .httpUnsupportedScheme: "solo se aceptan direcciones https:// (y http:// en esta máquina), no {scheme}://",
        .httpInvalidHeader: "la cabecera \"{name}\" no se puede enviar: su nombre o su valor no es válido, o la pone el propio cliente",
        .httpCannotResolve: "no se encontró el host {host}",
        .httpRefused: "el servidor en {address} rechazó la conexión",
        .httpUnreachable: "no se puede llegar al servidor en {address}: {reason}",
        .httpTimedOut: "el servidor no respondió en {time}",
        .httpConnectionClosed: "el servidor cerró la conexión antes de terminar la respuesta",
        .httpMalformedResponse: "la respuesta del servidor no es HTTP válido: {what}",
        .httpResponseTooLarge: "la respuesta del servidor ocupa más de {size}",
        .httpSystem: "{call} falló: {reason}",
        .httpPlainTextRefused:
            "http:// enviaría el token y las tareas a {host} en texto claro; usa https:// (http:// es solo para localhost, 127.0.0.0/8 y ::1)",
        .httpUntrusted: "el servidor en {address} no es de confianza: {reason}",
        .httpTLSFailed: "el handshake TLS con el servidor en {address} falló: {reason}",
        .httpNotTLS: "el servidor en {address} respondió en HTTP simple, no en TLS",
        .httpNoSystemAuthorities:
            "no se encontró ninguna autoridad de certificación en esta máquina: define SSL_CERT_FILE o indica la autoridad del servidor con --ca ARCHIVO",
        .httpUnreadableAuthorities: "las autoridades de certificación de {file} no se pueden leer: {reason}",
        .httpTLSUnavailable: "no se puede preparar TLS: {reason}",
        .syncWireUnknownFormat:
            "el formato {format} no es uno que este servidor conozca (conoce del 1 al {current}): actualiza navstack-server",
        .syncStrayAnswer:
            "la respuesta del servidor no nombró las operaciones que este dispositivo envió: era la respuesta a otra petición (una respuesta perdida en la conexión); no se aplicó nada de ella",
        .syncAsideFull:
            "este dispositivo guarda como mucho {count} operaciones ({bytes} MiB) apartadas; las demás se contaron, no se guardaron. En el servidor, navstack-server user drop-replica NAME REPLICA las elimina, y este dispositivo entonces suelta las que guarda",
        .syncWireDropWithoutWriteCheck:
            "el registro de clave de esta cuenta no tiene comprobación de escritura (se hizo antes de las claves de escritura): no acepta snapshot ni drop_clear, que descartan operaciones, pues no distingue un dispositivo de quien solo tiene el token",
        .syncWireTooManyReplicas: "{path} nombra más de {limit} réplicas",
    ]
}
