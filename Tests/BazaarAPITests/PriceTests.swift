import BazaarAPI
import Testing

@Suite("Prices typed by a person")
struct PriceTests {
    @Test(
        "prices typed by a person become cents; anything odd is refused",
        arguments: [
            ("120", 12_000), ("4.5", 450), ("4.50", 450), ("0", 0), (" 7.05 ", 705),
        ])
    func prices(text: String, cents: Int) {
        #expect(Price.cents(from: text) == cents)
    }

    @Test(
        "malformed prices are refused",
        arguments: ["", "-1", "4.505", "4,50", "twelve", "1e3", "٣", "4.", "999999999999"])
    func badPrices(text: String) {
        #expect(Price.cents(from: text) == nil)
    }

    @Test(
        "minor units read back as a person writes them, with the currency",
        arguments: [(12_000, "120.00 EUR"), (450, "4.50 EUR"), (5, "0.05 EUR"), (0, "0.00 EUR"), (-105, "-1.05 EUR")])
    func text(cents: Int, text: String) {
        #expect(Price.text(cents: cents, currency: "EUR") == text)
    }
}
