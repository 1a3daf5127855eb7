import AIBudsPCM
import AIBudsHTTPWire
import Foundation

/// Answers the dashboard's authorized requests: the page and its files, and the JSON API
/// (`/api/records`, `/api/records/<id>`, `.../audio.wav`, `.../waveform`, `.../export`).
struct DashboardRoutes: Sendable {
    let store: AIRecordStore
    let token: String

    func answer(_ request: DashboardRequest) -> DashboardResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        // `/api/records/<id>[/<what>]`: the record's number and what of it.
        let isRecord = parts.count >= 3 && parts.count <= 4 && parts[0] == "api" && parts[1] == "records"
        let recordID = isRecord ? Int64(parts[2]) : nil
        let what = isRecord ? (parts.count == 4 ? parts[3] : "") : nil
        do {
            if isRecord, recordID == nil { return .text(404, "no such record") }
            switch (parts, recordID, what) {
            case ([], _, _):
                if request.query["token"] != nil {
                    // Trade the token in the address for a cookie, and leave it out of the address bar.
                    var response = DashboardResponse.text(303, "see /")
                    response.extraHeaders += [
                        ("Location", "/"),
                        ("Set-Cookie", "\(DashboardRequest.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"),
                    ]
                    return response
                }
                return DashboardResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(DashboardPage.html.utf8))
            case (["app.js"], _, _):
                return DashboardResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: Array(DashboardPage.script.utf8))
            case (["app.css"], _, _):
                return DashboardResponse(status: 200, contentType: "text/css; charset=utf-8", body: Array(DashboardPage.style.utf8))
            case (["api", "records"], _, _):
                return .json(try store.records(matching: try filter(request.query)))
            case (_, let number?, ""):
                guard let detail = try store.record(number) else { return .text(404, "no such record") }
                return .json(detail)
            case (_, let number?, "audio.wav"):
                return try audio(number, range: request.headers["Range"])
            case (_, let number?, "waveform"):
                let url = store.audioURL(number)
                guard FileManager.default.fileExists(atPath: url.path) else { return .json([Double]()) }
                let buckets = min(max(Int(request.query["buckets"] ?? "") ?? 600, 1), 4000)
                return .json(try WAVFile.peaks(of: url, buckets: buckets))
            case (_, let number?, "export"):
                guard let detail = try store.record(number) else { return .text(404, "no such record") }
                var response = DashboardResponse.json(detail)
                response.extraHeaders.append(("Content-Disposition", "attachment; filename=\"record-\(number).json\""))
                return response
            default:
                return .text(404, "not found")
            }
        } catch let error as FilterError {
            return .text(400, error.message)
        } catch {
            return .text(500, "cannot read the records")
        }
    }

    struct FilterError: Error {
        var message: String
    }

    /// The list filter from `kind`, `device`, `since` (ISO 8601 or seconds since 1970), `errors=1`
    /// and `limit`.
    func filter(_ query: [String: String]) throws -> AIRecordFilter {
        var filter = AIRecordFilter()
        if let kind = query["kind"], !kind.isEmpty {
            guard let parsed = AIRecordKind(rawValue: kind) else { throw FilterError(message: "unknown kind") }
            filter.kind = parsed
        }
        if let device = query["device"], !device.isEmpty { filter.device = device }
        if let since = query["since"], !since.isEmpty {
            if let seconds = Double(since) {
                filter.since = Date(timeIntervalSince1970: seconds)
            } else if let date = Self.parseDate(since) {
                filter.since = date
            } else {
                throw FilterError(message: "since: not a time")
            }
        }
        filter.errorsOnly = query["errors"] == "1" || query["errors"] == "true"
        if let limit = query["limit"], let number = Int(limit) { filter.limit = min(max(number, 0), 5000) }
        return filter
    }

    /// ISO 8601 with or without seconds and zone (a browser's `datetime-local` sends `2026-01-02T03:04`, read as UTC).
    static func parseDate(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        for suffix in [":00Z", "Z"] {
            if let date = try? Date(text + suffix, strategy: Date.ISO8601FormatStyle()) { return date }
        }
        return nil
    }

    private func audio(_ id: Int64, range: String?) throws -> DashboardResponse {
        let url = store.audioURL(id)
        guard FileManager.default.fileExists(atPath: url.path) else { return .text(404, "no audio") }
        let bytes = Array(try Data(contentsOf: url))
        var response = DashboardResponse(status: 200, contentType: "audio/wav", body: bytes, extraHeaders: [("Accept-Ranges", "bytes")])
        if let range {
            guard let parsed = try? HTTPByteRange(parsing: range), let resolved = parsed.resolve(size: Int64(bytes.count)) else {
                var refused = DashboardResponse.text(416, "range not satisfiable")
                refused.extraHeaders.append(("Content-Range", "bytes */\(bytes.count)"))
                return refused
            }
            response.status = 206
            response.body = Array(bytes[Int(resolved.lowerBound)..<Int(resolved.upperBound)])
            response.extraHeaders.append(("Content-Range", HTTPContentRange(range: resolved, size: Int64(bytes.count)).headerValue))
        }
        return response
    }
}
