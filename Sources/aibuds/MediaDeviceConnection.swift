import AIBuds
import Foundation

/// The device a media command works on, connected and ready.
struct MediaDeviceConnection {
    /// The device.
    var device: any MediaImportControlChannel & DeviceMediaFileImportAPI

    /// Connects to the device that `spec` names: `udp://HOST:PORT`, or a name or MAC address that a
    /// scan finds. Throws `CommandFailure.unavailable` (exit 69) when it cannot be reached.
    static func connect(_ spec: String) async throws -> MediaDeviceConnection {
        // The SMP device class (AIBudsSMP) is not there yet; media commands are not registered
        // until it is.
        throw CommandFailure.unavailable("cannot reach \(spec): no link plugin is available yet")
    }

    /// Disconnects.
    func close() {}
}
