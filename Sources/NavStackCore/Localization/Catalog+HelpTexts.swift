/// The command line's help texts in Portuguese and Spanish, by their English text (the
/// text the specs declare). A test checks that every text has both, and no more.
extension Catalog {
    public static let portugueseHelpTexts: [String: String] = [
        "Send this store's changes to the sync server and apply the other devices' changes.":
            "Envia as mudanças deste armazenamento ao servidor de sincronização e aplica as mudanças dos outros dispositivos.",
        "Prints 'sent N, received N, conflicts N'. The server is reached with https:// (TLS 1.2 or later): its certificate must be signed by an authority the system trusts (SSL_CERT_FILE and SSL_CERT_DIR say where they are kept, when set; --ca or NAVSTACK_CA trusts one authority instead) and be for its host name; http:// is accepted only for this machine (localhost, 127.0.0.0/8, ::1). The token never needs the command line: give it in NAVSTACK_TOKEN or in a file (--token-file FILE), or type it when asked at a terminal (it is not shown); --token TOKEN also works, but shows it to anyone who can list processes. The server and the token are kept for the profile (in the store, which is private to you), so later runs need neither; a token the server refuses is not kept. Tasks are end-to-end encrypted: the server keeps them sealed with a key made from a passphrase that only the account's devices know; the first sync of a profile asks for it (NAVSTACK_SYNC_PASSPHRASE, --passphrase-file FILE, or typed at a terminal), and the store keeps the key, never the passphrase. The sync gives up after --timeout seconds, whatever the server does; at a terminal, one that takes more than a second shows its progress on stderr. A profile with a server also syncs by itself at launch and after commands that change tasks (at most 2 s, never more); NAVSTACK_SYNC=0 turns that off. A failed sync changes nothing here: your changes are kept and sent next time. Exit status: 0 when the sync finished, 1 when it did not, 64 on bad usage.":
            "Mostra 'sent N, received N, conflicts N'. O servidor é acessado com https:// (TLS 1.2 ou mais recente): o certificado dele deve ser assinado por uma autoridade em que o sistema confia (SSL_CERT_FILE e SSL_CERT_DIR dizem onde elas ficam, quando definidas; --ca ou NAVSTACK_CA confia em uma só autoridade no lugar delas) e ser para o nome do host dele; http:// só é aceito para esta máquina (localhost, 127.0.0.0/8, ::1). O token nunca precisa da linha de comando: informe-o em NAVSTACK_TOKEN ou num arquivo (--token-file FILE), ou digite-o quando pedido num terminal (ele não aparece); --token TOKEN também funciona, mas o mostra a quem puder listar os processos. O servidor e o token ficam guardados para o perfil (no armazenamento, que só você lê), então as próximas vezes não precisam deles; um token que o servidor recusa não é guardado. As tarefas são cifradas de ponta a ponta: o servidor as guarda seladas com uma chave feita de uma frase-senha que só os dispositivos da conta conhecem; a primeira sincronização de um perfil a pede (NAVSTACK_SYNC_PASSPHRASE, --passphrase-file FILE, ou digitada num terminal), e o armazenamento guarda a chave, nunca a frase-senha. A sincronização desiste depois de --timeout segundos, faça o servidor o que fizer; num terminal, uma que leva mais de um segundo mostra o progresso no stderr. Um perfil com servidor também sincroniza sozinho ao abrir e depois de comandos que mudam tarefas (no máximo 2 s, nunca mais); NAVSTACK_SYNC=0 desliga isso. Uma sincronização que falha não muda nada aqui: suas mudanças ficam guardadas e são enviadas da próxima vez. Código de saída: 0 quando a sincronização terminou, 1 quando não, 64 em uso incorreto.",
        "The server, https://HOST[:PORT] (kept for the profile); http:// only for this machine.":
            "O servidor, https://HOST[:PORT] (guardado para o perfil); http:// só para esta máquina.",
        "Trust only the certificate authority in this PEM file for the server's certificate, instead of the system's (this run; NAVSTACK_CA sets it for every run).":
            "Confia só na autoridade certificadora deste arquivo PEM para o certificado do servidor, em vez das do sistema (nesta execução; NAVSTACK_CA a define para todas).",
        "Your token, from navstack-server user add or user token (kept for the profile); NAVSTACK_TOKEN or --token-file keep it off the command line.":
            "Seu token, de navstack-server user add ou user token (guardado para o perfil); NAVSTACK_TOKEN ou --token-file o mantêm fora da linha de comando.",
        "Read the token from this file (or pipe), spaces and line end around it ignored (kept for the profile).":
            "Lê o token deste arquivo (ou pipe), ignorando os espaços e o fim de linha em volta (guardado para o perfil).",
        "Read the passphrase of the account's tasks from this file (or pipe), its last line end left out; asked for only while the profile has no key.":
            "Lê a frase-senha das tarefas da conta deste arquivo (ou pipe), sem o último fim de linha; pedida só enquanto o perfil não tem chave.",
        "Give up after this many seconds, whatever the server does (default: 60).":
            "Desiste depois de tantos segundos, faça o servidor o que fizer (padrão: 60).",
        "A task app whose every screen lives on a NavigationStack-style path.":
            "Um app de tarefas em que cada tela vive num caminho ao estilo de NavigationStack.",
        "Reads one command a line: from the terminal (with line editing, history and Tab completion), from a pipe, or from -c options. Type 'help' on any screen for its commands. Deep links: navstack://tasks[?filter=F&q=TEXT&page=N], tasks/ID (or its chain, tasks/ID/ID…), tasks/ID/edit, tasks/new, tasks/ID/new, account, account/settings, account/about.\n\nTasks and where you were are kept in one SQLite file: --store PATH, else $NAVSTACK_STORE, else $XDG_DATA_HOME/navstack/navstack.sqlite (~/.local/share/navstack/navstack.sqlite).\n\nThe options --store, --memory and --sample (and a subcommand's --user) may also come before a subcommand: navstack --store s.sqlite import tasks.json. Shell completion: navstack completion bash|zsh|fish; the manual page: navstack man-page.\n\nExit status: 0 when every command succeeded, 1 when one failed, 64 on bad usage.":
            "Lê um comando por linha: do terminal (com edição de linha, histórico e completar com Tab), de um pipe ou de opções -c. Digite 'help' em qualquer tela para ver os comandos dela. Links diretos: navstack://tasks[?filter=F&q=TEXTO&page=N], tasks/ID (ou a sua cadeia, tasks/ID/ID…), tasks/ID/edit, tasks/new, tasks/ID/new, account, account/settings, account/about.\n\nAs tarefas e onde você estava ficam num arquivo SQLite: --store PATH, senão $NAVSTACK_STORE, senão $XDG_DATA_HOME/navstack/navstack.sqlite (~/.local/share/navstack/navstack.sqlite).\n\nAs opções --store, --memory e --sample (e o --user de um subcomando) também podem vir antes do subcomando: navstack --store s.sqlite import tasks.json. Completar no shell: navstack completion bash|zsh|fish; a página de manual: navstack man-page.\n\nCódigo de saída: 0 quando todos os comandos deram certo, 1 quando algum falhou, 64 em uso incorreto.",
        "Use a fresh in-memory store whose new profiles start with the sample tasks; no file is read or written.":
            "Usa um armazenamento novo em memória, cujos perfis novos começam com as tarefas de exemplo; nenhum arquivo é lido ou escrito.",
        "The SQLite store to use (default: $NAVSTACK_STORE, else $XDG_DATA_HOME/navstack/navstack.sqlite).":
            "O armazenamento SQLite a usar (padrão: $NAVSTACK_STORE, senão $XDG_DATA_HOME/navstack/navstack.sqlite).",
        "Give new profiles the sample tasks.":
            "Dá aos perfis novos as tarefas de exemplo.",
        "Output format: text or json (one JSON object a line; default: text).":
            "Formato da saída: text ou json (um objeto JSON por linha; padrão: text).",
        "Print each input line, prefixed '> ', before its output (with --format json: as an {\"echo\": …} object).":
            "Mostra cada linha de entrada, com '> ' na frente, antes da saída dela (com --format json: como um objeto {\"echo\": …}).",
        "Stop at the first command that fails.":
            "Para no primeiro comando que falhar.",
        "Open a deep link at launch (after login when signed out).":
            "Abre um link direto ao iniciar (depois do login quando sem sessão).",
        "Text width in columns (default: the terminal's, else 80).":
            "Largura do texto em colunas (padrão: a do terminal, senão 80).",
        "Rows per list page (default: fits the terminal, else 20).":
            "Linhas por página da lista (padrão: o que cabe no terminal, senão 20).",
        "Run this command instead of reading stdin (repeatable).":
            "Executa este comando em vez de ler a entrada padrão (pode repetir).",
        "Never use colour.":
            "Nunca usa cores.",
        "Language of screens and messages: en, pt or es (default: from LC_ALL, LC_MESSAGES or LANG).":
            "Idioma das telas e mensagens: en, pt ou es (padrão: de LC_ALL, LC_MESSAGES ou LANG).",
        "Add tasks from a JSON array or JSON Lines file, after the profile's tasks.":
            "Adiciona tarefas de um arquivo com um array JSON ou JSON Lines, depois das tarefas do perfil.",
        "Print the profile's tasks as a JSON array of id, uuid, title, notes, done, parent, in list order, each task's subtasks nested under it.":
            "Mostra as tarefas do perfil como um array JSON de id, uuid, title, notes, done e parent, na ordem da lista, com as subtarefas de cada tarefa aninhadas nela.",
        "Replay golden transcripts and compare their output byte for byte.":
            "Reexecuta transcrições de referência e compara a saída byte a byte.",
        "Print the shell completion script for bash, zsh or fish.":
            "Mostra o script de completar do shell para bash, zsh ou fish.",
        "Print the manual page navstack(1) in roff (read it with 'man ./navstack.1').":
            "Mostra a página de manual navstack(1) em roff (leia com 'man ./navstack.1').",
        "Each record is {\"title\": …, \"notes\"?: …, \"done\"?: …, \"uuid\"?: …, \"parent\"?: …, \"subtasks\"?: […]}: parent is another record's number (from 0, nested ones counted depth-first) or a task's uuid, and subtasks nests records, to 100 levels. Titles and notes are held to what `title` and `notes` accept at the prompt. The input is strict JSON of at most 256 MiB, arrays and objects nested at most 512 deep; a leading UTF-8 byte order mark is skipped. The import is one transaction: a bad record fails it whole, naming its index (from 0), and nothing is added. The profile is created if missing; --user is held to the rules of `login NAME`.":
            "Cada registro é {\"title\": …, \"notes\"?: …, \"done\"?: …, \"uuid\"?: …, \"parent\"?: …, \"subtasks\"?: […]}: parent é o número de outro registro (a partir de 0, os aninhados contados em profundidade) ou o uuid de uma tarefa, e subtasks aninha registros, até 100 níveis. Títulos e notas seguem o que `title` e `notes` aceitam no prompt. A entrada é JSON estrito de no máximo 256 MiB, com arrays e objetos aninhados até 512 níveis; uma marca de ordem de bytes UTF-8 no início é ignorada. A importação é uma só transação: um registro ruim a faz falhar inteira, dizendo o índice dele (a partir de 0), e nada é adicionado. O perfil é criado se não existir; --user segue as regras de `login NAME`.",
        "Refused: an in-memory store would be thrown away when the command ends.":
            "Recusada: um armazenamento em memória seria descartado ao fim do comando.",
        "The profile (default: the signed-in one).":
            "O perfil (padrão: o da sessão atual).",
        "The file to read, or - for stdin.":
            "O arquivo a ler, ou - para a entrada padrão.",
        "A profile that does not exist is an error, as is no --user when no one is signed in.":
            "Um perfil que não existe é um erro, assim como a falta de --user quando ninguém entrou.",
        "A transcript is what 'navstack --echo' prints for a script, stderr merged in: lines starting with '> ' are the commands, the lines under each its output. An optional first line '#! navstack OPTIONS' gives the options (default: --memory --lang en --width 80). In an expected line, [..] matches any text within that line. Each transcript runs in a fresh process with its own store and state folders; transcripts run in parallel. A header may not choose a store (--store): a transcript never touches yours. Only regular files up to 16 MiB are read; a named pipe, device or broken link fails with the reason.\n\nIn a Markdown file (*.md) each fenced block whose info string starts with 'transcript' (```transcript) holds a transcript; other blocks are left alone. A block is named by the file and the line of its opening fence (README.md:42), and its diff's line numbers are the file's; --update rewrites only the failing blocks, the rest of the file as it was.\n\nExit status: 0 when every transcript passed (or, with --update, was rewritten), 1 when one failed, 64 on bad usage.":
            "Uma transcrição é o que 'navstack --echo' mostra para um script, com o stderr junto: as linhas que começam com '> ' são os comandos, as linhas abaixo de cada um, a saída dele. Uma primeira linha opcional '#! navstack OPTIONS' dá as opções (padrão: --memory --lang en --width 80). Numa linha esperada, [..] casa com qualquer texto dentro dessa linha. Cada transcrição roda num processo novo com seu próprio armazenamento e pastas de estado; as transcrições rodam em paralelo. Um cabeçalho não pode escolher um armazenamento (--store): uma transcrição nunca toca o seu. Só arquivos comuns de até 16 MiB são lidos; um pipe nomeado, um dispositivo ou um link quebrado falha com o motivo.\n\nNum arquivo Markdown (*.md), cada bloco de código cercado cuja primeira palavra depois da cerca é 'transcript' (```transcript) contém uma transcrição; os outros blocos ficam como estão. Um bloco é indicado pelo arquivo e pela linha da sua cerca de abertura (README.md:42), e os números de linha do diff são os do arquivo; --update reescreve só os blocos que falharam, e o resto do arquivo fica como estava.\n\nCódigo de saída: 0 quando todas as transcrições passaram (ou, com --update, foram reescritas), 1 quando alguma falhou, 64 em uso incorreto.",
        "Rewrite each failing transcript with the actual output, keeping its header and the [..] lines that still match.":
            "Reescreve cada transcrição que falhar com a saída real, mantendo o cabeçalho e as linhas [..] que ainda casam.",
        "How many transcripts run at once (default: the number of cores).":
            "Quantas transcrições rodam ao mesmo tempo (padrão: o número de núcleos).",
        "Transcript files, Markdown files, or folders searched for *.transcript and *.md.":
            "Arquivos de transcrição, arquivos Markdown, ou pastas onde procurar *.transcript e *.md.",
        "The script completes options, subcommands, their options, --format and --lang values and deep links. Install it with one line:\n  bash: echo 'source <(navstack completion bash)' >> ~/.bashrc\n  zsh:  echo 'source <(navstack completion zsh)' >> ~/.zshrc  (after compinit)\n  fish: navstack completion fish > ~/.config/fish/completions/navstack.fish":
            "O script completa opções, subcomandos, as opções deles, os valores de --format e --lang e os links diretos. Instale com uma linha:\n  bash: echo 'source <(navstack completion bash)' >> ~/.bashrc\n  zsh:  echo 'source <(navstack completion zsh)' >> ~/.zshrc  (depois de compinit)\n  fish: navstack completion fish > ~/.config/fish/completions/navstack.fish",
        "bash, zsh or fish.":
            "bash, zsh ou fish.",
    ]
    public static let spanishHelpTexts: [String: String] = [
        "Send this store's changes to the sync server and apply the other devices' changes.":
            "Envía los cambios de este almacén al servidor de sincronización y aplica los cambios de los otros dispositivos.",
        "Prints 'sent N, received N, conflicts N'. The server is reached with https:// (TLS 1.2 or later): its certificate must be signed by an authority the system trusts (SSL_CERT_FILE and SSL_CERT_DIR say where they are kept, when set; --ca or NAVSTACK_CA trusts one authority instead) and be for its host name; http:// is accepted only for this machine (localhost, 127.0.0.0/8, ::1). The token never needs the command line: give it in NAVSTACK_TOKEN or in a file (--token-file FILE), or type it when asked at a terminal (it is not shown); --token TOKEN also works, but shows it to anyone who can list processes. The server and the token are kept for the profile (in the store, which is private to you), so later runs need neither; a token the server refuses is not kept. Tasks are end-to-end encrypted: the server keeps them sealed with a key made from a passphrase that only the account's devices know; the first sync of a profile asks for it (NAVSTACK_SYNC_PASSPHRASE, --passphrase-file FILE, or typed at a terminal), and the store keeps the key, never the passphrase. The sync gives up after --timeout seconds, whatever the server does; at a terminal, one that takes more than a second shows its progress on stderr. A profile with a server also syncs by itself at launch and after commands that change tasks (at most 2 s, never more); NAVSTACK_SYNC=0 turns that off. A failed sync changes nothing here: your changes are kept and sent next time. Exit status: 0 when the sync finished, 1 when it did not, 64 on bad usage.":
            "Muestra 'sent N, received N, conflicts N'. Al servidor se llega con https:// (TLS 1.2 o posterior): su certificado debe estar firmado por una autoridad en la que el sistema confía (SSL_CERT_FILE y SSL_CERT_DIR dicen dónde están, cuando se definen; --ca o NAVSTACK_CA confía en una sola autoridad en su lugar) y ser para su nombre de host; http:// solo se acepta para esta máquina (localhost, 127.0.0.0/8, ::1). El token nunca necesita la línea de órdenes: indícalo en NAVSTACK_TOKEN o en un archivo (--token-file FILE), o escríbelo cuando se pida en una terminal (no se muestra); --token TOKEN también funciona, pero lo muestra a quien pueda listar los procesos. El servidor y el token se guardan para el perfil (en el almacén, que solo tú lees), así que las siguientes veces no hacen falta; un token que el servidor rechaza no se guarda. Las tareas se cifran de extremo a extremo: el servidor las guarda selladas con una clave hecha de una frase de paso que solo conocen los dispositivos de la cuenta; la primera sincronización de un perfil la pide (NAVSTACK_SYNC_PASSPHRASE, --passphrase-file FILE, o escrita en una terminal), y el almacén guarda la clave, nunca la frase de paso. La sincronización se rinde tras --timeout segundos, haga lo que haga el servidor; en una terminal, una que tarda más de un segundo muestra su progreso en stderr. Un perfil con servidor también se sincroniza solo al abrir y después de los comandos que cambian tareas (2 s como mucho, nunca más); NAVSTACK_SYNC=0 lo desactiva. Una sincronización que falla no cambia nada aquí: tus cambios se guardan y se envían la próxima vez. Estado de salida: 0 cuando la sincronización terminó, 1 cuando no, 64 con un uso incorrecto.",
        "The server, https://HOST[:PORT] (kept for the profile); http:// only for this machine.":
            "El servidor, https://HOST[:PORT] (se guarda para el perfil); http:// solo para esta máquina.",
        "Trust only the certificate authority in this PEM file for the server's certificate, instead of the system's (this run; NAVSTACK_CA sets it for every run).":
            "Confía solo en la autoridad de certificación de este archivo PEM para el certificado del servidor, en lugar de las del sistema (en esta ejecución; NAVSTACK_CA la fija para todas).",
        "Your token, from navstack-server user add or user token (kept for the profile); NAVSTACK_TOKEN or --token-file keep it off the command line.":
            "Tu token, de navstack-server user add o user token (se guarda para el perfil); NAVSTACK_TOKEN o --token-file lo mantienen fuera de la línea de órdenes.",
        "Read the token from this file (or pipe), spaces and line end around it ignored (kept for the profile).":
            "Lee el token de este archivo (o tubería), sin los espacios ni el fin de línea que lo rodean (se guarda para el perfil).",
        "Read the passphrase of the account's tasks from this file (or pipe), its last line end left out; asked for only while the profile has no key.":
            "Lee la frase de paso de las tareas de la cuenta de este archivo (o tubería), sin el último fin de línea; se pide solo mientras el perfil no tiene clave.",
        "Give up after this many seconds, whatever the server does (default: 60).":
            "Se rinde tras tantos segundos, haga lo que haga el servidor (por defecto: 60).",
        "A task app whose every screen lives on a NavigationStack-style path.":
            "Una app de tareas en la que cada pantalla vive en una ruta al estilo de NavigationStack.",
        "Reads one command a line: from the terminal (with line editing, history and Tab completion), from a pipe, or from -c options. Type 'help' on any screen for its commands. Deep links: navstack://tasks[?filter=F&q=TEXT&page=N], tasks/ID (or its chain, tasks/ID/ID…), tasks/ID/edit, tasks/new, tasks/ID/new, account, account/settings, account/about.\n\nTasks and where you were are kept in one SQLite file: --store PATH, else $NAVSTACK_STORE, else $XDG_DATA_HOME/navstack/navstack.sqlite (~/.local/share/navstack/navstack.sqlite).\n\nThe options --store, --memory and --sample (and a subcommand's --user) may also come before a subcommand: navstack --store s.sqlite import tasks.json. Shell completion: navstack completion bash|zsh|fish; the manual page: navstack man-page.\n\nExit status: 0 when every command succeeded, 1 when one failed, 64 on bad usage.":
            "Lee un comando por línea: del terminal (con edición de línea, historial y completado con Tab), de una tubería o de opciones -c. Escribe 'help' en cualquier pantalla para ver sus comandos. Enlaces directos: navstack://tasks[?filter=F&q=TEXTO&page=N], tasks/ID (o su cadena, tasks/ID/ID…), tasks/ID/edit, tasks/new, tasks/ID/new, account, account/settings, account/about.\n\nLas tareas y dónde estabas se guardan en un archivo SQLite: --store PATH, si no $NAVSTACK_STORE, si no $XDG_DATA_HOME/navstack/navstack.sqlite (~/.local/share/navstack/navstack.sqlite).\n\nLas opciones --store, --memory y --sample (y el --user de un subcomando) también pueden ir antes del subcomando: navstack --store s.sqlite import tasks.json. Completado en el shell: navstack completion bash|zsh|fish; la página de manual: navstack man-page.\n\nCódigo de salida: 0 cuando todos los comandos salieron bien, 1 cuando alguno falló, 64 con un uso incorrecto.",
        "Use a fresh in-memory store whose new profiles start with the sample tasks; no file is read or written.":
            "Usa un almacén nuevo en memoria, cuyos perfiles nuevos empiezan con las tareas de ejemplo; no se lee ni se escribe ningún archivo.",
        "The SQLite store to use (default: $NAVSTACK_STORE, else $XDG_DATA_HOME/navstack/navstack.sqlite).":
            "El almacén SQLite que usar (por defecto: $NAVSTACK_STORE, si no $XDG_DATA_HOME/navstack/navstack.sqlite).",
        "Give new profiles the sample tasks.":
            "Da a los perfiles nuevos las tareas de ejemplo.",
        "Output format: text or json (one JSON object a line; default: text).":
            "Formato de salida: text o json (un objeto JSON por línea; por defecto: text).",
        "Print each input line, prefixed '> ', before its output (with --format json: as an {\"echo\": …} object).":
            "Muestra cada línea de entrada, precedida de '> ', antes de su salida (con --format json: como un objeto {\"echo\": …}).",
        "Stop at the first command that fails.":
            "Se detiene en el primer comando que falle.",
        "Open a deep link at launch (after login when signed out).":
            "Abre un enlace directo al iniciar (después del login si no hay sesión).",
        "Text width in columns (default: the terminal's, else 80).":
            "Ancho del texto en columnas (por defecto: el del terminal, si no 80).",
        "Rows per list page (default: fits the terminal, else 20).":
            "Filas por página de la lista (por defecto: las que caben en el terminal, si no 20).",
        "Run this command instead of reading stdin (repeatable).":
            "Ejecuta este comando en lugar de leer la entrada estándar (se puede repetir).",
        "Never use colour.":
            "Nunca usa colores.",
        "Language of screens and messages: en, pt or es (default: from LC_ALL, LC_MESSAGES or LANG).":
            "Idioma de las pantallas y los mensajes: en, pt o es (por defecto: de LC_ALL, LC_MESSAGES o LANG).",
        "Add tasks from a JSON array or JSON Lines file, after the profile's tasks.":
            "Añade tareas de un archivo con un array JSON o JSON Lines, después de las tareas del perfil.",
        "Print the profile's tasks as a JSON array of id, uuid, title, notes, done, parent, in list order, each task's subtasks nested under it.":
            "Muestra las tareas del perfil como un array JSON de id, uuid, title, notes, done y parent, en el orden de la lista, con las subtareas de cada tarea anidadas en ella.",
        "Replay golden transcripts and compare their output byte for byte.":
            "Vuelve a ejecutar transcripciones de referencia y compara su salida byte a byte.",
        "Print the shell completion script for bash, zsh or fish.":
            "Muestra el script de completado del shell para bash, zsh o fish.",
        "Print the manual page navstack(1) in roff (read it with 'man ./navstack.1').":
            "Muestra la página de manual navstack(1) en roff (léela con 'man ./navstack.1').",
        "Each record is {\"title\": …, \"notes\"?: …, \"done\"?: …, \"uuid\"?: …, \"parent\"?: …, \"subtasks\"?: […]}: parent is another record's number (from 0, nested ones counted depth-first) or a task's uuid, and subtasks nests records, to 100 levels. Titles and notes are held to what `title` and `notes` accept at the prompt. The input is strict JSON of at most 256 MiB, arrays and objects nested at most 512 deep; a leading UTF-8 byte order mark is skipped. The import is one transaction: a bad record fails it whole, naming its index (from 0), and nothing is added. The profile is created if missing; --user is held to the rules of `login NAME`.":
            "Cada registro es {\"title\": …, \"notes\"?: …, \"done\"?: …, \"uuid\"?: …, \"parent\"?: …, \"subtasks\"?: […]}: parent es el número de otro registro (desde 0, los anidados contados en profundidad) o el uuid de una tarea, y subtasks anida registros, hasta 100 niveles. Los títulos y las notas siguen lo que `title` y `notes` aceptan en el prompt. La entrada es JSON estricto de 256 MiB como mucho, con arrays y objetos anidados hasta 512 niveles; una marca de orden de bytes UTF-8 al principio se ignora. La importación es una sola transacción: un registro erróneo la hace fallar entera, indicando su índice (desde 0), y no se añade nada. El perfil se crea si no existe; --user sigue las reglas de `login NAME`.",
        "Refused: an in-memory store would be thrown away when the command ends.":
            "Rechazada: un almacén en memoria se perdería al terminar el comando.",
        "The profile (default: the signed-in one).":
            "El perfil (por defecto: el de la sesión actual).",
        "The file to read, or - for stdin.":
            "El archivo que leer, o - para la entrada estándar.",
        "A profile that does not exist is an error, as is no --user when no one is signed in.":
            "Un perfil que no existe es un error, igual que no dar --user cuando nadie ha iniciado sesión.",
        "A transcript is what 'navstack --echo' prints for a script, stderr merged in: lines starting with '> ' are the commands, the lines under each its output. An optional first line '#! navstack OPTIONS' gives the options (default: --memory --lang en --width 80). In an expected line, [..] matches any text within that line. Each transcript runs in a fresh process with its own store and state folders; transcripts run in parallel. A header may not choose a store (--store): a transcript never touches yours. Only regular files up to 16 MiB are read; a named pipe, device or broken link fails with the reason.\n\nIn a Markdown file (*.md) each fenced block whose info string starts with 'transcript' (```transcript) holds a transcript; other blocks are left alone. A block is named by the file and the line of its opening fence (README.md:42), and its diff's line numbers are the file's; --update rewrites only the failing blocks, the rest of the file as it was.\n\nExit status: 0 when every transcript passed (or, with --update, was rewritten), 1 when one failed, 64 on bad usage.":
            "Una transcripción es lo que 'navstack --echo' muestra para un script, con stderr incluido: las líneas que empiezan por '> ' son los comandos, las líneas debajo de cada uno, su salida. Una primera línea opcional '#! navstack OPTIONS' da las opciones (por defecto: --memory --lang en --width 80). En una línea esperada, [..] coincide con cualquier texto dentro de esa línea. Cada transcripción se ejecuta en un proceso nuevo con su propio almacén y carpetas de estado; las transcripciones se ejecutan en paralelo. Una cabecera no puede elegir un almacén (--store): una transcripción nunca toca el tuyo. Solo se leen archivos normales de hasta 16 MiB; una tubería con nombre, un dispositivo o un enlace roto falla con el motivo.\n\nEn un archivo Markdown (*.md), cada bloque de código cercado cuya primera palabra tras la valla es 'transcript' (```transcript) contiene una transcripción; los demás bloques se dejan como están. Un bloque se indica con el archivo y la línea de su valla de apertura (README.md:42), y los números de línea de su diff son los del archivo; --update reescribe solo los bloques que fallaron, y el resto del archivo queda como estaba.\n\nCódigo de salida: 0 cuando todas las transcripciones pasaron (o, con --update, se reescribieron), 1 cuando alguna falló, 64 con un uso incorrecto.",
        "Rewrite each failing transcript with the actual output, keeping its header and the [..] lines that still match.":
            "Reescribe cada transcripción que falle con la salida real, conservando su cabecera y las líneas [..] que aún coinciden.",
        "How many transcripts run at once (default: the number of cores).":
            "Cuántas transcripciones se ejecutan a la vez (por defecto: el número de núcleos).",
        "Transcript files, Markdown files, or folders searched for *.transcript and *.md.":
            "Archivos de transcripción, archivos Markdown, o carpetas donde buscar *.transcript y *.md.",
        "The script completes options, subcommands, their options, --format and --lang values and deep links. Install it with one line:\n  bash: echo 'source <(navstack completion bash)' >> ~/.bashrc\n  zsh:  echo 'source <(navstack completion zsh)' >> ~/.zshrc  (after compinit)\n  fish: navstack completion fish > ~/.config/fish/completions/navstack.fish":
            "El script completa opciones, subcomandos, sus opciones, los valores de --format y --lang y los enlaces directos. Instálalo con una línea:\n  bash: echo 'source <(navstack completion bash)' >> ~/.bashrc\n  zsh:  echo 'source <(navstack completion zsh)' >> ~/.zshrc  (después de compinit)\n  fish: navstack completion fish > ~/.config/fish/completions/navstack.fish",
        "bash, zsh or fish.":
            "bash, zsh o fish.",
    ]
}
