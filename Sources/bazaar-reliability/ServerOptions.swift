import ArgumentParser
import ProcessSupport

/// The options both runs share: which `bazaar-server` to start.
struct ServerOptions: ParsableArguments {
    @Option(help: "The bazaar-server executable (default: $BAZAAR_SERVER_BINARY, else beside this tool).")
    var serverBinary: String?

    /// The executable to run: the option, else `$BAZAAR_SERVER_BINARY`, else beside this tool.
    var executablePath: String { serverBinary ?? BazaarProcess.executablePath() }
}
