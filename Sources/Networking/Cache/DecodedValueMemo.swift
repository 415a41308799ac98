import Foundation
import Synchronization

/// The last value decoded from one cached body, so fresh cache hits hand back a value instead of
/// decoding the same bytes again (decoding was about half of a hit's cost).
///
/// An entry in the ``HTTPCache``'s memory owns one memo, shared by every copy of the entry and every
/// response served from it. A value is reused only for the same type decoded by the same
/// `JSONDecoder` instance (the memo keeps the decoder alive, so its identity cannot be reused by
/// another); a decoder must therefore not be reconfigured after it has been used. Class-typed
/// values are never kept, so two callers never share a mutable instance.
final class DecodedValueMemo: Sendable {
    private struct Slot: Sendable {
        let type: ObjectIdentifier
        let decoder: JSONDecoder
        let value: any Sendable
    }

    private let slot = Mutex<Slot?>(nil)

    /// The kept value if it is a `T` decoded by `decoder`.
    func value<T: Sendable>(as type: T.Type, decodedBy decoder: JSONDecoder) -> T? {
        slot.withLock { slot in
            guard let slot, slot.type == ObjectIdentifier(type), slot.decoder === decoder else { return nil }
            return slot.value as? T
        }
    }

    /// Keeps `value`, decoded by `decoder`, in place of the previous one; class instances are not kept.
    func keep<T: Sendable>(_ value: T, decodedBy decoder: JSONDecoder) {
        guard !(T.self is AnyObject.Type) else { return }
        slot.withLock { $0 = Slot(type: ObjectIdentifier(T.self), decoder: decoder, value: value) }
    }
}

/// Memos are not part of an entry's value: two entries with the same fields are equal.
extension DecodedValueMemo: Equatable {
    static func == (lhs: DecodedValueMemo, rhs: DecodedValueMemo) -> Bool { true }
}
