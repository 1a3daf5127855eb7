import Foundation

/// Which byte ranges of a pipelined File download to request next, and which received bytes can
/// be written, in order.
///
/// The device decides how many bytes each response carries (as many as fit its MTU), so the plan
/// requests successive offsets spaced by the chunk size it last saw. A response shorter than its
/// planned range leaves a gap that is requested again; a longer one overlaps its neighbour, and the
/// overlap is written once. Requests run at most `maxAhead` bytes past what has been written, which
/// bounds the memory of the reorder buffer.
struct SMPDownloadPlan {
    /// A range of the file requested by one download request.
    struct Request: Equatable, Sendable {
        /// The offset asked for.
        var offset: UInt64
        /// Where the plan expects the response to end.
        var end: UInt64
    }

    /// Why a response cannot be used.
    enum Problem: Error, Equatable {
        /// The response is for another offset than requested.
        case wrongOffset(requested: UInt64, answered: UInt64)
        /// The response carries no data before the end of the file.
        case noData(offset: UInt64)
    }

    /// The file size.
    let size: UInt64
    /// The first offset of this download (0, or where a resumed download starts).
    let start: UInt64
    /// How far past the written offset requests may go.
    let maxAhead: UInt64
    /// The number of bytes the device put in its last full response.
    private(set) var chunkSize: UInt64
    /// Everything before this offset has been handed out for writing.
    private(set) var written: UInt64
    private var frontier: UInt64
    private var gaps: [Request] = []
    private var buffered: [UInt64: Data] = [:]

    /// Creates a plan for the bytes `start..<size`, of which `first` (the response to a request at
    /// `start`) has arrived.
    init(size: UInt64, start: UInt64, first: Data, maxAhead: UInt64) {
        self.size = size
        self.start = start
        self.maxAhead = max(maxAhead, 1)
        let count = min(UInt64(first.count), size - start)
        self.chunkSize = max(count, 1)
        self.written = start
        self.frontier = start + count
        if count > 0 { buffered[start] = first.prefix(Int(count)) }
    }

    /// Whether every byte has been handed out for writing.
    var isComplete: Bool { written >= size }

    /// The next range to request, or nil when everything is requested or the reorder buffer is full.
    mutating func nextRequest() -> Request? {
        gaps.removeAll { $0.end <= written }  // covered meanwhile by an overlapping response
        if !gaps.isEmpty { return gaps.removeFirst() }
        guard frontier < size, frontier < written + maxAhead else { return nil }
        let request = Request(offset: frontier, end: min(frontier + chunkSize, size))
        frontier = request.end
        return request
    }

    /// Records the response to `request`: its data offset and bytes.
    mutating func receive(_ request: Request, offset: UInt64, data: Data) throws(Problem) {
        guard offset == request.offset else { throw .wrongOffset(requested: request.offset, answered: offset) }
        let count = min(UInt64(data.count), size - offset)
        guard count > 0 else { throw .noData(offset: offset) }
        if offset + count < size { chunkSize = count }
        frontier = max(frontier, offset + count)  // a longer response than planned covers more
        if offset + count < request.end {
            let gap = Request(offset: offset + count, end: request.end)
            gaps.insert(gap, at: gaps.firstIndex { $0.offset > gap.offset } ?? gaps.endIndex)
        }
        if offset + count > written { buffered[offset] = data.prefix(Int(count)) }
    }

    /// Removes and returns the bytes that continue the written prefix, in order.
    mutating func takeWritable() -> [Data] {
        var chunks: [Data] = []
        while let data = takeChunk(at: written) {
            written += UInt64(data.count)
            chunks.append(data)
        }
        return chunks
    }

    /// The buffered bytes that start at `offset`, from a chunk starting there or one overlapping it.
    private mutating func takeChunk(at offset: UInt64) -> Data? {
        if let data = buffered.removeValue(forKey: offset) { return data }
        var found: Data?
        for (key, data) in buffered where key < offset {
            buffered.removeValue(forKey: key)  // overlaps the written prefix: used now or never
            if found == nil, key + UInt64(data.count) > offset { found = Data(data.dropFirst(Int(offset - key))) }
        }
        return found
    }
}
