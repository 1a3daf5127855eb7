// Value maps of the glasses' service settings and of the actions' arguments (docs/protocol.md §3,
// "Controls").

/// An app installed on the glasses, as ``AppsSetting`` lists it: identifier, name, running.
public struct DeviceAppEntry: Codable, Sendable, Equatable {
    /// The app's stable identifier (`camera`, `translate`, ...).
    public var id: String
    /// The app's display name.
    public var name: String
    /// Whether the app runs now.
    public var running: Bool
    /// Creates the entry of app `id` called `name`, `running` or not.
    public init(id: String, name: String, running: Bool) {
        self.id = id
        self.name = name
        self.running = running
    }
}

/// `apps`: `{apps: [{id, name, running}]}`.
public struct AppsSetting: Codable, Sendable, Equatable {
    /// The apps installed on the device, in the device's order.
    public var apps: [DeviceAppEntry]
    /// Creates the value listing `apps`.
    public init(apps: [DeviceAppEntry]) { self.apps = apps }
}

/// `serviceAuth`: `{state: int, attempts: uint}`.
public struct ServiceAuthSetting: Codable, Sendable, Equatable {
    /// Not authorized 0, authorizing 1, authorized 2, failed 3.
    public var state: Int
    /// How many authorizations the device has attempted since it started.
    public var attempts: UInt64
    /// Creates the value in `state` after `attempts` attempts.
    public init(state: Int, attempts: UInt64) {
        self.state = state
        self.attempts = attempts
    }
}

/// `teleprompter`: `{open: bool, pages: uint, page: uint, position: uint}`.
public struct TeleprompterSetting: Codable, Sendable, Equatable {
    /// Whether text is on the display.
    public var open: Bool
    /// How many pages the text was split into.
    public var pages: UInt64
    /// The page shown, from 0.
    public var page: UInt64
    /// How far the page is scrolled, in percent.
    public var position: UInt64
    /// Creates the value: `open`, showing `page` of `pages` scrolled to `position` percent.
    public init(open: Bool, pages: UInt64, page: UInt64, position: UInt64) {
        self.open = open
        self.pages = pages
        self.page = page
        self.position = position
    }
}

/// `navigation`: `{active: bool, maneuver?: text, distance?: uint, street?: text}`; also the
/// arguments of `navigation.show`.
public struct NavigationSetting: Codable, Sendable, Equatable {
    /// Whether an instruction is on the display (absent in `navigation.show`).
    public var active: Bool?
    /// The maneuver, for example `turnLeft`.
    public var maneuver: String?
    /// Metres to the maneuver.
    public var distance: UInt64?
    /// The street or text shown with it.
    public var street: String?
    /// Creates the value of an instruction to do `maneuver` in `distance` metres on `street`.
    public init(active: Bool? = nil, maneuver: String? = nil, distance: UInt64? = nil, street: String? = nil) {
        self.active = active
        self.maneuver = maneuver
        self.distance = distance
        self.street = street
    }
}

/// `navigationAlert`: `{active: bool, kind?: text, distance?: uint}`; also the arguments of
/// `navigation.alert` (without `active`).
public struct NavigationAlertSetting: Codable, Sendable, Equatable {
    /// Whether an alert is on the display (absent in `navigation.alert`).
    public var active: Bool?
    /// The alert, a `NavigationAlertKind` raw value (`speedCamera`, `trafficJam`, ...).
    public var kind: String?
    /// Metres to what the alert is about, when it has a place.
    public var distance: UInt64?
    /// Creates the value of alert `kind`, `distance` metres ahead when given.
    public init(active: Bool? = nil, kind: String? = nil, distance: UInt64? = nil) {
        self.active = active
        self.kind = kind
        self.distance = distance
    }
}

/// `findPhone`: `{searching: bool}`.
public struct FindPhoneSetting: Codable, Sendable, Equatable {
    /// Whether the wearer asked the glasses to find the phone and it is not found yet.
    public var searching: Bool
    /// Creates the value: a search runs (`searching`) or not.
    public init(searching: Bool) { self.searching = searching }
}

/// `camera`: `{firmware: text}`.
public struct CameraSetting: Codable, Sendable, Equatable {
    /// The camera module's own firmware version.
    public var firmware: String
    /// Creates the value reporting camera firmware `firmware`.
    public init(firmware: String) { self.firmware = firmware }
}

/// Arguments of `music`: `{command: int}`.
public struct MusicActionArgs: Codable, Sendable, Equatable {
    /// The `MusicControlCommand` raw value.
    public var command: Int
    /// Creates the arguments of music command `command`.
    public init(command: Int) { self.command = command }
}

/// Arguments of `app.start` and `app.stop`: `{id: text}`.
public struct AppActionArgs: Codable, Sendable, Equatable {
    /// The app's identifier, as ``DeviceAppEntry/id``.
    public var id: String
    /// Creates the arguments naming app `id`.
    public init(id: String) { self.id = id }
}

/// Arguments of `auth.report`: `{success: bool}`.
public struct AuthReportArgs: Codable, Sendable, Equatable {
    /// Whether the app's authorization succeeded.
    public var success: Bool
    /// Creates the arguments reporting `success`.
    public init(success: Bool) { self.success = success }
}

/// Arguments of `teleprompter.text`: `{text: text}`.
public struct TeleprompterTextArgs: Codable, Sendable, Equatable {
    /// The whole text; the device splits it into pages.
    public var text: String
    /// Creates the arguments carrying `text`.
    public init(text: String) { self.text = text }
}

/// Arguments of `teleprompter.scroll`: `{page?: uint, position: uint}`.
public struct TeleprompterScrollArgs: Codable, Sendable, Equatable {
    /// The page to show (absent: the current one).
    public var page: UInt64?
    /// How far to scroll it, in percent (0–100).
    public var position: UInt64
    /// Creates the arguments scrolling `page` to `position` percent.
    public init(page: UInt64? = nil, position: UInt64) {
        self.page = page
        self.position = position
    }
}

/// The value of a `keyPress` event: `{side: text, op: int}`.
public struct KeyPressEvent: Codable, Sendable, Equatable {
    /// `left`, `right` or `device`.
    public var side: String
    /// The `PhysicalOperation` raw value.
    public var op: Int
    /// Creates the event of operation `op` on `side`.
    public init(side: String, op: Int) {
        self.side = side
        self.op = op
    }
}

/// The value of a `wakeWord` event: `{word: text}`.
public struct WakeWordEvent: Codable, Sendable, Equatable {
    /// The wake word heard.
    public var word: String
    /// Creates the event reporting that the assistant heard `word`.
    public init(word: String) { self.word = word }
}

/// The value of a `deleteProgress` event: `{deleted: uint, total: uint}`.
public struct DeleteProgressEvent: Codable, Sendable, Equatable {
    /// How many files are deleted so far.
    public var deleted: UInt64
    /// How many the deletion removes in all.
    public var total: UInt64
    /// Creates the event of `deleted` files out of `total`.
    public init(deleted: UInt64, total: UInt64) {
        self.deleted = deleted
        self.total = total
    }
}
