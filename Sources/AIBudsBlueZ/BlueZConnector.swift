import AIBuds
import AIBudsDBus
import AIBudsFoundation
import AIBudsLog
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Connects to one device through BlueZ and opens its SMP characteristic.
struct BlueZConnector: Sendable {
    let busAddress: String
    let adapterName: String?
    /// How long connecting, resolving services and finding an unknown device may take in all.
    let timeout: Duration
    let logger: any LogService
    /// When to call `Device1.Pair`.
    var pairing: BlueZPairing = .whenRequired

    /// `Device1.Connect`, `ServicesResolved`, the SMP characteristic, then acquisition of its
    /// sockets (or the `WriteValue`/`StartNotify` fallback).
    func open(address: String) async throws -> BlueZGATTTransport {
        let bus = try await BlueZBus.open(address: busAddress)
        do {
            do {
                return try await open(address: address.uppercased(), on: bus)
            } catch let vanished as LinkVanished {
                // The link went down between finding the characteristic and acquiring it (a
                // Disconnect that BlueZ carried out late, a dropped radio link): once more, from
                // reading the object tree, where the device is found disconnected and connected anew.
                logger.log(.info, "bluez", "\(address): \(vanished.error.message); connecting again")
                do {
                    return try await open(address: address.uppercased(), on: bus)
                } catch let again as LinkVanished {
                    throw again.error
                }
            }
        } catch {
            bus.close()
            throw error
        }
    }

    /// The SMP characteristic was gone when its sockets were asked for: the link went down meanwhile.
    private struct LinkVanished: Error {
        let error: AIBudsError
    }

    private func open(address: String, on bus: BlueZBus) async throws -> BlueZGATTTransport {
        // Watch BlueZ's signals from the start, so no change between a read and a wait is missed.
        let (signals, feed) = AsyncStream<DBusMessage>.makeStream()
        let token = bus.connection.onSignal { feed.yield($0) }
        defer {
            bus.connection.removeSignalHandler(token)
            feed.finish()
        }
        var (adapter, objects) = try await bus.poweredAdapter(named: adapterName)
        let devicePath = BlueZ.devicePath(adapter: adapter, address: address)
        // An earlier link's Disconnect still under way would end this one: let it finish first.
        if await PendingDisconnects.settle(bus: busAddress, device: devicePath) {
            objects = try await bus.managedObjects()
        }
        // The time to connect counts from here: waiting for this SDK's own old link to go is not
        // the device being slow.
        let deadline = ContinuousClock.now + timeout
        if objects[devicePath]?["org.bluez.Device1"] == nil {
            try await discover(devicePath, adapter: adapter, on: bus, signals: signals, until: deadline)
            objects = try await bus.managedObjects()
        }
        let device = objects[devicePath]?["org.bluez.Device1"] ?? [:]
        if device["Connected"]?.boolValue != true || device["ServicesResolved"]?.boolValue != true {
            let remaining = max(ContinuousClock.now.duration(to: deadline), .milliseconds(100))
            if device["Connected"]?.boolValue != true {
                do {
                    _ = try await bus.call(devicePath, "org.bluez.Device1", "Connect", timeout: remaining,
                                           what: "cannot connect to \(address)")
                } catch let error as AIBudsError where (error.underlying as? DBusError)?.name.hasSuffix("AlreadyConnected") == true {
                    // Someone else connected it meanwhile.
                }
            }
            try await waitForServices(devicePath, on: bus, signals: signals, until: deadline)
            objects = try await bus.managedObjects()
        }
        guard let characteristic = Self.smpCharacteristic(under: devicePath, in: objects) else {
            throw AIBudsError(.deviceNotSupport, "\(address) has no SMP service (\(BlueZ.smpServiceUUID)) with its characteristic")
        }
        let mtuProperty = characteristic.properties["MTU"]?.intValue
        var attMTU = mtuProperty ?? 23
        var paired = objects[devicePath]?["org.bluez.Device1"]?["Paired"]?.boolValue == true
        if !paired, pairing == .always || (pairing == .whenRequired && Self.needsBonding(characteristic.properties)) {
            try await pair(devicePath, address: address, on: bus, until: deadline)
            paired = true
        }
        // Without a bond where the device wants one, BlueZ answers "Not paired": pair, then again.
        let paths: DataPaths
        do {
            paths = try await openDataPaths(characteristic.path, address: address, on: bus)
        } catch let notPaired as NotPaired {
            guard !paired, pairing != .never else { throw notPaired.sdkError }
            try await pair(devicePath, address: address, on: bus, until: deadline)
            do {
                paths = try await openDataPaths(characteristic.path, address: address, on: bus)
            } catch let again as NotPaired {
                throw again.sdkError
            }
        }
        let (notify, write) = paths
        if let mtu = write?.mtu ?? notify?.mtu { attMTU = mtu }
        logger.log(.info, "bluez", "\(address): SMP over GATT, ATT MTU \(attMTU), "
                   + "write \(write == nil ? "WriteValue" : "socket"), notify \(notify == nil ? "PropertiesChanged" : "socket")")
        return BlueZGATTTransport(
            bus: bus, adapterPath: adapter, devicePath: devicePath, characteristicPath: characteristic.path,
            writeFD: write?.fd, notifyFD: notify?.fd, attMTU: attMTU, logger: logger)
    }

