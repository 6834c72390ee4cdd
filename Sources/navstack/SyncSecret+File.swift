import NavStackCore
import NavStackIO
import NavStackSyncClient

extension SyncSecretError {
    /// 64 for a secret that is malformed (bad usage), 1 for a file that cannot be read.
    var exitStatus: ExitStatus {
        if case .malformed = self { return ExitStatus(code: 64) }
        return .failure
    }
}

extension SyncSecret {
    /// The bytes of the secret's file, a regular file or a pipe (`<(pass show navstack)`),
    /// `nil` past `limit` bytes.
    func read(_ file: String, limit: Int) throws(SyncSecretError) -> [UInt8]? {
        do {
            return try Files.read(file, limit: limit)
        } catch {
            throw .unreadable(self, file: file, reason: error.reason)
        }
    }
}
