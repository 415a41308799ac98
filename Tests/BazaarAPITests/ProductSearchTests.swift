import BazaarAPI
import Testing

@Suite("ProductSearch")
struct ProductSearchQueryTests {
    @Test("every part present becomes its query parameter, in a fixed order; blank text is left out")
    func queryParameters() {
        let search = ProductSearch(
            text: "road bike", minPriceCents: 0, maxPriceCents: 5000, sellerId: "s1", sort: .priceAscending)
        #expect(
            search.queryParameters.map { "\($0.name)=\($0.value)" } == [
                "query=road bike", "minPriceCents=0", "maxPriceCents=5000", "sellerId=s1", "sort=price_asc",
            ])
        #expect(ProductSearch(text: "  ").queryParameters.isEmpty)
        #expect(ProductSearch(text: "  ").isEmpty)
        #expect(!ProductSearch(sort: .newest).isEmpty)
    }
}
