/// The request paths of the data plane (docs/protocol.md §4): `/media/<percent-encoded name>`.
public enum HTTPMediaPath {
    /// The path prefix of every media file.
    public static let prefix = "/media/"

    /// The request target of a device file name.
    public static func target(forDeviceName name: String) -> String {
        prefix + PercentEncoding.encodeUnreserved(name)
    }

    /// The full URL of a device file on a data plane rooted at `baseURL` (`http://HOST:PORT`,
    /// trailing `/`s dropped): the one place a media URL is spelled out as text.
    public static func url(baseURL: String, deviceName name: String) -> String {
        var base = Substring(baseURL)
        while base.hasSuffix("/") { base = base.dropLast() }
        return base + target(forDeviceName: name)
    }

    /// The device file name a request target names; nil when it is not under `/media/`.
    /// A query (`?…`) is ignored. Throws `HTTPError.invalidPercentEncoding` for a bad escape.
    public static func deviceName(fromTarget target: String) throws -> String? {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard path.hasPrefix(prefix) else { return nil }
        let encoded = path.dropFirst(prefix.utf8.count)
        guard !encoded.isEmpty else { return nil }
        guard let name = PercentEncoding.decode(encoded) else {
            throw HTTPError(.invalidPercentEncoding, "malformed %-escape or bytes that are not UTF-8 in \"\(encoded.prefix(100))\"")
        }
        return name
    }
}
