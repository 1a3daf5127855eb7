@testable import AIBudsEmulator
import AIBudsAudio
import AIBudsFoundation
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// The Audio group (68) on a manual clock: real-time microphone frames, long-polls, the one-second
/// buffer, the work state, the speaker's jitter buffer, and bad requests.
@Suite(.timeLimit(.minutes(1))) struct AudioGroupTests {
    private func read(_ harness: DeviceHarness, stream: UInt64, from: UInt64, waitMs: UInt64 = 100) throws -> [Data] {
        harness.raw(try harness.datagram(AudioMicReadRequest(stream: stream, from: from, waitMs: waitMs), sequence: harness.nextSequence()))
    }

    private func decode(_ datagram: Data) throws -> AudioMicReadResponse {
        try AudioMicReadRequest.decodeResponse(payload: SMPPacket.decode(datagram).payload)
    }

    @Test func microphoneFramesComeInRealTimeAndHeldReadsAreAnswered() throws {
        let harness = try DeviceHarness()
        let started = try harness.call(AudioMicStartRequest())
        #expect(started.format == .speech)
        #expect(harness.device.workState == .aiConversing)
        // Nothing captured yet: the read is held, and answered when the first frame is complete.
        #expect(try read(harness, stream: started.stream, from: 0).isEmpty)
        harness.clock.advance(by: .milliseconds(20))
        let deferred = harness.takeDeferred()
        #expect(deferred.count == 1)
        let first = try decode(try #require(deferred.first?.0))
        #expect(first.first == 0 && first.frames.count == 1 && !first.ended)
        // 100 ms later five more frames are ready at once.
        harness.clock.advance(by: .milliseconds(100))
        let batch = try decode(try #require(try read(harness, stream: started.stream, from: 1).first))
        #expect(batch.first == 1 && batch.frames.count == 5)
        // A reader 3 s behind gets the last second only.
        harness.clock.advance(by: .seconds(3))
        let late = try decode(try #require(try read(harness, stream: started.stream, from: 6).first))
        #expect(late.first == 156 - EmulatedAudio.micBufferFrames)
        #expect(!late.frames.isEmpty)
        // Frames decode to 20 ms of (silent) audio.
        let decoder = try OpusDecoder()
        #expect(try decoder.decode([UInt8](late.frames[0])).count == 320)
        // Stopping ends the stream for readers and the AI conversation.
        _ = try harness.call(AudioMicStopRequest(stream: started.stream))
        #expect(harness.device.workState == .btOrBleConnectedIdle)
        #expect(try decode(try #require(try read(harness, stream: started.stream, from: 200).first)).ended)
        #expect(try harness.failure(AudioMicReadRequest(stream: 99, from: 0, waitMs: 0)).rc == 7)
        #expect(try harness.failure(AudioMicStopRequest(stream: started.stream)).rc == 7)
    }

    @Test func theSpeakerPlaysInOrderAndConcealsWhatIsMissing() throws {
        let harness = try DeviceHarness()
        let tone = PCMAudio(sampleRate: 16_000, channels: 1,
                            samples: (0..<3_200).map { Int16(8_000 * sin(2 * Double.pi * 300 * Double($0) / 16_000)) })
        let packets = try OpusEncoder().encodeFrames(tone).map { Data($0) }
        #expect(packets.count == 10)
        let stream = try harness.call(AudioSpeakerStartRequest()).stream
        #expect(harness.device.workState == .aiConversing)
        _ = try harness.call(AudioSpeakerWriteRequest(stream: stream, first: 2, frames: Array(packets[2..<4])))
        _ = try harness.call(AudioSpeakerWriteRequest(stream: stream, first: 0, frames: Array(packets[0..<2])))
        _ = try harness.call(AudioSpeakerWriteRequest(stream: stream, first: 0, frames: Array(packets[0..<2])))  // again
        _ = try harness.call(AudioSpeakerWriteRequest(stream: stream, first: 5, frames: Array(packets[5..<8])))  // 4 lost
        #expect(try harness.failure(AudioSpeakerWriteRequest(stream: stream, first: 0, frames: Array(repeating: packets[0], count: 51))).rc == 6)
        #expect(try harness.failure(AudioSpeakerWriteRequest(stream: stream, first: .max - 1, frames: [packets[0]])).rc == 6)
        let report = try harness.call(AudioSpeakerStopRequest(stream: stream, frames: 10))  // 8, 9 never came
        #expect(report == AudioSpeakerStopResponse(decoded: 7, recovered: 1, concealed: 2))
        #expect(harness.device.audio.speakerPlayouts.map(\.sequence) == Array(0..<10))
        #expect(harness.device.audio.speakerAudio.frameCount == 3_200)
        #expect(harness.device.workState == .btOrBleConnectedIdle)
        #expect(try harness.failure(AudioSpeakerWriteRequest(stream: stream, first: 0, frames: [packets[0]])).rc == 7)
        // A lying frame count costs at most five seconds of concealment.
        let second = try harness.call(AudioSpeakerStartRequest()).stream
        let lying = try harness.call(AudioSpeakerStopRequest(stream: second, frames: .max))
        #expect(lying.concealed == 250)
    }

    @Test func theAIAudioPathNeedsItsCapabilityAndEndsWithTheConversation() throws {
        let watch = try DeviceHarness(profile: .watch)
        #expect(try watch.failure(AudioMicStartRequest()).rc == 4)
        #expect(try watch.failure(AudioSpeakerStartRequest()).rc == 4)
        let harness = try DeviceHarness()
        let mic = try harness.call(AudioMicStartRequest()).stream
        #expect(try harness.failure(AudioMicStartRequest()).rc == 5)
        #expect(try read(harness, stream: mic, from: 0).isEmpty)  // held
        harness.device.endAIConversation()
        let ended = try decode(try #require(harness.takeDeferred().first?.0))
        #expect(ended.ended)
        #expect(harness.device.workState == .btOrBleConnectedIdle)
        _ = try harness.call(CaptureVideoStartRequest())
        #expect(try harness.failure(AudioMicStartRequest()).rc == 5)
    }
}
