import Testing

@testable import WebUI

@Suite("Where a posted form may send the person back")
struct ReturnAddressTests {
    @Test("a product list on this site, with its query, and nothing else")
    func onlyProductLists() {
        #expect(WebApp.listAddress("/products") == "/products")
        #expect(WebApp.listAddress("/products?q=lamp&sort=newest") == "/products?q=lamp&sort=newest")
        for hostile in [
            "https://evil.example/products", "//evil.example", "/products//evil.example", "/productsx",
            "/products?\\\\evil", "/saved", "", "/products?" + String(repeating: "a", count: 3000),
        ] {
            #expect(WebApp.listAddress(hostile) == nil, "\(hostile)")
        }
    }

    @Test("a path segment taken from a form is an id or nothing")
    func plainIDs() {
        #expect(WebApp.isPlainID("0e2a70db-b03c-457b-97e3-2b1b4dcac80c"))
        for hostile in ["", "../admin", "a/b", "x?y", "id#frag", String(repeating: "a", count: 65)] {
            #expect(!WebApp.isPlainID(hostile), "\(hostile)")
        }
    }
}
