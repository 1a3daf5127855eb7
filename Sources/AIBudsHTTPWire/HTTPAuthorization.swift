/// The bearer-token `Authorization` header of RFC 6750 §2.1.
public enum HTTPAuthorization {
    /// The longest token accepted.
    public static let maxTokenLength = 1024

    /// The header value `Bearer <token>`; throws `HTTPError.invalidToken` unless the token is
    /// 1–1024 token68 characters (`A–Z a–z 0–9 - . _ ~ + /`, then any `=`).
    public static func bearerValue(token: String) throws -> String {
        guard isValidToken(token) else {
            throw HTTPError(.invalidToken, "a bearer token must be 1–\(maxTokenLength) token68 characters")
        }
        return "Bearer " + token
    }

    /// The token of a `Bearer` header value, or nil when the value is not one.
    public static func bearerToken(fromHeaderValue value: String) -> String? {
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, HTTPHeaders.sameName(String(parts[0]), "Bearer") else { return nil }
        let token = String(parts[1])
        return isValidToken(token) ? token : nil
    }

    /// Whether `headerValue` carries exactly `token`, compared in time independent of where
    /// they differ.
    public static func authorizes(headerValue: String?, token: String) -> Bool {
        guard let headerValue, let presented = bearerToken(fromHeaderValue: headerValue) else { return false }
        return matches(presented, token: token)
    }

    /// Whether `presented` (from a header, a query or a cookie) is exactly `token`, compared in
    /// time independent of where they differ.
    public static func matches(_ presented: String, token: String) -> Bool {
        let lhs = Array(presented.utf8)
        let rhs = Array(token.utf8)
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }

    /// Whether a token is 1–1024 token68 characters.
    public static func isValidToken(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        guard !bytes.isEmpty, bytes.count <= maxTokenLength else { return false }
        let body = bytes.prefix { $0 != UInt8(ascii: "=") }
        guard !body.isEmpty, bytes[body.count...].allSatisfy({ $0 == UInt8(ascii: "=") }) else { return false }
        return body.allSatisfy {
            PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/")
        }
    }
}
