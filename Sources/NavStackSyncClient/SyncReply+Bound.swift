import NavStackSync

/// A reply taken only when its answer names what its request sent (``SyncStored``): the
/// replica and the range of its seqs. An answer that names anything else, or nothing, is
/// the answer to another request (a stray one read on a kept connection after the next
/// request went out, which would acknowledge operations the server never got):
/// ``SyncError/strayAnswer``, and nothing of it is applied.
struct BoundReply: SyncReply {
    let reply: any SyncReply
    let expected: SyncStored

    /// `reply`, the reply to `request` as it was sent.
    init(_ reply: any SyncReply, to request: SyncRequest) {
        self.reply = reply
        expected = SyncStored(request)
    }

    func answer() throws(SyncError) -> SyncAnswer {
        let answer = try reply.answer()
        guard expected.answers(answer) else { throw .strayAnswer }
        return answer
    }
}

extension SyncTransport {
    /// Sends `request`; its answer is taken only when it names what `request` sent.
    func sendBound(_ request: SyncRequest, by end: ContinuousClock.Instant) throws(SyncError) -> any SyncReply {
        BoundReply(try send(request, by: end), to: request)
    }
}
