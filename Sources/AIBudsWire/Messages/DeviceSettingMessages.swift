import AIBudsCBOR

// Messages of the Device group (64) for the device controls: settings read and written by name, and
// actions. See docs/protocol.md §3, "Controls".

/// Device `setting` read: the current value of one named control (`anc`, `volume`, ...).
public struct DeviceSettingReadRequest: SMPRequest, Equatable {
    /// The device answers with ``DeviceSettingResponse``, the setting's value map.
    public typealias Response = DeviceSettingResponse

    /// The setting's wire name, one of ``DeviceSettingName``.
    public var name: String

    /// Creates the request for the value of the setting called `name`.
    public init(name: String) { self.name = name }
}

/// The answer to ``DeviceSettingReadRequest``: the setting's name and its value map.
public struct DeviceSettingResponse: Codable, Sendable, Equatable {
    /// The setting's wire name, echoed.
    public var name: String
    /// The setting's value map, whose fields depend on `name` (docs/protocol.md §3, "Controls").
    public var value: CBOR

    /// Creates the answer carrying `value` for the setting `name`, as the emulator sends it.
    public init(name: String, value: CBOR) {
        self.name = name
        self.value = value
    }
}

/// Device `setting` write: changes one named control; fields left out keep their value.
public struct DeviceSettingWriteRequest: SMPRequest, Equatable {
    /// The device answers with the setting's new value map.
    public typealias Response = DeviceSettingResponse

    /// The setting's wire name, one of ``DeviceSettingName``.
    public var name: String
    /// The fields to change, a map of the setting's value fields.
    public var value: CBOR

    /// Creates the request that changes the setting `name` to the fields of `value`.
    public init(name: String, value: CBOR) {
        self.name = name
        self.value = value
    }
}

/// Device `action` write: does something once (a music command, starting an app, showing a page).
public struct DeviceActionRequest: SMPRequest, Equatable {
    /// The device answers with ``DeviceActionResponse``, the affected setting's new value.
    public typealias Response = DeviceActionResponse

    /// The action's wire name, one of ``DeviceActionName``.
    public var name: String
    /// The action's arguments, a map whose fields depend on `name` (absent: no arguments).
    public var args: CBOR?

    /// Creates the request that performs the action `name` with `args`.
    public init(name: String, args: CBOR? = nil) {
        self.name = name
        self.args = args
    }
}

/// The answer to ``DeviceActionRequest``.
public struct DeviceActionResponse: Codable, Sendable, Equatable {
    /// The wire name of the setting the action changed, when it changed one.
    public var setting: String?
    /// That setting's value map after the action.
    public var value: CBOR?

    /// Creates the answer naming the setting the action changed and its new value map.
    public init(setting: String? = nil, value: CBOR? = nil) {
        self.setting = setting
        self.value = value
    }
}

