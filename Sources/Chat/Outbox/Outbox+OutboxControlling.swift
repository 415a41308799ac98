import Dependencies

/// The durable outbox is what the app drives through ``OutboxControlling``.
extension Outbox: OutboxControlling {}
