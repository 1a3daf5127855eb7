import Foundation

/// Where and as whom to reach an S3-compatible object store, found the way the AWS tools find it.
///
/// Credentials: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, else the profile
/// (`AWS_PROFILE`, default `default`) of the shared credentials file (`AWS_SHARED_CREDENTIALS_FILE`,
/// default `~/.aws/credentials`) or of the config file (`AWS_CONFIG_FILE`, default `~/.aws/config`).
/// Region: `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`, else `us-east-1`. Endpoint:
/// `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the profile's `endpoint_url`, else AWS's regional
/// endpoint. Any endpoint that is not AWS's is addressed path-style (`ENDPOINT/BUCKET/KEY`).
public struct S3Settings: Sendable, Equatable {
    /// The access key id, which names the identity the requests are signed as.
    public var accessKeyID: String
    /// The secret access key that signs the requests (never sent itself).
    public var secretAccessKey: String
    /// The session token of temporary credentials, if any.
    public var sessionToken: String?
    /// The region the requests are signed for.
    public var region: String
    /// The endpoint, `scheme://host[:port]` without a path.
    public var endpoint: URL
    /// Whether the bucket is the first path segment (`true`) or a host name prefix.
    public var pathStyle: Bool

    /// Settings given in full.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, region: String, endpoint: URL, pathStyle: Bool) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.region = region
        self.endpoint = endpoint
        self.pathStyle = pathStyle
    }

    /// The settings from `environment` and the AWS files below `home`.
    ///
    /// - Throws: ``S3Error`` (`.configuration`) when no credentials are found or an endpoint is not a URL.
    public static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        home: URL = FileManager.default.homeDirectoryForCurrentUser
    ) throws -> S3Settings {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let profile = value("AWS_PROFILE") ?? "default"
        let credentialsFile = value("AWS_SHARED_CREDENTIALS_FILE").map { URL(fileURLWithPath: $0) }
            ?? home.appendingPathComponent(".aws/credentials")
        let configFile = value("AWS_CONFIG_FILE").map { URL(fileURLWithPath: $0) } ?? home.appendingPathComponent(".aws/config")
        let credentials = INIFile.section(profile, in: credentialsFile)
        let config = INIFile.section(profile == "default" ? "default" : "profile \(profile)", in: configFile)
        func setting(_ key: String) -> String? { credentials[key] ?? config[key] }

        let key = value("AWS_ACCESS_KEY_ID") ?? setting("aws_access_key_id")
        let secret = value("AWS_SECRET_ACCESS_KEY") ?? setting("aws_secret_access_key")
        guard let key, let secret else {
            throw S3Error(.configuration, "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or profile '\(profile)' in \(credentialsFile.path)")
        }
        let token = value("AWS_ACCESS_KEY_ID") != nil ? value("AWS_SESSION_TOKEN") : (value("AWS_SESSION_TOKEN") ?? setting("aws_session_token"))
        let region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? config["region"] ?? "us-east-1"
        let endpointText = value("AWS_ENDPOINT_URL_S3") ?? value("AWS_ENDPOINT_URL") ?? config["endpoint_url"]
        let endpoint: URL
        if let endpointText {
            guard let url = URL(string: endpointText), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil
            else { throw S3Error(.configuration, "the S3 endpoint '\(endpointText)' is not an http(s) URL") }
            endpoint = url
        } else {
            endpoint = URL(string: "https://s3.\(region).amazonaws.com")!
        }
        let isAWS = endpoint.host?.lowercased().hasSuffix(".amazonaws.com") == true
        return S3Settings(accessKeyID: key, secretAccessKey: secret, sessionToken: token, region: region, endpoint: endpoint, pathStyle: !isAWS)
    }
}

/// The AWS tools' INI files: `[section]` headers and `key = value` lines.
enum INIFile {
    /// The keys of `section` in the file at `url` (empty when the file or section is missing).
    static func section(_ section: String, in url: URL) -> [String: String] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var current: String?
        var values: [String: String] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                current = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                continue
            }
            guard current == section, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            values[key] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        return values
    }
}

/// A bucket and a key prefix, from `s3://BUCKET/PREFIX`.
public struct S3Location: Sendable, Equatable {
    /// The bucket name (3 to 63 lower-case letters, digits, dots and dashes).
    public var bucket: String
    /// The key prefix: empty, or ending in `/`.
    public var prefix: String

    /// Parses `s3://BUCKET[/PREFIX]`; `nil` when `text` is not such a URL or the bucket name is invalid.
    public init?(_ text: String) {
        guard text.hasPrefix("s3://") else { return nil }
        let rest = text.dropFirst(5)
        let bucket = String(rest.prefix { $0 != "/" })
        let valid = bucket.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E }
        guard (3...63).contains(bucket.utf8.count), valid else { return nil }
        var prefix = String(rest.dropFirst(bucket.count).drop { $0 == "/" })
        if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
        self.bucket = bucket
        self.prefix = prefix
    }

    /// The `s3://` URL of `key` in this bucket.
    public func url(of key: String) -> String { "s3://\(bucket)/\(key)" }
}
