/// Which certificate authorities an `https://` server's certificate must chain to.
public enum TLSTrust: Equatable, Hashable, Sendable {
    /// The system's: `SSL_CERT_FILE` and `SSL_CERT_DIR` when set, else the first bundle
    /// of ``TLSTrust/systemBundles`` that exists and the folders of
    /// ``TLSTrust/systemFolders`` that exist.
    case system
    /// Only the authorities in this PEM file (a private authority), instead of the system's.
    case authority(file: String)

    /// Where Linux distributions keep their bundle of authorities, in the order Go's
    /// `crypto/x509` looks (`root_linux.go`): the first that exists is read.
    public static let systemBundles = [
        "/etc/ssl/certs/ca-certificates.crt",  // Debian, Ubuntu, Gentoo, Arch
        "/etc/pki/tls/certs/ca-bundle.crt",  // Fedora, RHEL 6
        "/etc/ssl/ca-bundle.pem",  // openSUSE
        "/etc/pki/tls/cacert.pem",  // OpenELEC
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // CentOS, RHEL 7
        "/etc/ssl/cert.pem",  // Alpine
    ]

    /// Folders of authorities, one a file, looked up by the hash of their subject
    /// (`openssl rehash`), as Go's `root_linux.go` names them: each that exists is used.
    public static let systemFolders = [
        "/etc/ssl/certs",  // Debian, SLES
        "/etc/pki/tls/certs",  // Fedora, RHEL
    ]

    /// The bundle files and folders to load: for `.system`, `SSL_CERT_FILE` replaces the
    /// list of bundles and `SSL_CERT_DIR` (folders separated by ':') the list of folders,
    /// as OpenSSL and Go read them; only those that `exists` are kept, and of the bundles
    /// only the first. Empty when none exists.
    public func locations(environment: (String) -> String?, exists: (String) -> Bool)
        -> (files: [String], folders: [String])
    {
        switch self {
        case .authority(let file):
            return ([file], [])
        case .system:
            let bundles = environment("SSL_CERT_FILE").flatMap { $0.isEmpty ? nil : [$0] } ?? Self.systemBundles
            let folders =
                environment("SSL_CERT_DIR").flatMap { text in
                    text.isEmpty ? nil : text.split(separator: ":").map(String.init)
                } ?? Self.systemFolders
            return (bundles.first(where: exists).map { [$0] } ?? [], folders.filter(exists))
        }
    }
}
