import Foundation

// Messages of the project Device group (64). See docs/protocol.md.

/// Device info: identity, firmware, capabilities and MTU.
public struct DeviceInfoRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = DeviceInfoResponse
    /// The Device group.
    public static let group = SMPGroupID.device
    /// Command 0.
    public static let command: UInt8 = 0
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

/// The answer to ``DeviceInfoRequest``.
public struct DeviceInfoResponse: Codable, Sendable, Equatable {
    /// The device name.
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

    /// Creates the message.
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
public struct DeviceBatteryRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = DeviceBatteryResponse
    /// The Device group.
    public static let group = SMPGroupID.device
    /// Command 1.
    public static let command: UInt8 = 1
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

/// The answer to ``DeviceBatteryRequest``.
public struct DeviceBatteryResponse: Codable, Sendable, Equatable {
    /// The charge in percent, 0–100.
    public var level: UInt64
    /// Whether the device is charging.
    public var charging: Bool

    /// Creates the message.
    public init(level: UInt64, charging: Bool) {
        self.level = level
        self.charging = charging
    }
}

/// Device storage use.
public struct DeviceStorageRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = DeviceStorageResponse
    /// The Device group.
    public static let group = SMPGroupID.device
    /// Command 2.
    public static let command: UInt8 = 2
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

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

    /// Creates the message.
    public init(usedMB: UInt64, freeMB: UInt64) {
        self.usedMB = usedMB
        self.freeMB = freeMB
    }
}

/// Device media count by kind.
public struct DeviceMediaCountRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = DeviceMediaCountResponse
    /// The Device group.
    public static let group = SMPGroupID.device
    /// Command 3.
    public static let command: UInt8 = 3
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

/// The answer to ``DeviceMediaCountRequest``.
public struct DeviceMediaCountResponse: Codable, Sendable, Equatable {
    /// The number of photos.
    public var photos: UInt64
    /// The number of videos.
    public var videos: UInt64
    /// The number of audio recordings.
    public var audios: UInt64

    /// Creates the message.
    public init(photos: UInt64, videos: UInt64, audios: UInt64) {
        self.photos = photos
        self.videos = videos
        self.audios = audios
    }
}

/// Device time read: the device's clock in Unix seconds.
public struct DeviceTimeReadRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = DeviceTimeReadResponse
    /// The Device group.
    public static let group = SMPGroupID.device
    /// Command 4.
    public static let command: UInt8 = 4
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

/// The answer to ``DeviceTimeReadRequest``.
public struct DeviceTimeReadResponse: Codable, Sendable, Equatable {
    /// Unix time in seconds.
    public var time: Int

    /// Creates the message.
    public init(time: Int) {
        self.time = time
    }
}

/// Device time write: sets the device's clock.
public struct DeviceTimeWriteRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = DeviceTimeWriteResponse
    /// The Device group.
    public static let group = SMPGroupID.device
    /// Command 4.
    public static let command: UInt8 = 4
    /// A write.
    public static let operation = SMPOperation.write

    /// Unix time in seconds.
    public var time: Int

    /// Creates the message.
    public init(time: Int) {
        self.time = time
    }
}

/// The (empty) answer to ``DeviceTimeWriteRequest``.
public typealias DeviceTimeWriteResponse = SMPEmptyResponse

/// Device language read: the current and the supported languages.
public struct DeviceLanguageReadRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = DeviceLanguageReadResponse
    /// The Device group.
    public static let group = SMPGroupID.device
    /// Command 5.
    public static let command: UInt8 = 5
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

/// The answer to ``DeviceLanguageReadRequest``.
public struct DeviceLanguageReadResponse: Codable, Sendable, Equatable {
    /// The current language code.
    public var language: String
    /// Every language the device offers.
    public var supported: [String]

    /// Creates the message.
    public init(language: String, supported: [String]) {
        self.language = language
        self.supported = supported
    }
}

