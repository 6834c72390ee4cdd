import CPosix
import Glibc
import NavStackBytes

/// One address to connect to: a `sockaddr_in` or `sockaddr_in6`, copied out of what
/// `getaddrinfo` returned so that it can outlive the list.
struct SocketAddress: Equatable, Sendable {
    let family: Int32
    let bytes: [UInt8]

    /// Whether it is in 127.0.0.0/8 or is ::1 (IPv6 with the port, flow label and scope
    /// ahead of the 16 address bytes).
    var isLoopback: Bool {
        switch family {
        case AF_INET: bytes.count >= 8 && bytes[4] == 127
        case AF_INET6: bytes.count >= 24 && bytes[8..<23].allSatisfy { $0 == 0 } && bytes[23] == 1
        default: false
        }
    }
}

/// Turns a host into the addresses to try, within the request's deadline.
///
/// An address in the URL (127.0.0.1, ::1) is read without asking any resolver. A name is
/// looked up on a thread of its own: `getaddrinfo` cannot be given a time limit, and a
/// resolver that does not answer would otherwise hold the caller for its own timeouts
/// (5 s per try by default). When the deadline passes first, the caller gets `timedOut`
/// and the thread finishes in the background, dropping what it finds.
enum Resolver {
    static func addresses(of host: String, port: Int, by deadline: Deadline) throws(HTTPError) -> [SocketAddress] {
        let numeric = HTTPURL.isIPv6(host) || isIPv4(host)
        let result = numeric ? lookUp(host, port: port, numeric: true) : try lookUpOnThread(host, port: port, by: deadline)
        guard let addresses = result, !addresses.isEmpty else { throw .cannotResolve(host: host) }
        return addresses
    }

    static func isIPv4(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    /// The addresses `getaddrinfo` gives, in its order (which follows RFC 6724's
    /// preferences), or nil when it fails.
    static func lookUp(_ host: String, port: Int, numeric: Bool) -> [SocketAddress]? {
        guard let list = ns_getaddrinfo_tcp(host, String(port), numeric ? 1 : 0) else { return nil }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var entry = Optional(list)
        while let info = entry?.pointee {
            if let address = info.ai_addr, info.ai_family == AF_INET || info.ai_family == AF_INET6 {
                let bytes = [UInt8](copying: address, count: Int(info.ai_addrlen))
                let found = SocketAddress(family: info.ai_family, bytes: bytes)
                if !addresses.contains(found) { addresses.append(found) }
            }
            entry = info.ai_next
        }
        return addresses
    }

    private static func lookUpOnThread(_ host: String, port: Int, by deadline: Deadline) throws(HTTPError) -> [SocketAddress]? {
        // In the static release build, names are looked up in /etc/hosts and DNS only.
        ns_resolve_hosts_with_builtin_modules()
        return try TimedWork.run(by: deadline) { lookUp(host, port: port, numeric: false) }
    }
}

/// Work done on a detached thread of its own while the caller waits for it until a
/// deadline: for calls that take no time limit of their own (`getaddrinfo`, reading files
/// that a hung mount can hold). When the deadline passes first, the caller gets
/// `timedOut` and the thread finishes in the background, dropping what it made.
/// `finished` and `value` are read and written only under `mutex`. Unchecked because
/// that lock is pthread's, with a condition waited on against CLOCK_MONOTONIC until a
/// deadline (Synchronization's `Mutex` has no timed wait), and the compiler cannot see
/// what a C lock guards.
final class TimedWork<Value: Sendable>: @unchecked Sendable {
    private let work: @Sendable () -> Value
    private let mutex = Pinned(pthread_mutex_t())
    private let condition = Pinned(pthread_cond_t())
    private var finished = false
    private var value: Value?

    private init(_ work: @escaping @Sendable () -> Value) {
        self.work = work
        pthread_mutex_init(mutex.address, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition.address, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition.address)
        pthread_mutex_destroy(mutex.address)
    }

    /// What `work` returns, run on a thread of its own; `timedOut` at the deadline.
    static func run(by deadline: Deadline, _ work: @escaping @Sendable () -> Value) throws(HTTPError) -> Value {
        let timed = TimedWork(work)
        let started = DetachedThread.start { timed.run() }
        guard started == 0 else { throw .system(call: "pthread_create", code: started) }
        return try timed.wait(by: deadline)
    }

    /// On the work's thread.
    fileprivate func run() {
        let made = work()
        pthread_mutex_lock(mutex.address)
        value = made
        finished = true
        pthread_cond_signal(condition.address)
        pthread_mutex_unlock(mutex.address)
    }

    /// The value, or `timedOut` at the deadline.
    private func wait(by deadline: Deadline) throws(HTTPError) -> Value {
        var end = deadline.endTime
        pthread_mutex_lock(mutex.address)
        defer { pthread_mutex_unlock(mutex.address) }
        while !finished {
            if pthread_cond_timedwait(condition.address, mutex.address, &end) == ETIMEDOUT && !finished {
                throw deadline.timedOut
            }
        }
        guard let value else { preconditionFailure("a finished work has its value") }
        return value
    }
}

/// A detached thread that runs a closure (not generic: a C function pointer cannot name
/// a generic type).
private final class DetachedThread: Sendable {
    private let body: @Sendable () -> Void

    private init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    /// Starts `body` on a detached thread; pthread_create's result (0 when started).
    static func start(_ body: @escaping @Sendable () -> Void) -> Int32 {
        let thread = DetachedThread(body)
        var handle = pthread_t()
        let started = pthread_create(
            &handle, nil,
            { context in
                Unmanaged<DetachedThread>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, Unmanaged.passRetained(thread).toOpaque())
        guard started == 0 else {
            Unmanaged.passUnretained(thread).release()
            return started
        }
        pthread_detach(handle)
        return 0
    }
}
