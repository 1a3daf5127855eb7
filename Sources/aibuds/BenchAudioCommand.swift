import AIBuds
import AIBudsAudio
import AIBudsEmulator
import AIBudsNet
import AIBudsSMP
import AIBudsSMPAudio
import AIBudsSMPClient
import AIBudsWire
import Foundation

/// `aibuds bench audio-latency`: the AI audio path's added latency over an emulated link, both
/// directions, against the link's own SMP round trip in the same run.
struct BenchAudioCommand: CLICommand {
    static let path = ["bench", "audio-latency"]
    static let abstract = "Measure the AI audio path's added latency over the emulated BLE link."
    static let help = """
        usage: aibuds bench audio-latency [--seconds S] [--link ble|unlimited] [--fault SPEC]

        Starts an emulated device on loopback (in this process, so both ends share one clock),
        connects the SDK, and measures:
          microphone: from the end of a 20 ms frame's capture on the device to its decoded chunk
                      in the SDK's stream;
          speaker:    from the SDK sending a frame to the device playing it;
          link:       the SMP echo round trip on the same link, for reference.
        Prints p50, p95 and max in ms, the ratios to the link's round trip, and peak memory.

        options:
          --seconds S   seconds of audio each way (default 10)
          --link L      ble (default) or unlimited
          --fault SPEC  datagram faults, for example lose=0.05,seed=3 (docs/emulator.md)
        """

    let seconds: Int
    let link: LinkProfile
    let faults: FaultConfiguration
    let faultSpecs: [String]

    init(_ arguments: inout Arguments) throws {
        seconds = try arguments.number("--seconds") ?? 10
        let name = try arguments.option("--link") ?? "ble"
        guard let link = LinkProfile(rawValue: name), link != .wifi else {
            throw CommandFailure.usage("--link must be ble or unlimited, not '\(name)'")
        }
        self.link = link
        faultSpecs = try arguments.options("--fault")
        do { faults = try FaultConfiguration.parse(faultSpecs) } catch {
            throw CommandFailure.usage("\(error)")
        }
        guard (1...600).contains(seconds) else { throw CommandFailure.usage("--seconds must be 1 to 600") }
    }

    /// The emulator's clock, sharing its origin with the benchmark's.
    struct SharedClock: EmulatorClock {
        let origin: ContinuousClock.Instant
        let queue = DispatchQueue(label: "aibuds.bench.audio.timers", attributes: .concurrent)
        var uptime: Duration { ContinuousClock.now - origin }
        func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
            let (s, atto) = max(delay, .zero).components
            queue.asyncAfter(deadline: .now() + .nanoseconds(Int(s) * 1_000_000_000 + Int(atto / 1_000_000_000)), execute: action)
        }
    }

    /// Starts glasses on loopback in this process, on `clock`, unannounced.
    static func startEmulator(
        link: LinkProfile, faults: FaultConfiguration = FaultConfiguration(), microphoneFile: URL? = nil, clock: SharedClock
    ) throws -> (Emulator, SocketAddress) {
        var configuration = EmulatorConfiguration()
        configuration.listen = SocketAddress(host: "127.0.0.1", port: 0)
        configuration.link = link
        configuration.faults = faults
        configuration.announce = false
        configuration.microphoneFile = microphoneFile
        do {
            let emulator = try Emulator(configuration: configuration, clock: clock)
            return (emulator, try emulator.start())
        } catch {
            throw CommandFailure.failure("cannot start the emulator: \(error)")
        }
    }

    func run() async throws -> ExitCode {
        let clock = SharedClock(origin: .now)
        let rate = PCMAudio.speechSampleRate
        let tone = PCMAudio(sampleRate: rate, channels: 1, samples: (0..<(rate * seconds)).map { index in
            Int16(6_000 * sin(2 * Double.pi * (200 + Double(index % rate) / 20) * Double(index) / Double(rate)))
        })
        let (emulator, address) = try Self.startEmulator(link: link, faults: faults, clock: clock)
        defer { emulator.stop() }
        DeviceCommandSupport.initializeSDK()
        let found = try await DeviceCommandSupport.find("udp://\(address)")
        let (device, audio) = try await DeviceCommandSupport.connect(
            found, naming: "the emulator", as: (any DeviceAIAudioAPI).self, lacking: "has no AI audio path")
        defer { device.disconnect() }

        // Microphone: capture end on the device → chunk in the SDK.
        var micLatencies: [Double] = []
        do {
            let stream = try await audio.startMicrophone()
            for try await chunk in stream {
                let received = clock.uptime
                guard let started = emulator.device.audio.microphoneStream?.started else { break }
                let captured = started + .milliseconds(Int64(chunk.sequence + 1) * 20)
                micLatencies.append(Self.ms(received - captured))
                if micLatencies.count >= seconds * 50 { break }
            }
            try await audio.stopMicrophone()
        } catch {
            throw DeviceCommandSupport.failure(error, "microphone")
        }

        // Speaker: frame sent by the SDK → frame played by the device.
        let report: SpeakerPlaybackReport
        do { report = try await audio.play(tone) } catch { throw DeviceCommandSupport.failure(error, "speaker") }
        let batch = UInt64(SMPAudioPacing.speakerBatch)
        let playStart = report.streamOrigin - clock.origin
        let speakerLatencies = emulator.device.audio.speakerPlayouts.filter { $0.source == .decoded }.map { playout in
            let first = playout.sequence / batch * batch
            let sent = playStart + .milliseconds(Int64(first) * 20) - SMPAudioPacing.speakerLead
            return Self.ms(playout.at - max(sent, playStart))
        }

        // The link's own round trip: SMP echo, stop-and-wait.
        var echoes: [Double] = []
        do {
            let client = try SMPClient(transport: try UDPTransport(url: "udp://\(address)"))
            defer { client.close() }
            for _ in 0..<50 {
                let start = ContinuousClock.now
                _ = try await client.send(OSEchoRequest(d: "ping"))
                echoes.append(Self.ms(ContinuousClock.now - start))
            }
        } catch {
            throw CommandFailure.failure("echo: \(error)")
        }

        let echo = Self.percentile(echoes, 0.5)
        CLI.say("link \(link.rawValue)\(faultSpecs.isEmpty ? "" : " with faults \(faultSpecs.joined(separator: ","))"), \(seconds) s each way")
        CLI.say(String(format: "SMP echo round trip      p50 %6.1f ms  p95 %6.1f ms", echo, Self.percentile(echoes, 0.95)))
        for (name, values) in [("microphone (capture→SDK)", micLatencies), ("speaker (send→playout) ", speakerLatencies)] {
            CLI.say(String(format: "%@  p50 %6.1f ms  p95 %6.1f ms  max %6.1f ms  p50/echo %.2f  (%d frames)",
                           name, Self.percentile(values, 0.5), Self.percentile(values, 0.95), values.max() ?? 0,
                           Self.percentile(values, 0.5) / max(echo, 0.001), values.count))
        }
        CLI.say("speaker frames: \(report.frames) sent, \(report.decoded) decoded, \(report.recovered) rebuilt by FEC, \(report.concealed) concealed")
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        CLI.say("peak memory \(usage.ru_maxrss / 1024) MiB")
        return .ok
    }

    /// `duration` in milliseconds.
    static func ms(_ duration: Duration) -> Double {
        let (seconds, atto) = duration.components
        return Double(seconds) * 1000 + Double(atto) / 1e15
    }

    /// The `p` quantile of `values` (nearest rank below), 0 for none.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
    }
}
