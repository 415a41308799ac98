import Foundation

/// Freshness arithmetic of RFC 9111 §4.2: how long a response stays fresh and how old it is now.
///
/// ``judge(_:)`` parses an entry's headers once, when they are stored or refreshed; the questions a
/// look-up asks on every hit then read the stored answers.
enum Freshness {
    /// The longest a heuristic freshness lifetime may be (RFC 9111 §4.2.2 suggests a bound).
    static let heuristicCap: TimeInterval = 24 * 60 * 60

    /// Parses what judging `entry` needs from its headers and dates.
    static func judge(_ entry: CachedResponse) -> CachedResponse.Judgement {
        let control = CacheControl(entry.value(of: "cache-control"))
        let date = entry.value(of: "date").flatMap(HTTPDate.parse) ?? entry.responseDate
        return CachedResponse.Judgement(
            control: control,
            lifetime: lifetime(of: entry, control: control, date: date),
            correctedInitialAge: correctedInitialAge(of: entry, date: date),
            canRevalidate: entry.value(of: "etag") != nil || entry.value(of: "last-modified") != nil)
    }

    /// Seconds the entry stays fresh: `max-age`, else `Expires - Date`, else 10% of its age at
    /// `Last-Modified` (capped at a day), else zero.
    static func lifetime(of entry: CachedResponse) -> TimeInterval {
        entry.judgement.lifetime
    }

    /// The entry's current age at `now` (RFC 9111 §4.2.3).
    static func age(of entry: CachedResponse, now: Date) -> TimeInterval {
        entry.judgement.correctedInitialAge + max(0, now.timeIntervalSince(entry.responseDate))
    }

    /// Whether the entry may be served without asking the server.
    static func isFresh(_ entry: CachedResponse, now: Date) -> Bool {
        !entry.judgement.control.noCache && entry.judgement.lifetime > age(of: entry, now: now)
    }

    /// Whether the entry carries a validator (`ETag` or `Last-Modified`) for a conditional request.
    static func canRevalidate(_ entry: CachedResponse) -> Bool {
        entry.judgement.canRevalidate
    }

    private static func lifetime(of entry: CachedResponse, control: CacheControl, date: Date) -> TimeInterval {
        if let maxAge = control.maxAge {
            return TimeInterval(maxAge)
        }
        if let expiresHeader = entry.value(of: "expires") {
            // An invalid Expires (often "0") means already expired.
            guard let expires = HTTPDate.parse(expiresHeader) else { return 0 }
            return max(0, expires.timeIntervalSince(date))
        }
        if let lastModified = entry.value(of: "last-modified").flatMap(HTTPDate.parse) {
            return min(heuristicCap, max(0, date.timeIntervalSince(lastModified) * 0.1))
        }
        return 0
    }

    private static func correctedInitialAge(of entry: CachedResponse, date: Date) -> TimeInterval {
        let apparentAge = max(0, entry.responseDate.timeIntervalSince(date))
        let ageValue = entry.value(of: "age").flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        let responseDelay = max(0, entry.responseDate.timeIntervalSince(entry.requestDate))
        return max(apparentAge, ageValue + responseDelay)
    }
}
