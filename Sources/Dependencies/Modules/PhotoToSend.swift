import BazaarAPI
import Foundation
import Networking

/// A photo picked to go with a chat message: the image bytes as read from a file or a form. The
/// outbox keeps them on disk with the message and uploads them only just before the message is
/// sent, so a photo picked offline goes out once the server is back.
public struct PhotoToSend: Sendable, Equatable, Hashable {
    /// The image: JPEG, PNG or WebP.
    public var data: Data
    /// Its media type, as its first bytes say (see `MediaType.image(sniffing:)`).
    public var mediaType: MediaType

    /// A photo of `data`, which is `mediaType`.
    public init(data: Data, mediaType: MediaType) {
        self.data = data
        self.mediaType = mediaType
    }

    /// The photo in `data` when its first bytes say it is a JPEG, PNG or WebP; `nil` otherwise.
    public init?(sniffing data: Data) {
        guard let mediaType = MediaType.image(sniffing: data) else { return nil }
        self.init(data: data, mediaType: mediaType)
    }
}

/// Why a message cannot be queued: it breaks one of the server's rules, so it would never be
/// delivered. The outbox checks before it writes anything; both apps show ``description``.
public enum MessageDraftError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither text nor a photo.
    case empty
    /// Text beyond `InputRules.messageBody`.
    case tooLong
    /// More photos than `Message.attachmentLimit`.
    case tooManyPhotos(Int)

    /// The problem with a message of `body` and `photoCount` photos, or `nil` when it can be sent:
    /// text (trimmed) of at most 4000 characters, at most four photos, and at least one of the two.
    public static func check(body: String, photoCount: Int) -> MessageDraftError? {
        let text = body.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty && photoCount == 0 { return .empty }
        if !text.isEmpty && !InputRules.fits(body, InputRules.messageBody) { return .tooLong }
        if photoCount > Message.attachmentLimit { return .tooManyPhotos(photoCount) }
        return nil
    }

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .empty: "Write something or add a photo."
        case .tooLong: "A message is at most \(InputRules.messageBody.upperBound) characters."
        case .tooManyPhotos(let count):
            "A message carries at most \(Message.attachmentLimit) photos, not \(count)."
        }
    }
}
