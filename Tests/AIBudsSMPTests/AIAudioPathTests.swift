@testable import AIBuds
import AIBudsAudio
import AIBudsEmulator
import AIBudsFoundation
import AIBudsNet
import AIBudsSMP
import AIBudsSMPAudio
import AIBudsTestKit
import Foundation
import Testing

extension SDKTests {
    /// The AI audio path end to end over UDP: the emulator's microphone plays espeak-ng speech and
    /// the SDK receives it; the SDK plays speech and the emulator's speaker file has it; on the
    /// `ble` profile, and with datagrams lost.
    @Suite(.sdkState(.exclusive), .timeLimit(.minutes(3))) struct AIAudioPath {
        let fixture: EmulatorFixture

        init() throws {
            fixture = try EmulatorFixture("aiaudio")
        }

        private func start(name: String, mic: URL, speakerOut: URL, faults: [String] = []) throws -> EmulatorFixture.Running {
            var configuration = EmulatorConfiguration()
            configuration.profile = .glasses
            configuration.name = name
            configuration.listen = SocketAddress(host: "127.0.0.1", port: 0)
            configuration.link = .ble
            configuration.faults = try FaultConfiguration.parse(faults)
            configuration.discoveryDirectory = fixture.discoveryDirectory
            configuration.microphoneFile = mic
            configuration.speakerOut = speakerOut
            let emulator = try Emulator(configuration: configuration)
            return EmulatorFixture.Running(emulator: emulator, address: try emulator.start())
        }

        /// Connects the SDK to the emulator named `name` and returns it as glasses.
        private func connect(_ name: String) async throws -> any DeviceAIAudioAPI & DeviceWorkStateAPI & DeviceConvertible {
            #expect(AIBudsSDK.initialize([fixture.plugin()], configuration: fixture.configuration()))
            let device = try await fixture.device(named: name)
            device.connect(ConnectParams())
            try await eventually("connected") { device.isConnectedAndReady }
            return try #require(device as? any DeviceAIAudioAPI & DeviceWorkStateAPI & DeviceConvertible)
        }

        /// Reads the microphone until `seconds` of audio came; returns it and the chunks' sources.
        private func record(_ device: any DeviceAIAudioAPI, seconds: Double) async throws -> (PCMAudio, [ReceivedAudioFrame.Source]) {
            let stream = try await device.startMicrophone()
            var samples: [Int16] = []
            var sources: [ReceivedAudioFrame.Source] = []
            var expected: UInt64 = 0
            for try await chunk in stream {
                #expect(chunk.sequence == expected)
                expected += 1
                samples += chunk.audio.samples
                sources.append(chunk.source)
                if Double(samples.count) >= seconds * 16_000 { break }
            }
            try await device.stopMicrophone()
            return (PCMAudio(sampleRate: 16_000, channels: 1, samples: samples), sources)
        }

        private func roundTrip(name: String, faults: [String], minimum: Double) async throws {
            defer { fixture.remove() }
            let speech = try await synthesizeSpeech("Hello assistant, what is the weather like in Lisbon tomorrow?")
            // The clean run's microphone plays a WAV file, the lossy run's an Ogg/Opus file.
            let mic = fixture.directory.appendingPathComponent(faults.isEmpty ? "mic.wav" : "mic.opus")
            if faults.isEmpty { try WAVFile.write(speech, to: mic) } else { try OggOpusFile.write(speech, to: mic) }
            let speakerOut = fixture.directory.appendingPathComponent("speaker.wav")
            let running = try start(name: name, mic: mic, speakerOut: speakerOut, faults: faults)
            defer { running.stop() }
            let device = try await connect(name)
            defer { device.disconnect() }

            // Device → SDK: the microphone's speech, in order, continuous.
            let (heard, sources) = try await record(device, seconds: speech.duration + 0.3)
            let micMatch = AudioSimilarity.envelopeCorrelation(speech, heard)
            #expect(micMatch.correlation > minimum, "microphone envelope correlation \(micMatch)")
            #expect(abs(micMatch.lag) <= 2)
            if faults.isEmpty { #expect(sources.allSatisfy { $0 == .decoded }) }

            // SDK → device: the speaker plays the speech and writes it to its file.
            let report = try await device.play(speech)
            #expect(report.frames == (speech.frameCount + 319) / 320)
            #expect(report.decoded + report.recovered + report.concealed == report.frames)
            if faults.isEmpty { #expect(report.decoded == report.frames) }
            let played = try WAVFile.read(from: speakerOut)
            #expect(played.frameCount == report.frames * 320)
            let speakerMatch = AudioSimilarity.envelopeCorrelation(speech, played)
            #expect(speakerMatch.correlation > minimum, "speaker envelope correlation \(speakerMatch) \(report)")
            #expect(abs(speakerMatch.lag) <= 2)
        }

        @Test func speechGoesBothWaysOverTheBLEProfile() async throws {
            try await roundTrip(name: "Audio Glasses", faults: [], minimum: 0.95)
        }

        @Test func speechSurvivesALossyLink() async throws {
            try await roundTrip(name: "Lossy Audio Glasses", faults: ["lose=0.1,reorder=0.05,duplicate=0.05,seed=11"], minimum: 0.85)
        }

        @Test func theStreamsFollowTheAIConversation() async throws {
            defer { fixture.remove() }
            let speech = try await synthesizeSpeech("Testing the conversation state")
            let mic = fixture.directory.appendingPathComponent("mic.wav")
            try WAVFile.write(speech, to: mic)
            let running = try start(name: "State Glasses", mic: mic, speakerOut: fixture.directory.appendingPathComponent("out.wav"))
            defer { running.stop() }
            let device = try await connect("State Glasses")
            defer { device.disconnect() }
            #expect(device.workState != .aiConversing)
            let stream = try await device.startMicrophone()
            // The device raises its work state event; the SDK hears aiConversing.
            try await eventually("aiConversing") { device.workState == .aiConversing }
            var chunks = 0
            for try await _ in stream {
                chunks += 1
                if chunks == 10 { running.emulator.device.endAIConversation() }  // the wearer ends it
            }
            #expect(chunks >= 10)  // the sequence finished by itself when the device ended the stream
            try await eventually("idle") { device.workState == .btOrBleConnectedIdle }
            // A second stream starts afresh, and stopping it leaves the conversation.
            let again = try await device.startMicrophone()
            var iterator = again.makeAsyncIterator()
            let first = try await iterator.next()
            #expect(first?.sequence == 0)
            try await device.stopMicrophone()
            while try await iterator.next() != nil {}
            try await eventually("idle again") { device.workState == .btOrBleConnectedIdle }
        }
    }
}
