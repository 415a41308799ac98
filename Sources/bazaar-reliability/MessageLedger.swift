import BazaarAPI

/// What happened to every planned message: acknowledged (with the server's message), given up,
/// or refused; plus the clients' own re-sends. Shared by the clients, the kill schedule and the audit.
actor MessageLedger {
    /// Every message the run plans to send.
    let planned: [PlannedMessage]
    /// The server's message for each acknowledged (201) send, by idempotency key.
    private(set) var acknowledged: [String: Message] = [:]
    /// Messages whose sends never got a 201, by idempotency key, with the last error.
    private(set) var unacknowledged: [String: String] = [:]
    /// Answers no valid send should get (a 4xx, an undecodable body), one line each.
    private(set) var refusals: [String] = []
    /// How often a client re-sent a message (same key) after the kit gave up retrying.
    private(set) var resends = 0
    /// Why the kit gave up, counted by reason, for the report.
    private(set) var resendReasons: [String: Int] = [:]
    /// How many clients have sent all their messages.
    private(set) var finishedClients = 0

    /// Makes a ledger for the planned messages.
    init(planned: [PlannedMessage]) {
        self.planned = planned
    }

    /// Messages acknowledged or given up so far.
    var settled: Int { acknowledged.count + unacknowledged.count }

    /// Records a 201 for `message`.
    func acknowledge(_ message: PlannedMessage, as stored: Message) {
        acknowledged[message.idempotencyKey] = stored
    }

    /// Records that a client re-sends `message` with the same key after `reason`.
    func noteResend(reason: String) {
        resends += 1
        resendReasons[reason, default: 0] += 1
    }

    /// Records that `message` was never acknowledged, with the last error.
    func giveUp(_ message: PlannedMessage, lastError: String) {
        unacknowledged[message.idempotencyKey] = lastError
    }

    /// Records an answer a valid send must never get; the message counts as unacknowledged.
    func refuse(_ message: PlannedMessage, because reason: String) {
        unacknowledged[message.idempotencyKey] = reason
        refusals.append("\(message.body): \(reason)")
    }

    /// Records that a client has settled all its messages.
    func clientFinished() {
        finishedClients += 1
    }
}
