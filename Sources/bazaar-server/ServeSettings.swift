import ArgumentParser
import BazaarTelemetry
import Configuration
import Foundation
import SystemPackage

/// One option of `bazaar-server serve`, as the command declares it.
struct ServeSetting: Sendable, Equatable {
    /// The option's long name, `max-photo-jobs`.
    var name: String
    /// Whether it is a flag (on when given) rather than an option with a value.
    var isFlag: Bool
    /// Its default as the help shows it, when it has one.
    var defaultValue: String?

    /// `maxPhotoJobs`: its key in the configuration file, under `bazaar`.
    var fileKey: String {
        let words = name.split(separator: "-")
        return words.enumerated().map { $0 == 0 ? String($1) : $1.prefix(1).uppercased() + $1.dropFirst() }.joined()
    }

    /// `BAZAAR_MAX_PHOTO_JOBS`: its environment variable.
    var environmentName: String { "BAZAAR_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// Whether its value must not be printed whole (a database URL holds a password).
    var isSecret: Bool { name == "postgres" }
}

/// Where the value of a setting came from.
enum SettingSource: Sendable, Equatable, CustomStringConvertible {
    case commandLine
    case environment(String)
    case file(String)
    case defaultValue

    var description: String {
        switch self {
        case .commandLine: "command line"
        case .environment(let name): "environment \(name)"
        case .file(let path): "file \(path)"
        case .defaultValue: "default"
        }
    }
}

/// What `bazaar-server serve` runs with: for each option, the command line if it gives it, else
/// its `BAZAAR_*` environment variable, else the configuration file (`--config FILE` or
/// `BAZAAR_CONFIG`: JSON, `{"bazaar": {"port": 8080, "maxPhotoJobs": 2}}`), else its default. Values
/// from the environment and the file are handed to the command as if typed, so they are checked
/// by the same rules and refused with the same messages. The environment and the file are read
/// through swift-configuration.
struct ServeSettings: Sendable {
    /// One setting as resolved.
    struct Entry: Sendable, Equatable {
        var setting: ServeSetting
        var source: SettingSource
        /// The value given (`nil`: the default, or a flag that is off).
        var value: String?
    }

    /// The arguments to parse: the command line with each setting it leaves out filled in.
    var arguments: [String]
    /// Every setting, with where its value came from.
    var entries: [Entry]

    /// Options that are about reading settings, never read from them.
    static let notSettings: Set<String> = ["config", "print-config", "help", "version", "experimental-dump-help"]

    /// Every option serve takes, read from its own declaration (ArgumentParser's help dump), so an
    /// option is configurable from the environment and the file the day it is added.
    static func declared() throws -> [ServeSetting] {
        struct Dump: Decodable {
            struct Command: Decodable { var arguments: [Argument]? }
            struct Argument: Decodable {
                struct Name: Decodable {
                    var kind: String
                    var name: String
                }
                var kind: String
                var names: [Name]?
                var defaultValue: String?
            }
            var command: Command
        }
        let dump = try JSONDecoder().decode(Dump.self, from: Data(ServeCommand._dumpHelp().utf8))
        return (dump.command.arguments ?? []).compactMap { argument in
            guard argument.kind == "option" || argument.kind == "flag",
                let long = argument.names?.first(where: { $0.kind == "long" })?.name, !notSettings.contains(long)
            else { return nil }
            return ServeSetting(name: long, isFlag: argument.kind == "flag", defaultValue: argument.defaultValue)
        }
    }

    /// Resolves `arguments` (serve's, without the program name) against `environment` and the
    /// configuration file either names.
    static func resolve(arguments: [String], environment: [String: String]) async throws -> ServeSettings {
        let settings = try declared()
        let environmentReader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
        let filePath = value(of: "config", in: arguments) ?? environment["BAZAAR_CONFIG"]
        let fileReader: ConfigReader? =
            if let filePath {
                ConfigReader(provider: try await FileProvider<JSONSnapshot>(filePath: FilePath(filePath)))
            } else { nil }
        var resolved = arguments
        var entries: [Entry] = []
        for setting in settings {
            if given(setting.name, in: arguments) {
                entries.append(
                    Entry(
                        setting: setting, source: .commandLine,
                        value: setting.isFlag ? "true" : value(of: setting.name, in: arguments)))
                continue
            }
            let key = ConfigKey(["bazaar", setting.fileKey])
            if let text = read(key, of: setting, from: environmentReader) {
                entries.append(Entry(setting: setting, source: .environment(setting.environmentName), value: text))
                resolved += Self.arguments(for: setting, text)
            } else if let fileReader, let filePath, let text = read(key, of: setting, from: fileReader) {
                entries.append(Entry(setting: setting, source: .file(filePath), value: text))
                resolved += Self.arguments(for: setting, text)
            } else {
                entries.append(Entry(setting: setting, source: .defaultValue, value: setting.defaultValue))
            }
        }
        return ServeSettings(arguments: resolved, entries: entries)
    }

