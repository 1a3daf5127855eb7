import AIBudsPCM

/// Puts numbered packets of a real-time stream back in order: duplicates and packets that come
/// after their turn was given up are dropped, and a missing packet is declared lost once a later
/// one has waited `maxDelay` (or `capacity` later ones are waiting), so one loss delays the stream
/// by at most `maxDelay`. In-order packets pass at once. Time is given by the caller (any
/// monotonic clock), so the buffer is deterministic.
public struct JitterBuffer: Sendable {
    /// One step of the stream in order.
    public enum Output: Sendable, Equatable {
        /// The packet numbered `sequence`.
        case packet(sequence: UInt64, payload: [UInt8])
        /// Packet `sequence` never came; `next` is the following packet when it is already here
        /// (a decoder rebuilds the lost frame from its FEC copy).
        case lost(sequence: UInt64, next: [UInt8]?)
    }

    /// What happened to an inserted packet.
    public enum Insertion: Sendable, Equatable {
        /// Buffered (or ready).
        case accepted
        /// The same sequence number is already buffered.
        case duplicate
        /// Its turn was already given up (played or declared lost).
        case late
        /// Too far ahead of the stream (more than `capacity` frames); dropped.
        case tooFarAhead
    }

    /// How long a packet waits for a missing earlier one.
    public let maxDelay: Duration
    /// How many packets may wait; a missing packet is declared lost sooner when more do.
    public let capacity: Int
    /// The sequence number the stream continues with.
    public private(set) var nextSequence: UInt64
    private var waiting: [UInt64: (payload: [UInt8], arrived: Duration)] = [:]

    /// Creates a buffer whose stream starts at `firstSequence`.
    public init(firstSequence: UInt64 = 0, maxDelay: Duration = .milliseconds(60), capacity: Int = 16) {
        self.nextSequence = firstSequence
        self.maxDelay = maxDelay
        self.capacity = max(1, capacity)
    }

    /// How many packets are waiting.
    public var count: Int { waiting.count }

    /// Adds packet `sequence`, arrived at `now`.
    @discardableResult
    public mutating func insert(sequence: UInt64, payload: [UInt8], at now: Duration) -> Insertion {
        if sequence < nextSequence { return .late }
        if waiting[sequence] != nil { return .duplicate }
        if sequence - nextSequence >= UInt64(capacity) * 4 { return .tooFarAhead }
        waiting[sequence] = (payload, now)
        return .accepted
    }

    /// The packets whose turn has come at `now`, in order, with the gaps given up on.
    public mutating func pop(at now: Duration) -> [Output] {
        var out: [Output] = []
        while !waiting.isEmpty {
            if let ready = waiting.removeValue(forKey: nextSequence) {
                out.append(.packet(sequence: nextSequence, payload: ready.payload))
                nextSequence += 1
                continue
            }
            // A gap: give up on it when the oldest waiting packet has waited long enough, or too
            // many wait.
            let oldest = waiting.values.map(\.arrived).min() ?? now
            guard now - oldest >= maxDelay || waiting.count >= capacity else { break }
            out.append(.lost(sequence: nextSequence, next: waiting[nextSequence + 1]?.payload))
            nextSequence += 1
        }
        return out
    }

    /// Everything still waiting, in order, with every gap declared lost (the end of the stream).
    public mutating func flush() -> [Output] {
        var out: [Output] = []
        while !waiting.isEmpty {
            if let ready = waiting.removeValue(forKey: nextSequence) {
                out.append(.packet(sequence: nextSequence, payload: ready.payload))
            } else {
                out.append(.lost(sequence: nextSequence, next: waiting[nextSequence + 1]?.payload))
            }
            nextSequence += 1
        }
        return out
    }
}

/// The receiving end of an Opus stream: a `JitterBuffer` in front of an `OpusDecoder` that fills
/// lost frames from the next packet's FEC copy or by concealment. One owner at a time.
public final class OpusStreamReceiver {
    private var buffer: JitterBuffer
    private let decoder: OpusDecoder
    private let frameSize: Int
    /// Frames decoded, rebuilt from FEC and concealed so far.
    public private(set) var counts: (decoded: Int, recovered: Int, concealed: Int) = (0, 0, 0)
    /// Packets dropped as duplicates or late.
    public private(set) var dropped = 0
    /// The sequence number of the next frame to play.
    public var nextSequence: UInt64 { buffer.nextSequence }

    /// Creates a receiver for a 20 ms-frame stream at `sampleRate`, mono.
    public init(sampleRate: Int = PCMAudio.speechSampleRate, firstSequence: UInt64 = 0,
                maxDelay: Duration = .milliseconds(60)) throws {
        buffer = JitterBuffer(firstSequence: firstSequence, maxDelay: maxDelay)
        decoder = try OpusDecoder(sampleRate: sampleRate, channels: 1)
        frameSize = OpusFrame.samples(sampleRate: sampleRate)
    }

    /// Adds a packet arrived at `now`; returns the frames whose turn came.
    public func receive(sequence: UInt64, packet: [UInt8], at now: Duration) throws -> [ReceivedAudioFrame] {
        switch buffer.insert(sequence: sequence, payload: packet, at: now) {
        case .accepted: break
        case .duplicate, .late, .tooFarAhead: dropped += 1
        }
        return try decode(buffer.pop(at: now))
    }

    /// The frames whose turn came by `now` without a new packet (a gap given up on).
    public func poll(at now: Duration) throws -> [ReceivedAudioFrame] {
        try decode(buffer.pop(at: now))
    }

    /// The frames left at the end of a stream of `frameCount` frames (nil: of the frames that
    /// came), frames that never came concealed.
    public func finish(frameCount: UInt64? = nil) throws -> [ReceivedAudioFrame] {
        var frames = try decode(buffer.flush())
        var next = buffer.nextSequence
        while let frameCount, next < frameCount {
            frames += try decode([.lost(sequence: next, next: nil)])
            next += 1
        }
        return frames
    }

    private func decode(_ outputs: [JitterBuffer.Output]) throws -> [ReceivedAudioFrame] {
        try outputs.map { output in
            switch output {
            case .packet(let sequence, let payload):
                if let samples = try? decoder.decode(payload) {
                    counts.decoded += 1
                    return ReceivedAudioFrame(sequence: sequence, samples: samples, source: .decoded)
                }
                counts.concealed += 1  // a packet libopus rejects counts as lost
                return ReceivedAudioFrame(sequence: sequence, samples: try decoder.conceal(frameSize: frameSize), source: .concealed)
            case .lost(let sequence, let next?):
                counts.recovered += 1
                return ReceivedAudioFrame(
                    sequence: sequence, samples: try decoder.recover(lostFrameFrom: next, frameSize: frameSize), source: .recovered)
            case .lost(let sequence, nil):
                counts.concealed += 1
                return ReceivedAudioFrame(sequence: sequence, samples: try decoder.conceal(frameSize: frameSize), source: .concealed)
            }
        }
    }
}
