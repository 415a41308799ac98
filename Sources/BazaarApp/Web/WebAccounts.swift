import Dependencies
import Foundation
import WebUI

/// Makes the accounts of `bazaar web`: one ``WebAccount`` per sign-in, each in a new folder under
/// `browsers/`, and one signed-out stack all visitors share.
struct WebAccounts: BrowserAccountFactory {
    let serverURL: URL
    let folders: WebFolders

    func visitorDependencies() async throws -> Dependencies {
        let services = try AppServices(
            environment: AppEnvironment(serverURL: serverURL, configFolder: folders.visitors))
        let dependencies = Dependencies(container: DependencyContainer())
        CompositionRoot.registerDependencies(in: dependencies, services: services, session: nil)
        try CompositionRoot.validate(dependencies, signedIn: false)
        return dependencies
    }

    func newAccount() async throws -> any BrowserAccount {
        try WebAccount(folder: folders.newBrowserFolder(), serverURL: serverURL, folders: folders)
    }

    /// Ends the accounts in `leftovers`, folders an earlier run left behind (it crashed, or could
    /// not reach the server as it stopped): each session is resumed, its queued messages
    /// delivered, then revoked, and the folder removed. Returns the folders that must wait because
    /// the server cannot be reached.
    func endLeftovers(_ leftovers: [URL]) async -> [URL] {
        var waiting: [URL] = []
        for folder in leftovers {
            guard let account = try? WebAccount(folder: folder, serverURL: serverURL, folders: folders),
                await account.resumeStored()
            else {
                waiting.append(folder)
                continue
            }
            await account.end()
        }
        return waiting
    }
}
