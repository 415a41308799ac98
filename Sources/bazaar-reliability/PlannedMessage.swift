/// One message of the burst, decided before it is sent: its conversation, a body no other
/// message has, and its own `Idempotency-Key`, kept for every re-send.
struct PlannedMessage: Sendable, Hashable {
    /// The client (0-based) that sends it.
    let client: Int
    /// The conversation it goes to.
    let conversationID: String
    /// The text; unique across the run, so it identifies the message in the history.
    let body: String
    /// The key every attempt and re-send of this message carries.
    let idempotencyKey: String
}
