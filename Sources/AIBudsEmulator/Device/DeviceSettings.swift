import Foundation

/// The device settings that survive a restart when a state folder is given (`<state>/device.json`).
struct DeviceSettings: Codable, Equatable, Sendable {
    /// The UI language tag.
    var language: String
    /// Seconds added to the host clock to give the device clock.
    var clockOffset: Double = 0
    /// The longest audio recording, in seconds.
    var maxAudioSeconds: UInt64 = 600
    /// The longest video recording, in seconds.
    var maxVideoSeconds: UInt64 = 300
    /// The controls (audio settings, key mapping, services); nil in files of earlier versions and
    /// until first used, which means the profile's defaults.
    var controls: ControlState?

    static func load(from folder: URL?) throws(EmulatorError) -> DeviceSettings? {
        guard let url = folder?.appendingPathComponent("device.json"),
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        do {
            return try JSONDecoder().decode(DeviceSettings.self, from: Data(contentsOf: url))
        } catch {
            throw EmulatorError(.invalidState, "cannot read \(url.path)", underlying: error)
        }
    }

    func save(to folder: URL?) throws(EmulatorError) {
        guard let folder else { return }
        try AtomicFile.writeJSON(self, what: "the device settings", to: folder.appendingPathComponent("device.json"))
    }
}
