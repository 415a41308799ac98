import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session

/// The profile screen's logic (seed 002's `ProfileLogicController`): loads the signed-in user cache
/// first, renames, uploads a photo with progress, logs out. It holds no UI; every state it moves to
/// goes to ``states()`` and each action returns where it ended.
public actor ProfileLogicController: ProfileLogic {
    private let session: UserSession
    private let broadcast = StateBroadcast<ProfileState>(.loading)

    /// Makes the logic for `session`'s user.
    public init(session: UserSession) {
        self.session = session
    }

    /// The screen's states from now on.
    public func states() -> AsyncStream<ProfileState> { broadcast.subscribe(keeping: self) }

    /// Performs `action`; a load shows the cached user first, an upload its progress.
    @discardableResult
    public func send(_ action: ProfileAction) async -> ProfileState {
        switch action {
        case .load:
            broadcast.publish(.presenting(ProfileContent(user: await session.user.user, isRefreshing: true)))
            return broadcast.publish(await outcome { () async throws(NetworkError) in try await session.user.sync() })
        case .changeDisplayName(let name):
            return broadcast.publish(
                await outcome { () async throws(NetworkError) in try await session.user.rename(to: name) })
        case .changePhoto(let bytes, let mediaType):
            return broadcast.publish(await upload(bytes, mediaType: mediaType))
        case .logout:
            await session.logout()
            return broadcast.publish(.signedOut)
        }
    }

    private func upload(_ bytes: Data, mediaType: MediaType) async -> ProfileState {
        let user = await session.user.user
        broadcast.publish(.presenting(ProfileContent(user: user, uploadProgress: 0)))
        let report: ProgressHandler = { [broadcast] transfer in
            guard transfer.direction == .upload, let fraction = transfer.fractionCompleted else { return }
            broadcast.publish(.presenting(ProfileContent(user: user, uploadProgress: fraction)))
        }
        return await outcome { () async throws(NetworkError) in
            let updated = try await session.network.request(
                BazaarEndpoints.uploadPhoto(bytes, mediaType: mediaType), progress: report)
            await session.user.apply(updated)
            return updated
        }
    }

    private func outcome(_ work: () async throws(NetworkError) -> User) async -> ProfileState {
        do throws(NetworkError) {
            return .presenting(ProfileContent(user: try await work()))
        } catch {
            return error.isSessionExpired ? .signedOut : .failed(ScreenError(error))
        }
    }
}
