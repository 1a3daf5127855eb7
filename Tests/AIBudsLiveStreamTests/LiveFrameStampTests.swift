import AIBudsWire
import Testing

@Suite("Live frame stamps: SEI payload and burned-in pattern")
struct LiveFrameStampTests {
    @Test func seiPayloadRoundTrips() {
        let stamp = LiveFrameStamp(captureMicroseconds: 1_796_148_965_697_278, frameNumber: 4_000_000_123)
        #expect(stamp.seiPayload.count == 28)
        #expect(LiveFrameStamp(seiPayload: stamp.seiPayload) == stamp)
    }

    @Test func foreignOrShortSEIIsNoStamp() {
        var payload = LiveFrameStamp(captureMicroseconds: 1, frameNumber: 2).seiPayload
        #expect(LiveFrameStamp(seiPayload: payload.dropLast()) == nil)
        payload[0] ^= 0xFF
        #expect(LiveFrameStamp(seiPayload: payload) == nil)
        #expect(LiveFrameStamp(seiPayload: [UInt8]()) == nil)
    }

    @Test(arguments: [(320, 240), (640, 360), (1280, 720)])
    func patternRoundTripsThroughPixels(size: (Int, Int)) {
        let (width, height) = size
        var luma = [UInt8](repeating: 128, count: width * height)
        let stamp = LiveFrameStamp(captureMicroseconds: 0x0123_4567_89AB_CDEF, frameNumber: 0xDEAD_BEEF)
        luma.withUnsafeMutableBufferPointer {
            LiveFrameStampPattern.burn(stamp, into: $0.baseAddress!, stride: width, width: width, height: height)
        }
        // Compression noise of ±40 does not change a block.
        for index in luma.indices { luma[index] = UInt8(clamping: Int(luma[index]) + (index % 7 == 0 ? 40 : -40)) }
        let read = luma.withUnsafeBufferPointer {
            LiveFrameStampPattern.read(luma: $0.baseAddress!, stride: width, width: width, height: height)
        }
        #expect(read == stamp)
    }

    @Test func damagedPatternGivesNoStamp() {
        let width = 640, height = 360
        var luma = [UInt8](repeating: 0, count: width * height)
        luma.withUnsafeMutableBufferPointer {
            LiveFrameStampPattern.burn(LiveFrameStamp(captureMicroseconds: 42, frameNumber: 7), into: $0.baseAddress!, stride: width,
                                       width: width, height: height)
        }
        // Invert one data block: the check no longer matches.
        let block = LiveFrameStampPattern.blockSize(width: width)
        for y in block..<(2 * block) { for x in (3 * block)..<(4 * block) { luma[y * width + x] = 255 - luma[y * width + x] } }
        let read = luma.withUnsafeBufferPointer {
            LiveFrameStampPattern.read(luma: $0.baseAddress!, stride: width, width: width, height: height)
        }
        #expect(read == nil)
        // A frame too small for the pattern has none, and reading it does not crash.
        #expect(!LiveFrameStampPattern.fits(width: 100, height: 20))
        let tiny = [UInt8](repeating: 255, count: 100 * 20)
        #expect(tiny.withUnsafeBufferPointer { LiveFrameStampPattern.read(luma: $0.baseAddress!, stride: 100, width: 100, height: 20) } == nil)
    }
}
