import BazaarAPI
import Dependencies
import Foundation
import Testing

@testable import WebUI

@Suite("Reading what a browser posts")
struct BrowserInputTests {
    @Test("form fields are percent- and plus-decoded; the first of a repeated name wins")
    func formFields() {
        let fields = FormFields("title=Road+bike&price=4%2C50&title=second&empty=&csrf=a%2Bb")
        #expect(fields["title"] == "Road bike")
        #expect(fields["price"] == "4,50")
        #expect(fields["empty"] == "")
        #expect(fields["csrf"] == "a+b")
        #expect(fields["missing"] == nil)
    }

    @Test("a multipart form's files are found by field name in order, bytes untouched; its text fields are fields")
    func multipart() throws {
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x00, 0xFF, 0x0D, 0x0A])
        let second = Data([0xFF, 0xD8, 0xFF, 0x0D, 0x0A, 0x2D, 0x2D])
        func file(_ name: String, _ filename: String, _ content: Data) -> Data {
            Data(
                "--XyZ\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: image/png\r\n\r\n"
                    .utf8) + content + Data("\r\n".utf8)
        }
        var body = Data("--XyZ\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nvalue\r\n".utf8)
        body += file("photos", "a.png", bytes) + file("photos", "", Data()) + file("photos", "b.jpg", second)
        body += Data("--XyZ--\r\n".utf8)
        let form = try #require(MultipartForm(body: body, contentType: "multipart/form-data; boundary=XyZ"))
        #expect(form.files(named: "photos") == [bytes, second], "the empty input's part is not a file")
        #expect(form.files(named: "nothing").isEmpty)
        #expect(form.fields.map(\.name) == ["other"])
        #expect(form.fields.first?.value == "value")
        let fields = FormFields("csrf=fromQuery", adding: form.fields + [("csrf", "fromBody")])
        #expect(fields["other"] == "value")
        #expect(fields["csrf"] == "fromQuery", "a name given twice keeps its first value")
        #expect(MultipartForm(body: body, contentType: "application/x-www-form-urlencoded") == nil)
    }

    @Test("the session cookie is read among others")
    func cookie() {
        #expect(WebApp.cookie("bazaar_session", in: "a=1; bazaar_session=abc_DEF-1; b=2") == "abc_DEF-1")
        #expect(WebApp.cookie("bazaar_session", in: "a=1") == nil)
    }

    @Test("session ids and form tokens are long, URL-safe and never repeat")
    func sessions() {
        let sessions = (0..<100).map { _ in BrowserSession.make() }
        #expect(Set(sessions.map(\.id)).count == 100)
        #expect(sessions.allSatisfy { $0.id.count == 43 && $0.csrfToken.count == 43 && $0.id != $0.csrfToken })
        #expect(sessions.allSatisfy { $0.id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } })
    }
}

@Suite("Pages rendered from view models")
struct PageRendererTests {
    static let hostile = "\" onmouseover=\"alert(1)\" x=\"<script>alert(2)</script>&"

