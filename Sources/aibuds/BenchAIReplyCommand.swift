import AIBuds
import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsVoiceAssistant
import AIBudsEmulator
import AIBudsNet
import Foundation

/// `aibuds bench ai-reply`: the time from the end of a question spoken into the glasses'
/// microphone to the first frame of the spoken reply played on their speaker, over an emulated
/// link, with the device and the SDK on one clock.
struct BenchAIReplyCommand: CLICommand {
    static let path = ["bench", "ai-reply"]
    static let abstract = "Measure end of speech to first reply audio on the device over the emulated BLE link."
    static let help = """
        usage: aibuds bench ai-reply --input QUESTION.wav [--runs N] [--link ble|unlimited] [--provider P]

        Each run starts emulated glasses in this process whose microphone plays QUESTION.wav,
        connects the SDK over the link, and holds an AI chat on the device's microphone and
        speaker: transcription, the streamed reply, its speech. It measures, on the device's
        clock, from the end of the question's speech in the microphone stream (as the voice
        activity detector placed it) to the first reply frame the device's speaker played.
        Prints every run, p50 and p95, and peak memory (one JSON object with --json). The
        provider needs a chat model
        (--provider openai with AIBUDS_AI_* set; scripts/ai-servers.sh starts local ones).

        options:
          --input FILE  the question (WAV, any rate; the microphone plays it once, then silence)
          --runs N      how many chats (default 5)
          --link L      ble (default) or unlimited
        \(AICommandSupport.providerHelp)
        """

    let input: URL
    let runs: Int
    let link: LinkProfile
    let provider: String?
    let json: Bool

    init(_ arguments: inout Arguments) throws {
        let input = try arguments.required("--input", "QUESTION.wav")
        self.input = URL(fileURLWithPath: input)
        runs = try arguments.number("--runs") ?? 5
        let name = try arguments.option("--link") ?? "ble"
        guard let link = LinkProfile(rawValue: name), link != .wifi else {
            throw CommandFailure.usage("--link must be ble or unlimited, not '\(name)'")
        }
        self.link = link
        provider = try AICommandSupport.providerOption(&arguments)
        json = arguments.flag("--json")
        try arguments.finish()
        guard (1...100).contains(runs) else { throw CommandFailure.usage("--runs must be 1 to 100") }
        guard FileManager.default.fileExists(atPath: input) else { throw CommandFailure.usage("\(input): no such file") }
    }

    func run() async throws -> ExitCode {
        try AICommandSupport.select(provider)
        DeviceCommandSupport.initializeSDK()
        var latencies: [Double] = []
        for run in 1...runs {
            let latency = try await measure()
            latencies.append(latency)
            if !json { CLI.say(String(format: "run %d: %.3f s", run, latency)) }
        }
        let p50 = BenchAudioCommand.percentile(latencies, 0.5), p95 = BenchAudioCommand.percentile(latencies, 0.95)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        if json {
            try AICommandSupport.printJSONLine(Summary(
                link: link.rawValue, seconds: latencies, p50: p50, p95: p95, peakMemoryMiB: Int(usage.ru_maxrss / 1024)))
        } else {
            CLI.say(String(format: "link %@, %d runs: end of speech to first reply audio on the device p50 %.2f s, p95 %.2f s",
                           link.rawValue, runs, p50, p95))
            CLI.say("peak memory \(usage.ru_maxrss / 1024) MiB")
        }
        return .ok
    }

    /// One chat: the seconds from the end of the question's speech to the first reply frame played.
    private func measure() async throws -> Double {
        let clock = BenchAudioCommand.SharedClock(origin: .now)
        let (emulator, address) = try BenchAudioCommand.startEmulator(link: link, microphoneFile: input, clock: clock)
        defer { emulator.stop() }
        let found = try await DeviceCommandSupport.find("udp://\(address)")
        let (device, audio) = try await DeviceCommandSupport.connect(
            found, naming: "the emulator", as: (any DeviceAIAudioAPI).self, lacking: "has no AI audio path")
        let session: AISession
        do {
            session = try await AIBudsAISDK.startAIChat(
                source: DeviceMicrophoneSource(device: audio, deviceInfo: AISessionDeviceInfo(name: "bench")),
                sink: DeviceSpeakerSink(device: audio))
        } catch {
            await device.disconnectAndWait()
            throw AICommandSupport.failure(error, "chat failed")
        }
        var microphoneStart: Duration?
        var speechEnd: Double?
        var failure: String?
        for await event in session.events {
            if microphoneStart == nil { microphoneStart = emulator.device.audio.microphoneStream?.started }
            switch event {
            case .speechEnded(let span) where span.index == 0: speechEnd = span.end
            case .failed(let error): failure = error.message
            default: break
            }
            if case .speaking(0) = event { break }
            if failure != nil { break }
        }
        // The reply's first frame plays within a few link intervals of its sending.
        var firstPlayout: Duration?
        let deadline = ContinuousClock.now + .seconds(10)
        while failure == nil, firstPlayout == nil, ContinuousClock.now < deadline {
            firstPlayout = emulator.device.audio.speakerPlayouts.first { $0.source == .decoded }?.at
            if firstPlayout == nil { try await Task.sleep(for: .milliseconds(5)) }
        }
        session.cancel()
        _ = try? await session.result()
        await device.disconnectAndWait()
        if let failure { throw CommandFailure.failure("the chat failed: \(failure)") }
        guard let microphoneStart, let speechEnd else { throw CommandFailure.failure("no end of speech was detected in \(input.path)") }
        guard let firstPlayout else { throw CommandFailure.failure("the device's speaker played nothing within 10 s of the reply") }
        let end = microphoneStart + .milliseconds(Int64((speechEnd * 1000).rounded()))
        return BenchAudioCommand.ms(firstPlayout - end) / 1000
    }

    /// The `--json` output.
    struct Summary: Encodable {
        var link: String
        /// Each run's latency, in seconds.
        var seconds: [Double]
        var p50: Double
        var p95: Double
        var peakMemoryMiB: Int
    }
}
