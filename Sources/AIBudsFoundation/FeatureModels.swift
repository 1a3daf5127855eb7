// Models of the capability protocols that are declared but not implemented over the wire yet.

/// Active noise cancellation mode.
public enum AncMode: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: not reported yet, or a raw value this SDK does not define.
    case unknown = -1
    /// Noise cancellation off.
    case off = 0
    /// Noise cancellation on.
    case ancOn = 1
    /// Transparency (ambient sound) mode.
    case transparency = 2
    /// ``unknown``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
    public static var unknownCase: AncMode { .unknown }
}

/// Equalizer preset.
public enum EqualizerMode: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: not reported yet, or a raw value this SDK does not define.
    case unknown = -1
    /// Flat response.
    case normal = 0
    /// Raw value 1: low frequencies raised.
    case bassBoost = 1
    /// Vocal emphasis.
    case vocal = 2
    // docs: the vendor's genre presets, named by genre
    case classical = 3
    case rock = 4
    /// A user-defined curve.
    case custom = 5
    /// ``unknown``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
    public static var unknownCase: EqualizerMode { .unknown }
}

/// Work mode of an audio device.
public enum WorkMode: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: not reported yet, or a raw value this SDK does not define.
    case unknown = -1
    /// Raw value 0: the usual mode, latency not minimized.
    case normal = 0
    /// Low-latency (gaming) mode.
    case lowLatency = 1
    /// ``unknown``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
    public static var unknownCase: WorkMode { .unknown }
}

/// Whether the device is being worn.
public enum WearStatus: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: not reported yet, or a raw value this SDK does not define.
    case unknown = -1
    // docs: cases say whether the device is on the wearer (raw values 0 and 1)
    case notWorn = 0
    case worn = 1
    /// ``unknown``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
    public static var unknownCase: WearStatus { .unknown }
}

/// Connection state between the two earbuds of a TWS pair.
public enum TWSConnectionState: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: not reported yet, or a raw value this SDK does not define.
    case unknown = -1
    /// The earbuds are not connected to each other.
    case disconnected = 0
    /// The earbuds are connected to each other.
    case connected = 1
    /// ``unknown``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
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
    /// Raw value 0: one photo per request, what the device takes when no mode is given.
    case single = 0
    /// Raw value 1: several photos in quick succession per request.
    case burst = 1
    /// A photo for an AI request.
    case ai = 2
}

/// A physical operation on the device (a tap or a press).
public enum PhysicalOperation: Int, Sendable, Codable, CaseIterable {
    // docs: the vendor's gestures, named by gesture, raw values 0-3
    case singleTap = 0
    case doubleTap = 1
    case tripleTap = 2
    case longPress = 3
}

/// A function a physical operation can trigger.
public enum PhysicalOperationFunction: Int, Sendable, Codable, CaseIterable {
    /// Raw value 0: the operation triggers no function.
    case none = 0
    // docs: the vendor's functions, each named by what it does
    case playPause = 1
    case nextTrack = 2
    case previousTrack = 3
    case takePhoto = 4
    /// Start or stop video recording.
    case toggleVideoRecording = 5
    /// Start the voice assistant.
    case voiceAssistant = 6
}

/// A turn-by-turn navigation instruction.
public struct NavigationInstruction: Sendable, Codable, Hashable {
    /// What to do at the next point of the route.
    public var maneuver: NavigationManeuver
    /// Metres to the maneuver.
    public var distanceInMeters: Int
    /// The road or text to show.
    public var text: String

    /// Creates the instruction to do `maneuver` in `distanceInMeters` metres, with `text` (a road
    /// name, say) to show.
    public init(maneuver: NavigationManeuver, distanceInMeters: Int, text: String) {
        self.maneuver = maneuver
        self.distanceInMeters = distanceInMeters
        self.text = text
    }
}

/// A set of names sent as text on the wire, with a case for the names a newer device may send.
public protocol WireNamed: RawRepresentable<String> {
    /// The case of a name this SDK does not know; never sent.
    static var unknown: Self { get }
}

extension WireNamed {
    /// The case named `name` on the wire; ``unknown`` for a name this SDK does not know.
    public init(wireName name: String) {
        self = Self(rawValue: name) ?? .unknown
    }
}

/// The maneuvers a navigation instruction shows; the raw value is the wire's name
/// (docs/protocol.md, `navigation.show`).
public enum NavigationManeuver: String, Sendable, Codable, Hashable, CaseIterable, WireNamed {
    /// A name this SDK does not know (a newer device's); never sent.
    case unknown
    /// Start of the route.
    case depart
    /// Go straight on.
    case straight
    /// Turn left (about 90°).
    case turnLeft
    /// Turn right (about 90°).
    case turnRight
    /// Bear left (about 45°).
    case slightLeft
    /// Bear right (about 45°).
    case slightRight
    /// Turn sharply left (about 135°).
    case sharpLeft
    /// Turn sharply right (about 135°).
    case sharpRight
    /// Keep left at a fork.
    case keepLeft
    /// Keep right at a fork.
    case keepRight
    /// Turn back, turning left.
    case uTurnLeft
    /// Turn back, turning right.
    case uTurnRight
    /// Drive into the roundabout (its exit follows as ``roundaboutExit``).
    case roundaboutEnter
    /// Leave the roundabout.
    case roundaboutExit
    /// Merge into the traffic.
    case merge
    /// Take the ramp on the left.
    case rampLeft
    /// Take the ramp on the right.
    case rampRight
    /// Board the ferry.
    case ferry
    /// The destination is reached.
    case arrive
}

/// What a navigation alert warns of; the raw value is the wire's name (`navigation.alert`).
public enum NavigationAlertKind: String, Sendable, Codable, Hashable, CaseIterable, WireNamed {
    /// A name this SDK does not know (a newer device's); never sent.
    case unknown
    /// A speed camera ahead.
    case speedCamera
    /// The speed limit changes ahead.
    case speedLimit
    /// Slow or standing traffic ahead.
    case trafficJam
    /// An accident ahead.
    case accident
    /// Road works ahead.
    case roadworks
    /// A hazard on the road (an object, a broken-down vehicle, ice).
    case hazard
    /// The road ahead is closed.
    case roadClosed
    /// The route was planned again (the wearer left it).
    case rerouting
    /// The destination is near.
    case arrivingSoon
}

/// A navigation alert on the device's display: what it warns of and, when it has a place, how far
/// ahead.
public struct NavigationAlert: Sendable, Codable, Hashable {
    /// What the alert warns of.
    public var kind: NavigationAlertKind
    /// Metres to it; nil for an alert without a place (rerouting).
    public var distanceInMeters: Int?

    /// Creates the alert `kind`, `distanceInMeters` metres ahead when given.
    public init(kind: NavigationAlertKind, distanceInMeters: Int? = nil) {
        self.kind = kind
        self.distanceInMeters = distanceInMeters
    }
}
