// libFuzzer target `http`: the HTTP/1.1 head parsers of AIBudsWire on arbitrary bytes, as the
// data plane (requests) and the download engine (responses) meet them from the network.
//
// Built by scripts/fuzz.sh together with the AIBudsWire sources. Besides "no crash, no hang, no huge
// allocation", every accepted input must satisfy:
// - `headLength` finds a head only where it ends with CRLF CRLF, within the input;
// - a parsed request or response head serializes to bytes that parse to the same head, and
//   serializing that is a fixed point;
// - the values the two ends read from a head (Content-Length, Range, Content-Range, the media
//   path's device name, the bearer token, an absolute URL in the target) round-trip through their
//   encoders: `headerValue`, `HTTPMediaPath.target` (exact bytes of the name), `description`.

@testable import AIBudsHTTPWire
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: start, count: count)
    let limits = HTTPHeadLimits(maxHeadBytes: 4096, maxHeaderCount: 64)
    if let length = try? HTTPHeadParser.headLength(in: input, limits: limits) {
        precondition(length >= 4 && length <= input.count, "head length \(length) outside the input")
        precondition(Array(input[(length - 4)..<length]) == [0x0D, 0x0A, 0x0D, 0x0A], "the head does not end with CRLF CRLF")
    }
    if let request = try? HTTPRequestHead(parsing: input, limits: limits) {
        roundTrip(request)
        if let name = try? HTTPMediaPath.deviceName(fromTarget: request.target) {
            let target = HTTPMediaPath.target(forDeviceName: name)
            let again = try? HTTPMediaPath.deviceName(fromTarget: target)
            precondition(again.map { Array($0.utf8) } == Array(name.utf8), "the media path does not round-trip the exact name")
        }
        if let url = try? HTTPURL(parsing: request.target) {
            precondition((try? HTTPURL(parsing: url.description)) == url, "an absolute URL does not round-trip: \(url)")
        }
        if let value = request.headers["Authorization"], let token = HTTPAuthorization.bearerToken(fromHeaderValue: value),
            let again = try? HTTPAuthorization.bearerValue(token: token) {
            precondition(HTTPAuthorization.bearerToken(fromHeaderValue: again) == token, "the bearer token does not round-trip")
            precondition(HTTPAuthorization.authorizes(headerValue: again, token: token), "a token does not authorize itself")
        }
        if let value = request.headers["Range"], let range = try? HTTPByteRange(parsing: value) {
            precondition((try? HTTPByteRange(parsing: range.headerValue)) == range, "a Range does not round-trip: \(range)")
            for size: Int64 in [0, 1, 1000, Int64.max] {
                if let resolved = range.resolve(size: size) {
                    precondition(resolved.lowerBound >= 0 && resolved.upperBound <= size && !resolved.isEmpty, "a Range resolves outside the file")
                }
            }
        }
    }
    if let response = try? HTTPResponseHead(parsing: input, limits: limits) {
        roundTrip(response)
        if let value = response.headers["Content-Range"], let range = try? HTTPContentRange(parsing: value) {
            precondition((try? HTTPContentRange(parsing: range.headerValue)) == range, "a Content-Range does not round-trip: \(range)")
        }
    }
    return 0
}

/// A parsed head serializes to bytes that parse to the same head; serializing that is a fixed point.
private func roundTrip<Head: HTTPHead>(_ head: Head) {
    _ = try? head.headers.contentLength()
    _ = head.keepAlive
    let bytes = head.serialized()
    let again: Head
    do {
        again = try Head(parsing: bytes, limits: HTTPHeadLimits(maxHeadBytes: 1 << 20, maxHeaderCount: 1000))
    } catch {
        preconditionFailure("a parsed head does not parse once serialized: \(error)")
    }
    precondition(again == head, "a head changes through serialization: \(head) vs \(again)")
    precondition(again.serialized() == bytes, "serialization is not a fixed point")
}
