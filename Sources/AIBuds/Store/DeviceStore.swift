import AIBudsFoundation
import AIBudsLog
import AIBudsSync
import Foundation

/// One entry of the stored-devices file: the device's plugin kind, product, and its own encoding.
public struct StoredDeviceRecord: Sendable, Codable, Hashable {
    /// The link protocol, which selects the plugin that decodes the device.
    public var protocolKind: Int
    /// The product, which selects the plugin's device class.
    public var product: Int
    /// The device as its class encoded it.
    public var device: JSONValue
}

/// The stored-devices file: a format tag, a version, and the records in the app's order.
struct StoredDevicesFile: Codable {
    static let formatName = "aibuds-stored-devices"
    static let currentVersion = 1

    var format: String
    var version: Int
    var devices: [StoredDeviceRecord]
}

/// A list of devices kept in a JSON file, written atomically.
///
/// ``StoredDevicesMgr`` uses one for the user's list; tests use their own. A file that cannot be
/// decoded is moved aside (`devices.json.corrupt-<time>`) and reported, never overwritten. Records
/// whose plugin is not loaded are kept and written back unchanged.
public final class DeviceStore: Sendable {
    private struct State {
        var devices: [any DeviceConvertible] = []
        var unresolved: [StoredDeviceRecord] = []
        var readOnlyReason: String?
    }

    /// The JSON file.
    public let fileURL: URL
    private let state = Locked(State())
    private let io = Locked(())
    private let logger: any LogService

    /// Creates a store for `fileURL` (nothing is read until ``load(resolver:)``).
    public init(fileURL: URL, logger: any LogService = NullLogService()) {
        self.fileURL = fileURL
        self.logger = logger
    }

    // MARK: The list

    /// The devices in order.
    public var devices: [any DeviceConvertible] { state.withLock { $0.devices } }

    /// Records that were kept because no plugin could decode them.
    public var unresolvedRecords: [StoredDeviceRecord] { state.withLock { $0.unresolved } }

    /// Appends a device; `false` when a device with its `uuid` is already stored.
    @discardableResult
    public func add(_ device: any DeviceConvertible) -> Bool {
        let uuid = device.uuid
        return state.withLock { state in
            guard !state.devices.contains(where: { $0.uuid == uuid }) else { return false }
            state.devices.append(device)
            return true
        }
    }

    /// Removes the device with `device.uuid`; `false` when it is not stored.
    @discardableResult
    public func remove(_ device: any DeviceConvertible) -> Bool {
        let uuid = device.uuid
        return state.withLock { state in
            guard let index = state.devices.firstIndex(where: { $0.uuid == uuid }) else { return false }
            state.devices.remove(at: index)
            return true
        }
    }

    /// Moves the device at `from` to position `to`; `false` when an index is out of range.
    @discardableResult
    public func move(from: Int, to: Int) -> Bool {
        state.withLock { state in
            guard state.devices.indices.contains(from), state.devices.indices.contains(to) else { return false }
            let device = state.devices.remove(at: from)
            state.devices.insert(device, at: to)
            return true
        }
    }

    /// Looks a stored device up by the UUID the SDK gave it; nil when no stored device has it.
    public func device(withUUID uuid: UUID) -> (any DeviceConvertible)? {
        devices.first { $0.uuid == uuid }
    }

    /// The stored device with this MAC address (case and separators ignored).
    public func find(macAddress: String) -> (any DeviceConvertible)? {
        let key = Self.normalizedMACKey(macAddress)
        guard !key.isEmpty else { return nil }
        return devices.first { $0.macAddress.map(Self.normalizedMACKey) == key }
    }

    /// The stored device with this peripheral's identifier, else with its address.
    public func find(peripheral: Peripheral) -> (any DeviceConvertible)? {
        let all = devices
        return all.first { $0.peripheral.identifier == peripheral.identifier }
            ?? all.first { $0.peripheral.address == peripheral.address }
    }

    /// A MAC address reduced to its lowercase hex digits, for comparisons.
    public static func normalizedMACKey(_ mac: String) -> String {
        mac.lowercased().filter(\.isHexDigit)
    }

    // MARK: File

