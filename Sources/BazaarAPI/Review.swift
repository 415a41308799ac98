import Foundation

/// What one party of a sale said of the other afterwards.
public struct Review: Codable, Sendable, Equatable, Hashable {
    /// Opaque, stable identifier.
    public var id: String
    /// The sold product.
    public var productId: String
    /// Who wrote it: the seller or the buyer.
    public var authorId: String
    /// Whom it is about: the other of the two.
    public var subjectId: String
    /// 1 (bad) to 5 (very good).
    public var rating: Int
    /// 0-1000 characters.
    public var text: String
    /// When it was written.
    public var createdAt: Date

    /// Creates a review value.
    public init(
        id: String, productId: String, authorId: String, subjectId: String, rating: Int, text: String, createdAt: Date
    ) {
        self.id = id
        self.productId = productId
        self.authorId = authorId
        self.subjectId = subjectId
        self.rating = rating
        self.text = text
        self.createdAt = createdAt
    }
}

/// The body of `POST /v1/products/{id}/reviews`.
public struct CreateReviewRequest: Codable, Sendable, Equatable {
    /// 1-5.
    public var rating: Int
    /// 0-1000 characters.
    public var text: String

    /// Makes a review request.
    public init(rating: Int, text: String) {
        self.rating = rating
        self.text = text
    }
}