    /// The notification and write paths: acquired sockets, else `StartNotify` (writes then go by
    /// `WriteValue`). Throws ``NotPaired`` when the characteristic wants a bond.
    private func openDataPaths(_ path: String, address: String, on bus: BlueZBus) async throws -> DataPaths {
        let notify = try await acquire(path, "AcquireNotify", on: bus)
        if notify == nil {
            do {
                _ = try await bus.connection.call(
                    destination: BlueZ.service, path: path, interface: "org.bluez.GattCharacteristic1", member: "StartNotify",
                    timeout: .seconds(25))
            } catch {
                if Self.isNotPaired(error) { throw NotPaired(error: error) }
                throw BlueZ.sdkError(error, "cannot start notifications of \(address)'s SMP characteristic")
            }
        }
        do {
            return (notify, try await acquire(path, "AcquireWrite", on: bus))
        } catch {
            if let notify { Glibc.close(notify.fd) }
            throw error
        }
    }

    /// BlueZ's answer to a GATT access that needs a bond the device lacks (ATT's insufficient
    /// authentication or encryption).
    struct NotPaired: Error {
        let error: DBusError
    }

    static func isNotPaired(_ error: DBusError) -> Bool {
        let short = error.name.split(separator: ".").last.map(String.init) ?? ""
        if short == "AuthenticationRequired" || short == "InsufficientAuthentication" { return true }
        let text = error.message.lowercased()
        return short == "NotPermitted" && (text.contains("not paired") || text.contains("insufficient"))
    }

    /// Whether the characteristic's flags ask for an encrypted or authenticated link.
    static func needsBonding(_ characteristic: [String: DBusValue]) -> Bool {
        (characteristic["Flags"]?.stringArray ?? []).contains {
            $0.hasPrefix("encrypt-") || $0.hasPrefix("secure-") || $0.hasPrefix("encrypt-authenticated-")
        }
    }

    /// `Device1.Pair`; a device already paired (`AlreadyExists`) is fine.
    private func pair(
        _ devicePath: String, address: String, on bus: BlueZBus, until deadline: ContinuousClock.Instant
    ) async throws {
        logger.log(.info, "bluez", "\(address): pairing (the SMP characteristic needs a bond)")
        try await Self.pair(devicePath, address: address, on: bus, timeout: ContinuousClock.now.duration(to: deadline))
    }

    /// `Device1.Pair` within `timeout` (never less than 30 s: pairing may wait for the user, an
    /// agent's passkey prompt); `AlreadyExists` (paired before) is success.
    static func pair(_ devicePath: String, address: String, on bus: BlueZBus, timeout: Duration) async throws {
        do {
            _ = try await bus.connection.call(
                destination: BlueZ.service, path: devicePath, interface: "org.bluez.Device1", member: "Pair",
                timeout: max(timeout, .seconds(30)))
        } catch {
            if error.name.hasSuffix(".AlreadyExists") { return }
            throw BlueZ.sdkError(error, "pairing with \(address) failed")
        }
    }

    /// `AcquireWrite`/`AcquireNotify`; nil where BlueZ or the device does not offer it.
    private func acquire(_ path: String, _ method: String, on bus: BlueZBus) async throws -> (fd: Int32, mtu: Int)? {
        let reply: [DBusValue]
        do {
            reply = try await bus.connection.call(
                destination: BlueZ.service, path: path, interface: "org.bluez.GattCharacteristic1", member: method,
                [.properties([])], timeout: .seconds(10))
        } catch {
            if Self.isNotPaired(error) { throw NotPaired(error: error) }
            let short = error.name.split(separator: ".").last.map(String.init) ?? ""
            if ["UnknownMethod", "NotSupported", "NotPermitted", "Failed"].contains(short) { return nil }
            if short == "UnknownObject" { throw LinkVanished(error: BlueZ.sdkError(error, "\(method) on the SMP characteristic failed")) }
            throw BlueZ.sdkError(error, "\(method) on the SMP characteristic failed")
        }
        guard reply.count == 2, case .unixFD(let fd) = reply[0], let mtu = reply[1].intValue else {
            for value in reply { if case .unixFD(let fd) = value { Glibc.close(fd) } }
            return nil
        }
        return (fd, mtu)
    }

