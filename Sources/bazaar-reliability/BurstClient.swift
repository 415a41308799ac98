import BazaarAPI
import HTTPTypes
import Networking
import Session

/// One client of the burst: sends its messages one after the other through the kit's
/// ``AuthenticatedNetworkController``, each with its own `Idempotency-Key`.
///
/// The kit retries a keyed POST on connection failures by itself; when it gives up (the server
/// stayed away too long, or the failure was of a kind it does not retry) the client sends the same
/// message again with the same key, as a real app's outbox would. That is what must never
/// produce a second message.
struct BurstClient: Sendable {
    /// The signed-in sender.
    let network: AuthenticatedNetworkController
    /// Its messages, in sending order.
    let messages: [PlannedMessage]
    /// Where outcomes are recorded.
    let ledger: MessageLedger
    /// The most sends of one message (the first included) before the client gives up on it.
    var maxSends = 10

    /// Sends every message, then tells the ledger this client is done.
    func run() async {
        for message in messages {
            if Task.isCancelled {
                await ledger.giveUp(message, lastError: "cancelled")
                continue
            }
            await send(message)
        }
        await ledger.clientFinished()
    }

    /// Sends one message until it is acknowledged, refused, or `maxSends` sends have failed.
    func send(_ message: PlannedMessage) async {
        let endpoint = BazaarEndpoints.sendMessage(
            conversationID: message.conversationID, body: message.body, idempotencyKey: message.idempotencyKey)
        var lastError = ""
        for send in 1...maxSends {
            do {
                let stored = try await network.request(endpoint)
                await ledger.acknowledge(message, as: stored)
                return
            } catch {
                switch Self.classify(error) {
                case .refused(let reason):
                    await ledger.refuse(message, because: reason)
                    return
                case .cancelled:
                    await ledger.giveUp(message, lastError: "cancelled")
                    return
                case .resend(let reason):
                    lastError = reason
                    if send < maxSends {
                        await ledger.noteResend(reason: reason)
                        try? await Task.sleep(for: .milliseconds(200))
                    }
                }
            }
        }
        await ledger.giveUp(message, lastError: lastError)
    }

    /// What a client does after the kit gave up on a send.
    enum Reaction: Equatable {
        /// Send again with the same key (the server may not have seen it, or may have stored it).
        case resend(String)
        /// Stop: the server answered in a way a valid send never should.
        case refused(String)
        /// Stop: the run is ending.
        case cancelled
    }

    /// Sorts a failure: a 4xx answer or an undecodable 201 is a refusal; everything else (no
    /// connection, a timeout, a 5xx, a transport failure) is worth a re-send with the same key.
    static func classify(_ error: NetworkError) -> Reaction {
        switch error {
        case .cancelled:
            return .cancelled
        case .httpStatus(let failure) where failure.status.kind == .clientError:
            return .refused("\(failure.status.code) \(failure.serverError?.code ?? "")")
        case .httpStatus(let failure):
            return .resend("HTTP \(failure.status.code)")
        case .decodingFailed(let failure):
            return .refused("undecodable answer: \(failure)")
        case .noConnection:
            return .resend("no connection")
        case .timedOut:
            return .resend("timed out")
        case .transport(let reason):
            return .resend("transport: \(reason.prefix(60))")
        default:
            return .resend("\(error)")
        }
    }
}
