import AIBudsNet
import AIBudsHTTPWire

/// A device's HTTP data plane as the download engine needs it: the socket address to connect to,
/// the `Host` and `Authorization` header values, and the path every media file hangs under.
///
/// Parsed and checked once per transfer session (an import builds one), so that each file's
/// request is only the media path of its device name appended to `pathPrefix`; no URL text is
/// parsed per file.
public struct DataPlaneEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// Why requests to this endpoint cannot be made (see `failingEachRequest(baseURL:token:)`).
    let unusable: TransferError?
    /// The numeric address the engine connects to.
    public let address: SocketAddress
    /// The session's bearer token, as the device issued it.
    public let token: String
    /// The `Host` header value (`HOST:PORT`, the port left out when it is 80).
    let hostHeader: String
    /// The `Authorization` header value (`Bearer <token>`), checked when the endpoint was made.
    let authorization: String
    /// The base URL's path without trailing `/`s (usually empty), put before `/media/<name>`.
    let pathPrefix: String
    /// The base URL with its trailing `/`s dropped, to spell out a file's URL in messages.
    private let base: String

    /// Parses the data plane's root `baseURL` (`http://HOST:PORT` with a numeric host) and checks
    /// `token`; throws `TransferError.invalidURL` for anything else.
    public init(baseURL: String, token: String) throws(TransferError) {
        self = Self.failingEachRequest(baseURL: baseURL, token: token)
        if let unusable { throw unusable }
    }

    /// The endpoint of `baseURL` and `token` even when they are unusable: then every request to it
    /// fails with that `TransferError.invalidURL` when the engine takes the file, as one failure per
    /// file (the import prepares each file first, and a file already there is still recognised).
    public static func failingEachRequest(baseURL: String, token: String) -> DataPlaneEndpoint {
        do {
            return try DataPlaneEndpoint(checking: baseURL, token: token)
        } catch {
            return DataPlaneEndpoint(unusable: error, baseURL: baseURL, token: token)
        }
    }

    private init(unusable: TransferError, baseURL: String, token: String) {
        self.unusable = unusable
        address = SocketAddress(host: "", port: 0)
        self.token = token
        hostHeader = ""
        authorization = ""
        pathPrefix = ""
        base = baseURL
    }

    private init(checking baseURL: String, token: String) throws(TransferError) {
        unusable = nil
        let url: HTTPURL
        do { url = try HTTPURL(parsing: baseURL) } catch {
            throw TransferError(.invalidURL, "\"\(baseURL)\" is not an http URL", underlying: error)
        }
        let address = SocketAddress(host: url.host, port: url.port)
        guard address.family != nil else {
            throw TransferError(.invalidURL, "the host of \"\(baseURL)\" is not a numeric IP address")
        }
        do { authorization = try HTTPAuthorization.bearerValue(token: token) } catch {
            throw TransferError(.invalidURL, "the bearer token is not valid", underlying: error)
        }
        self.address = address
        self.token = token
        hostHeader = url.hostHeader
        var path = Substring(url.path)
        while path.hasSuffix("/") { path = path.dropLast() }
        pathPrefix = String(path)
        var root = Substring(baseURL)
        while root.hasSuffix("/") { root = root.dropLast() }
        base = String(root)
    }

    /// The request target of a device file: the base path, then `/media/<percent-encoded name>`.
    public func target(forDeviceName name: String) -> String {
        pathPrefix + HTTPMediaPath.target(forDeviceName: name)
    }

    /// The full URL of a device file, for messages and saved validators.
    public func url(forDeviceName name: String) -> String {
        HTTPMediaPath.url(baseURL: base, deviceName: name)
    }

    /// The base URL without trailing `/`.
    public var description: String { base }

    /// Endpoints are equal when they reach the same data plane with the same token (an unusable
    /// one equals another of the same text).
    public static func == (lhs: DataPlaneEndpoint, rhs: DataPlaneEndpoint) -> Bool {
        lhs.base == rhs.base && lhs.token == rhs.token && (lhs.unusable == nil) == (rhs.unusable == nil)
            && lhs.address == rhs.address && lhs.pathPrefix == rhs.pathPrefix
    }

    /// Hashes the base URL and token.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(base)
        hasher.combine(token)
    }
}