    /// The effective settings, one a line, `name = value  (source)`, secrets redacted.
    func printed(environment: [String: String]) -> String {
        var lines = entries.map { entry in
            let shown =
                entry.value.map { entry.setting.isSecret ? Self.redacted($0) : $0 }
                ?? (entry.setting.isFlag ? "false" : "(not set)")
            return "\(entry.setting.name) = \(shown)  (\(entry.source))"
        }
        lines.append(
            "signing key = "
                + (environment["BAZAAR_SIGNING_KEY"] != nil
                    ? "set, redacted  (environment BAZAAR_SIGNING_KEY)"
                    : "the file beside the SQLite database, made at first start  (default)"))
        lines.append("traces = " + traces(environment: environment))
        return lines.joined(separator: "\n") + "\n"
    }

    /// Where traces go and why, as `TraceExport` decides it: `--otel-endpoint` (from wherever it
    /// came), else the standard OpenTelemetry variables; off without any.
    private func traces(environment: [String: String]) -> String {
        let flag = entries.first { $0.setting.name == "otel-endpoint" && $0.value != nil }
        let export: TraceExport?
        do {
            export = try TraceExport.resolve(
                serviceName: "bazaar-server", endpoint: flag?.value, environment: environment)
        } catch {
            return "refused: \(error)"
        }
        guard let export else {
            return TraceExport.isDisabled(environment)
                ? "off  (environment OTEL_SDK_DISABLED)" : "off  (no --otel-endpoint or OTEL_EXPORTER_OTLP_ENDPOINT)"
        }
        let source = export.variable.map { "environment \($0)" } ?? flag.map { "\($0.source)" } ?? ""
        return "OTLP/HTTP to \(Self.redacted(export.url))  (\(source))"
    }

    /// A URL with its password replaced by `***`; anything else that may hold one, wholly.
    static func redacted(_ text: String) -> String {
        guard var parts = URLComponents(string: text), parts.password != nil else {
            return text.contains("@") ? "***" : text
        }
        parts.password = "***"
        return parts.string?.replacingOccurrences(of: "%2A%2A%2A", with: "***") ?? "***"
    }

    /// The value `setting` has in `reader`, as text (a JSON number or boolean as written).
    private static func read(_ key: ConfigKey, of setting: ServeSetting, from reader: ConfigReader) -> String? {
        if setting.isFlag { return reader.bool(forKey: key).map { $0 ? "true" : "false" } }
        if let text = reader.string(forKey: key, isSecret: setting.isSecret) { return text }
        if let number = reader.int(forKey: key) { return String(number) }
        if let number = reader.double(forKey: key) { return String(number) }
        return reader.bool(forKey: key).map { $0 ? "true" : "false" }
    }

    /// What `setting` set to `text` adds to the command line.
    private static func arguments(for setting: ServeSetting, _ text: String) -> [String] {
        if setting.isFlag { return text == "true" ? ["--\(setting.name)"] : [] }
        return ["--\(setting.name)", text]
    }

    /// Whether `--name` (or `--name=…`) is among `arguments`.
    static func given(_ name: String, in arguments: [String]) -> Bool {
        arguments.contains { $0 == "--\(name)" || $0.hasPrefix("--\(name)=") }
    }

    /// The value given for `--name` (`--name value` or `--name=value`), the last one when repeated.
    static func value(of name: String, in arguments: [String]) -> String? {
        var found: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--\(name)", index + 1 < arguments.count { found = arguments[index + 1] }
            if argument.hasPrefix("--\(name)=") { found = String(argument.dropFirst(name.count + 3)) }
        }
        return found
    }
}
