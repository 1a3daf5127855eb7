import AIBudsNet
import AIBudsHTTPWire
import Foundation

/// Reads request heads from one connection into a buffer of `HTTPHeadLimits.maxHeadBytes`,
/// keeping the bytes that follow a head (a pipelined request, a body) for the next read. A head
/// must be whole by its deadline; memory is bounded by the limits whatever the peer sends.
public final class HTTPHeadReader {
    /// Why ``next(deadline:idle:headTimeout:)`` returned no head.
    public enum End: Error, Sendable, Equatable {
        /// The peer closed (or went idle for `idle` with no byte of a head).
        case closed
        /// The head was not whole by its deadline.
        case timedOut
    }

    private let connection: TCPConnection
    private let limits: HTTPHeadLimits
    private let buffer: UnsafeMutableRawBufferPointer
    /// Bytes buffered and not yet consumed.
    public private(set) var filled = 0

    /// A reader of `connection` with `limits`.
    public init(_ connection: TCPConnection, limits: HTTPHeadLimits = .default) {
        self.connection = connection
        self.limits = limits
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: limits.maxHeadBytes, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// The next request head. It must be whole by `deadline`, or when nil, within `headTimeout` of
    /// its first byte; with no byte of it, the wait ends after `idle`.
    ///
    /// - Throws: ``End`` when there is no head, `HTTPError` for a malformed or oversized one,
    ///   `NetError` for a failed read.
    public func next(deadline: ContinuousClock.Instant?, idle: Duration, headTimeout: Duration) throws -> HTTPRequestHead {
        var deadline = deadline
        while true {
            if filled > 0, let length = try HTTPHeadParser.headLength(in: UnsafeRawBufferPointer(rebasing: buffer[0..<filled]), limits: limits) {
                let head = try HTTPRequestHead(parsing: UnsafeRawBufferPointer(rebasing: buffer[0..<length]), limits: limits)
                consume(length)
                return head
            }
            if filled > 0, deadline == nil { deadline = .now + headTimeout }
            var timeout = idle
            if let deadline {
                let left = deadline - .now
                guard left > .zero else { throw End.timedOut }
                timeout = min(timeout, left)
            }
            let count: Int
            do {
                count = try connection.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), timeout: timeout)
            } catch let error as NetError where error.code == .timedOut {
                throw deadline == nil ? End.closed : End.timedOut
            }
            if count == 0 { throw End.closed }
            filled += count
        }
    }

    /// Reads and drops `count` body bytes (buffered ones first); false when the peer closed first.
    public func discard(_ count: Int64, idle: Duration) throws -> Bool {
        var remaining = count
        while remaining > 0 {
            if filled == 0 {
                filled = try connection.read(into: buffer, timeout: idle)
                if filled == 0 { return false }
            }
            let taken = Int(min(remaining, Int64(filled)))
            consume(taken)
            remaining -= Int64(taken)
        }
        return true
    }

    /// Drops `count` bytes from the front of the buffer, keeping what follows.
    private func consume(_ count: Int) {
        if count < filled, let base = buffer.baseAddress {
            memmove(base, base + count, filled - count)
        }
        filled -= count
    }

    /// The status that answers a head that could not be parsed.
    public static func status(for error: HTTPError) -> Int {
        switch error.code {
        case .headTooLarge, .tooManyHeaders: 431
        case .unsupportedVersion: 505
        default: 400
        }
    }
}
