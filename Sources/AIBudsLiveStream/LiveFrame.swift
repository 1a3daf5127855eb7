import AIBudsWire
import Foundation

/// One decoded picture of a live stream, in 8-bit YUV 4:2:0 planes without padding, with the
/// camera's stamp when the stream carries one.
public struct LiveFrame: Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The luma plane, `width` bytes per row.
    public var luma: [UInt8]
    /// The blue-difference plane, `(width + 1) / 2` bytes per row.
    public var cb: [UInt8]
    /// The red-difference plane, `(width + 1) / 2` bytes per row.
    public var cr: [UInt8]
    /// The camera's capture time and frame number: from the H.264 stream's SEI message, or the
    /// JPEG part's `X-Capture-Timestamp` and `X-Frame-Number` headers; nil when the stream has
    /// neither.
    public var stamp: LiveFrameStamp?
    /// When this client had the picture decoded, microseconds since 1970 (the capture stamp's clock).
    public var decodedMicroseconds: UInt64
    /// This client's count of decoded frames, from 0, across reconnections.
    public var sequence: Int
    /// The camera's IMU readings sent with this frame (those since the previous frame, stamped
    /// relative to its capture time; docs/protocol.md, Live group, "Motion"); empty when the
    /// stream carries none.
    public var motion: [LiveMotionSample]

    /// The capture time as a date.
    public var captureTime: Date? {
        stamp.map { Date(timeIntervalSince1970: Double($0.captureMicroseconds) / 1_000_000) }
    }

    /// Microseconds from capture to decode (glass to frame); nil without a stamp.
    public var latencyMicroseconds: Int64? {
        stamp.map { Int64(decodedMicroseconds) - Int64($0.captureMicroseconds) }
    }

    /// Creates a frame from its planes (and the readings that came with it).
    public init(width: Int, height: Int, luma: [UInt8], cb: [UInt8], cr: [UInt8], stamp: LiveFrameStamp?,
                decodedMicroseconds: UInt64, sequence: Int, motion: [LiveMotionSample] = []) {
        self.width = width
        self.height = height
        self.luma = luma
        self.cb = cb
        self.cr = cr
        self.stamp = stamp
        self.decodedMicroseconds = decodedMicroseconds
        self.sequence = sequence
        self.motion = motion
    }

    /// The stamp burned into the picture (``/AIBudsWire/LiveFrameStampPattern``), read from the pixels.
    public var burnedInStamp: LiveFrameStamp? {
        luma.withUnsafeBufferPointer {
            LiveFrameStampPattern.read(luma: $0.baseAddress!, stride: width, width: width, height: height)
        }
    }
}
