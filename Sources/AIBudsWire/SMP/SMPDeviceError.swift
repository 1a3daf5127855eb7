import AIBudsCBOR

/// A non-zero return code that a device sent in a response payload.
///
/// Two shapes exist on the wire (docs/protocol.md §1 "Errors"):
/// - SMP v1 and SMP-level errors: `{rc: int}`, an ``MGMTError`` raw value (or, for a v1 request to a
///   project group, that group's ``ProjectReturnCode``); ``group`` is nil.
/// - SMP v2 group errors: `{err: {group: uint, rc: int}}`, where `rc` is the group's own code.
public struct SMPDeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The group whose return code ``rc`` is (the v2 `err` shape), or nil for a plain `rc`.
    public var group: UInt16?
    /// The return code; never 0.
    public var rc: Int
    /// The SMP version of the exchange.
    public var version: SMPVersion

    /// Creates the error for the non-zero return code `rc`: of `group` in the v2 `err` shape, or a
    /// plain `rc` when `group` is nil.
    public init(group: UInt16?, rc: Int, version: SMPVersion) {
        self.group = group
        self.rc = rc
        self.version = version
    }

    /// The error of a response payload, or nil when it reports success.
    ///
    /// Both shapes are recognised whatever `version` says (a v2 server still reports SMP-level
    /// errors such as an unknown group as `rc`); `err` wins when both carry a non-zero code.
    public static func from(response map: CBOR, version: SMPVersion) -> SMPDeviceError? {
        if let err = map["err"], let rc = err["rc"]?.int, rc != 0 {
            let group = err["group"]?.uint64.flatMap { UInt16(exactly: $0) }
            return SMPDeviceError(group: group, rc: rc, version: version)
        }
        if let rc = map["rc"]?.int, rc != 0 {
            return SMPDeviceError(group: nil, rc: rc, version: version)
        }
        return nil
    }

    /// The payload a server sends for this error: `{err: {group, rc}}` for a v2 group error, else `{rc}`.
    public func payload() -> CBOR {
        if version == .v2, let group {
            return .map(["err": .map(["group": .unsigned(UInt64(group)), "rc": CBOR(integer: rc)])])
        }
        return .map(["rc": CBOR(integer: rc)])
    }

    /// The SMP-level code, when this is a plain `rc` error with a known value.
    public var mgmtError: MGMTError? { group == nil ? MGMTError(rawValue: rc) : nil }

    /// The project group code, when this is a group error of a project group (64+) with a known value.
    public var projectReturnCode: ProjectReturnCode? {
        guard let group, group >= 64 else { return nil }
        return ProjectReturnCode(rawValue: rc)
    }

    /// "SMP error rc=N" with the group when known.
    public var description: String {
        if let group { return "SMP device error: group \(group) rc \(rc)" }
        if let mgmt = MGMTError(rawValue: rc) { return "SMP device error: rc \(rc) (\(mgmt))" }
        return "SMP device error: rc \(rc)"
    }
}

