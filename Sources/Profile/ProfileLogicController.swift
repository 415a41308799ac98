import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session

/// The profile screen's logic (seed 002's `ProfileLogicController`): loads the signed-in user cache
/// first, renames, uploads a photo with progress, logs out. It holds no UI; each action returns the
/// state a renderer draws next.
public struct ProfileLogicController: ProfileLogic {
    private let session: UserSession

    /// Makes the logic for `session`'s user.
    public init(session: UserSession) {
        self.session = session
    }

    /// The cached user at once (reported to `onState` as refreshing), then the server's answer.
    public func load(onState: StateHandler<ProfileState>?) async -> ProfileState {
        onState?(.presenting(ProfileContent(user: await session.user.user, isRefreshing: true)))
        do throws(NetworkError) {
            return .presenting(ProfileContent(user: try await session.user.sync()))
        } catch {
            return Self.failure(error)
        }
    }

    /// Renames the user; an empty or overlong name is refused by the server with its reason.
    public func changeDisplayName(to name: String) async -> ProfileState {
        do throws(NetworkError) {
            return .presenting(ProfileContent(user: try await session.user.rename(to: name)))
        } catch {
            return Self.failure(error)
        }
    }

    /// Uploads a photo, reporting the share sent so far.
    public func changePhoto(_ bytes: Data, mediaType: MediaType, progress: (@Sendable (Double) -> Void)?) async
        -> ProfileState
    {
        var report: ProgressHandler?
        if let progress {
            report = { transfer in
                if transfer.direction == .upload, let fraction = transfer.fractionCompleted { progress(fraction) }
            }
        }
        do throws(NetworkError) {
            let user = try await session.network.request(
                BazaarEndpoints.uploadPhoto(bytes, mediaType: mediaType), progress: report)
            await session.user.apply(user)
            return .presenting(ProfileContent(user: user))
        } catch {
            return Self.failure(error)
        }
    }

    /// Logs out: revoked on the server when it can be reached, cleaned up locally always.
    public func logout() async -> ProfileState {
        await session.logout()
        return .signedOut
    }

    private static func failure(_ error: NetworkError) -> ProfileState {
        error.isSessionExpired ? .signedOut : .failed(ScreenError(error))
    }
}
