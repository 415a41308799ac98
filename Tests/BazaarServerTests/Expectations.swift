import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// Expects an error answer: the status, the JSON error shape, and (when given) the code.
func expectError(
    _ response: TestResponse, _ status: Int, code: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response.status == status, "body: \(response.text)", sourceLocation: sourceLocation)
    let body = try? response.decode(ErrorBody.self)
    #expect(body != nil, "not the JSON error shape: \(response.text)", sourceLocation: sourceLocation)
    #expect(body?.error.message.isEmpty == false, sourceLocation: sourceLocation)
    if let code {
        #expect(body?.error.code == code, "body: \(response.text)", sourceLocation: sourceLocation)
    }
    #expect(response.header("Content-Type")?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
}

/// Expects a status, showing the body when it differs.
func expectStatus(_ response: TestResponse, _ status: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == status, "body: \(response.text)", sourceLocation: sourceLocation)
}
