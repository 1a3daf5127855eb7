// Models of the device controls (earbuds pair state, media session, glasses services), project
// additions beside the vendor's enums in FeatureModels.swift.

/// The state of a true-wireless pair: whether the buds reach each other, their batteries and the case.
public struct TWSStatusModel: Sendable, Equatable, Codable {
    /// Whether the two buds are linked to each other.
    public let connectionState: TWSConnectionState
    /// The left bud's charge in percent.
    public let leftBattery: Int
    /// The right bud's charge in percent.
    public let rightBattery: Int
    /// The charging case's charge in percent.
    public let caseBattery: Int
    /// Whether the case lid is open.
    public let isCaseOpen: Bool

    /// Creates the pair's state from its link state, the three charges and the lid.
    public init(connectionState: TWSConnectionState, leftBattery: Int, rightBattery: Int, caseBattery: Int, isCaseOpen: Bool) {
        self.connectionState = connectionState
        self.leftBattery = leftBattery
        self.rightBattery = rightBattery
        self.caseBattery = caseBattery
        self.isCaseOpen = isCaseOpen
    }
}

/// Whether the device's media session plays.
public enum MediaPlaybackState: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: not reported yet, or a raw value this SDK does not define.
    case unknown = -1
    /// Nothing is queued or playback ended.
    case stopped = 0
    /// A track is playing.
    case playing = 1
    /// Playback is paused on a track.
    case paused = 2
    /// ``unknown``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
    public static var unknownCase: MediaPlaybackState { .unknown }
}

/// The media session that music control commands drive.
public struct MediaSessionModel: Sendable, Equatable, Codable {
    /// Playing, paused or stopped.
    public let state: MediaPlaybackState
    /// The current track's position in the queue, from 0.
    public let trackIndex: Int
    /// How many tracks the queue holds.
    public let trackCount: Int
    /// The current track's title.
    public let title: String

    /// Creates the session: playing, paused or stopped at a queue position, with its title.
    public init(state: MediaPlaybackState, trackIndex: Int, trackCount: Int, title: String) {
        self.state = state
        self.trackIndex = trackIndex
        self.trackCount = trackCount
        self.title = title
    }
}

/// An app installed on the device.
public struct DeviceAppModel: Sendable, Equatable, Codable {
    /// The identifier `DeviceAppsAPI`'s start and stop calls take.
    public let identifier: String
    /// The name the device shows.
    public let name: String
    /// Whether the app runs now.
    public let isRunning: Bool

    /// Creates the app `identifier` called `name`, running or not.
    public init(identifier: String, name: String, isRunning: Bool) {
        self.identifier = identifier
        self.name = name
        self.isRunning = isRunning
    }
}

/// Where the device's service authorization stands.
public enum ServiceAuthState: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: not reported yet, or a raw value this SDK does not define.
    case unknown = -1
    /// No authorization was attempted.
    case notAuthorized = 0
    /// The device is authorizing now.
    case authorizing = 1
    /// The services may be used.
    case authorized = 2
    /// The last authorization failed; retry it.
    case failed = 3
    /// ``unknown``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
    public static var unknownCase: ServiceAuthState { .unknown }
}

/// What the teleprompter shows.
public struct TeleprompterStateModel: Sendable, Equatable, Codable {
    /// Whether text is on the display.
    public let isOpen: Bool
    /// How many pages the device split the text into.
    public let pageCount: Int
    /// The page shown, from 0.
    public let page: Int
    /// How far that page is scrolled, in percent.
    public let position: Int

    /// Creates the state: open or not, showing `page` of `pageCount` scrolled to `position` percent.
    public init(isOpen: Bool, pageCount: Int, page: Int, position: Int) {
        self.isOpen = isOpen
        self.pageCount = pageCount
        self.page = page
        self.position = position
    }
}
