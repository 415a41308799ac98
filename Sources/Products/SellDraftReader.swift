import BazaarAPI
import Dependencies
import Foundation

/// Reads a sell form as typed: the price from text to cents, the currency upper-cased, and a
/// sentence for each field that breaks one of the server's rules, so the person sees it beside the
/// field before anything is sent.
enum SellDraftReader {
    /// The request the draft makes, and the errors by field (a request only when there are none).
    static func read(_ draft: SellDraft) -> (CreateProductRequest?, [SellField: String]) {
        var errors: [SellField: String] = [:]
        let title = draft.title.trimmingCharacters(in: .whitespacesAndNewlines)
        if !InputRules.fits(title, InputRules.productTitle) {
            errors[.title] = "Give it a title of \(InputRules.describe(InputRules.productTitle))."
        }
        if !InputRules.fits(draft.description, InputRules.productDescription) {
            errors[.description] = "Keep the description to \(InputRules.productDescription.upperBound) characters."
        }
        let cents = Price.cents(from: draft.price)
        if cents == nil { errors[.price] = "Enter a price like 120 or 4.50." }
        let currency = draft.currency.trimmingCharacters(in: .whitespaces).uppercased()
        if currency.count != 3 || !currency.allSatisfy({ $0.isASCII && $0.isLetter }) {
            errors[.currency] = "Use a three-letter currency code, like EUR."
        }
        if draft.photos.count > Product.photoLimit {
            errors[.photos] = "A listing has at most \(Product.photoLimit) photos."
        }
        guard errors.isEmpty, let cents else { return (nil, errors) }
        return (
            CreateProductRequest(title: title, description: draft.description, priceCents: cents, currency: currency),
            [:]
        )
    }

    /// The field a server message is about (it starts with the field's name), if any.
    static func field(named message: String) -> SellField? {
        let name = message.prefix { $0.isLetter }
        return name == "priceCents" ? .price : SellField(rawValue: String(name))
    }
}
