import AIBuds
import AIBudsImport
import AIBudsFoundation
import Foundation

/// The device a media command works on, connected and ready.
struct MediaDeviceConnection {
    /// The device.
    var device: any MediaImportControlChannel & DeviceMediaFileImportAPI

    /// Connects to the device that `spec` names: `udp://HOST:PORT`, or a name or MAC address that a
    /// scan finds. Throws `CommandFailure.unavailable` (exit 69) when it cannot be reached, and a
    /// failure when it cannot import media (no hotspot).
    static func connect(_ spec: String) async throws -> MediaDeviceConnection {
        DeviceCommandSupport.initializeSDK()
        return try await connect(DeviceCommandSupport.find(spec), naming: spec)
    }

    /// Connects to a device a scan found; `name` names it in errors.
    static func connect(_ found: any FoundDeviceConvertible, naming name: String) async throws -> MediaDeviceConnection {
        let (_, media) = try await DeviceCommandSupport.connect(
            found, naming: name, as: (any MediaImportControlChannel & DeviceMediaFileImportAPI).self,
            lacking: "cannot import media over a hotspot")
        return MediaDeviceConnection(device: media)
    }

    /// Connects to `spec`, runs `body` with the connection, then disconnects (also when `body` throws).
    static func using<T>(_ spec: String, _ body: (MediaDeviceConnection) async throws -> T) async throws -> T {
        try await using(connect(spec), body)
    }

    /// Connects to a device a scan found (`name` names it in errors), runs `body` with the
    /// connection, then disconnects (also when `body` throws).
    static func using<T>(
        _ found: any FoundDeviceConvertible, naming name: String, _ body: (MediaDeviceConnection) async throws -> T
    ) async throws -> T {
        try await using(connect(found, naming: name), body)
    }

    private static func using<T>(
        _ connection: MediaDeviceConnection, _ body: (MediaDeviceConnection) async throws -> T
    ) async throws -> T {
        let result: Result<T, any Error>
        do { result = .success(try await body(connection)) } catch { result = .failure(error) }
        await connection.close()
        return try result.get()
    }

    /// Disconnects and waits until the link is closed.
    func close() async {
        await (device as? any DeviceConvertible)?.disconnectAndWait()
    }
}
