// Value maps of the audio settings (docs/protocol.md §3, "Controls").

/// `workMode`: `{mode: int}`, a `WorkMode` raw value (normal 0, low latency 1).
public struct WorkModeSetting: Codable, Sendable, Equatable {
    /// The `WorkMode` raw value.
    public var mode: Int
    /// Creates the value holding work mode raw value `mode`.
    public init(mode: Int) { self.mode = mode }
}

/// `volume`: `{level: uint, max: uint}`; a write sends `level` only.
public struct VolumeSetting: Codable, Sendable, Equatable {
    /// The media volume step, 0 to `max`.
    public var level: UInt64
    /// The highest step the device takes (absent in writes).
    public var max: UInt64?
    /// Creates the value of volume step `level` out of `max`.
    public init(level: UInt64, max: UInt64? = nil) {
        self.level = level
        self.max = max
    }
}

/// `equalizer`: `{mode: int, bands?: [int], band_min?: int, band_max?: int}`.
public struct EqualizerSetting: Codable, Sendable, Equatable {
    /// The `EqualizerMode` raw value.
    public var mode: Int
    /// The custom curve's gain per band in dB, lowest band first (the device's band count).
    public var bands: [Int]?
    /// The lowest gain a band takes, in dB (read only).
    public var bandMin: Int?
    /// The highest gain a band takes, in dB (read only).
    public var bandMax: Int?

    /// The wire names of the fields.
    enum CodingKeys: String, CodingKey {
        case mode, bands
        case bandMin = "band_min"
        case bandMax = "band_max"
    }

    /// Creates the value of preset `mode` with the custom curve `bands` and the band limits.
    public init(mode: Int, bands: [Int]? = nil, bandMin: Int? = nil, bandMax: Int? = nil) {
        self.mode = mode
        self.bands = bands
        self.bandMin = bandMin
        self.bandMax = bandMax
    }
}

/// `anc`: `{mode: int, gain?: uint, fade?: uint}`.
public struct ANCSetting: Codable, Sendable, Equatable {
    /// The `AncMode` raw value (off 0, on 1, transparency 2).
    public var mode: Int
    /// The depth of cancellation (on) or the ambient level (transparency), 0–10; absent when off.
    public var gain: UInt64?
    /// How long a mode switch fades, in milliseconds, 0–3,000; absent when off.
    public var fade: UInt64?
    /// Creates the map of an ANC mode with its depth and switch duration (both absent when off).
    public init(mode: Int, gain: UInt64? = nil, fade: UInt64? = nil) {
        self.mode = mode
        self.gain = gain
        self.fade = fade
    }
}

/// `wear`: `{enabled: bool, status?: int, left?: int, right?: int}`; a write sends `enabled` only.
public struct WearSetting: Codable, Sendable, Equatable {
    /// Whether the device senses being worn.
    public var enabled: Bool
    /// The `WearStatus` raw value of the device as a whole (worn when any bud is in an ear).
    public var status: Int?
    /// The left bud's `WearStatus` raw value.
    public var left: Int?
    /// The right bud's `WearStatus` raw value.
    public var right: Int?
    /// Creates the value: detection `enabled`, and the wear statuses when reported.
    public init(enabled: Bool, status: Int? = nil, left: Int? = nil, right: Int? = nil) {
        self.enabled = enabled
        self.status = status
        self.left = left
        self.right = right
    }
}

/// `tws`: `{state: int, left_battery: uint, right_battery: uint, case_battery: uint, case_open: bool}`.
public struct TWSSetting: Codable, Sendable, Equatable {
    /// The `TWSConnectionState` raw value: whether the buds are linked to each other.
    public var state: Int
    /// The left bud's charge in percent.
    public var leftBattery: UInt64
    /// The right bud's charge in percent.
    public var rightBattery: UInt64
    /// The charging case's charge in percent.
    public var caseBattery: UInt64
    /// Whether the case lid is open.
    public var caseOpen: Bool

    /// The wire names of the fields.
    enum CodingKeys: String, CodingKey {
        case state
        case leftBattery = "left_battery"
        case rightBattery = "right_battery"
        case caseBattery = "case_battery"
        case caseOpen = "case_open"
    }

    /// Creates the value of the pair's link `state`, the three batteries and the lid.
    public init(state: Int, leftBattery: UInt64, rightBattery: UInt64, caseBattery: UInt64, caseOpen: Bool) {
        self.state = state
        self.leftBattery = leftBattery
        self.rightBattery = rightBattery
        self.caseBattery = caseBattery
        self.caseOpen = caseOpen
    }
}

/// `media`: `{state: int, track: uint, tracks: uint, title: text}`.
public struct MediaSessionSetting: Codable, Sendable, Equatable {
    /// Stopped 0, playing 1, paused 2.
    public var state: Int
    /// The current track's position in the play queue, from 0.
    public var track: UInt64
    /// How many tracks the queue holds.
    public var tracks: UInt64
    /// The current track's title.
    public var title: String
    /// Creates the map of a session playing, paused or stopped at a queue position, with its title.
    public init(state: Int, track: UInt64, tracks: UInt64, title: String) {
        self.state = state
        self.track = track
        self.tracks = tracks
        self.title = title
    }
}

/// One entry of ``KeysSetting``.
public struct KeyAssignment: Codable, Sendable, Equatable, Hashable {
    /// The `PhysicalOperation` raw value (single tap 0 ... long press 3).
    public var op: Int
    /// The `PhysicalOperationFunction` raw value it triggers.
    public var fn: Int
    /// Creates the entry making operation `op` trigger function `fn`.
    public init(op: Int, fn: Int) {
        self.op = op
        self.fn = fn
    }
}

/// `keys`: `{keys: [{op: int, fn: int}]}`; a write changes the operations it lists.
public struct KeysSetting: Codable, Sendable, Equatable {
    /// Each operation's function.
    public var keys: [KeyAssignment]
    /// Creates the value listing `keys`.
    public init(keys: [KeyAssignment]) { self.keys = keys }
}

/// `shutter`, `voiceAssistant`: `{enabled: bool}`.
public struct EnabledSetting: Codable, Sendable, Equatable {
    /// Whether the feature is on.
    public var enabled: Bool
    /// Creates the value with the feature on when `enabled`.
    public init(enabled: Bool) { self.enabled = enabled }
}