    /// Reads the file and replaces the list with its devices, decoding each with the class `resolver`
    /// gives for its record (records without one are kept aside and written back on save).
    ///
    /// A missing file is an empty list. Devices already in memory with the same `uuid` are kept as they
    /// are (an app's handles stay valid); devices in memory but not in the file are kept after the
    /// loaded ones. Throws `storedDevicesCorrupted` (after moving the file aside) when the file cannot
    /// be decoded, and `storedDevicesIOFailed` when it cannot be read.
    @discardableResult
    public func load(
        resolver: (StoredDeviceRecord) -> (any DeviceConvertible.Type)?
    ) throws -> [any DeviceConvertible] {
        try io.withLock { _ in
            AtomicFile.removeStaleTemporaries(of: fileURL)
            let data: Data
            do {
                data = try Data(contentsOf: fileURL)
            } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
                return devices
            } catch {
                if !FileManager.default.fileExists(atPath: fileURL.path) { return devices }
                throw AIBudsError(.storedDevicesIOFailed, "cannot read \(fileURL.path)", underlying: error)
            }
            let file: StoredDevicesFile
            do {
                file = try JSONDecoder().decode(StoredDevicesFile.self, from: data)
                guard file.format == StoredDevicesFile.formatName else {
                    throw AIBudsError(.storedDevicesCorrupted, "not a stored-devices file (format \"\(file.format)\")")
                }
            } catch {
                throw moveAside(because: error)
            }
            guard file.version <= StoredDevicesFile.currentVersion else {
                let reason = "\(fileURL.path) was written by a newer SDK (version \(file.version)); it is left untouched"
                state.withLock { $0.readOnlyReason = reason }
                throw AIBudsError(.storedDevicesCorrupted, reason)
            }
            var loaded: [any DeviceConvertible] = []
            var unresolved: [StoredDeviceRecord] = []
            for record in file.devices {
                guard let type = resolver(record) else {
                    unresolved.append(record)
                    continue
                }
                do {
                    loaded.append(try Self.decode(type, from: record.device))
                } catch {
                    logger.log(.warning, "store", "kept a stored device that \(type) cannot decode: \(error)")
                    unresolved.append(record)
                }
            }
            return state.withLock { state in
                var merged: [any DeviceConvertible] = []
                for device in loaded {
                    merged.append(state.devices.first { $0.uuid == device.uuid } ?? device)
                }
                for device in state.devices where !merged.contains(where: { $0.uuid == device.uuid }) {
                    merged.append(device)
                }
                state.devices = merged
                state.unresolved = unresolved
                state.readOnlyReason = nil
                return merged
            }
        }
    }

    /// Writes the list (and the records kept aside) to the file atomically.
    public func save() throws {
        try save(interruptAfterBytes: nil)
    }

    /// ``save()`` with a simulated crash after `interruptAfterBytes` bytes (tests).
    func save(interruptAfterBytes: Int?) throws {
        try io.withLock { _ in
            let (devices, unresolved, readOnly) = state.withLock { ($0.devices, $0.unresolved, $0.readOnlyReason) }
            if let readOnly { throw AIBudsError(.storedDevicesIOFailed, "not saving: \(readOnly)") }
            var records: [StoredDeviceRecord] = []
            for device in devices {
                do {
                    records.append(StoredDeviceRecord(
                        protocolKind: device.protocolKind.rawValue, product: device.product.rawValue,
                        device: try Self.encode(device)))
                } catch {
                    throw AIBudsError(.storedDevicesIOFailed, "not saving: \(device.name) (\(type(of: device))) cannot be encoded", underlying: error)
                }
            }
            let file = StoredDevicesFile(
                format: StoredDevicesFile.formatName, version: StoredDevicesFile.currentVersion,
                devices: records + unresolved)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            let data = try encoder.encode(file)
            AtomicFile.removeStaleTemporaries(of: fileURL)
            try AtomicFile.write(data, to: fileURL, interruptAfterBytes: interruptAfterBytes)
        }
    }

    private func moveAside(because error: any Error) -> AIBudsError {
        let stamp = Date().formatted(
            Date.ISO8601FormatStyle(dateSeparator: .omitted, dateTimeSeparator: .standard, timeSeparator: .omitted))
        let aside = fileURL.deletingLastPathComponent()
            .appendingPathComponent("\(fileURL.lastPathComponent).corrupt-\(stamp)-\(UUID().uuidString.prefix(4))")
        do {
            try FileManager.default.moveItem(at: fileURL, to: aside)
        } catch {
            let reason = "\(fileURL.path) is corrupt and could not be moved aside; it is left untouched"
            state.withLock { $0.readOnlyReason = reason }
            return AIBudsError(.storedDevicesCorrupted, reason, underlying: error)
        }
        logger.log(.error, "store", "\(fileURL.path) is corrupt; moved to \(aside.path)")
        return AIBudsError(
            .storedDevicesCorrupted, "\(fileURL.path) is corrupt; it was moved to \(aside.path)", underlying: error)
    }

    private static func encode(_ device: any DeviceConvertible) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(device)
        return try JSONDecoder().decode(JSONValue.self, from: data)
    }

    private static func decode<Device: DeviceConvertible>(_ type: Device.Type, from value: JSONValue) throws -> Device {
        let data = try JSONEncoder().encode(value)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: data)
    }
}
