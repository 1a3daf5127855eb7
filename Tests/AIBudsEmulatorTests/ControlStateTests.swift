@testable import AIBudsEmulator
import AIBudsFoundation
import AIBudsTestKit
import AIBudsCBOR
import AIBudsWire
import Foundation
import Testing

/// The emulator's controls as firmware: limits, events, persistence, and the wearer's script, on a
/// manual clock.
@Suite struct ControlStateTests {
    private func kinds(_ device: EmulatedDevice, since: UInt64) -> [String] {
        device.events(since: since).events.map(\.kind)
    }

    @Test func limitsAreCheckedAndChangesRaiseEvents() throws {
        let harness = try DeviceHarness(profile: .earbuds)
        let device = harness.device
        let start = device.events(since: 0).seq
        #expect(throws: EmulatorError.self) { try device.writeSetting(DeviceSettingName.volume, ["level": 17]) }
        #expect(throws: EmulatorError.self) { try device.writeSetting(DeviceSettingName.anc, ["mode": 0, "gain": 2]) }
        #expect(throws: EmulatorError.self) { try device.writeSetting(DeviceSettingName.anc, ["mode": 1, "fade": 3_001]) }
        #expect(throws: EmulatorError.self) { try device.writeSetting(DeviceSettingName.equalizer, ["mode": 9]) }
        #expect(throws: EmulatorError.self) { try device.writeSetting(DeviceSettingName.keys, ["keys": [["op": 7, "fn": 1]]]) }
        #expect(throws: EmulatorError.self) { try device.writeSetting(DeviceSettingName.tws, ["state": 0]) }
        #expect(throws: EmulatorError.self) { try device.writeSetting(DeviceSettingName.teleprompter, [:]) }
        #expect(kinds(device, since: start).isEmpty)
        _ = try device.writeSetting(DeviceSettingName.volume, ["level": 16])
        _ = try device.writeSetting(DeviceSettingName.volume, ["level": 16])
        #expect(kinds(device, since: start) == [DeviceSettingName.volume])
        _ = try device.performAction(DeviceActionName.music, ["command": 4])
        #expect(kinds(device, since: start) == [DeviceSettingName.volume])
    }

    @Test func aSettingTheProfileLacksIsNotSupported() throws {
        let watch = try DeviceHarness(profile: .watch).device
        let error = #expect(throws: EmulatorError.self) { try watch.setting(DeviceSettingName.anc) }
        #expect(error?.code == .notSupported)
        let buds = try DeviceHarness(profile: .earbuds).device
        let teleprompter = #expect(throws: EmulatorError.self) {
            try buds.performAction(DeviceActionName.teleprompterText, ["text": "hello"])
        }
        #expect(teleprompter?.code == .notSupported)
    }

    @Test func settingsPersistInTheStateFolder() throws {
        let folder = try TemporaryFolder("controls")
        defer { folder.remove() }
        let first = try DeviceHarness(profile: .earbuds, stateDirectory: folder.url).device
        _ = try first.writeSetting(DeviceSettingName.anc, ["mode": 2, "gain": 9])
        _ = try first.writeSetting(DeviceSettingName.wear, ["enabled": false])
        let second = try DeviceHarness(profile: .earbuds, stateDirectory: folder.url).device
        let anc = try CBORDecoder().decode(ANCSetting.self, from: try second.setting(DeviceSettingName.anc))
        #expect(anc == ANCSetting(mode: 2, gain: 9, fade: 300))
        let wear = try CBORDecoder().decode(WearSetting.self, from: try second.setting(DeviceSettingName.wear))
        #expect(!wear.enabled && wear.status == WearStatus.unknown.rawValue)
        // A client of an earlier run gets the current value of every setting at once.
        let snapshot = second.events(since: 9_999).events.map(\.kind)
        #expect(snapshot.contains(DeviceSettingName.anc) && snapshot.contains(DeviceSettingName.tws))
    }

    @Test func theWearersScriptRunsOnTheDeviceClock() throws {
        let harness = try DeviceHarness(profile: .earbuds)
        let device = harness.device
        let script = try WearerScript(parsing: """
            # a morning run
            0.5  insert left
            5    remove left     # takes the left bud out
            8    press right doubleTap
            9s   battery left -30
            10   case open
            12   tws unlinked
            1500ms wake Hey Buds
            """)
        #expect(script.steps.count == 7)
        _ = try device.performAction(DeviceActionName.music, ["command": 0])
        let start = device.events(since: 0).seq
        device.run(script)
        harness.clock.advance(by: .seconds(6))
        let wear = try CBORDecoder().decode(WearSetting.self, from: try device.setting(DeviceSettingName.wear))
        #expect(wear.left == WearStatus.notWorn.rawValue && wear.status == WearStatus.worn.rawValue)
        harness.clock.advance(by: .seconds(7))
        let tws = try CBORDecoder().decode(TWSSetting.self, from: try device.setting(DeviceSettingName.tws))
        #expect(tws.leftBattery == 62 && tws.caseOpen && tws.state == TWSConnectionState.disconnected.rawValue)
        let media = try CBORDecoder().decode(MediaSessionSetting.self, from: try device.setting(DeviceSettingName.media))
        #expect(media.track == 1)
        let seen = kinds(device, since: start)
        #expect(seen.contains(DeviceGestureEventKind.keyPress) && seen.contains(DeviceGestureEventKind.wakeWord))
        #expect(device.battery().level == 62)

        #expect(throws: EmulatorError.self) { try WearerScript(parsing: "5 jump left") }
        let bad = #expect(throws: EmulatorError.self) { try WearerScript(parsing: "1 case open\nsoon remove left") }
        #expect(bad?.message.contains("line 2") == true)
    }
}
