import AIBudsEmulator
import AIBudsTestKit
import Foundation
import Testing

/// `aibuds control`, `aibuds events` and `aibuds emulator --script`, run as processes.
@Suite(.timeLimit(.minutes(2))) struct ControlCommandLineTests {
    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func controlReadsAndChangesCapabilitiesWithTheDevicesCodes() async throws {
        let fixture = try EmulatorFixture("cli-control")
        defer { fixture.remove() }
        let buds = try fixture.start(.earbuds, name: "Ctl CLI Buds")
        let watch = try fixture.start(.watch, name: "Ctl CLI Watch")
        defer { buds.stop(); watch.stop() }
        let environment = ["XDG_RUNTIME_DIR": fixture.directory.path, "XDG_DATA_HOME": fixture.directory.path]

        let (set, setOut, setErr) = try await runAIBuds(
            ["control", "--device", "Ctl CLI Buds", "anc", "set", "transparency", "--json"], environment: environment)
        #expect(set == 0, "\(setErr)")
        #expect(try json(setOut)["mode"] as? String == "transparency")
        let (eq, eqOut, _) = try await runAIBuds(["control", "--device", buds.url, "eq"], environment: environment)
        #expect(eq == 0 && eqOut.contains("normal") && eqOut.contains("band_max"))
        let (music, musicOut, _) = try await runAIBuds(
            ["control", "--device", buds.url, "music", "next", "--json"], environment: environment)
        #expect(music == 0)
        #expect(try json(musicOut)["track"] as? Int == 1)

        let (tooLoud, _, loudErr) = try await runAIBuds(["control", "--device", buds.url, "volume", "set", "99"], environment: environment)
        #expect(tooLoud == 1 && loudErr.contains("device status code 6"))
        let (noANC, _, noANCErr) = try await runAIBuds(["control", "--device", watch.url, "anc"], environment: environment)
        #expect(noANC == 1 && noANCErr.contains("DeviceANCAPI"))
        let (unknown, _, _) = try await runAIBuds(["control", "--device", buds.url, "warp"], environment: environment)
        #expect(unknown == 64)
        let (badMode, _, _) = try await runAIBuds(["control", "--device", buds.url, "anc", "set", "loud"], environment: environment)
        #expect(badMode == 64)
    }

    @Test func controlFormatsFindsAndAlertsOnTheGlasses() async throws {
        let fixture = try EmulatorFixture("cli-control-glasses")
        defer { fixture.remove() }
        let glasses = try fixture.start(.glasses, name: "Ctl CLI Glasses")
        defer { glasses.stop() }
        let environment = ["XDG_RUNTIME_DIR": fixture.directory.path, "XDG_DATA_HOME": fixture.directory.path]

        // Format: the media count is 0 afterwards; while the glasses record, busy with code 5.
        try glasses.emulator.device.startRecording(video: true)
        let (busy, _, busyErr) = try await runAIBuds(["control", "--device", glasses.url, "storage", "format"], environment: environment)
        #expect(busy == 1 && busyErr.contains("device status code 5"), "\(busyErr)")
        _ = try glasses.emulator.device.stopRecording(video: true)
        let (format, formatOut, formatErr) = try await runAIBuds(
            ["control", "--device", glasses.url, "storage", "format", "--json"], environment: environment)
        #expect(format == 0, "\(formatErr)")
        let formatted = try json(formatOut)
        #expect((formatted["deleted"] as? Int ?? 0) > 0)
        #expect(formatted["photos"] as? Int == 0 && formatted["videos"] as? Int == 0 && formatted["audios"] as? Int == 0)
        #expect(glasses.emulator.device.store.counts().photos == 0)

        // Report phone found: the wearer asks, the app reports; reporting again is refused (7).
        try glasses.emulator.device.askForPhone()
        let (asked, askedOut, _) = try await runAIBuds(["control", "--device", glasses.url, "find", "--json"], environment: environment)
        let askedState = try json(askedOut)
        #expect(asked == 0 && askedState["finding_phone"] as? Bool == true)
        let (found, foundOut, foundErr) = try await runAIBuds(
            ["control", "--device", glasses.url, "find", "report-found", "--json"], environment: environment)
        #expect(found == 0, "\(foundErr)")
        let foundState = try json(foundOut)
        #expect(foundState["finding_phone"] as? Bool == false)
        let (again, _, againErr) = try await runAIBuds(["control", "--device", glasses.url, "find", "report-found"], environment: environment)
        #expect(again == 1 && againErr.contains("device status code 7"))

        // Navigation: a typed maneuver, an alert the glasses show, a name that is not one.
        let (show, _, showErr) = try await runAIBuds(
            ["control", "--device", glasses.url, "navigation", "show", "roundaboutEnter", "200", "Main", "Street"], environment: environment)
        #expect(show == 0, "\(showErr)")
        let (alert, alertOut, alertErr) = try await runAIBuds(
            ["control", "--device", glasses.url, "navigation", "alert", "speedCamera", "350", "--json"], environment: environment)
        #expect(alert == 0, "\(alertErr)")
        let shown = try json(alertOut)
        #expect(shown["alert_kind"] as? String == "speedCamera" && shown["alert_distance_m"] as? Int == 350)
        #expect(shown["maneuver"] as? String == "roundaboutEnter")
        let (teleport, _, _) = try await runAIBuds(
            ["control", "--device", glasses.url, "navigation", "show", "teleport", "1", "x"], environment: environment)
        #expect(teleport == 64)
        let (badAlert, _, _) = try await runAIBuds(["control", "--device", glasses.url, "navigation", "alert", "ufo"], environment: environment)
        #expect(badAlert == 64)
    }

    @Test func eventsPrintsEveryStateEventAsJSONLines() async throws {
        let fixture = try EmulatorFixture("cli-events")
        defer { fixture.remove() }
        let buds = try fixture.start(.earbuds, name: "Evt CLI Buds")
        defer { buds.stop() }
        let environment = ["XDG_RUNTIME_DIR": fixture.directory.path, "XDG_DATA_HOME": fixture.directory.path]
        let program = try RunningProgram(try aibudsExecutable(), ["events", "--device", buds.url, "--json"], environment: environment)
        defer { program.terminate() }

        // The wearer opens and closes the case until the listener, once connected, prints it.
        let first = Task { try await onOwnThread { program.readLine() } }
        let toggler = Task {
            var open = true
            while !Task.isCancelled {
                try? buds.emulator.device.setCaseOpen(open)
                open.toggle()
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        let line = try #require(try await first.value)
        toggler.cancel()
        #expect(try json(line)["event"] as? String == "tws")

        // Another client changes ANC: the listener prints it.
        let (status, _, errors) = try await runAIBuds(
            ["control", "--device", buds.url, "anc", "set", "on", "5"], environment: environment)
        #expect(status == 0, "\(errors)")
        var sawANC = false
        for _ in 0..<20 {
            guard let next = try await onOwnThread({ program.readLine() }) else { break }
            let event = try json(next)
            if event["event"] as? String == "anc" {
                #expect(event["mode"] as? String == "ancOn" && event["gain"] as? Int == 5)
                sawANC = true
                break
            }
        }
        #expect(sawANC)
        program.interrupt()
        let result = try await onOwnThread { program.finish() }
        #expect(result.status == 0, "\(result.err)")
    }

    @Test func theEmulatorRunsTheWearersScript() async throws {
        let fixture = try EmulatorFixture("cli-script")
        defer { fixture.remove() }
        let script = fixture.directory.appendingPathComponent("morning.txt")
        try writeTestFile(Data("0.2 battery left 30\n0.3 remove right\n".utf8), to: script)
        let environment = ["XDG_RUNTIME_DIR": fixture.directory.path, "XDG_DATA_HOME": fixture.directory.path]
        let (emulator, address) = try await RunningProgram.emulator(
            try aibudsExecutable(), ["--profile", "earbuds", "--name", "Script Buds", "--script", script.path], environment: environment)
        defer { emulator.terminate() }
        try await eventually("the expected state") {
            guard let (status, out, _) = try? await runAIBuds(["control", "--device", address, "tws", "--json"], environment: environment),
                status == 0, let object = try? json(out)
            else { return false }
            return object["left_battery"] as? Int == 30
        }
        let (status, out, _) = try await runAIBuds(["control", "--device", address, "wear", "--json"], environment: environment)
        #expect(status == 0)
        #expect(try json(out)["right"] as? String == "notWorn")

        let bad = fixture.directory.appendingPathComponent("bad.txt")
        try writeTestFile(Data("5 jump left\n".utf8), to: bad)
        let (refused, _, refusedErr) = try await runAIBuds(
            ["emulator", "--profile", "earbuds", "--listen", "127.0.0.1:0", "--script", bad.path], environment: environment)
        #expect(refused == 64 && refusedErr.contains("line 1"))
    }
}
