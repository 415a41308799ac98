import BazaarAPI
import Foundation

/// How every renderer writes a rating, so the terminal and the browser agree.
public enum RatingText {
    /// Five stars with `rating` of them filled: `★★★★☆` for 4 (clamped to 0-5).
    public static func stars(_ rating: Int) -> String {
        let filled = min(max(rating, 0), 5)
        return String(repeating: "★", count: filled) + String(repeating: "☆", count: 5 - filled)
    }

    /// A user's rating in words: `4.5 ★ from 2 reviews`, `5.0 ★ from 1 review`, or `No reviews yet`.
    public static func summary(of user: User) -> String {
        guard let average = user.ratingAverage, user.ratingCount > 0 else { return "No reviews yet" }
        let count = user.ratingCount
        return "\(String(format: "%.1f", average)) ★ from \(count) review\(count == 1 ? "" : "s")"
    }

    /// The average rounded to whole stars, for drawing five of them (`nil` without reviews).
    public static func roundedStars(of user: User) -> String? {
        guard let average = user.ratingAverage, user.ratingCount > 0 else { return nil }
        return stars(Int(average.rounded()))
    }
}
