import BazaarAPI
import BazaarStorage

/// This replica's end of the live events: its sockets (``EventHub``) and its cache of encoded
/// public reads, as the storage engines' buses deliver into them.
struct ReplicaEventSink: LiveEventSink {
    let hub: EventHub
    let publicReads: EncodedResponseCache

    func deliver(_ event: LiveEvent, to userIds: [String]) async {
        await hub.deliver(event, to: userIds)
    }

    func deliver(frame: String, to userIds: [String]) async {
        await hub.deliver(frame, to: userIds)
    }

    func productsChanged() {
        publicReads.invalidate()
    }

    func sessionsRevoked(_ sessionIds: [String]) async {
        await hub.revoke(sessionIds: sessionIds)
    }
}
