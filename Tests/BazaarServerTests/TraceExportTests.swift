import Testing

@testable import BazaarTelemetry

/// Which endpoint traces go to, and which `OTEL_*` variables swift-otel is shown.
@Suite("Trace export settings")
struct TraceExportTests {
    @Test("off without an endpoint; the flag wins over OTEL_EXPORTER_OTLP_ENDPOINT; OTEL_SDK_DISABLED wins over both")
    func precedence() throws {
        #expect(try TraceExport.resolve(serviceName: "s", endpoint: nil, environment: [:]) == nil)
        #expect(
            try TraceExport.resolve(serviceName: "s", endpoint: nil, environment: ["OTEL_SERVICE_NAME": "x"]) == nil)
        let fromEnvironment = try #require(
            try TraceExport.resolve(
                serviceName: "s", endpoint: nil, environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4318"]))
        #expect(fromEnvironment.endpoint == "http://env:4318")
        let flagged = try #require(
            try TraceExport.resolve(
                serviceName: "s", endpoint: "http://flag:4318",
                environment: [
                    "OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4318",
                    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://env:4318/v1/traces",
                ]))
        #expect(flagged.tracingEnvironment["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://flag:4318")
        #expect(flagged.tracingEnvironment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] == nil, "the flag wins over both")
        let perSignal = try #require(
            try TraceExport.resolve(
                serviceName: "s", endpoint: nil,
                environment: ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://collector.example/otlp/traces"]))
        #expect(perSignal.endpoint == nil)
        #expect(perSignal.tracingEnvironment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] != nil, "used as it is")
        #expect(
            try TraceExport.resolve(
                serviceName: "s", endpoint: "http://flag:4318", environment: ["OTEL_SDK_DISABLED": "TRUE"]) == nil)
        #expect(
            try TraceExport.resolve(serviceName: "s", endpoint: nil, environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": ""])
                == nil, "an empty variable (compose.yaml's default) is unset")
        let pastEmpty = try #require(
            try TraceExport.resolve(
                serviceName: "s", endpoint: nil,
                environment: [
                    "OTEL_EXPORTER_OTLP_ENDPOINT": "", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t/v1/traces",
                ]))
        #expect(pastEmpty.variable == "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" && pastEmpty.url == "http://t/v1/traces")
    }

    @Test("only variables about traces reach swift-otel, so none can switch on its logs or metrics")
    func environmentIsFiltered() throws {
        let export = try #require(
            try TraceExport.resolve(
                serviceName: "s", endpoint: nil,
                environment: [
                    "OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                    "OTEL_METRICS_EXPORTER": "otlp", "OTEL_LOGS_EXPORTER": "otlp",
                    "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://m", "OTEL_BSP_SCHEDULE_DELAY": "100",
                    "OTEL_SERVICE_NAME": "named", "HOME": "/root",
                ]))
        #expect(
            Set(export.tracingEnvironment.keys) == [
                "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_BSP_SCHEDULE_DELAY",
                "OTEL_SERVICE_NAME",
            ])
    }

    @Test(
        "an endpoint that is not an http(s) URL with a host is refused, naming it",
        arguments: [
            "collector:4318", "ftp://collector", "http://", "not a url",
        ])
    func badEndpoints(_ endpoint: String) {
        #expect(throws: TraceExport.Failure.invalidEndpoint(endpoint)) {
            try TraceExport.resolve(serviceName: "s", endpoint: endpoint, environment: [:])
        }
    }
}
