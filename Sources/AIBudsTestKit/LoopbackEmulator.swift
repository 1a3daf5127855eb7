import AIBudsEmulator
import AIBudsNet
import Foundation

/// A generated file for a test emulator's manifest.
public struct GeneratedFile: Sendable {
    /// The device file name.
    public var name: String
    /// `image`, `video` or `audio`.
    public var type: String
    /// The size in bytes.
    public var size: UInt64

    /// Describes a file of generated content.
    public init(_ name: String, type: String = "video", size: UInt64) {
        self.name = name
        self.type = type
        self.size = size
    }
}

/// A real emulator (UDP server and all) on a free loopback port, holding generated files, for
/// tests over real sockets. Stop it when done; its manifest folder is removed then.
public final class LoopbackEmulator: Sendable {
    /// The running emulator.
    public let emulator: Emulator
    /// Its SMP address.
    public let address: SocketAddress
    private let folder: URL

    /// Writes a manifest of `files`, starts an emulator of `profile` on `127.0.0.1:0` with `link`
    /// and `faults`, without a discovery announcement.
    public init(
        files: [GeneratedFile], profile: DeviceProfile.Kind = .glasses, link: LinkProfile = .unlimited,
        faults: FaultConfiguration = FaultConfiguration()
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-emulator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let manifest = folder.appendingPathComponent("manifest.json")
        let entries = files.map { ["name": $0.name, "type": $0.type, "size": $0.size] as [String: any Sendable] }
        try JSONSerialization.data(withJSONObject: ["files": entries]).write(to: manifest)
        var configuration = EmulatorConfiguration()
        configuration.profile = profile
        configuration.listen = SocketAddress(host: "127.0.0.1", port: 0)
        configuration.manifest = manifest
        configuration.link = link
        configuration.faults = faults
        configuration.announce = false
        do {
            emulator = try Emulator(configuration: configuration)
            address = try emulator.start()
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// The bytes of a device file, read from the emulator's store.
    public func content(of name: String) throws -> Data {
        let store = emulator.device.store
        guard let object = store.object(named: MediaFileName(name)) else {
            throw EmulatorError(.notFound, "no file named \(name)")
        }
        return try store.read(object, offset: 0, count: Int(object.size))
    }

    /// Stops the emulator and removes its manifest folder.
    public func stop() {
        emulator.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
