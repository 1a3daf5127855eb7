// Models of the capability protocols that are declared but not implemented over the wire yet.

/// Active noise cancellation mode.
public enum AncMode: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Not known.
    case unknown = -1
    /// Noise cancellation off.
    case off = 0
    /// Noise cancellation on.
    case ancOn = 1
    /// Transparency (ambient sound) mode.
    case transparency = 2
    /// ``unknown``.
    public static var unknownCase: AncMode { .unknown }
}

/// Equalizer preset.
public enum EqualizerMode: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Not known.
    case unknown = -1
    /// Flat response.
    case normal = 0
    /// Bass boost.
    case bassBoost = 1
    /// Vocal emphasis.
    case vocal = 2
    /// Classical.
    case classical = 3
    /// Rock.
    case rock = 4
    /// A user-defined curve.
    case custom = 5
    /// ``unknown``.
    public static var unknownCase: EqualizerMode { .unknown }
}

/// Work mode of an audio device.
public enum WorkMode: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Not known.
    case unknown = -1
    /// Normal mode.
    case normal = 0
    /// Low-latency (gaming) mode.
    case lowLatency = 1
    /// ``unknown``.
    public static var unknownCase: WorkMode { .unknown }
}

/// Whether the device is being worn.
public enum WearStatus: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Not known.
    case unknown = -1
    /// Not worn.
    case notWorn = 0
    /// Worn.
    case worn = 1
    /// ``unknown``.
    public static var unknownCase: WearStatus { .unknown }
}

/// Connection state between the two earbuds of a TWS pair.
public enum TWSConnectionState: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Not known.
    case unknown = -1
    /// The earbuds are not connected to each other.
    case disconnected = 0
    /// The earbuds are connected to each other.
    case connected = 1
    /// ``unknown``.
    public static var unknownCase: TWSConnectionState { .unknown }
}

/// A music playback command.
public enum MusicControlCommand: Int, Sendable, Codable, CaseIterable {
    /// Start playback.
    case play = 0
    /// Pause playback.
    case pause = 1
    /// Next track.
    case next = 2
    /// Previous track.
    case previous = 3
    /// Volume up one step.
    case volumeUp = 4
    /// Volume down one step.
    case volumeDown = 5
}

/// How the camera takes a photo.
public enum PhotoCaptureMode: Int, Sendable, Codable, CaseIterable {
    /// A single photo.
    case single = 0
    /// A burst of photos.
    case burst = 1
    /// A photo for an AI request.
    case ai = 2
}

/// A physical operation on the device (a tap or a press).
public enum PhysicalOperation: Int, Sendable, Codable, CaseIterable {
    /// A single tap.
    case singleTap = 0
    /// A double tap.
    case doubleTap = 1
    /// A triple tap.
    case tripleTap = 2
    /// A long press.
    case longPress = 3
}

/// A function a physical operation can trigger.
public enum PhysicalOperationFunction: Int, Sendable, Codable, CaseIterable {
    /// Nothing.
    case none = 0
    /// Play or pause.
    case playPause = 1
    /// Next track.
    case nextTrack = 2
    /// Previous track.
    case previousTrack = 3
    /// Take a photo.
    case takePhoto = 4
    /// Start or stop video recording.
    case toggleVideoRecording = 5
    /// Start the voice assistant.
    case voiceAssistant = 6
}

/// A turn-by-turn navigation instruction.
public struct NavigationInstruction: Sendable, Codable, Hashable {
    /// The maneuver, for example `turnLeft`.
    public var maneuver: String
    /// Metres to the maneuver.
    public var distanceInMeters: Int
    /// The road or text to show.
    public var text: String

    /// Creates an instruction.
    public init(maneuver: String, distanceInMeters: Int, text: String) {
        self.maneuver = maneuver
        self.distanceInMeters = distanceInMeters
        self.text = text
    }
}
