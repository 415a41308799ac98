import BazaarAPI
import Benchmark
import Foundation
import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builder benchmarks do no I/O: time and allocations only, many iterations.
var builderConfiguration: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .nanoseconds, warmupIterations: 1_000,
        scalingFactor: .kilo, maxDuration: .seconds(3))
}

/// A typical JSON request (a product listing with a bearer token) and a multipart upload (a text
/// field and a 64 KiB photo), built with `URLRequestBuilder` and its encoders; each beside the same
/// request put together by hand with `URLRequest` and `JSONEncoder`.
func registerBuilderBenchmarks() {
    guard let baseURL = URL(string: "http://127.0.0.1:8080") else { return }
    let body = CreateProductRequest(
        title: "Brass lamp", description: "Works fine, small dent on the base.", priceCents: 1250, currency: "EUR")
    let encoder = BazaarJSON.makeEncoder()
    let photo = Data((0..<(64 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    Benchmark("Build JSON request: by hand", configuration: builderConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            var request = URLRequest(url: baseURL.appendingPathComponent("v1/products"))
            request.httpMethod = "POST"
            request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
            request.setValue("Bearer token", forHTTPHeaderField: "Authorization")
            request.httpBody = try encoder.encode(body)
            blackHole(request)
        }
    }
    Benchmark("Build JSON request: URLRequestBuilder", configuration: builderConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            let request = try URLRequestBuilder(baseURL: baseURL, path: "/v1/products")
                .set(method: .post)
                .adding(header: "Authorization", value: "Bearer token")
                .set(parameters: .json(body))
                .set(jsonEncoder: encoder)
                .build()
            blackHole(request)
        }
    }

    Benchmark("Build multipart request: by hand", configuration: builderConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            let boundary = "bazaar-bench-boundary"
            var data = Data()
            data.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\n".utf8))
            data.append(Data("My lamp\r\n".utf8))
            data.append(
                Data(
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"lamp.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
                        .utf8))
            data.append(photo)
            data.append(Data("\r\n--\(boundary)--\r\n".utf8))
            var request = URLRequest(url: baseURL.appendingPathComponent("v1/uploads"))
            request.httpMethod = "POST"
            request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
            request.httpBody = data
            blackHole(request)
        }
    }
    Benchmark("Build multipart request: URLRequestBuilder", configuration: builderConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            var form = MultipartFormData(boundary: "bazaar-bench-boundary")
            form.append("My lamp", name: "caption")
            form.append(photo, name: "photo", filename: "lamp.jpg", mediaType: .jpeg)
            let request = try URLRequestBuilder(baseURL: baseURL, path: "/v1/uploads")
                .set(method: .post)
                .set(parameters: .multipart(form))
                .build()
            blackHole(try await request.body?.collect())
        }
    }
}
