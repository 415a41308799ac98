import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import Hummingbird

/// `/v1/users/*`: the signed-in user, public profiles and profile photos.
struct UserRoutes: RouteGroup {
    let deps: ServerDependencies

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.me) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            // For the caller only, and checked on every use: the client revalidates with the ETag.
            guard let record = try await deps.store.existingUser(id: caller.userId) else {
                throw APIError.notFound("The user")
            }
            return try JSONResponse.cacheable(record.me, request: request, cacheControl: "private, no-cache")
        }
        router.on(APIRoutes.updateMe) { request, _ in try await updateMe(request) }
        router.on(APIRoutes.uploadPhoto) { request, _ in try await uploadPhoto(request) }
        router.on(APIRoutes.user) { request, context in
            try JSONResponse.make(try await user(try context.pathId("The user")))
        }
        router.on(APIRoutes.userPhoto) { request, context in
            try await photo(request, userId: try context.pathId("The photo"))
        }
    }

    func user(_ id: String) async throws -> User {
        // A deleted account has no profile; it shows only where others still see it.
        guard let record = try await deps.store.existingUser(id: id) else {
            throw APIError.notFound("The user")
        }
        return record.user
    }

    func updateMe(_ request: Request) async throws -> Response {
        let caller = try await deps.authenticator.authenticate(request)
        let body = try await RequestBody.decode(UpdateProfileRequest.self, from: request)
        try deps.quotas.charge(.edit, by: caller.userId)
        if let displayName = body.displayName { try Validation.displayName(displayName) }
        var bio = BioChange.keep
        if let text = body.bio {
            try Validation.bio(text)
            bio = text.isEmpty ? .clear : .set(text)
        }
        guard
            let record = try await deps.store.updateProfile(
                userId: caller.userId, displayName: body.displayName, bio: bio)
        else {
            throw APIError.notFound("The user")
        }
        return try JSONResponse.make(record.user)
    }

    func uploadPhoto(_ request: Request) async throws -> Response {
        let caller = try await deps.authenticator.authenticate(request)
        let sizes = try await UploadedImage.receive(request, chargedTo: caller.userId, deps: deps)
        guard let record = try await deps.store.setPhoto(userId: caller.userId, photo: sizes) else {
            throw APIError.notFound("The user")
        }
        return try JSONResponse.make(record.user)
    }

    func photo(_ request: Request, userId: String) async throws -> Response {
        guard
            let photo = try await deps.store.photo(userId: userId, size: try UploadedImage.size(request)),
            let user = try await deps.store.user(id: userId)
        else { throw APIError.notFound("The photo") }
        // A URL naming the current version (`?v=`, as `photoURL` does: the full size's digest)
        // never changes content.
        let version = user.user.photoURL.flatMap { URLComponents(string: $0)?.queryItems?.first { $0.name == "v" } }
        let versioned = version?.value != nil && QueryParameters.string(request, "v") == version?.value
        return UploadedImage.response(
            photo, request: request,
            cacheControl: versioned ? "public, max-age=31536000, immutable" : "public, no-cache")
    }
}
