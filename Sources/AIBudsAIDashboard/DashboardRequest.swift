import AIBudsHTTPWire
import Foundation

/// A request to the dashboard: its path, query parameters and what authorizes it.
struct DashboardRequest {
    var method: String
    var path: String
    var query: [String: String]
    var headers: HTTPHeaders

    init(_ head: HTTPRequestHead) {
        method = head.method
        let parts = head.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = PercentEncoding.decode(parts.first ?? "/") ?? ""
        query = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decode = { (text: Substring) in PercentEncoding.decode(text.replacingOccurrences(of: "+", with: " ")) ?? "" }
                query[decode(halves[0])] = halves.count == 2 ? decode(halves[1]) : ""
            }
        }
        headers = head.headers
    }

    /// The token presented: `?token=`, the dashboard's cookie, or `Authorization: Bearer`.
    var presentedTokens: [String] {
        var tokens: [String] = []
        if let token = query["token"] { tokens.append(token) }
        for cookies in headers.values(named: "Cookie") {
            for cookie in cookies.split(separator: ";") {
                let pair = cookie.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0] == DashboardRequest.cookieName { tokens.append(String(pair[1])) }
            }
        }
        if let header = headers["Authorization"], let bearer = HTTPAuthorization.bearerToken(fromHeaderValue: header) {
            tokens.append(bearer)
        }
        return tokens
    }

    static let cookieName = "aibuds_dashboard"

    /// Whether any presented token is `token`, compared in time independent of where they differ.
    func isAuthorized(token: String) -> Bool {
        presentedTokens.contains { HTTPAuthorization.authorizes(headerValue: "Bearer " + $0, token: token) }
    }
}

/// A complete response: status, headers and body.
struct DashboardResponse {
    var status: Int
    var contentType: String
    var body: [UInt8]
    var extraHeaders: [(String, String)] = []

    static func text(_ status: Int, _ message: String) -> DashboardResponse {
        DashboardResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array((message + "\n").utf8))
    }

    static func json(_ value: some Encodable) -> DashboardResponse {
        do {
            return DashboardResponse(status: 200, contentType: "application/json", body: Array(try AIRecordStore.encoder.encode(value)))
        } catch {
            return .text(500, "cannot encode the answer")
        }
    }

    /// The security headers every answer carries: nothing but this server's own files may run,
    /// the token in the URL is never sent elsewhere, nothing is cached.
    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy",
         "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
        ("X-Frame-Options", "DENY"),
    ]

    /// The head and body as bytes, closing the connection afterwards.
    func serialized() -> [UInt8] {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: "close")
        for (name, value) in Self.securityHeaders + extraHeaders { headers.add(name: name, value: value) }
        return HTTPResponseHead(status: status, headers: headers).serialized() + body
    }
}
