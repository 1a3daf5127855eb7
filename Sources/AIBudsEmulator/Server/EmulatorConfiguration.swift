import AIBudsNet
import Foundation

/// Everything that defines one emulator run, as `aibuds emulator` takes it on the command line.
public struct EmulatorConfiguration: Sendable, Equatable {
    /// The device profile.
    public var profile: DeviceProfile.Kind = .glasses
    /// Where SMP listens (default `127.0.0.1:1337`; port 0 picks a free port).
    public var listen = SocketAddress(host: "127.0.0.1", port: 1337)
    /// The device name (default: the profile's model name).
    public var name: String?
    /// A host folder whose files are the device's files.
    public var mediaFolder: URL?
    /// A manifest describing the device's files.
    public var manifest: URL?
    /// The device's files given directly (a program or test that builds its own set); when set,
    /// ``mediaFolder`` and ``manifest`` are not read.
    public var mediaSeeds: [MediaSeed]?
    /// A folder where deletions, uploads, recordings and settings persist across restarts.
    public var stateDirectory: URL?
    /// The link profile.
    public var link: LinkProfile = .unlimited
    /// The injected faults.
    public var faults = FaultConfiguration()
    /// Make a new audio recording this often (for the watch profile's "the wearer recorded").
    public var recordEvery: Duration?
    /// Start with the hotspot configured and open (transfer mode on).
    public var hotspotOpen = false
    /// The bearer token of the data plane (default: a random one per transfer session).
    public var token: String?
    /// Whether to write a discovery announcement.
    public var announce = true
    /// Whether the device hashes its files in the background so that its Media list carries
    /// their SHA-256 (docs/protocol.md §3); without it clients ask the File group per file.
    public var listsDigests = true
    /// The folder of discovery announcements (default: ``/AIBudsWire/DiscoveryAnnouncement/directory(environment:)``).
    public var discoveryDirectory: URL?

    /// The wearer's scenario (`--script FILE`), run from the start.
    public var script: WearerScript?
    /// The camera's lens profile (`--lens-profile FILE`, Gyroflow's JSON); nil serves the built-in one.
    public var lensProfile: Data?

    /// The file the microphone plays (WAV or Ogg/Opus) when an AI audio stream opens; nil: silence.
    public var microphoneFile: URL?
    /// Where the speaker writes what it played (a 16 kHz WAV file); nil: nowhere.
    public var speakerOut: URL?

    /// The default configuration: a glasses profile on `127.0.0.1:1337`.
    public init() {}

    /// The device name to use.
    public var deviceName: String { name ?? DeviceProfile.named(profile).model }

    /// Builds a configuration from command-line option values, checking each.
    ///
    /// - Throws: ``EmulatorError`` with code `invalidConfiguration` naming the bad option.
    public init(profile: String?, listen: String?, name: String?, media: String?, manifest: String?,
                state: String?, link: String?, faults: [String], recordEvery: String?, hotspotOpen: Bool,
                token: String?, listsDigests: Bool = true, script: String? = nil) throws(EmulatorError) {
        self.init()
        if let script { self.script = try WearerScript(contentsOf: URL(fileURLWithPath: script)) }
        self.listsDigests = listsDigests
        if let profile {
            guard let kind = DeviceProfile.Kind(rawValue: profile) else {
                throw Self.invalid("--profile must be glasses, earbuds or watch, not '\(profile)'")
            }
            self.profile = kind
        }
        if let listen {
            do { self.listen = try SocketAddress(parsing: listen) } catch {
                throw Self.invalid("--listen takes HOST:PORT with a numeric host, not '\(listen)'")
            }
        }
        if let name {
            guard !name.isEmpty, name.utf8.count <= 248 else { throw Self.invalid("--name must be 1 to 248 bytes") }
            self.name = name
        }
        guard media == nil || manifest == nil else { throw Self.invalid("give --media or --manifest, not both") }
        mediaFolder = media.map { URL(fileURLWithPath: $0, isDirectory: true) }
        self.manifest = manifest.map { URL(fileURLWithPath: $0) }
        stateDirectory = state.map { URL(fileURLWithPath: $0, isDirectory: true) }
        if let link {
            guard let profile = LinkProfile(rawValue: link) else {
                throw Self.invalid("--link must be ble, wifi or unlimited, not '\(link)'")
            }
            self.link = profile
        }
        self.faults = try FaultConfiguration.parse(faults)
        if let recordEvery {
            guard let seconds = Double(recordEvery), seconds >= 0.01, seconds <= 86_400 else {
                throw Self.invalid("--record-every takes seconds (0.01 to 86400), not '\(recordEvery)'")
            }
            self.recordEvery = .milliseconds(Int64(seconds * 1000))
        }
        self.hotspotOpen = hotspotOpen
        if let token {
            guard hotspotOpen else { throw Self.invalid("--token needs --hotspot-open") }
            guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw Self.invalid("--token must be printable ASCII without spaces")
            }
            self.token = token
        }
        if hotspotOpen, !DeviceProfile.named(self.profile).hasHotspot {
            throw Self.invalid("--hotspot-open needs a profile with a hotspot (glasses)")
        }
    }

    private static func invalid(_ message: String) -> EmulatorError {
        EmulatorError(.invalidConfiguration, message)
    }

    /// The device's starting files: ``mediaSeeds``, the media folder's, the manifest's, or the
    /// profile's default set.
    public func seeds() throws(EmulatorError) -> [MediaSeed] {
        if let mediaSeeds { return mediaSeeds }
        if let mediaFolder { return try MediaSources.scan(folder: mediaFolder) }
        if let manifest { return try MediaSources.load(manifest: manifest) }
        return DeviceProfile.named(profile).defaultMedia
    }
}
