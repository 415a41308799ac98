import BazaarAPI

/// One review as a screen shows it: the review, and its author's public profile (the API names
/// authors by id; the logic looks each one up once).
public struct ReviewLine: Sendable, Equatable, Identifiable {
    /// The review.
    public var review: Review
    /// Who wrote it; `nil` when their profile could not be read (an account gone, say).
    public var author: User?

    /// Makes a line.
    public init(review: Review, author: User?) {
        self.review = review
        self.author = author
    }

    /// The review's id.
    public var id: String { review.id }
    /// The author as a reader sees them: their display name, or "Someone".
    public var authorName: String { author?.displayName ?? "Someone" }
    /// The rating as five stars.
    public var stars: String { RatingText.stars(review.rating) }
}

/// What a person's reviews screen shows (the trust part of a seller's page): their profile with
/// the rating, and the reviews they received, newest first.
public struct ReviewsContent: Sendable, Equatable {
    /// The person, with `ratingAverage` and `ratingCount`.
    public var user: User
    /// The reviews loaded so far, newest first.
    public var reviews: [ReviewLine]
    /// Whether a ``ReviewsAction/loadMore`` can add older reviews.
    public var hasMore: Bool

    /// Makes content.
    public init(user: User, reviews: [ReviewLine], hasMore: Bool) {
        self.user = user
        self.reviews = reviews
        self.hasMore = hasMore
    }

    /// The rating in words (`4.5 ★ from 2 reviews`).
    public var ratingSummary: String { RatingText.summary(of: user) }
}

/// What a reader can do on someone's reviews.
public enum ReviewsAction: Sendable, Equatable {
    /// Loads the person and their newest reviews.
    case load
    /// Adds older reviews.
    case loadMore
}

/// A person's reviews and rating; anyone may read them.
public protocol ReviewsLogic: LogicController where Action == ReviewsAction, State == ScreenState<ReviewsContent> {}

/// The review form as typed: the rating as text (the logic reads it) and the words.
public struct ReviewDraft: Sendable, Equatable {
    /// 1 to 5, as typed.
    public var rating: String
    /// What the person says, 0 to 1000 characters.
    public var text: String

    /// Makes a draft.
    public init(rating: String = "", text: String = "") {
        self.rating = rating
        self.text = text
    }
}

/// A field of the review form, for errors shown beside it.
public enum ReviewField: String, Sendable, Equatable, Hashable, CaseIterable {
    /// The rating.
    case rating
    /// The text.
    case text
}

/// What the review form shows: the draft with an error beside each field that breaks a rule, or
/// the review once written.
public struct ReviewFormContent: Sendable, Equatable {
    /// What is in the form.
    public var draft: ReviewDraft
    /// A sentence for each field that breaks a rule.
    public var fieldErrors: [ReviewField: String]
    /// The review as written, once it is.
    public var written: Review?

    /// Makes content.
    public init(draft: ReviewDraft = ReviewDraft(), fieldErrors: [ReviewField: String] = [:], written: Review? = nil) {
        self.draft = draft
        self.fieldErrors = fieldErrors
        self.written = written
    }
}

/// What a party of a sale can do on the review form.
public enum ReviewFormAction: Sendable, Equatable {
    /// Writes the review the draft describes (or shows why not, beside the fields). Only the
    /// seller and the buyer of a sold product may, once each; the server says so otherwise.
    case submit(ReviewDraft)
}

/// Reviewing the other party of a sale.
public protocol ReviewFormLogic: LogicController
where Action == ReviewFormAction, State == ScreenState<ReviewFormContent> {}

/// A person's reviews as a screen.
public typealias ReviewsScreen = Screen<any ReviewsLogic>

/// The review form as a screen.
public typealias ReviewFormScreen = Screen<any ReviewFormLogic>

/// The reviews feature's public face; the app resolves it from ``Dependencies``.
public protocol ReviewsModuleProtocol: Sendable {
    /// The reviews the user with this id received, with their rating (no sign-in needed).
    func reviewsScreen(userID: String) -> ReviewsScreen
    /// The form to review the other party of the sale of the product with this id (needs a
    /// signed-in user).
    func reviewFormScreen(productID: String) -> ReviewFormScreen
}
