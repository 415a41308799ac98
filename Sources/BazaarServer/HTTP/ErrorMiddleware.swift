import BazaarDomain
import BazaarStorage
import Foundation
import Hummingbird
import Logging

/// Turns every error a route throws into the contract's JSON error response.
///
/// ``APIError``s answer as they are; an unreachable database is 503 with `Retry-After`; Hummingbird's own errors (unknown route, wrong method, ...)
/// keep their status and get a code; anything else is a bug: logged and answered 500 without detail.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The contract's methods per path, for 405 answers.
    let methods: MethodTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.makeResponse()
        } catch let error as DomainError {
            return APIError(error).makeResponse()
        } catch StoreError.unavailable(let reason) {
            return APIError.unavailable(reason).makeResponse()
        } catch let error as any HTTPResponseError {
            if error.status == .notFound {
                let allowed = methods.allowedMethods(forPath: request.uri.path)
                if !allowed.isEmpty {
                    var headers = HTTPFields()
                    headers[.allow] = allowed.joined(separator: ", ")
                    return APIError(
                        status: .methodNotAllowed, code: "method_not_allowed",
                        message: "This route takes \(allowed.joined(separator: ", ")).", headers: headers
                    ).makeResponse()
                }
            }
            return Self.translate(status: error.status).makeResponse()
        } catch {
            context.logger.error("unexpected error", metadata: ["error.type": "\(String(reflecting: type(of: error)))"])
            return APIError(
                status: .internalServerError, code: "internal_error", message: "Something went wrong on the server."
            )
            .makeResponse()
        }
    }

    static func translate(status: HTTPResponse.Status) -> APIError {
        switch status {
        case .notFound: return .notFound("The route")
        case .methodNotAllowed:
            return APIError(
                status: status, code: "method_not_allowed", message: "This route does not take that method.")
        case .contentTooLarge:
            return APIError(status: status, code: "body_too_large", message: "The request body is too large.")
        case .badRequest: return .badRequest("bad_request", "The request is malformed.")
        case .unauthorized: return .unauthorized("unauthenticated", "Authentication is required.")
        default:
            let code = status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
            return APIError(status: status, code: code.isEmpty ? "error" : code, message: status.reasonPhrase)
        }
    }
}
