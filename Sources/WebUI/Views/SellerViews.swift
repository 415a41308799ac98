import BazaarAPI
import Dependencies
import Foundation

/// A seller's page: who they are, their stars and reviews, and every listing with its status.
struct SellerView: Sendable {
    struct ReviewItem: Sendable {
        var stars: String
        var rating: Int
        var author: String
        var text: String?
        var date: String
        var isoDate: String
    }

    struct Listing: Sendable {
        var card: ProductCardView
    }

    var title: String
    var nav: NavigationView
    var displayName: String
    var username: String
    var photoURL: String?
    var bio: String?
    /// Five stars, the average rounded (`nil` without reviews).
    var stars: String?
    var ratingLabel: String
    var ratingSummary: String
    var reviews: [ReviewItem]
    var listings: [Listing]
    var isMe: Bool
    /// The person's id (the block and report forms name them).
    var id: String
    /// Whether the reader may block or report them: signed in, someone else.
    var canAct: Bool

    init(content: ReviewsContent, listings: [Product], me: User?, server: URL, nav: NavigationView) {
        let user = content.user
        title = user.displayName
        self.nav = nav
        displayName = user.displayName
        username = user.username
        photoURL = user.photoURL.map { WebFormats.absolute(PhotoSize.thumb.url($0), on: server) }
        bio = user.bio.flatMap { $0.isEmpty ? nil : $0 }
        stars = RatingText.roundedStars(of: user)
        ratingSummary = content.ratingSummary
        ratingLabel = "Rated " + content.ratingSummary
        reviews = content.reviews.map { line in
            ReviewItem(
                stars: line.stars, rating: line.review.rating, author: line.authorName,
                text: line.review.text.isEmpty ? nil : line.review.text, date: WebFormats.time(line.review.createdAt),
                isoDate: WebFormats.iso(line.review.createdAt))
        }
        self.listings = listings.map { product in
            Listing(card: ProductCardView(product, server: server))
        }
        isMe = me?.id == user.id
        id = user.id
        canAct = me != nil && !isMe
    }
}

/// The review form, on a conversation about a sold product.
struct ReviewFormView: Sendable {
    var action: String
    /// The conversation to come back to after writing it.
    var conversation: String?
    var rating: String
    var text: String
    var ratingError: String?
    var textError: String?
    var options: [Option]

    struct Option: Sendable {
        var value: Int
        var label: String
        var selected: Bool
    }

    init(productID: String, conversation: String? = nil, content: ReviewFormContent = ReviewFormContent()) {
        action = "/products/\(productID)/review"
        self.conversation = conversation
        rating = content.draft.rating
        text = content.draft.text
        ratingError = content.fieldErrors[.rating]
        textError = content.fieldErrors[.text]
        options = (1...5).reversed().map { value in
            Option(
                value: value, label: "\(RatingText.stars(value)) (\(value) of 5)",
                selected: content.draft.rating == "\(value)")
        }
    }
}
