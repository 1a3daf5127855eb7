import AIBuds
import AIBudsFoundation
import Foundation

/// `aibuds media list`: the device's media files, over the control channel (no hotspot needed).
struct MediaListCommand: CLICommand {
    static let path = ["media", "list"]
    static let abstract = "List the media files on a device."
    static let help = """
        usage: aibuds media list --device D [--type image|audio|video] [--json]

        Lists the device's media files (name, type, size, six-axis data) over the control channel.

        options:
          --device D    the device: udp://HOST:PORT, or a name or MAC address from 'aibuds scan'
          --type T      only files of type image, audio or video
          --json        print JSON: {generation, files: [{id, name, type, size, sixaxis}]}
        """

    var device: String
    var type: MediaFileType?
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        device = try arguments.option("--device") ?? ""
        json = arguments.flag("--json")
        if let text = try arguments.option("--type") {
            guard let type = MediaFileType(name: text) else {
                throw CommandFailure.usage("--type takes image, audio or video, not '\(text)'")
            }
            self.type = type
        }
    }

    func validate() throws {
        if device.isEmpty { throw CommandFailure.usage("media list needs --device D") }
    }

    func run() async throws -> ExitCode {
        try await MediaDeviceConnection.using(device) { connection in try await run(connection) }
    }

    private func run(_ connection: MediaDeviceConnection) async throws -> ExitCode {
        let listing: DeviceMediaListing
        do {
            listing = try await connection.device.listMediaFiles(type: type)
        } catch {
            throw CommandFailure.failure("listing the media failed: \(AIBudsError.from(error).message)")
        }
        if json {
            struct Entry: Encodable { var id: String; var name: String; var type: String; var size: UInt64; var sixaxis: Bool }
            struct Document: Encodable { var generation: UInt64; var files: [Entry] }
            let document = Document(generation: listing.generation, files: listing.files.map {
                Entry(id: $0.id, name: $0.name, type: $0.type.name, size: $0.size, sixaxis: $0.hasSixAxisData)
            })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            CLI.sayJSON(try encoder.encode(document))
            return .ok
        }
        let names = listing.files.map { TerminalText.safe($0.name) }
        let width = min(60, names.map(\.count).max() ?? 4)
        CLI.say("NAME".padding(toLength: width, withPad: " ", startingAt: 0) + "  TYPE   " + "SIZE".leftPadded(10) + "  SIX-AXIS")
        for (file, safeName) in zip(listing.files, names) {
            let name = TerminalText.fit(safeName, width).padding(toLength: width, withPad: " ", startingAt: 0)
            let type = file.type.name.padding(toLength: 5, withPad: " ", startingAt: 0)
            CLI.say("\(name)  \(type)  \(TerminalText.bytes(file.size).leftPadded(10))  \(file.hasSixAxisData ? "yes" : "")")
        }
        let total = listing.files.saturatingSum(\.size)
        CLI.say("\(listing.files.count) files, \(TerminalText.bytes(total)) (list generation \(listing.generation))")
        return .ok
    }
}

extension MediaFileType {
    /// The command-line name: `image`, `audio`, `video` or `unknown`.
    var name: String {
        switch self {
        case .image: "image"
        case .audio: "audio"
        case .video: "video"
        case .unknown: "unknown"
        }
    }

    /// The type with command-line name `name`.
    init?(name: String) {
        guard let type = MediaFileType.allCases.first(where: { $0.name == name && $0 != .unknown }) else { return nil }
        self = type
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
