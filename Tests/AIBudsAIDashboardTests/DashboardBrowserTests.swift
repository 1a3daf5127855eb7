import AIBudsAIDashboard
import AIBudsTestKit
import Foundation
import Testing

/// The dashboard in a real headless chromium (Debian's, through chromedriver): a session appears
/// live, opens by keyboard, shows hostile text as text, plays its audio, filters; screenshots of
/// the desktop and phone layouts go to docs/images when AIBUDS_WRITE_SCREENSHOTS=1.
@Suite(.timeLimit(.minutes(5)), .serialized) struct DashboardBrowserTests {
    static let screenshotDirectory: URL? = ProcessInfo.processInfo.environment["AIBUDS_WRITE_SCREENSHOTS"] == "1"
        ? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/images")
        : nil

    func save(_ png: Data, _ name: String) throws {
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        guard let directory = Self.screenshotDirectory else { return }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try png.write(to: directory.appendingPathComponent(name))
    }

    /// Waits until `script` (a function body) returns true in the page.
    func waitFor(_ browser: WebDriver, _ what: String, _ script: String) async throws {
        try await eventually(what, timeout: .seconds(60)) {
            try await onOwnThread { try browser.run(script) as? Bool == true }
        }
    }

    @Test func aSessionAppearsLiveOpensPlaysAndFilters() async throws {
        let directory = try makeTemporaryDirectory()
        let dashboard = try AIBudsAIDashboard.start(directory: directory.appendingPathComponent("records"))
        defer { dashboard.stop() }
        let recorder = dashboard.recorder
        let base = Date()
        let interpretation = try recorder.start(
            kind: .simultaneousInterpretation, device: AIRecordDevice(identifier: "buds-2", name: "Travel buds"),
            parameters: ["from": "en", "to": "es"], at: base - 600)
        interpretation.transcript("where is the station", language: "en")
        interpretation.reply("¿dónde está la estación?", language: "es")
        interpretation.finish(at: base - 590)
        let failed = try recorder.start(
            kind: .aiRecording, device: AIRecordDevice(identifier: "glasses-1", name: "Office glasses"), at: base - 300)
        failed.error("upload refused", code: "403")
        failed.finish(.failed, at: base - 290)

        let browser = try await onOwnThread { try WebDriver(profile: directory.appendingPathComponent("profile")) }
        defer { browser.quit() }
        try await onOwnThread { try browser.navigate(dashboard.url) }
        try await waitFor(browser, "the page to load its two records", "return document.body.dataset.ready === '1' && document.body.dataset.records === '2'")
        // The token in the address was traded for a cookie: the address bar no longer shows it.
        let location = try await onOwnThread { try browser.run("return location.href") as? String }
        #expect(location?.contains("token") == false)
        try await waitFor(browser, "the live stream", "return document.getElementById('live-status').textContent === 'live'")

        // A session starts while the page is open: it appears without a reload.
        let hostileName = hostileStrings[1]
        let live = try recorder.start(
            kind: .aiConversation,
            device: AIRecordDevice(identifier: "glasses-7", name: hostileName, details: ["firmware": hostileStrings[3], "battery": "76%"]),
            parameters: ["provider": "offline", "prompt": hostileStrings[0]])
        live.event("listening")
        live.audio(tone(seconds: 2))
        live.transcript(hostileStrings[2])
        live.error(hostileStrings[4], code: "E_PROVIDER")
        try await waitFor(browser, "the live record in the list", "return document.querySelectorAll('#records a[data-status=running]').length === 1")

        // Keyboard: j focuses the first (newest) record, Enter opens it.
        try await onOwnThread { _ = try browser.run("document.activeElement.blur(); return true") }
        try await onOwnThread { try browser.press(["j"]) }
        let focused = try await onOwnThread { try browser.run("return document.activeElement.dataset.id") as? String }
        #expect(focused == String(live.id))
        try await onOwnThread { try browser.press(["\u{E007}"]) }
        try await waitFor(browser, "the record page", "return document.getElementById('detail').dataset.id === '\(live.id)' && !document.getElementById('detail').hidden")

        // Hostile text shows as text, and nothing in it ran or became markup.
        let deviceName = try await onOwnThread {
            try browser.run("return Array.from(document.querySelectorAll('#device-info td')).map(c => c.textContent)") as? [String]
        }
        #expect(deviceName?.contains(hostileName) == true)
        #expect(deviceName?.contains(hostileStrings[3]) == true)
        let parameters = try await onOwnThread { try browser.run("return document.getElementById('parameters').textContent") as? String }
        #expect(parameters?.contains(hostileStrings[0]) == true)
        try await waitFor(browser, "the timeline", "return document.querySelectorAll('#timeline li').length === 3")
        let injected = try await onOwnThread {
            try browser.run("return typeof window.__pwned + ' ' + document.querySelectorAll('main img, main svg, main script, main iframe').length") as? String
        }
        #expect(injected == "undefined 0")
        let errorText = try await onOwnThread { try browser.run("return document.querySelector('#timeline li.error .text').textContent") as? String }
        #expect(errorText == hostileStrings[4])

        // Updates of the open record arrive live too.
        live.reply("All done.")
        try await waitFor(browser, "the live reply", "return Array.from(document.querySelectorAll('#timeline li.reply')).some(l => l.textContent.includes('All done.'))")
        // Audio arriving many times a second shows while it arrives: the page refreshes on a
        // throttle (a debounce would wait for a pause that never comes).
        let shown = ShownFlag()
        let appender = Task.detached { () -> Bool in
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                if await shown.isSet { return true }
                live.audio(tone(seconds: 0.04))
                try? await Task.sleep(for: .milliseconds(40))
            }
            return false
        }
        try await waitFor(
            browser, "the audio arriving to show",
            "const meta = document.querySelector('#records a[data-id=\"\(live.id)\"] .meta'); return meta !== null && parseFloat(meta.textContent.split(' · ').pop()) > 2.5")
        await shown.set()
        #expect(await appender.value, "the page showed the new audio only once it stopped arriving")

        live.finish()
        try await waitFor(browser, "the finished status", "return document.getElementById('detail').dataset.status === 'finished'")

        // The waveform is drawn and the audio plays in the browser.
        try await waitFor(browser, "the waveform", "return Number(document.getElementById('waveform').dataset.peaks) >= 100")
        let started = try await onOwnThread {
            try browser.runAsync("const done = arguments[arguments.length - 1]; const audio = document.getElementById('audio'); audio.play().then(() => done('playing'), (error) => done(String(error)))") as? String
        }
        #expect(started == "playing")
        try await waitFor(browser, "playback to advance", "const a = document.getElementById('audio'); return a.currentTime > 0.2 && a.duration > 2.5")
        try await onOwnThread { _ = try browser.run("document.getElementById('audio').pause(); return true") }
        try save(try await onOwnThread { try browser.screenshot() }, "dashboard-record.png")

        // Filters: errors only, then a device.
        try await onOwnThread { try browser.press(["\u{E00C}"]) }
        try await waitFor(browser, "back to the list", "return location.hash === '' && document.getElementById('detail').hidden")
        try await onOwnThread { try browser.click("#filter-errors") }
        try await waitFor(browser, "only records with errors", "return document.body.dataset.records === '2'")
        try await onOwnThread { try browser.type("travel", into: "#filter-device") }
        try await waitFor(browser, "no record with errors on the travel buds", "return document.body.dataset.records === '0' && !document.getElementById('empty').hidden")
        try await onOwnThread { try browser.click("#filter-errors") }
        try await waitFor(browser, "the travel buds' record", "return document.body.dataset.records === '1' && document.querySelector('#records a').dataset.id === '\(interpretation.id)'")
        try save(try await onOwnThread { try browser.screenshot() }, "dashboard-filtered.png")

        // A phone-sized screen: no sideways scrolling; a record's page replaces the list.
        try await onOwnThread { _ = try browser.run("document.getElementById('filter-device').value = ''; document.getElementById('filter-device').dispatchEvent(new Event('input')); return true") }
        try await waitFor(browser, "every record again", "return document.body.dataset.records === '3'")
        try await onOwnThread { try browser.resize(width: 390, height: 844) }
        try await waitFor(browser, "the narrow layout", "return window.innerWidth <= 400 && document.documentElement.scrollWidth <= window.innerWidth")
        try save(try await onOwnThread { try browser.screenshot() }, "dashboard-phone-list.png")
        try await onOwnThread { try browser.click("#records a[data-id='\(live.id)']") }
        try await waitFor(
            browser, "the record page alone",
            "return document.getElementById('detail').dataset.id === '\(live.id)' && getComputedStyle(document.getElementById('list-pane')).display === 'none' && document.documentElement.scrollWidth <= window.innerWidth")
        try save(try await onOwnThread { try browser.screenshot() }, "dashboard-phone-record.png")
    }
}

/// Set once the page has shown what the test waited for.
private actor ShownFlag {
    private(set) var isSet = false
    func set() { isSet = true }
}
