import Foundation

/// A PostgreSQL connection URL (`postgres://user:password@host:port/database?sslmode=...`),
/// checked once at start; the PostgreSQL engine turns it into the configurations postgres-nio
/// takes (a value with no driver in it, so a configuration can name a database without linking one).
///
/// `sslmode` may be `disable`, `prefer` or `require`; without it, loopback hosts connect in the
/// clear and every other host requires TLS (stricter than libpq's `prefer`; say `sslmode=prefer`
/// or `disable` to connect otherwise).
public struct PostgresURL: Sendable, CustomStringConvertible {
    /// The server's host name or address.
    public let host: String
    /// The server's port (5432 when the URL names none).
    public let port: Int
    /// The role to connect as.
    public let username: String
    /// The role's password, if the URL has one.
    package let password: String?
    /// The database name (the username when the URL names none, as libpq does).
    public let database: String
    /// How TLS is used.
    public let sslMode: SSLMode

    /// The TLS choices of a URL's `sslmode`.
    public enum SSLMode: String, Sendable {
        /// Never TLS.
        case disable
        /// TLS when the server offers it.
        case prefer
        /// TLS or no connection.
        case require
    }

    /// Parses a URL; throws ``ConfigurationError`` saying what is wrong.
    public init(_ text: String) throws {
        guard let components = URLComponents(string: text),
            let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme)
        else { throw ConfigurationError("the PostgreSQL URL must look like postgres://user@host:5432/database") }
        guard let host = components.host, !host.isEmpty else {
            throw ConfigurationError("the PostgreSQL URL names no host")
        }
        guard let user = components.user, !user.isEmpty else {
            throw ConfigurationError("the PostgreSQL URL names no user (postgres://USER@host/database)")
        }
        self.host = host
        port = components.port ?? 5432
        username = user.removingPercentEncoding ?? user
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? username : (path.removingPercentEncoding ?? path)
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value
        if let mode {
            guard let parsed = SSLMode(rawValue: mode) else {
                throw ConfigurationError("sslmode must be disable, prefer or require, not \(mode)")
            }
            sslMode = parsed
        } else {
            // Off this machine, credentials and messages cross a network: TLS or no connection
            // (libpq's `prefer` would fall back to the clear text a man in the middle can ask for).
            sslMode = Self.isLoopback(host) ? .disable : .require
        }
    }

    /// Whether `host` names this machine (`localhost`, 127.0.0.0/8, `::1`).
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    /// The whole URL, password included, for handing to another process (never for a log).
    public var urlWithPassword: String {
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = username
        components.password = password
        components.host = host
        components.port = port
        components.path = "/" + database
        components.queryItems = [URLQueryItem(name: "sslmode", value: sslMode.rawValue)]
        return components.string ?? description
    }

    /// The URL without its password, for logs and messages.
    public var description: String {
        "postgres://\(username)@\(host):\(port)/\(database)"
    }

    /// The `application_name` of the pool's connections (as `pg_stat_activity` shows them).
    public static let poolApplicationName = "bazaar-server"
    /// The `application_name` of each replica's event-listener connection.
    public static let listenerApplicationName = "bazaar-listener"

    /// The same server with another database (tests make one database each).
    public func with(database: String) -> PostgresURL {
        PostgresURL(copying: self, database: database)
    }

    private init(copying other: PostgresURL, database: String) {
        host = other.host
        port = other.port
        username = other.username
        password = other.password
        self.database = database
        sslMode = other.sslMode
    }
}
