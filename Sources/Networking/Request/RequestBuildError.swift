/// Why a request could not be built (seed 004's `APIError.requestBuilderFailed`, saying what was wrong).
public enum RequestBuildError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The base URL is not an absolute `http` or `https` URL with a host.
    case invalidBaseURL(String)
    /// The path cannot be joined to the base URL.
    case invalidPath(String)
    /// A header name is not a valid token, or its value holds control characters.
    case invalidHeader(name: String)
    /// The JSON body could not be encoded.
    case encodingFailed(type: String, reason: String)
    /// A file to upload could not be read.
    case unreadableFile(path: String, reason: String)
    /// A streamed body failed while being read into memory.
    case bodyStreamFailed(reason: String)
    /// A request interceptor refused or failed to adapt the request.
    case interceptorFailed(reason: String)

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .invalidBaseURL(let url):
            "the base URL \"\(url)\" is not an absolute http or https URL with a host"
        case .invalidPath(let path):
            "the path \"\(path)\" cannot be joined to the base URL"
        case .invalidHeader(let name):
            "the header \"\(name)\" has an invalid name or a value with control characters"
        case .encodingFailed(let type, let reason):
            "could not encode \(type) as JSON: \(reason)"
        case .unreadableFile(let path, let reason):
            "could not read the file \(path): \(reason)"
        case .bodyStreamFailed(let reason):
            "the request body could not be read: \(reason)"
        case .interceptorFailed(let reason):
            "a request interceptor failed: \(reason)"
        }
    }
}
