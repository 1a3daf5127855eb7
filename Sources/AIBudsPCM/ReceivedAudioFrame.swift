/// One 20 ms frame of a received stream, decoded, rebuilt or concealed.
public struct ReceivedAudioFrame: Sendable, Equatable {
    /// How the frame's samples were made.
    public enum Source: Sendable, Equatable {
        /// Decoded from its own packet.
        case decoded
        /// Rebuilt from the FEC copy in the next packet.
        case recovered
        /// Made up by packet loss concealment.
        case concealed
    }
    /// The frame's sequence number in the stream (frame n starts at n × 20 ms).
    public var sequence: UInt64
    /// 16-bit samples at the stream's rate.
    public var samples: [Int16]
    /// Where the samples came from.
    public var source: Source

    /// Creates a frame from its number, its samples and how they were made.
    public init(sequence: UInt64, samples: [Int16], source: Source) {
        self.sequence = sequence
        self.samples = samples
        self.source = source
    }
}
