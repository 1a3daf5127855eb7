import AIBudsFoundation
import AIBudsWire

extension MediaFileType {
    /// The media type a device file name's extension implies: jpg/jpeg/png are images, mp4/mov
    /// videos, wav/opus/m4a/mp3 audio; nil for anything else.
    public static func emulatorType(ofFileNamed name: MediaFileName) -> MediaFileType? {
        switch name.pathExtension {
        case "jpg", "jpeg", "png": return .image
        case "mp4", "mov": return .video
        case "wav", "opus", "m4a", "mp3": return .audio
        default: return nil
        }
    }

    /// Parses a manifest type: "image"/"photo", "video", "audio", or the raw value 1, 2, 3.
    init?(manifestName: String) {
        switch manifestName.lowercased() {
        case "image", "photo", "1": self = .image
        case "audio", "2": self = .audio
        case "video", "3": self = .video
        default: return nil
        }
    }
}

/// The extension of a six-axis sidecar file (Gyroflow's `.gcsv` text format).
let sixAxisSidecarExtension = "gcsv"
