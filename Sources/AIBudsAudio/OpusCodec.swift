import AIBudsPCM
import COpus

/// The Opus frame sizes libopus takes, for the speech format: a 20 ms frame is the stream unit of
/// the device's audio path.
public enum OpusFrame {
    /// A frame's length in the device's audio path.
    public static let durationMilliseconds = 20
    /// Samples in one 20 ms frame at `sampleRate` (320 at 16 kHz).
    public static func samples(sampleRate: Int = PCMAudio.speechSampleRate) -> Int {
        sampleRate * durationMilliseconds / 1000
    }
    /// The largest packet libopus is asked to produce (the RFC 6716 limit for one frame).
    public static let maxPacketBytes = 1_275
}

/// libopus's message for an error code.
func opusError(_ code: Int32, _ what: String) -> AudioError {
    let message = opus_strerror(code).map { String(cString: $0) } ?? "unknown"
    return .codec(library: "libopus", code: code, message: "\(what): \(message)")
}

private func checkOpusRate(_ sampleRate: Int, channels: Int) throws {
    guard [8_000, 12_000, 16_000, 24_000, 48_000].contains(sampleRate) else {
        throw AudioError.invalidFormat("Opus takes 8, 12, 16, 24 or 48 kHz, not \(sampleRate) Hz")
    }
    guard channels == 1 || channels == 2 else {
        throw AudioError.invalidFormat("Opus takes 1 or 2 channels, not \(channels)")
    }
}

/// A libopus encoder for speech (`OPUS_APPLICATION_VOIP`): in-band forward error correction on, so
/// a decoder can rebuild a lost frame from the next one. One owner at a time (not thread-safe).
public final class OpusEncoder {
    private let encoder: OpaquePointer
    /// The input rate in Hz.
    public let sampleRate: Int
    /// The input channels.
    public let channels: Int

    /// Creates a VoIP-mode encoder with in-band FEC sized for `expectedLossPercent`.
    ///
    /// - Parameters:
    ///   - sampleRate: the input's rate, one Opus supports (8, 12, 16, 24 or 48 kHz).
    ///   - channels: the input's channels, 1 or 2.
    ///   - bitrate: bits per second (24 kbit/s keeps 16 kHz speech clear with room for FEC).
    ///   - expectedLossPercent: the loss the encoder plans FEC for (0 turns FEC off).
    public init(sampleRate: Int = PCMAudio.speechSampleRate, channels: Int = 1, bitrate: Int = 24_000,
                expectedLossPercent: Int = 10) throws {
        try checkOpusRate(sampleRate, channels: channels)
        var error: Int32 = 0
        guard let encoder = opus_encoder_create(Int32(sampleRate), Int32(channels), OPUS_APPLICATION_VOIP, &error),
              error == OPUS_OK else { throw opusError(error, "cannot create an encoder") }
        self.encoder = encoder
        self.sampleRate = sampleRate
        self.channels = channels
        for (code, what) in [
            (copus_set_bitrate(encoder, Int32(clamping: bitrate)), "bitrate \(bitrate)"),
            (copus_set_signal_voice(encoder), "voice signal"),
            (copus_set_inband_fec(encoder, expectedLossPercent > 0 ? 1 : 0), "in-band FEC"),
            (copus_set_packet_loss_perc(encoder, Int32(min(max(expectedLossPercent, 0), 100))), "loss percentage"),
        ] where code != OPUS_OK {
            opus_encoder_destroy(encoder)
            throw opusError(code, "cannot set the \(what)")
        }
    }

    deinit { opus_encoder_destroy(encoder) }

    /// Encodes one frame (2.5, 5, 10, 20, 40 or 60 ms of interleaved samples) into one Opus packet.
    public func encode(_ frame: ArraySlice<Int16>) throws -> [UInt8] {
        let perChannel = frame.count / channels
        guard frame.count % channels == 0,
              [sampleRate / 400, sampleRate / 200, sampleRate / 100, sampleRate / 50, sampleRate / 25,
               sampleRate * 3 / 50].contains(perChannel) else {
            throw AudioError.invalidFormat("\(frame.count) samples is not an Opus frame at \(sampleRate) Hz")
        }
        var packet = [UInt8](repeating: 0, count: OpusFrame.maxPacketBytes)
        let count = frame.withUnsafeBufferPointer { input in
            packet.withUnsafeMutableBufferPointer { output in
                opus_encode(encoder, input.baseAddress!, Int32(perChannel), output.baseAddress!, Int32(output.count))
            }
        }
        guard count > 0 else { throw opusError(count, "cannot encode") }
        return Array(packet.prefix(Int(count)))
    }

