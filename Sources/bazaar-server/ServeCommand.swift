import ArgumentParser
import BazaarDomain
import BazaarSQLite
import BazaarServer
import BazaarServerRuntime
import BazaarStorage
import BazaarTelemetry
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// `bazaar-server serve` (the default: `bazaar-server` with no subcommand): runs the Bazaar API
/// on SQLite, or as one of several replicas on PostgreSQL, until SIGTERM or SIGINT (which drain
/// in-flight requests, then close the database).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Runs the Bazaar marketplace API server (the default).",
        discussion: """
            SQLite (the default) needs no setup: one server, one file. For several replicas behind a \
            load balancer, give each the same --postgres URL (or BAZAAR_DATABASE_URL) and the same \
            BAZAAR_SIGNING_KEY.

            The access-token signing key comes from the BAZAAR_SIGNING_KEY environment variable \
            (base64, at least 32 bytes). On SQLite without it, <sqlite>.signing-key is created on first \
            start; on PostgreSQL it is required.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(
        help:
            "Serve /metrics on this port instead of beside the API (0 picks a free one), so it need not face the internet."
    )
    var metricsPort: Int?

    @Option(help: "With --metrics-port: the address /metrics listens on.")
    var metricsHost = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free port.")
    var port = 8080

    @OptionGroup var database: DatabaseOptions

    @Option(
        help: "On SQLite: the most concurrent writes that share one transaction (group commit); 1 commits each alone.")
    var sqliteMaxBatch = 256

    @Option(help: "With PostgreSQL: the most connections this replica opens.")
    var databaseConnections = 20

    @Option(help: "With PostgreSQL: seconds a database operation may take before the request is answered 503.")
    var databaseTimeout = 2.0

    @Flag(help: "Fill an empty database with demo users (password bazaar-demo), products and a conversation.")
    var seedDemo = false

    @Flag(help: "Behind a proxy that sets X-Forwarded-For: throttle logins by the address it names, not the proxy's.")
    var trustForwardedFor = false

    @Option(help: "Seconds a client may take to send a request head before it is answered 408 and closed.")
    var headerTimeout = 10.0

    @Option(help: "Seconds a connection may sit idle between requests before it is closed.")
    var idleTimeout = 75.0

    @Option(
        help:
            "Seconds a request body may take after its head, plus one for every --body-minimum-rate bytes that arrive.")
    var bodyTimeout = 20.0

    @Option(help: "Bytes per second of request body that earn a second more of --body-timeout.")
    var bodyMinimumRate = 4096

    @Option(
        help: ArgumentHelp(
            "The most connections one client address may hold; 0 for no cap.",
            discussion:
                "Default 256, or no cap with --trust-forwarded-for (every connection then comes from the proxy)."))
    var maxConnectionsPerAddress: Int?

    @Option(help: "Seconds between pings on an event WebSocket; one that misses a pong by the next ping is closed.")
    var websocketPingInterval = 30.0

    @Option(help: "Events that may wait for an event WebSocket whose client does not read before it is cut.")
    var websocketBacklog = 256

    @Option(help: "Messages one user may send per minute (also the burst); 0 for no limit.")
    var messageQuota = 300

    @Option(help: "Conversations one user may start per minute; 0 for no limit.")
    var conversationQuota = 30

    @Option(help: "Products one user may list per minute; 0 for no limit.")
    var productQuota = 30

    @Option(help: "Profile photos one user may upload per minute; 0 for no limit.")
    var photoQuota = 30

    @Option(help: "Reads (GETs but /health and /metrics) one client address may make per minute; 0 for no limit.")
    var readQuota = 3000

    @Option(help: "Accounts one client address may register per minute; 0 for no limit.")
    var registerQuota = 10

    @Option(help: "Sign-ins (failed or not) one client address may attempt per minute; 0 for no limit.")
    var loginQuota = 60

    @Option(help: "Token refreshes one client address may make per minute; 0 for no limit.")
    var refreshQuota = 120

    @Option(
        help:
            "Small edits one user may make per minute (profile, photo order or removal, marking read); 0 for no limit.")
    var editQuota = 120

    @Option(
        help:
            "Password checks (bcrypt) that may wait or run at once; past it register and login answer 503 (default: 8 per core)."
    )
    var maxPasswordChecks: Int?

    @Option(
        help:
            "Photos turned into sizes at once (one thread each); past it uploads answer 503 with Retry-After (default: one per core)."
    )
    var maxPhotoJobs: Int?

    @Flag(help: "No quotas at all (for load runs that measure capacity); overrides the quota options.")
    var noQuotas = false

    @Option(help: "Access-token lifetime in seconds.")
    var accessTokenLifetime = 900

    @Option(help: "Refresh-token lifetime in seconds.")
    var refreshTokenLifetime = 30 * 24 * 3600

    @Option(
        help:
            "Seconds after a refresh token is spent in which presenting it again returns the same new tokens instead of revoking the session (a lost answer); 0 for none."
    )
    var refreshReuseInterval = 30

    @Option(
        help:
            "Seconds a SIGTERM keeps serving after /health/ready turns 503, before in-flight requests are finished (a load balancer's probe period or two; 0 goes straight to finishing)."
    )
    var drainDelay: Double = 0

    @Option(help: "bcrypt cost (4-31).")
    var bcryptCost = 10

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    @Option(
        help:
            "Log lines as text (the default) or json: one object per line on standard error, with time, level, message, request_id, http.route, http.status, duration_ms and replica."
    )
    var logFormat: LogFormat = .text

    @Option(help: "This replica's name in every log line (`replica`); the host name by default.")
    var replicaName: String?

    @Option(
        help:
            "Send a trace of every request (and its database statements on PostgreSQL) over OTLP/HTTP to this collector, http://host:4318; also OTEL_EXPORTER_OTLP_ENDPOINT. No traces without one."
    )
    var otelEndpoint: String?

    @Option(
        help:
            "A JSON configuration file, {\"bazaar\": {\"port\": 8080, \"maxPhotoJobs\": 2}}; also BAZAAR_CONFIG. Every option can also come from BAZAAR_<OPTION> (BAZAAR_MAX_PHOTO_JOBS). The command line wins over the environment, which wins over the file."
    )
    var config: String?

    @Flag(help: "Print the settings the server would run with, where each came from (secrets redacted), and exit.")
    var printConfig = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0-65535") }
        guard (0...65535).contains(metricsPort ?? 0) else { throw ValidationError("--metrics-port must be 0-65535") }
        guard accessTokenLifetime > 0, refreshTokenLifetime > 0 else {
            throw ValidationError("token lifetimes must be positive")
        }
        guard (4...31).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be 4-31") }
        guard (0...3600).contains(refreshReuseInterval) else {
            throw ValidationError("--refresh-reuse-interval must be 0-3600 seconds")
        }
        guard (replicaName ?? "x").count <= 128 else {
            throw ValidationError("--replica-name is at most 128 characters")
        }
        guard (0...600).contains(drainDelay) else { throw ValidationError("--drain-delay must be 0-600 seconds") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        do {
            _ = try traceExport
        } catch {
            throw ValidationError("--otel-endpoint: \(error)")
        }
        guard (1...1000).contains(databaseConnections) else {
            throw ValidationError("--database-connections must be 1-1000")
        }
        guard sqliteMaxBatch >= 1 else { throw ValidationError("--sqlite-max-batch must be at least 1") }
        guard databaseTimeout > 0 else { throw ValidationError("--database-timeout must be positive") }
        guard headerTimeout > 0, idleTimeout > 0, bodyTimeout > 0 else {
            throw ValidationError("--header-timeout, --idle-timeout and --body-timeout must be positive")
        }
        guard bodyMinimumRate >= 1 else { throw ValidationError("--body-minimum-rate must be at least 1") }
        guard (maxConnectionsPerAddress ?? 0) >= 0 else {
            throw ValidationError("--max-connections-per-address must be 0 or more")
        }
        guard websocketPingInterval > 0 else { throw ValidationError("--websocket-ping-interval must be positive") }
        guard websocketBacklog >= 1 else { throw ValidationError("--websocket-backlog must be at least 1") }
        guard (maxPasswordChecks ?? 2) >= 2 else { throw ValidationError("--max-password-checks must be at least 2") }
        guard (maxPhotoJobs ?? 1) >= 1 else { throw ValidationError("--max-photo-jobs must be at least 1") }
        guard
            [
                messageQuota, conversationQuota, productQuota, photoQuota, readQuota, registerQuota, loginQuota,
                refreshQuota, editQuota,
            ]
            .allSatisfy({ $0 >= 0 })
        else {
            throw ValidationError("quotas must be 0 (no limit) or more")
        }
    }

    /// This replica's name: `--replica-name`, or the host name.
    var replica: String { replicaName ?? ProcessInfo.processInfo.hostName }

    /// Where traces go, or `nil` when they are off (no endpoint in the options or the environment).
    var traceExport: TraceExport? {
        get throws(TraceExport.Failure) {
            try TraceExport.resolve(serviceName: "bazaar-server", endpoint: otelEndpoint, instance: replica)
        }
    }

    /// The connection limits the options ask for.
    var connectionPolicy: ConnectionPolicy {
        let cap = maxConnectionsPerAddress ?? (trustForwardedFor ? 0 : 256)
        return ConnectionPolicy(
            headerTimeout: .milliseconds(Int(headerTimeout * 1000)),
            idleTimeout: .milliseconds(Int(idleTimeout * 1000)),
            maxConnectionsPerAddress: cap == 0 ? nil : cap,
            webSocketPingInterval: .milliseconds(Int(websocketPingInterval * 1000)), webSocketBacklog: websocketBacklog,
            bodyTimeout: .milliseconds(Int(bodyTimeout * 1000)), bodyMinimumRate: bodyMinimumRate)
    }

    /// The quotas the options ask for.
    var quotaPolicy: QuotaPolicy {
        guard !noQuotas else { return .unlimited }
        func limit(_ value: Int) -> Int? { value == 0 ? nil : value }
        return QuotaPolicy(
            messagesPerMinute: limit(messageQuota), conversationsPerMinute: limit(conversationQuota),
            productsPerMinute: limit(productQuota), photosPerMinute: limit(photoQuota),
            readsPerMinutePerAddress: limit(readQuota), registrationsPerMinutePerAddress: limit(registerQuota),
            signInsPerMinutePerAddress: limit(loginQuota), refreshesPerMinutePerAddress: limit(refreshQuota),
            editsPerMinute: limit(editQuota))
    }

    func run() async throws {
        var logger =
            switch logFormat {
            case .text: Logger(label: "bazaar-server", factory: LazyMetadataLogHandler.standardError)
            case .json: Logger(label: "bazaar-server", factory: JSONLogHandler.standardError)
            }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        if logFormat == .json || replicaName != nil {
            logger[metadataKey: "replica"] = .string(replica)
        }
        // Before anything opens a span: the process's tracer is set once.
        let traces = try traceExport.map { export in
            let service = try export.bootstrapProcessTracer(logger: logger)
            logger.notice(
                "sending traces over OTLP/HTTP",
                metadata: ["endpoint": "\(export.endpoint ?? "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")"])
            return service
        }
        var signingKey: Data?
        if let text = ProcessInfo.processInfo.environment["BAZAAR_SIGNING_KEY"] {
            guard let key = Data(base64Encoded: text) else {
                throw ValidationError("BAZAAR_SIGNING_KEY is not base64")
            }
            signingKey = key
        }
        let postgres = try database.postgres()
        var configuration = BazaarServerConfiguration(
            host: host, port: port, sqlitePath: database.sqlite, sqliteMaxBatch: sqliteMaxBatch,
            postgres: postgres,
            databaseConnections: databaseConnections, databaseTimeout: .milliseconds(Int(databaseTimeout * 1000)),
            accessTokenLifetime: .seconds(accessTokenLifetime), refreshTokenLifetime: .seconds(refreshTokenLifetime),
            signingKey: signingKey, bcryptCost: bcryptCost, trustForwardedFor: trustForwardedFor, seedDemo: seedDemo,
            connections: connectionPolicy, quotas: quotaPolicy)
        if let maxPasswordChecks { configuration.maxPasswordChecks = maxPasswordChecks }
        if let maxPhotoJobs { configuration.maxPhotoJobs = maxPhotoJobs }
        configuration.refreshReuseInterval = .seconds(refreshReuseInterval)
        configuration.drainDelay = .milliseconds(Int(drainDelay * 1000))
        configuration.metricsAddress = metricsPort.map { MetricsAddress(host: self.metricsHost, port: $0) }
        configuration.tracing = traces != nil
        // One server process per SQLite file, held until this process ends.
        let fileLock = postgres == nil ? try SQLiteFileLock(databasePath: configuration.sqlitePath) : nil
        let server = try await BazaarServer(configuration: configuration, logger: logger)
        let host = self.host
        let metricsHost = self.metricsHost
        let services = server.makeServices(
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shownHost = host.contains(":") ? "[\(host)]" : host
                // Unbuffered, so a script reading the pipe sees the URL at once.
                FileHandle.standardOutput.write(Data("bazaar-server listening on http://\(shownHost):\(port)\n".utf8))
            },
            onMetricsRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shownHost = metricsHost.contains(":") ? "[\(metricsHost)]" : metricsHost
                FileHandle.standardOutput.write(
                    Data("bazaar-server metrics on http://\(shownHost):\(port)/metrics\n".utf8))
            })
        // The exporter first, so it stops last: the spans of the requests that drain are sent.
        let group = ServiceGroup(
            services: (traces.map { [$0] } ?? []) + services, gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        try await group.run()
        withExtendedLifetime(fileLock) {}
    }
}

/// How `bazaar-server` writes its log lines.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    /// swift-log's text lines.
    case text
    /// One JSON object per line (``JSONLogHandler``).
    case json
}
