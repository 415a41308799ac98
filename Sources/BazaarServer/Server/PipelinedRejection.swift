/// When a request the HTTP parser rejected is answered: after the answers to the requests that
/// arrived complete before it, with `400` when none of them answered it already.
///
/// The parser rejects bytes as soon as it reads them, which with pipelining is before the router
/// has answered the valid requests that came first on the connection: answering at once would put
/// the 400 in their place and close the connection on their answers. So this counts the requests
/// that arrived whole and the responses that ended, and decides once the two agree. A value with
/// no I/O: ``RequestCycleHandler`` tells it what passes and carries out what it decides.
struct PipelinedRejection {
    /// What the connection should do now.
    enum Decision: Equatable {
        /// Nothing (no parse error, or answers still owed to earlier requests).
        case wait
        /// Answer the broken request with `400`, then close.
        case answerAndClose
        /// Close without an answer: the router already answered the broken request (an early
        /// `413`, say), so another answer would be one too many.
        case close
    }

    private enum State {
        /// No parse error yet.
        case serving
        /// A parse error waits for the answers to the requests before it.
        case rejecting
        /// Decided; nothing more to do.
        case done
    }

    private var state = State.serving
    /// Requests that arrived in full.
    private var requestsReceived = 0
    /// Final responses written in full.
    private var responsesSent = 0

    /// A request's last part was parsed.
    mutating func requestEnded() {
        requestsReceived += 1
    }

    /// A final response's last part was written.
    mutating func responseEnded() -> Decision {
        responsesSent += 1
        return decide(responseInProgress: false)
    }

    /// The parser rejected what came next; `responseInProgress` when a final response has started
    /// and not ended.
    mutating func parseFailed(responseInProgress: Bool) -> Decision {
        guard state == .serving else { return .wait }
        state = .rejecting
        return decide(responseInProgress: responseInProgress)
    }

    /// Whether a parse error has been seen (decided or not): later parser errors are not this
    /// rule's to answer.
    var hasFailed: Bool { state != .serving }

    private mutating func decide(responseInProgress: Bool) -> Decision {
        guard state == .rejecting, !responseInProgress, responsesSent >= requestsReceived else { return .wait }
        state = .done
        return responsesSent == requestsReceived ? .answerAndClose : .close
    }
}
