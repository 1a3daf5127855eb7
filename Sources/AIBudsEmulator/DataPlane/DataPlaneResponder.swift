import AIBudsHTTPWire

/// What the server sends for one request: a head and, maybe, a byte range of a file.
struct DataPlaneReply: Sendable {
    /// The response head, `Content-Length` included.
    var head: HTTPResponseHead
    /// The file and the bytes of it that make the body; nil for no body (errors, `HEAD`).
    var body: (file: DataPlaneFile, range: Range<Int64>)?
    /// Whether the connection closes after this reply.
    var closeAfter: Bool
}

/// The routing of docs/protocol.md §4 as a pure function of the request, the session token and
/// the catalog: authorization, lookup, `Range`/`If-Range`, `HEAD`.
enum DataPlaneResponder {
    /// The reply to `request`.
    static func reply(to request: HTTPRequestHead, token: String, catalog: some DataPlaneCatalog) -> DataPlaneReply {
        let closeAfter = !request.keepAlive
        guard request.method == "GET" || request.method == "HEAD" else {
            return empty(405, closeAfter: closeAfter, extra: ["Allow": "GET, HEAD"])
        }
        guard HTTPAuthorization.authorizes(headerValue: request.headers["Authorization"], token: token) else {
            return empty(401, closeAfter: closeAfter, extra: ["WWW-Authenticate": "Bearer"])
        }
        let name: String?
        do {
            name = try HTTPMediaPath.deviceName(fromTarget: request.target)
        } catch {
            return empty(400, closeAfter: closeAfter)
        }
        guard let name, let file = catalog.file(named: name) else { return empty(404, closeAfter: closeAfter) }

        var range: Range<Int64> = 0..<file.size
        var status = 200
        if let rangeValue = request.headers["Range"], ifRangeMatches(request.headers["If-Range"], file: file),
            let spec = try? HTTPByteRange(parsing: rangeValue)
        {
            guard let resolved = spec.resolve(size: file.size) else {
                return empty(416, closeAfter: closeAfter, extra: [
                    "Content-Range": HTTPContentRange.unsatisfied(size: file.size).headerValue,
                ])
            }
            range = resolved
            status = 206
        }
        var headers: HTTPHeaders = [
            "Content-Length": String(range.count),
            "Content-Type": "application/octet-stream",
            "Accept-Ranges": "bytes",
            "ETag": file.etag,
        ]
        if status == 206 {
            headers.add(name: "Content-Range", value: HTTPContentRange(range: range, size: file.size).headerValue)
        }
        if closeAfter { headers.add(name: "Connection", value: "close") }
        let sendBody = request.method == "GET" && !range.isEmpty
        return DataPlaneReply(head: HTTPResponseHead(status: status, headers: headers), body: sendBody ? (file, range) : nil, closeAfter: closeAfter)
    }

    /// A reply with an empty body.
    static func empty(_ status: Int, closeAfter: Bool, extra: [String: String] = [:]) -> DataPlaneReply {
        var headers: HTTPHeaders = ["Content-Length": "0"]
        for (name, value) in extra.sorted(by: { $0.key < $1.key }) { headers.add(name: name, value: value) }
        if closeAfter { headers.add(name: "Connection", value: "close") }
        return DataPlaneReply(head: HTTPResponseHead(status: status, headers: headers), body: nil, closeAfter: closeAfter)
    }

    /// Whether a `Range` applies: always without `If-Range`, else only when it names the current
    /// strong entity tag (a date or a stale tag means "send the whole file").
    private static func ifRangeMatches(_ ifRange: String?, file: DataPlaneFile) -> Bool {
        guard let ifRange else { return true }
        return ifRange == file.etag
    }
}
