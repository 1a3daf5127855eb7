import AIBudsFoundation

/// What kind of device an emulator plays: its product, capabilities, storage and starting media.
public struct DeviceProfile: Sendable {
    /// The profiles the emulator offers.
    public enum Kind: String, Sendable, CaseIterable {
        /// AI glasses: photos, videos with six-axis sidecars, audio, camera, hotspot.
        case glasses
        /// Earbuds: audio recordings, no camera, no hotspot.
        case earbuds
        /// A watch: audio recordings over the control link only, no hotspot, no delete-all.
        case watch
    }

    /// The profile's kind.
    public var kind: Kind
    /// The product reported by Device `info`.
    public var product: DeviceProduct
    /// The model name.
    public var model: String
    /// The firmware version.
    public var firmware: String
    /// The capability names reported by Device `info`.
    public var capabilities: [String]
    /// Whether the device has a hotspot and HTTP data plane (Hotspot group).
    public var hasHotspot: Bool
    /// Whether the device takes photos and videos.
    public var hasCamera: Bool
    /// Whether the device records audio on command.
    public var hasAudioRecording: Bool
    /// Whether Media `delete all` is supported.
    public var supportsDeleteAll: Bool
    /// Storage capacity in bytes.
    public var capacity: UInt64
    /// The signal strength a scanner reports.
    public var rssi: Int
    /// The extension of new audio recordings.
    public var audioExtension: String
    /// Bytes per second of recorded audio.
    public var audioBytesPerSecond: UInt64
    /// Bytes per second of recorded video.
    public var videoBytesPerSecond: UInt64
    /// The size of a photo in bytes.
    public var photoSize: UInt64
    /// Whether recorded videos carry six-axis data.
    public var videosHaveSixAxis: Bool
    /// The languages the device offers; the first is the default.
    public var languages: [String]
    /// The files a device of this profile starts with when no `--media` or `--manifest` is given.
    public var defaultMedia: [MediaSeed]

    /// One of the built-in profiles, ``glasses``, ``earbuds`` or ``watch``, picked by `kind`.
    public static func named(_ kind: Kind) -> DeviceProfile {
        switch kind {
        case .glasses: return glasses
        case .earbuds: return earbuds
        case .watch: return watch
        }
    }

    /// AI glasses.
    public static let glasses = DeviceProfile(
        kind: .glasses, product: .glasses, model: "AIBuds Glasses G1", firmware: "2.4.1",
        capabilities: ["info", "common", "find", "findPhone", "workState", "hotspot", "mediaImport", "audioRecording", "audioRecording.ai", "aiAudio", "camera",
                       "physicalOperations", "remoteShutter", "apps", "serviceAuth", "voiceAssistant", "teleprompter",
                       "navigation", "ota", "cameraOta"],
        hasHotspot: true, hasCamera: true, hasAudioRecording: true, supportsDeleteAll: true,
        capacity: 32 << 30, rssi: -52, audioExtension: "m4a", audioBytesPerSecond: 16_000,
        videoBytesPerSecond: 1_500_000, photoSize: 2_400_000, videosHaveSixAxis: true,
        languages: ["en", "zh-CN", "zh-TW", "ja", "ko", "de", "fr", "es"],
        defaultMedia: [
            .generated("IMG_20260301_101500.jpg", type: .image, size: 2_306_112),
            .generated("IMG_20260301_101522.jpg", type: .image, size: 1_874_533),
            .generated("VID_20260301_102000.mp4", type: .video, size: 9_437_184, sixaxis: true),
            .generated("VID_20260301_103010.mp4", type: .video, size: 4_718_592, sixaxis: true),
            .generated("AUD_20260301_104000.m4a", type: .audio, size: 480_000),
        ])

    /// The "AIBuds Pro 3" earbuds: audio recording and media files over SMP, no hotspot and no
    /// camera, 1 GiB of storage.
    public static let earbuds = DeviceProfile(
        kind: .earbuds, product: .earbuds, model: "AIBuds Pro 3", firmware: "1.8.0",
        capabilities: ["info", "common", "find", "workState", "audioRecording", "aiAudio", "mediaFile", "mediaFile.deleteAll",
                       "workMode", "volume", "equalizer", "anc", "wearDetection", "tws", "musicControl",
                       "physicalOperations", "ota"],
        hasHotspot: false, hasCamera: false, hasAudioRecording: true, supportsDeleteAll: true,
        capacity: 1 << 30, rssi: -60, audioExtension: "opus", audioBytesPerSecond: 4_000,
        videoBytesPerSecond: 0, photoSize: 0, videosHaveSixAxis: false,
        languages: ["en", "zh-CN", "ja", "ko"],
        defaultMedia: [
            .generated("REC_20260301_080000.opus", type: .audio, size: 240_000),
            .generated("REC_20260301_083000.opus", type: .audio, size: 96_000),
            .generated("REC_20260301_090000.wav", type: .audio, size: 1_920_044),
        ])

    /// The "AIBuds Watch S2" watch: audio recording and media files over SMP, no hotspot, no camera
    /// and no delete-all, 4 GiB of storage.
    public static let watch = DeviceProfile(
        kind: .watch, product: .watch, model: "AIBuds Watch S2", firmware: "3.1.2",
        capabilities: ["info", "common", "find", "workState", "audioRecording", "mediaFile", "ota"],
        hasHotspot: false, hasCamera: false, hasAudioRecording: true, supportsDeleteAll: false,
        capacity: 4 << 30, rssi: -66, audioExtension: "opus", audioBytesPerSecond: 2_000,
        videoBytesPerSecond: 0, photoSize: 0, videosHaveSixAxis: false,
        languages: ["en", "zh-CN", "de", "fr", "es"],
        defaultMedia: [
            .generated("REC_20260301_071500.opus", type: .audio, size: 120_000),
            .generated("REC_20260301_120000.opus", type: .audio, size: 64_000),
            .generated("REC_20260301_183000.opus", type: .audio, size: 180_000),
        ])
}