    /// Discovers until `devicePath` appears (BlueZ forgets devices it has not seen lately).
    private func discover(
        _ devicePath: String, adapter: String, on bus: BlueZBus, signals: AsyncStream<DBusMessage>,
        until deadline: ContinuousClock.Instant
    ) async throws {
        let filter = DBusValue.properties([("UUIDs", .strings([BlueZ.smpServiceUUID])), ("Transport", .string("le"))])
        _ = try await bus.call(adapter, "org.bluez.Adapter1", "SetDiscoveryFilter", [filter], what: "cannot set the discovery filter")
        _ = try await bus.call(adapter, "org.bluez.Adapter1", "StartDiscovery", what: "cannot start discovery")
        defer {
            Task { _ = try? await bus.call(adapter, "org.bluez.Adapter1", "StopDiscovery", timeout: .seconds(2), what: "stop") }
        }
        let found = await wait(signals, until: deadline) { signal in
            signal.member == "InterfacesAdded" && signal.body.first?.stringValue == devicePath
        }
        if found == nil, (try await bus.managedObjects())[devicePath] == nil {
            throw AIBudsError(.peripheralUnavailable, "BlueZ did not find \(devicePath) within \(timeout)")
        }
    }

    /// Waits for `ServicesResolved` (and `Connected`) to be true.
    private func waitForServices(
        _ devicePath: String, on bus: BlueZBus, signals: AsyncStream<DBusMessage>, until deadline: ContinuousClock.Instant
    ) async throws {
        let current = try await bus.managedObjects()[devicePath]?["org.bluez.Device1"]
        if current?["ServicesResolved"]?.boolValue == true { return }
        guard current != nil else { throw AIBudsError(.peripheralUnavailable, "BlueZ removed \(devicePath) while connecting") }
        while true {
            let decisive = await wait(signals, until: deadline) { signal in
                if signal.member == "InterfacesRemoved" { return signal.body.first?.stringValue == devicePath }
                guard signal.path == devicePath, signal.member == "PropertiesChanged",
                    let changed = signal.body.dropFirst().first?.propertyMap
                else { return false }
                return changed["Connected"]?.boolValue == false || changed["ServicesResolved"]?.boolValue == true
            }
            guard let decisive else {
                throw AIBudsError(.bleCommandExecFailedDueToTimeout, "\(devicePath) did not resolve its services within \(timeout)")
            }
            if decisive.member == "InterfacesRemoved" {
                throw AIBudsError(.peripheralNotConnected, "BlueZ removed \(devicePath) while its services were resolved")
            }
            guard decisive.body.dropFirst().first?.propertyMap?["Connected"]?.boolValue == false else { return }
            // The end of an earlier link, signalled on another bus connection, can arrive after
            // this link's Connect: the device's present state decides.
            let now = try await bus.managedObjects()[devicePath]?["org.bluez.Device1"]
            guard now?["Connected"]?.boolValue == true else {
                throw AIBudsError(.peripheralNotConnected, "\(devicePath) disconnected while its services were resolved")
            }
            if now?["ServicesResolved"]?.boolValue == true { return }
        }
    }

    /// Consumes `signals` until one `matches` (returned) or the deadline passes (nil).
    private func wait(
        _ signals: AsyncStream<DBusMessage>, until deadline: ContinuousClock.Instant,
        _ matches: @escaping @Sendable (DBusMessage) -> Bool
    ) async -> DBusMessage? {
        await withTaskGroup(of: DBusMessage?.self) { group in
            group.addTask {
                for await signal in signals where matches(signal) { return signal }
                return nil
            }
            group.addTask {
                try? await Task.sleep(until: deadline)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// The SMP characteristic of the SMP service below `devicePath`.
    static func smpCharacteristic(under devicePath: String, in objects: [String: BlueZBus.Interfaces])
        -> (path: String, properties: [String: DBusValue])?
    {
        let services = Set(objects.compactMap { path, interfaces -> String? in
            guard path.hasPrefix(devicePath + "/"), let service = interfaces["org.bluez.GattService1"],
                service["UUID"]?.stringValue?.lowercased() == BlueZ.smpServiceUUID
            else { return nil }
            return path
        })
        for (path, interfaces) in objects.sorted(by: { $0.key < $1.key }) {
            guard let characteristic = interfaces["org.bluez.GattCharacteristic1"],
                characteristic["UUID"]?.stringValue?.lowercased() == BlueZ.smpCharacteristicUUID,
                let service = characteristic["Service"]?.stringValue, services.contains(service)
            else { continue }
            return (path, characteristic)
        }
        return nil
    }
}

extension BlueZConnector.NotPaired {
    /// The SDK's error for a device that wants a bond this connection may not make.
    var sdkError: AIBudsError {
        BlueZ.sdkError(error, "the SMP characteristic needs a paired device (pair it, or allow pairing)")
    }
}

extension BlueZConnector {
    /// The notification and write sockets with their ATT MTU (nil: `StartNotify` / `WriteValue`).
    typealias DataPaths = (notify: (fd: Int32, mtu: Int)?, write: (fd: Int32, mtu: Int)?)
}