    /// Encodes `audio` (of the encoder's format) into 20 ms packets; the last frame is padded with
    /// silence.
    public func encodeFrames(_ audio: PCMAudio) throws -> [[UInt8]] {
        guard audio.sampleRate == sampleRate, audio.channels == channels else {
            throw AudioError.invalidFormat("\(audio.sampleRate) Hz × \(audio.channels) audio for a \(sampleRate) Hz × \(channels) encoder")
        }
        let step = OpusFrame.samples(sampleRate: sampleRate) * channels
        var packets: [[UInt8]] = []
        var start = 0
        while start < audio.samples.count {
            var frame = Array(audio.samples[start..<min(start + step, audio.samples.count)])
            frame += [Int16](repeating: 0, count: step - frame.count)
            packets.append(try encode(frame[...]))
            start += step
        }
        return packets
    }
}

/// A libopus decoder with its two ways to fill a lost frame: packet loss concealment, and the
/// in-band FEC copy that the next packet carries. One owner at a time (not thread-safe).
public final class OpusDecoder {
    private let decoder: OpaquePointer
    /// The output rate in Hz (Opus decodes any packet at any of its rates).
    public let sampleRate: Int
    /// The output channels.
    public let channels: Int

    /// Creates a decoder that outputs `sampleRate` Hz, `channels` channels.
    public init(sampleRate: Int = PCMAudio.speechSampleRate, channels: Int = 1) throws {
        try checkOpusRate(sampleRate, channels: channels)
        var error: Int32 = 0
        guard let decoder = opus_decoder_create(Int32(sampleRate), Int32(channels), &error), error == OPUS_OK else {
            throw opusError(error, "cannot create a decoder")
        }
        self.decoder = decoder
        self.sampleRate = sampleRate
        self.channels = channels
    }

    deinit { opus_decoder_destroy(decoder) }

    /// Decodes one packet into interleaved samples.
    public func decode(_ packet: [UInt8]) throws -> [Int16] {
        guard !packet.isEmpty else { throw AudioError.invalidFormat("an empty Opus packet") }
        return try run(packet, frameSize: sampleRate * 3 / 25, fec: false)  // up to 120 ms
    }

    /// Rebuilds the frame lost before `nextPacket` from the FEC copy that packet carries (libopus
    /// falls back to concealment when it carries none); `frameSize` samples per channel.
    public func recover(lostFrameFrom nextPacket: [UInt8], frameSize: Int) throws -> [Int16] {
        guard !nextPacket.isEmpty else { return try conceal(frameSize: frameSize) }
        return try run(nextPacket, frameSize: frameSize, fec: true)
    }

    /// Conceals one lost frame of `frameSize` samples per channel (packet loss concealment).
    public func conceal(frameSize: Int) throws -> [Int16] {
        try run(nil, frameSize: frameSize, fec: false)
    }

    private func run(_ packet: [UInt8]?, frameSize: Int, fec: Bool) throws -> [Int16] {
        guard frameSize > 0, frameSize <= sampleRate * 3 / 25 else {
            throw AudioError.invalidFormat("a frame of \(frameSize) samples")
        }
        var output = [Int16](repeating: 0, count: frameSize * channels)
        let count = output.withUnsafeMutableBufferPointer { out in
            if let packet {
                packet.withUnsafeBufferPointer { input in
                    opus_decode(decoder, input.baseAddress, Int32(input.count), out.baseAddress!, Int32(frameSize), fec ? 1 : 0)
                }
            } else {
                opus_decode(decoder, nil, 0, out.baseAddress!, Int32(frameSize), 0)
            }
        }
        guard count >= 0 else { throw opusError(count, packet == nil ? "cannot conceal" : "cannot decode") }
        return Array(output.prefix(Int(count) * channels))
    }
}
