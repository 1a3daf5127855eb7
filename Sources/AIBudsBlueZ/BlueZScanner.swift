import AIBuds
import AIBudsDBus
import AIBudsFoundation
import AIBudsSync
import Foundation

/// Scans through BlueZ: LE discovery filtered to the SMP service on one adapter, devices from the
/// object tree and from `InterfacesAdded`, RSSI and advertising data from `PropertiesChanged`.
struct BlueZScanner: Sendable {
    let busAddress: String
    let adapterName: String?
    let logger: @Sendable (String) -> Void

    /// What BlueZ knows of one device, merged from every report.
    struct Seen: Sendable {
        var properties: [String: DBusValue]
    }

    /// The discovery report of a `Device1`'s properties; `nil` for a device without an address.
    static func discovery(_ properties: [String: DBusValue], adapterAddress: String? = nil) -> PeripheralDiscovery? {
        guard let address = properties["Address"]?.stringValue?.uppercased(),
            let deviceAddress = try? DeviceAddress(parsing: "ble://\(address)")
        else { return nil }
        let name = properties["Name"]?.stringValue ?? properties["Alias"]?.stringValue
        var manufacturer: Data?
        if let entries = properties["ManufacturerData"]?.dictEntries {
            // CoreBluetooth's shape: the company identifier, little-endian, then the data.
            for entry in entries.sorted(by: { ($0.key.intValue ?? 0) < ($1.key.intValue ?? 0) }) {
                guard let company = entry.key.intValue, let bytes = entry.value.dataValue else { continue }
                manufacturer = Data([UInt8(company & 0xFF), UInt8(company >> 8 & 0xFF)]) + bytes
                if company == 0xFFFF { break }
            }
        }
        var serviceData: [String: Data] = [:]
        for entry in properties["ServiceData"]?.dictEntries ?? [] {
            if let uuid = entry.key.stringValue, let bytes = entry.value.dataValue { serviceData[uuid.uppercased()] = bytes }
        }
        let uuids = (properties["UUIDs"]?.stringArray ?? []).map { $0.uppercased() }
        let advertisement = Advertisement(
            localName: name, manufacturerData: manufacturer, serviceUUIDs: uuids, isConnectable: true,
            txPowerLevel: properties["TxPower"]?.intValue, serviceData: serviceData)
        let peripheral = Peripheral(stableKey: address, address: deviceAddress, name: name)
        let central = Central(identifier: properties["Adapter"]?.stringValue ?? "bluez", address: adapterAddress)
        return PeripheralDiscovery(
            peripheral: peripheral, advertisement: advertisement, rssi: properties["RSSI"]?.intValue, central: central)
    }

    /// Whether BlueZ's record says the device offers SMP (its UUIDs or this project's manufacturer data).
    static func offersSMP(_ properties: [String: DBusValue]) -> Bool {
        let uuids = (properties["UUIDs"]?.stringArray ?? []).map { $0.lowercased() }
        if uuids.contains(BlueZ.smpServiceUUID) { return true }
        guard let discovery = discovery(properties) else { return false }
        return BlueZAdvertisement.parse(discovery.advertisement.manufacturerData) != nil
    }

    /// Reports SMP devices until cancelled.
    func stream() -> AsyncStream<PeripheralDiscovery> {
        AsyncStream { continuation in
            let task = Task {
                do {
                    try await scan { continuation.yield($0) }
                } catch let error as AIBudsError {
                    logger(error.message)
                } catch {
                    logger("\(error)")
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func scan(report: @escaping @Sendable (PeripheralDiscovery) -> Void) async throws {
        let bus = try await BlueZBus.open(address: busAddress)
        defer { bus.close() }
        let (signals, feed) = AsyncStream<DBusMessage>.makeStream()
        let token = bus.connection.onSignal { feed.yield($0) }
        bus.connection.onDisconnect { feed.finish() }
        defer { bus.connection.removeSignalHandler(token) }
        let (adapter, objects) = try await bus.poweredAdapter(named: adapterName)
        let filter = DBusValue.properties([("UUIDs", .strings([BlueZ.smpServiceUUID])), ("Transport", .string("le"))])
        _ = try await bus.call(adapter, "org.bluez.Adapter1", "SetDiscoveryFilter", [filter], what: "cannot set the discovery filter")
        _ = try await bus.call(adapter, "org.bluez.Adapter1", "StartDiscovery", what: "cannot start discovery")
        var seen: [String: [String: DBusValue]] = [:]
        func consider(_ path: String) {
            guard let properties = seen[path], Self.offersSMP(properties), let found = Self.discovery(properties) else { return }
            report(found)
        }
        for (path, interfaces) in objects.sorted(by: { $0.key < $1.key }) {
            guard let device = interfaces["org.bluez.Device1"], device["Adapter"]?.stringValue == adapter else { continue }
            seen[path] = device
            consider(path)
        }
        let cancel: @Sendable () -> Void = { feed.finish() }
        await withTaskCancellationHandler {
            for await signal in signals {
                switch (signal.interface, signal.member) {
                case ("org.freedesktop.DBus.ObjectManager", "InterfacesAdded"):
                    guard let path = signal.body.first?.stringValue, signal.body.count > 1 else { continue }
                    let interfaces = BlueZBus.interfaces(signal.body[1])
                    if let device = interfaces["org.bluez.Device1"], device["Adapter"]?.stringValue == adapter {
                        seen[path] = device
                        consider(path)
                    }
                case ("org.freedesktop.DBus.ObjectManager", "InterfacesRemoved"):
                    guard let path = signal.body.first?.stringValue else { continue }
                    if path == adapter {
                        logger("the Bluetooth adapter \(adapter) was removed")
                        return
                    }
                    seen[path] = nil
                case ("org.freedesktop.DBus.Properties", "PropertiesChanged"):
                    guard let path = signal.path, signal.body.first?.stringValue == "org.bluez.Device1",
                        var properties = seen[path], let changed = signal.body.dropFirst().first?.propertyMap
                    else { continue }
                    properties.merge(changed) { $1 }
                    seen[path] = properties
                    if changed["RSSI"] != nil || changed["ManufacturerData"] != nil || changed["ServiceData"] != nil
                        || changed["UUIDs"] != nil || changed["Name"] != nil
                    {
                        consider(path)
                    }
                case ("org.freedesktop.DBus", "NameOwnerChanged"):
                    if signal.body.count == 3, signal.body[2].stringValue?.isEmpty == true {
                        logger("BlueZ left the bus")
                        return
                    }
                default:
                    continue
                }
            }
        } onCancel: {
            cancel()
        }
        _ = try? await bus.call(adapter, "org.bluez.Adapter1", "StopDiscovery", timeout: .seconds(2), what: "stop discovery")
    }
}

/// This project's manufacturer data (the same as the SMP plugin's): company `0xFFFF`, `A B`, the
/// product byte and the six MAC bytes.
enum BlueZAdvertisement {
    /// Product and MAC address from CoreBluetooth-shaped manufacturer data; `nil` when not ours.
    static func parse(_ data: Data?) -> (product: DeviceProduct, mac: String)? {
        guard let data, data.count == 11 else { return nil }
        let bytes = Array(data)
        guard bytes[0] == 0xFF, bytes[1] == 0xFF, bytes[2] == 0x41, bytes[3] == 0x42 else { return nil }
        let product = DeviceProduct(lenientRawValue: Int(Int8(bitPattern: bytes[4])))
        let mac = bytes[5...].map { String(format: "%02X", $0) }.joined(separator: ":")
        return (product, mac)
    }
}
