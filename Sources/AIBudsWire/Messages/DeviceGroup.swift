import AIBudsCBOR
import Foundation

// Messages of the project Device group (64). See docs/protocol.md.

/// Device info: identity, firmware, capabilities and MTU.
public typealias DeviceInfoRequest = SMPEmptyRequest<SMPCommand.DeviceInfo, DeviceInfoResponse>

/// The answer to ``DeviceInfoRequest``.
public struct DeviceInfoResponse: Codable, Sendable, Equatable {
    /// The device's user-visible name.
    public var name: String
    /// The `DeviceProduct` raw value (glasses 2, earbuds 4, watch 0).
    public var product: Int
    /// The model name.
    public var model: String
    /// The serial number.
    public var serial: String
    /// The firmware version.
    public var firmware: String
    /// The MAC address as text.
    public var mac: String
    /// The capability protocols supported (`info`, `common`, `find`, `workState`, `hotspot`, `mediaImport`, `audioRecording`, `camera`, `mediaFile`, ...).
    public var capabilities: [String]
    /// The largest SMP packet the device takes.
    public var mtu: UInt64

    /// Creates the answer describing the device (identity, firmware, capabilities, MTU), as the
    /// emulator sends it.
    public init(name: String, product: Int, model: String, serial: String, firmware: String, mac: String, capabilities: [String], mtu: UInt64) {
        self.name = name
        self.product = product
        self.model = model
        self.serial = serial
        self.firmware = firmware
        self.mac = mac
        self.capabilities = capabilities
        self.mtu = mtu
    }
}

/// Device battery level and charging state.
public typealias DeviceBatteryRequest = SMPEmptyRequest<SMPCommand.DeviceBattery, DeviceBatteryResponse>

/// The answer to ``DeviceBatteryRequest``.
public struct DeviceBatteryResponse: Codable, Sendable, Equatable {
    /// The charge in percent, 0–100.
    public var level: UInt64
    /// Whether the device is charging.
    public var charging: Bool

    /// Creates the answer with the charge in percent and whether the device charges, as the
    /// emulator sends it.
    public init(level: UInt64, charging: Bool) {
        self.level = level
        self.charging = charging
    }
}

/// Device storage use.
public typealias DeviceStorageRequest = SMPEmptyRequest<SMPCommand.DeviceStorage, DeviceStorageResponse>

/// The answer to ``DeviceStorageRequest``.
public struct DeviceStorageResponse: Codable, Sendable, Equatable {
    /// Megabytes used.
    public var usedMB: UInt64
    /// Megabytes free.
    public var freeMB: UInt64

    /// The wire names of the fields (docs/protocol.md).
    enum CodingKeys: String, CodingKey {
        case usedMB = "used_mb"
        case freeMB = "free_mb"
    }

    /// Creates the answer with the used and free storage in MB, as the emulator sends it.
    public init(usedMB: UInt64, freeMB: UInt64) {
        self.usedMB = usedMB
        self.freeMB = freeMB
    }
}

/// Device `media count`: how many photos, videos and audio files the device holds.
public typealias DeviceMediaCountRequest = SMPEmptyRequest<SMPCommand.DeviceMediaCount, DeviceMediaCountResponse>

/// The answer to ``DeviceMediaCountRequest``.
public struct DeviceMediaCountResponse: Codable, Sendable, Equatable {
    /// The number of photos.
    public var photos: UInt64
    /// The number of videos.
    public var videos: UInt64
    /// The number of audio recordings.
    public var audios: UInt64

    /// Creates the answer with the photo, video and audio file counts, as the emulator sends it.
    public init(photos: UInt64, videos: UInt64, audios: UInt64) {
        self.photos = photos
        self.videos = videos
        self.audios = audios
    }
}

/// Device time read: the device's clock in Unix seconds.
public typealias DeviceTimeReadRequest = SMPEmptyRequest<SMPCommand.DeviceTimeRead, DeviceTimeReadResponse>

/// The answer to ``DeviceTimeReadRequest``.
public struct DeviceTimeReadResponse: Codable, Sendable, Equatable {
    /// Unix time in seconds.
    public var time: Int

    /// Creates the answer with the device clock in Unix seconds, as the emulator sends it.
    public init(time: Int) {
        self.time = time
    }
}

/// Device time write: sets the device's clock.
public struct DeviceTimeWriteRequest: SMPRequest, Equatable {
    /// The device answers `time` with ``DeviceTimeWriteResponse``; the client decodes the answer as
    /// this type.
    public typealias Response = DeviceTimeWriteResponse

    /// Unix time in seconds.
    public var time: Int

    /// Creates the request that sets the device clock to `time`, in Unix seconds.
    public init(time: Int) {
        self.time = time
    }
}

/// The (empty) answer to ``DeviceTimeWriteRequest``.
public typealias DeviceTimeWriteResponse = SMPEmptyResponse

