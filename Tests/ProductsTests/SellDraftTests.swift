import BazaarAPI
import Dependencies
import Testing

@testable import Products

@Suite("Reading the sell form")
struct SellDraftTests {
    @Test("each broken rule is reported beside its own field, and nothing is sent")
    func fieldErrors() {
        let (request, errors) = SellDraftReader.read(
            SellDraft(title: " ", description: "", price: "abc", currency: "euro"))
        #expect(request == nil)
        #expect(Set(errors.keys) == [.title, .price, .currency])
    }

    @Test("a good draft becomes a request with cents and an upper-case currency")
    func goodDraft() {
        let (request, errors) = SellDraftReader.read(
            SellDraft(title: " Lamp ", description: "Brass", price: "4.50", currency: "usd"))
        #expect(errors.isEmpty)
        #expect(request?.title == "Lamp")
        #expect(request?.priceCents == 450)
        #expect(request?.currency == "USD")
    }

    @Test(
        "a server message names its field",
        arguments: [
            ("title must be 1 to 120 characters.", SellField.title), ("priceCents must be an integer", .price),
            ("currency must be an ISO 4217 code", .currency),
        ])
    func serverField(message: String, field: SellField) {
        #expect(SellDraftReader.field(named: message) == field)
    }
}