/// Device language write: sets the device's language.
public struct DeviceLanguageWriteRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = DeviceLanguageWriteResponse
    /// The Device group.
    public static let group = SMPGroupID.device
    /// Command 5.
    public static let command: UInt8 = 5
    /// A write.
    public static let operation = SMPOperation.write

    /// A language code from `supported`.
    public var language: String

    /// Creates the message.
    public init(language: String) {
        self.language = language
    }
}

/// The (empty) answer to ``DeviceLanguageWriteRequest``.
public typealias DeviceLanguageWriteResponse = SMPEmptyResponse

/// Device work state (idle, recording, ...).
public struct DeviceWorkStateRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = DeviceWorkStateResponse
    /// The Device group.
    public static let group = SMPGroupID.device
    /// Command 6.
    public static let command: UInt8 = 6
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

/// The answer to ``DeviceWorkStateRequest``.
public struct DeviceWorkStateResponse: Codable, Sendable, Equatable {
    /// The `WorkState` raw value.
    public var state: Int

    /// Creates the message.
    public init(state: Int) {
        self.state = state
    }
}

/// Device events (long-poll): every event with `seq > since`, waiting up to `wait_ms` when there is none.
public struct DeviceEventsRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = DeviceEventsResponse
    /// The Device group.
    public static let group = SMPGroupID.device
    /// Command 7.
    public static let command: UInt8 = 7
    /// A read.
    public static let operation = SMPOperation.read

    /// The last event sequence number the client has seen.
    public var since: UInt64
    /// How long the device may hold the request, in milliseconds (at most 30,000).
    public var waitMs: UInt64

    /// The wire names of the fields (docs/protocol.md).
    enum CodingKeys: String, CodingKey {
        case since
        case waitMs = "wait_ms"
    }

    /// Creates the message.
    public init(since: UInt64, waitMs: UInt64) {
        self.since = since
        self.waitMs = waitMs
    }
}

/// The answer to ``DeviceEventsRequest``.
public struct DeviceEventsResponse: Codable, Sendable, Equatable {
    /// The newest event sequence number; ask again with it as `since`.
    public var seq: UInt64
    /// The new events, oldest first; empty when nothing happened.
    public var events: [DeviceEvent]

    /// Creates the message.
    public init(seq: UInt64, events: [DeviceEvent]) {
        self.seq = seq
        self.events = events
    }
}

/// Device factory reset: deletes all media.
public struct DeviceFactoryResetRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = DeviceFactoryResetResponse
    /// The Device group.
    public static let group = SMPGroupID.device
    /// Command 8.
    public static let command: UInt8 = 8
    /// A write.
    public static let operation = SMPOperation.write

    /// Creates the message.
    public init() {}
}

/// The (empty) answer to ``DeviceFactoryResetRequest``.
public typealias DeviceFactoryResetResponse = SMPEmptyResponse

/// Device power off: the device ends its session and stops answering until restarted.
public struct DevicePowerOffRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = DevicePowerOffResponse
    /// The Device group.
    public static let group = SMPGroupID.device
    /// Command 9.
    public static let command: UInt8 = 9
    /// A write.
    public static let operation = SMPOperation.write

    /// Creates the message.
    public init() {}
}

/// The (empty) answer to ``DevicePowerOffRequest``.
public typealias DevicePowerOffResponse = SMPEmptyResponse

/// Device find: starts or stops the find-my-device signal.
public struct DeviceFindRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = DeviceFindResponse
    /// The Device group.
    public static let group = SMPGroupID.device
    /// Command 10.
    public static let command: UInt8 = 10
    /// A write.
    public static let operation = SMPOperation.write

    /// Whether the signal is on.
    public var on: Bool

    /// Creates the message.
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

    /// Creates the message.
    public init(seq: UInt64, kind: String, value: CBOR) {
        self.seq = seq
        self.kind = kind
        self.value = value
    }
}