    @Test("every value is escaped in text and in attributes")
    func escaping() throws {
        let renderer = try PageRenderer()
        let nav = NavigationView(user: nil, csrf: Self.hostile)
        let content = ProductListContent(
            products: [
                Product(
                    id: Self.hostile, sellerId: "s", title: Self.hostile, description: "", priceCents: 100,
                    currency: "EUR",
                    createdAt: Date(timeIntervalSince1970: 0))
            ],
            query: Self.hostile, hasMore: true)
        let html = renderer.render(ProductListView(content: content, pages: 1, nav: nav), "products")
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("\" onmouseover"))
        #expect(html.contains("&quot; onmouseover=&quot;alert(1)&quot;"))
        #expect(
            html.contains("value=\"&quot; onmouseover"),
            "the search box and the form token are escaped inside attributes")
    }

    @Test("the search form keeps what was typed, marks the chosen order, and shows each error beside its field")
    func searchForm() throws {
        let renderer = try PageRenderer()
        var form = ProductSearchForm()
        form.text = "lamp"
        form.minPrice = "ten"
        form.sort = "price_desc"
        form.errors = ["min": "Enter a price like 20 or 4.50."]
        let html = renderer.render(
            ProductListView(form: form, content: nil, pages: 1, nav: NavigationView(user: nil, csrf: "t")), "products")
        #expect(html.contains("<p id=\"min-price-error\" class=\"field-error\">Enter a price like 20 or 4.50.</p>"))
        #expect(html.contains("value=\"ten\" aria-invalid=\"true\" aria-describedby=\"min-price-error\""))
        #expect(html.contains("<option value=\"price_desc\" selected>Price: high to low</option>"))
        #expect(html.contains("<option value=\"\">Best match</option>"))
        #expect(!html.contains("max-price-error"))
        #expect(html.contains("Nothing found."))
    }

    @Test(
        "lists show each product as a card with its cover's thumb (medium in srcset); its page shows medium sizes linking to full"
    )
    func photos() throws {
        let renderer = try PageRenderer()
        let server = try #require(URL(string: "http://127.0.0.1:8080"))
        let product = Product(
            id: "p1", sellerId: "s1", title: "Desk", description: "", priceCents: 100, currency: "EUR",
            createdAt: Date(timeIntervalSince1970: 0),
            photos: ["a", "b"].map {
                Photo(id: $0, width: 1200, height: 800, fullURL: "/v1/products/p1/photos/\($0)")
            })
        let nav = NavigationView(user: nil, csrf: "t")
        let list = renderer.render(
            ProductListView(
                form: ProductSearchForm(), content: ProductListContent(products: [product], query: nil, hasMore: false),
                pages: 1,
                nav: nav, server: server), "products")
        let cover = "http://127.0.0.1:8080/v1/products/p1/photos/a"
        #expect(
            list.contains(
                #"<img src="\#(cover)?size=thumb" srcset="\#(cover)?size=thumb 240w, \#(cover)?size=medium 960w""#))
        #expect(
            list.contains(#"loading="lazy" width="240" height="160">"#), "the thumb's own size, 1200×800 fitted in 240")
        #expect(list.contains(#"<span class="title">Desk</span>"#))
        let seller = User(
            id: "s1", username: "sue", displayName: "Sue", bio: nil, photoURL: nil,
            createdAt: Date(timeIntervalSince1970: 0))
        let page = renderer.render(
            ProductDetailView(
                content: ProductDetailContent(product: product, seller: seller), me: nil, nav: nav, server: server),
            "product")
        let second = "http://127.0.0.1:8080/v1/products/p1/photos/b"
        #expect(
            page.contains(
                #"<a href="\#(second)"><img src="\#(second)?size=medium" alt="Photo 2 of Desk, opens at full size" loading="lazy" width="960" height="640"></a>"#
            ))
        var bare = product
        bare.photos = []
        let plain = renderer.render(
            ProductDetailView(
                content: ProductDetailContent(product: bare, seller: seller), me: nil, nav: nav, server: server),
            "product")
        #expect(!plain.contains("class=\"photos\""))
    }

    @Test("the sell form shows each error beside its own field")
    func sellErrors() throws {
        let renderer = try PageRenderer()
        let content = SellContent(
            draft: SellDraft(title: "Chair", price: "twelve"), fieldErrors: [.price: "Enter a price like 120 or 4.50."])
        let html = renderer.render(SellView(content: content, nav: NavigationView(user: nil, csrf: "t")), "sell")
        #expect(html.contains("<p id=\"sell-price-error\" class=\"field-error\">Enter a price like 120 or 4.50.</p>"))
        #expect(html.contains("aria-describedby=\"sell-price-error\""))
        #expect(!html.contains("sell-title-error"))
        #expect(html.contains("value=\"Chair\""))
    }
}
