import AIBudsAudio
import AIBudsTestKit
import Testing

/// The jitter buffer's ordering, duplicates, late packets and loss decisions, on explicit times.
@Suite(.timeLimit(.minutes(1))) struct JitterBufferTests {
    private func ms(_ value: Int) -> Duration { .milliseconds(value) }
    private func seqs(_ outputs: [JitterBuffer.Output]) -> [String] {
        outputs.map { output in
            switch output {
            case .packet(let sequence, _): "\(sequence)"
            case .lost(let sequence, let next): next == nil ? "lost\(sequence)" : "fec\(sequence)"
            }
        }
    }

    @Test func inOrderPacketsPassAtOnce() {
        var buffer = JitterBuffer()
        for n in 0..<5 {
            #expect(buffer.insert(sequence: UInt64(n), payload: [UInt8(n)], at: ms(n * 20)) == .accepted)
            #expect(seqs(buffer.pop(at: ms(n * 20))) == ["\(n)"])
        }
        #expect(buffer.count == 0)
    }

    @Test func reorderedPacketsComeOutInOrder() {
        var buffer = JitterBuffer(maxDelay: ms(60))
        buffer.insert(sequence: 0, payload: [0], at: ms(0))
        #expect(seqs(buffer.pop(at: ms(0))) == ["0"])
        buffer.insert(sequence: 2, payload: [2], at: ms(40))
        buffer.insert(sequence: 3, payload: [3], at: ms(45))
        #expect(seqs(buffer.pop(at: ms(45))).isEmpty)  // waiting for 1
        buffer.insert(sequence: 1, payload: [1], at: ms(50))
        #expect(seqs(buffer.pop(at: ms(50))) == ["1", "2", "3"])
    }

    @Test func duplicatesAndLatePacketsAreDropped() {
        var buffer = JitterBuffer()
        buffer.insert(sequence: 0, payload: [0], at: ms(0))
        #expect(buffer.insert(sequence: 1, payload: [1], at: ms(1)) == .accepted)
        #expect(buffer.insert(sequence: 1, payload: [9], at: ms(2)) == .duplicate)
        #expect(buffer.pop(at: ms(2)) == [.packet(sequence: 0, payload: [0]), .packet(sequence: 1, payload: [1])])
        #expect(buffer.insert(sequence: 0, payload: [0], at: ms(3)) == .late)
        #expect(buffer.insert(sequence: 1_000_000, payload: [0], at: ms(3)) == .tooFarAhead)
    }

    @Test func aGapIsGivenUpAfterMaxDelayWithTheNextPacketForFEC() {
        var buffer = JitterBuffer(maxDelay: ms(60))
        buffer.insert(sequence: 0, payload: [0], at: ms(0))
        _ = buffer.pop(at: ms(0))
        buffer.insert(sequence: 2, payload: [2], at: ms(40))
        #expect(seqs(buffer.pop(at: ms(99))).isEmpty)
        #expect(seqs(buffer.pop(at: ms(100))) == ["fec1", "2"])
        #expect(buffer.insert(sequence: 1, payload: [1], at: ms(120)) == .late)
        // Two missing: the first has no next packet, the second has.
        buffer.insert(sequence: 5, payload: [5], at: ms(200))
        #expect(seqs(buffer.pop(at: ms(260))) == ["lost3", "fec4", "5"])
    }

    @Test func aFullBufferGivesUpAtOnce() {
        var buffer = JitterBuffer(maxDelay: .seconds(10), capacity: 3)
        for n: UInt64 in [1, 2] { buffer.insert(sequence: n, payload: [UInt8(n)], at: ms(0)) }
        #expect(seqs(buffer.pop(at: ms(0))).isEmpty)
        buffer.insert(sequence: 3, payload: [3], at: ms(0))
        #expect(seqs(buffer.pop(at: ms(0))) == ["fec0", "1", "2", "3"])
    }

    @Test func flushEndsTheStream() {
        var buffer = JitterBuffer()
        buffer.insert(sequence: 1, payload: [1], at: ms(0))
        buffer.insert(sequence: 4, payload: [4], at: ms(0))
        #expect(seqs(buffer.flush()) == ["fec0", "1", "lost2", "fec3", "4"])
        #expect(buffer.nextSequence == 5)
    }

    @Test func theReceiverDecodesRebuildsAndConceals() async throws {
        let speech = try await synthesizeSpeech("one two three four five")
        let packets = try OpusEncoder().encodeFrames(speech)
        let receiver = try OpusStreamReceiver(maxDelay: ms(60))
        var frames: [ReceivedAudioFrame] = []
        var time = 0
        // Lose every 8th packet, swap every 5th pair, and send every 6th twice.
        var order: [Int] = []
        var index = 0
        while index < packets.count {
            if index % 5 == 0, index + 1 < packets.count {
                order += [index + 1, index]
                index += 2
            } else {
                order.append(index)
                index += 1
            }
        }
        for n in order where n % 8 != 3 {
            time += 20
            frames += try receiver.receive(sequence: UInt64(n), packet: packets[n], at: ms(time))
            if n % 6 == 0 { frames += try receiver.receive(sequence: UInt64(n), packet: packets[n], at: ms(time)) }
        }
        frames += try receiver.finish(frameCount: UInt64(packets.count))
        #expect(frames.map(\.sequence) == (0..<UInt64(packets.count)).map { $0 })
        let lost = (0..<packets.count).filter { $0 % 8 == 3 }.count
        #expect(receiver.counts.recovered + receiver.counts.concealed == lost)
        #expect(receiver.counts.recovered > 0)
        #expect(receiver.dropped >= packets.count / 6 - 1)
        let audio = PCMAudio(sampleRate: 16_000, channels: 1, samples: frames.flatMap(\.samples))
        #expect(AudioSimilarity.envelopeCorrelation(speech, audio).correlation > 0.85)
    }
}
