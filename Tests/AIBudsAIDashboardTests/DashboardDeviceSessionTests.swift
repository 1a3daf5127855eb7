import AIBudsAudio
import AIBudsTestKit
import Foundation
import Testing

/// The dashboard as its users run it: `aibuds dashboard` in one process, `aibuds ai record
/// --device` against emulated glasses (whose microphone plays espeak-ng speech) in another, and
/// the session appears live in a real headless chromium, running, then heard, then finished, with
/// its audio playable.
@Suite(.timeLimit(.minutes(5)), .serialized) struct DashboardDeviceSessionTests {
    /// The built `aibuds` beside the test bundle.
    static let executable: URL? = builtProduct("aibuds")

    func waitFor(_ browser: WebDriver, _ what: String, _ script: String) async throws {
        try await eventually(what, timeout: .seconds(90)) {
            try await onOwnThread { try browser.run(script) as? Bool == true }
        }
    }

    /// Reads lines from `program` until one contains `marker`; returns what follows it.
    func line(from program: RunningProgram, after marker: String) async throws -> String {
        var seen = ""
        while let line = try await onOwnThread({ program.readLine() }) {
            if let found = line.range(of: marker) {
                return line[found.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
            }
            seen += line
        }
        throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no line with '\(marker)': \(seen)"])
    }

    @Test(.enabled(if: executable != nil, "the aibuds executable is not built"))
    func aSessionFromTheGlassesAppearsLiveInTheDashboardOfAnotherProcess() async throws {
        let aibuds = try #require(Self.executable)
        let directory = try makeTemporaryDirectory("dashboard-device")
        let runtime = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let environment = ["XDG_RUNTIME_DIR": runtime.path, "XDG_DATA_HOME": runtime.path]
        let records = directory.appendingPathComponent("records")

        let dashboard = try RunningProgram(aibuds, [
            "dashboard", "--listen", "127.0.0.1:0", "--data", records.path,
        ], environment: environment)
        defer { dashboard.terminate() }
        let url = try await line(from: dashboard, after: "dashboard: ")

        let browser = try await onOwnThread { try WebDriver(profile: directory.appendingPathComponent("profile")) }
        defer { browser.quit() }
        try await onOwnThread { try browser.navigate(url) }
        try await waitFor(browser, "the empty list", "return document.body.dataset.ready === '1' && document.body.dataset.records === '0'")
        try await waitFor(browser, "the live stream", "return document.getElementById('live-status').textContent === 'live'")

        let words = ["one", "two", "three", "four", "five", "six", "seven"]
        let mic = directory.appendingPathComponent("mic.wav")
        try WAVFile.write(try await synthesizeSpeech(words.joined(separator: " "), speed: 140), to: mic)
        let (emulator, address) = try await RunningProgram.emulator(aibuds, [
            "--profile", "glasses", "--name", "Meeting Glasses", "--mic", mic.path,
        ], environment: environment)
        defer { emulator.terminate() }

        let recorder = try RunningProgram(aibuds, [
            "ai", "record", "--device", address, "--to", directory.appendingPathComponent("meeting").path,
            "--provider", "offline", "--records", records.path,
        ], environment: environment)
        defer { recorder.kill() }

        // The session shows while it runs, recorded by the other process, without a reload.
        try await waitFor(browser, "the running session in the list",
            "return document.querySelectorAll('#records a[data-status=running]').length === 1")
        let listed = try await onOwnThread {
            try browser.run("return document.querySelector('#records a').textContent") as? String
        }
        #expect(listed?.contains("Meeting Glasses") == true, "\(listed ?? "")")
        try await onOwnThread { try browser.click("#records a[data-status=running]") }
        try await waitFor(browser, "the record page", "return !document.getElementById('detail').hidden && document.getElementById('detail').dataset.status === 'running'")

        // What the glasses' microphone said arrives on the open page as a transcript.
        _ = try await line(from: recorder, after: "heard:")
        try await waitFor(browser, "the transcript on the page",
            "return Array.from(document.querySelectorAll('#timeline li.transcript .text')).some(t => /one|two|three|four|five|six|seven/i.test(t.textContent))")
        let device = try await onOwnThread {
            try browser.run("return Array.from(document.querySelectorAll('#device-info td')).map(c => c.textContent)") as? [String]
        }
        #expect(device?.contains("Meeting Glasses") == true, "\(device ?? [])")

        // Ctrl-C ends the recording: the page shows it finished, with its audio and waveform.
        recorder.interrupt()
        let ended = try await onOwnThread { recorder.finish() }
        #expect(ended.status == 0, "\(ended.out)\(ended.err)")
        try await waitFor(browser, "the finished record", "return document.getElementById('detail').dataset.status === 'finished'")
        try await waitFor(browser, "the waveform", "return Number(document.getElementById('waveform').dataset.peaks) >= 100")
        let started = try await onOwnThread {
            try browser.runAsync("const done = arguments[arguments.length - 1]; document.getElementById('audio').play().then(() => done('playing'), (error) => done(String(error)))") as? String
        }
        #expect(started == "playing")
        try await waitFor(browser, "playback to advance", "return document.getElementById('audio').currentTime > 0.2")
        try await onOwnThread { _ = try browser.run("document.getElementById('audio').pause(); return true") }
        if let folder = DashboardBrowserTests.screenshotDirectory {
            try (try await onOwnThread { try browser.screenshot() }).write(to: folder.appendingPathComponent("dashboard-device-session.png"))
        }
    }
}
