import AIBudsLiveStream
import AIBudsTestKit
import Foundation
import Testing

@Suite("Live stream: the viewer page in headless Chromium", .timeLimit(.minutes(3)))
struct LiveViewerTests {
    /// Chromium loads the page, shows the stream (the page reports the picture's size), and the
    /// viewer wrote it frames; `/frame.jpg` is a JPEG of the stream's size.
    @Test func chromiumShowsTheStream() async throws {
        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let browser = try #require(chromium, "Chromium is not installed (scripts/install-deps.sh installs it)")
        let emulator = try LiveEmulator()
        defer { emulator.stop() }
        let url = try emulator.start("rtsp", width: 640, height: 360)
        let puller = try LiveStreamPuller(url: url)
        let viewer = try LiveViewer(from: puller)
        puller.start()
        defer {
            puller.stop()
            viewer.stop()
        }
        let profile = try makeTemporaryDirectory("chromium-profile")
        let page = try RunningProgram(URL(fileURLWithPath: browser), [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(profile.path)", "--remote-debugging-port=0", viewer.url.absoluteString,
        ])
        defer {
            page.terminate()
            Task.detached { _ = page.finish() }
        }
        try await eventually("the page to report the picture", timeout: .seconds(90)) {
            !viewer.statistics.reports.isEmpty
        }
        #expect(viewer.statistics.reports.first == "width=640&height=360")
        let served = viewer.statistics.framesServed
        try await eventually("the browser to be sent 20 more frames") { viewer.statistics.framesServed >= served + 20 }
        let picture = profile.appendingPathComponent("frame.jpg")
        let fetched = try await runProgram(URL(fileURLWithPath: "/usr/bin/curl"), [
            "-sf", "-o", picture.path, viewer.url.appendingPathComponent("frame.jpg").absoluteString,
        ])
        #expect(fetched.status == 0)
        let data = try Data(contentsOf: picture)
        #expect(data.starts(with: [0xFF, 0xD8]))
    }

    /// The camera is private: no token, a wrong token, or a foreign `Host` (DNS rebinding) is
    /// refused with 403; the token and a loopback `Host` are let in. Before, anyone could watch.
    @Test func theViewerNeedsItsTokenAndALoopbackHost() async throws {
        let emulator = try LiveEmulator()
        defer { emulator.stop() }
        let puller = try LiveStreamPuller(url: try emulator.start("jpeg", width: 320, height: 240))
        let viewer = try LiveViewer(from: puller)
        puller.start()
        defer {
            puller.stop()
            viewer.stop()
        }
        let base = "http://127.0.0.1:\(try #require(viewer.url.port))"
        func status(_ path: String, _ extra: [String] = []) async throws -> String {
            try await runProgram(URL(fileURLWithPath: "/usr/bin/curl"),
                                 ["-s", "-o", "/dev/null", "-m", "5", "-w", "%{http_code}"] + extra + [base + path]).out
        }
        #expect(try await status("/status") == "403")
        #expect(try await status("/stream.mjpeg") == "403")
        #expect(try await status("/frame.jpg?token=wrong") == "403")
        #expect(try await status("/status?token=\(viewer.token)", ["-H", "Host: evil.example"]) == "421")
        #expect(try await status("/status?token=\(viewer.token)", ["-H", "Host: evil.example:\(viewer.url.port!)"]) == "421")
        #expect(try await status("/status?token=\(viewer.token)") == "200")
        #expect(try await status("/status?token=\(viewer.token)", ["-H", "Host: localhost:\(viewer.url.port!)"]) == "200")
        // The page hands the token to its stream and its report.
        let page = try await runProgram(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", viewer.url.absoluteString]).out
        #expect(page.contains("/stream.mjpeg?token=\(viewer.token)"))
    }
}