/// Device language read: the current and the supported languages.
public typealias DeviceLanguageReadRequest = SMPEmptyRequest<SMPCommand.DeviceLanguageRead, DeviceLanguageReadResponse>

/// The answer to ``DeviceLanguageReadRequest``.
public struct DeviceLanguageReadResponse: Codable, Sendable, Equatable {
    /// The current language code.
    public var language: String
    /// Every language the device offers.
    public var supported: [String]

    /// Creates the answer with the current language code and the supported ones, as the emulator
    /// sends it.
    public init(language: String, supported: [String]) {
        self.language = language
        self.supported = supported
    }
}

/// Device language write: sets the device's language.
public struct DeviceLanguageWriteRequest: SMPRequest, Equatable {
    /// The device answers `language` with ``DeviceLanguageWriteResponse``; the client decodes the
    /// answer as this type.
    public typealias Response = DeviceLanguageWriteResponse

    /// A language code from `supported`.
    public var language: String

    /// Creates the request that switches the device to the language code `language` (one it lists
    /// as supported).
    public init(language: String) {
        self.language = language
    }
}

/// The (empty) answer to ``DeviceLanguageWriteRequest``.
public typealias DeviceLanguageWriteResponse = SMPEmptyResponse

/// Device work state (idle, recording, ...).
public typealias DeviceWorkStateRequest = SMPEmptyRequest<SMPCommand.DeviceWorkState, DeviceWorkStateResponse>

/// The answer to ``DeviceWorkStateRequest``.
public struct DeviceWorkStateResponse: Codable, Sendable, Equatable {
    /// The `WorkState` raw value.
    public var state: Int

    /// Creates the answer carrying a `WorkState` raw value, as the emulator sends it.
    public init(state: Int) {
        self.state = state
    }
}

/// Device events (long-poll): every event with `seq > since`, waiting up to `wait_ms` when there is none.
public typealias DeviceEventsRequest = SMPLongPollRequest<SMPCommand.DeviceEvents, DeviceEventsResponse>

/// The answer to ``DeviceEventsRequest``.
public struct DeviceEventsResponse: Codable, Sendable, Equatable {
    /// The newest event sequence number; ask again with it as `since`.
    public var seq: UInt64
    /// The new events, oldest first; empty when nothing happened.
    public var events: [DeviceEvent]

    /// Creates the answer with the newest sequence number and the events after the asked one, as
    /// the emulator sends it.
    public init(seq: UInt64, events: [DeviceEvent]) {
        self.seq = seq
        self.events = events
    }
}

/// Device factory reset: deletes all media.
public typealias DeviceFactoryResetRequest = SMPEmptyRequest<SMPCommand.DeviceFactoryReset, DeviceFactoryResetResponse>

/// The (empty) answer to ``DeviceFactoryResetRequest``.
public typealias DeviceFactoryResetResponse = SMPEmptyResponse

/// Device format media storage: deletes every media file and nothing else (settings, firmware and
/// recordings in progress are kept); rc 5 while the device records or is in transfer mode.
public typealias DeviceFormatStorageRequest = SMPEmptyRequest<SMPCommand.DeviceFormatStorage, DeviceFormatStorageResponse>

/// The answer to ``DeviceFormatStorageRequest``: how many files the format deleted.
public struct DeviceFormatStorageResponse: Codable, Sendable, Equatable {
    /// The number of media files deleted.
    public var deleted: UInt64
    /// The answer of a format that deleted `deleted` files.
    public init(deleted: UInt64) { self.deleted = deleted }
}

/// Device power off: the device ends its session and stops answering until restarted.
public typealias DevicePowerOffRequest = SMPEmptyRequest<SMPCommand.DevicePowerOff, DevicePowerOffResponse>

/// The (empty) answer to ``DevicePowerOffRequest``.
public typealias DevicePowerOffResponse = SMPEmptyResponse

/// Device find: starts or stops the find-my-device signal.
public struct DeviceFindRequest: SMPRequest, Equatable {
    /// The device answers `find` with ``DeviceFindResponse``; the client decodes the answer as this
    /// type.
    public typealias Response = DeviceFindResponse

    /// Whether the signal is on.
    public var on: Bool

    /// Creates the request that turns the find-my-device signal on (`on` true) or off.
    public init(on: Bool) {
        self.on = on
    }
}

/// The (empty) answer to ``DeviceFindRequest``.
public typealias DeviceFindResponse = SMPEmptyResponse

/// One state-change event in ``DeviceEventsResponse``.
public struct DeviceEvent: Codable, Sendable, Equatable {
    /// The event sequence number.
    public var seq: UInt64
    /// The kind of state that changed; see ``DeviceEventKind``.
    public var kind: String
    /// The new state, a map whose fields depend on `kind`.
    public var value: CBOR

    /// Creates an event: sequence number `seq`, the ``DeviceEventKind`` `kind` that changed, and
    /// its new state `value`.
    public init(seq: UInt64, kind: String, value: CBOR) {
        self.seq = seq
        self.kind = kind
        self.value = value
    }
}
