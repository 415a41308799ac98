/// The app's dependency manager (seed 002): one shared instance, with an accessor per feature module.
///
/// The app target registers the concrete modules at launch and calls ``validate()``; features reach
/// each other only through these accessors and the protocols they return.
public final class Dependencies: DependencyManager {
    /// The instance every module uses.
    public static let shared = Dependencies()

    /// The registrations.
    public let container: DependencyContainer

    /// Makes a manager with its own container (tests make their own; the app uses ``shared``).
    public init(container: DependencyContainer = DependencyContainer()) {
        self.container = container
    }

    /// Every feature module the app must register before it starts.
    public var requiredTypes: [any Any.Type] {
        [
            (any ProfileModuleProtocol).self, (any ProductsModuleProtocol).self, (any NotificationsModuleProtocol).self,
            (any ChatModuleProtocol).self, (any FavouritesModuleProtocol).self, (any OffersModuleProtocol).self,
            (any ReviewsModuleProtocol).self, (any AccountModuleProtocol).self, (any ModerationModuleProtocol).self,
        ]
    }

    /// The profile feature.
    public var profileModule: any ProfileModuleProtocol {
        get throws(DependencyError) { try resolve((any ProfileModuleProtocol).self) }
    }

    /// The chat feature.
    public var chatModule: any ChatModuleProtocol {
        get throws(DependencyError) { try resolve((any ChatModuleProtocol).self) }
    }

    /// The notifications feature.
    public var notificationsModule: any NotificationsModuleProtocol {
        get throws(DependencyError) { try resolve((any NotificationsModuleProtocol).self) }
    }

    /// The favourites feature.
    public var favouritesModule: any FavouritesModuleProtocol {
        get throws(DependencyError) { try resolve((any FavouritesModuleProtocol).self) }
    }

    /// The offers feature.
    public var offersModule: any OffersModuleProtocol {
        get throws(DependencyError) { try resolve((any OffersModuleProtocol).self) }
    }

    /// The reviews feature.
    public var reviewsModule: any ReviewsModuleProtocol {
        get throws(DependencyError) { try resolve((any ReviewsModuleProtocol).self) }
    }

    /// The account feature.
    public var accountModule: any AccountModuleProtocol {
        get throws(DependencyError) { try resolve((any AccountModuleProtocol).self) }
    }

    /// The moderation feature.
    public var moderationModule: any ModerationModuleProtocol {
        get throws(DependencyError) { try resolve((any ModerationModuleProtocol).self) }
    }

    /// The products feature.
    public var productsModule: any ProductsModuleProtocol {
        get throws(DependencyError) { try resolve((any ProductsModuleProtocol).self) }
    }
}
