import AIBudsDBus
import AIBudsLog
import AIBudsSync
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for BlueZ's D-Bus API (`org.bluez` on a bus of the caller's choosing) with one adapter
/// and one emulated device whose SMP characteristic the emulator's ``SMPRequestHandler`` serves.
///
/// It implements the parts of BlueZ's documented API a GATT client uses (doc/org.bluez.Adapter.rst,
/// Device.rst, GattService.rst, GattCharacteristic.rst): the object manager at `/`, properties with
/// `PropertiesChanged`, `Adapter1` discovery with `SetDiscoveryFilter`, `Device1.Connect`/`Disconnect`/
/// `Pair`, and the SMP characteristic with `AcquireWrite`/`AcquireNotify` (one end of a
/// `SOCK_SEQPACKET` socket pair each, one ATT payload per packet), `WriteValue` and
/// `StartNotify`/`StopNotify` (notifications as `PropertiesChanged` of `Value`). GATT objects exist
/// while the device is connected. On the `ble` link profile both directions are shaped by a
/// ``BLELinkShaper`` per ATT payload (ATT MTU 247: 244 value bytes, one link packet each).
///
/// Tests drive the faults a radio would cause: ``dropLink()``, ``removeAdapter()``,
/// ``removeDevice()``, ``removeCharacteristic()``, ``setPowered(_:)``, ``injectNotification(_:)``.
public final class BlueZStandIn: Sendable {
    /// The SMP GATT service of Zephyr's mcumgr.
    public static let smpServiceUUID = "8d53dc1d-1db7-4cd3-868b-8a527460aa84"
    /// The SMP characteristic (write without response, notify).
    public static let smpCharacteristicUUID = "da2e7828-fbce-4e01-ae9e-261174997c48"
    /// The adapter's object path.
    public static let adapterPath = "/org/bluez/hci0"

    /// How the stand-in behaves where BlueZ versions or devices differ.
    public struct Options: Sendable {
        /// Whether the characteristic offers `AcquireWrite`/`AcquireNotify` (BlueZ ≥ 5.46 for
        /// write-without-response and notify characteristics); without, clients use `WriteValue`
        /// and `StartNotify`.
        public var acquire = true
        /// Whether the adapter starts powered.
        public var powered = true
        /// Whether `Connect` fails with `org.bluez.Error.Failed` as a device out of range does.
        public var connectFails = false
        /// Whether `Pair` fails with `org.bluez.Error.AuthenticationFailed`.
        public var pairingFails = false
        /// Whether `Pair` fails with `org.bluez.Error.AuthenticationRejected` (the device said no).
        public var pairingRejected = false
        /// Whether the SMP characteristic needs an encrypted link (Zephyr's
        /// `CONFIG_MCUMGR_TRANSPORT_BT_PERM_RW_ENCRYPT`): its flags are `encrypt-write` and
        /// `encrypt-notify`, and until the device is paired `AcquireWrite`, `AcquireNotify`,
        /// `WriteValue` and `StartNotify` fail with `org.bluez.Error.NotPermitted` "Not paired", as
        /// BlueZ's GATT client reports ATT's insufficient authentication.
        public var requiresPairing = false
        /// Whether the device starts paired (bonded earlier).
        public var paired = false
        /// Whether service discovery never ends after `Connect` (`ServicesResolved` stays false).
        public var servicesNeverResolve = false
        /// Whether the device's GATT database lacks the SMP service (another kind of device).
        public var withoutSMPService = false
        /// Whether `Connect` is refused with `org.freedesktop.DBus.Error.AccessDenied`, as the bus
        /// refuses a user outside BlueZ's D-Bus policy (the `bluetooth` group).
        public var accessDenied = false

        /// Whether the link drops just as the SMP characteristic's sockets are first asked for
        /// (`AcquireNotify` or `AcquireWrite`): the GATT objects go and the call fails with
        /// `UnknownObject`, as when a late `Disconnect` or the radio ends a link between a
        /// client's reading of the object tree and its acquisition.
        public var linkDropsAtFirstAcquire = false

        /// Creates the defaults: acquisition offered, adapter powered, connections succeed.
        public init() {}
    }

    private struct State {
        var connection: DBusConnection?
        var adapterPresent = true
        var powered: Bool
        var discovering = false
        var discoveryClients: Set<String> = []
        var filterUUIDs: [String] = []
        var devicePresent = false
        var connected = false
        var servicesResolved = false
        var paired = false
        var gattPresent = false
        var characteristicPresent = false
        var notifying = false
        var writeAcquired: Int32? = nil
        var notifyAcquired: Int32? = nil
        var client: String?
        var inbound = Data()
        var uplink = BLELinkShaper()
        var downlink = BLELinkShaper()
        var generation = 0
        /// Complete SMP packets received from the client.
        var receivedPackets = 0
        /// Whether requests are answered (false: received, counted and dropped).
        var answering = true
        /// Whether `Disconnect` calls wait for ``releaseDisconnects()``, and those waiting.
        var holdingDisconnects = false
        var heldDisconnects: [DBusIncomingCall] = []
        /// How many times `Pair` was called.
        var pairCalls = 0
        /// Whether `linkDropsAtFirstAcquire` has dropped the link already.
        var droppedAtAcquire = false
        /// How many times a client read the object tree (`GetManagedObjects`).
        var objectTreeReads = 0
    }

    /// The device's MAC address (`Address` of its `Device1`).
    public let address: String
    /// The device object's path.
    public let devicePath: String
    /// The SMP service's path.
    public let servicePath: String
    /// The SMP characteristic's path.
    public let characteristicPath: String
    /// The ATT MTU of a connection (247 on the `ble` profile, 517 otherwise).
    public let attMTU: Int
    private let name: String
    private let product: Int
    private let rssi: Int
    private let handler: SMPRequestHandler
    private let link: LinkProfile
    private let options: Options
    private let logger: any LogService
    private let state: Locked<State>
    private let delayLine: DelayLine
    private let origin = ContinuousClock.now

    /// Creates the stand-in for `handler`'s device; nothing is on a bus until ``start(bus:)``.
    public init(handler: SMPRequestHandler, link: LinkProfile, options: Options = Options(),
                logger: any LogService = NullLogService()) {
        let device = handler.device
        self.handler = handler
        self.link = link
        self.options = options
        self.logger = logger
        address = device.identity.mac.uppercased()
        name = device.identity.name
        product = device.profile.product.rawValue
        rssi = device.profile.rssi
        devicePath = Self.adapterPath + "/dev_" + address.replacingOccurrences(of: ":", with: "_")
        servicePath = devicePath + "/service0010"
        characteristicPath = servicePath + "/char0011"
        attMTU = link == .ble ? 247 : 517
        var initial = State(powered: options.powered)
        initial.paired = options.paired
        state = Locked(initial)
        delayLine = DelayLine(name: "aibuds-bluez-standin")
    }

    deinit { stop() }

    /// Connects to the bus at `bus`, owns `org.bluez` there and exports the adapter.
    public func start(bus: String) async throws(DBusError) {
        // libdbus connects and authenticates synchronously: on a thread of its own.
        let opened = await runOnOwnThread(name: "aibuds-bluez-standin-connect") { () -> Result<DBusConnection, DBusError> in
            do throws(DBusError) {
                return .success(try DBusConnection(address: bus))
            } catch {
                return .failure(error)
            }
        }
        let connection = try opened.get()
        connection.setMethodHandler { [weak self] call in self?.handle(call) }
        state.withLock { $0.connection = connection }
        handler.setDeferredSink { [weak self] response, _ in self?.notify(response) }
        try await connection.requestName("org.bluez")
        logger.log(.info, "bluez", "org.bluez on \(bus): adapter hci0, device \(address)")
    }

    /// Leaves the bus and closes the data sockets. Idempotent.
    public func stop() {
        let (connection, fds) = state.withLock { state in
            defer {
                state.connection = nil
                state.writeAcquired = nil
                state.notifyAcquired = nil
            }
            return (state.connection, [state.writeAcquired, state.notifyAcquired].compactMap { $0 })
        }
        for fd in fds {
            Glibc.shutdown(fd, Int32(SHUT_RDWR))
            Glibc.close(fd)
        }
        connection?.close()
        delayLine.stop()
    }

    // MARK: Faults

    /// Ends the connection as a link loss does: `Connected` and `ServicesResolved` go false, the
    /// GATT objects and acquired sockets go away.
    public func dropLink() {
        disconnect(reason: "link loss")
    }

    /// Removes the adapter (a USB dongle pulled): every object below it goes away.
    public func removeAdapter() {
        disconnect(reason: "adapter removed")
        let (connection, hadDevice) = state.withLock { state -> (DBusConnection?, Bool) in
            defer {
                state.adapterPresent = false
                state.devicePresent = false
                state.discovering = false
            }
            return (state.connection, state.devicePresent)
        }
        if hadDevice { emitRemoved(devicePath, ["org.freedesktop.DBus.Properties", "org.bluez.Device1"], on: connection) }
        emitRemoved(Self.adapterPath, ["org.freedesktop.DBus.Properties", "org.bluez.Adapter1"], on: connection)
    }

    /// Removes the device object (BlueZ forgot it: `RemoveDevice`, or a temporary device expired).
    public func removeDevice() {
        disconnect(reason: "device removed")
        let (connection, had) = state.withLock { state -> (DBusConnection?, Bool) in
            defer { state.devicePresent = false }
            return (state.connection, state.devicePresent)
        }
        if had { emitRemoved(devicePath, ["org.freedesktop.DBus.Properties", "org.bluez.Device1"], on: connection) }
    }

    /// Removes the SMP characteristic while the device stays connected (a firmware update changed
    /// the database: Service Changed).
    public func removeCharacteristic() {
        let (connection, had, fds) = state.withLock { state -> (DBusConnection?, Bool, [Int32]) in
            defer {
                state.characteristicPresent = false
                state.writeAcquired = nil
                state.notifyAcquired = nil
                state.notifying = false
            }
            return (state.connection, state.characteristicPresent, [state.writeAcquired, state.notifyAcquired].compactMap { $0 })
        }
        for fd in fds {
            Glibc.shutdown(fd, Int32(SHUT_RDWR))
            Glibc.close(fd)
        }
        if had { emitRemoved(characteristicPath, ["org.freedesktop.DBus.Properties", "org.bluez.GattCharacteristic1"], on: connection) }
    }

    /// Turns the adapter's radio on or off (`Powered`); off ends a connection.
    public func setPowered(_ powered: Bool) {
        if !powered { disconnect(reason: "adapter powered off") }
        let connection = state.withLock { state -> DBusConnection? in
            state.powered = powered
            if !powered { state.discovering = false }
            return state.connection
        }
        var changed: [(String, DBusValue)] = [("Powered", .bool(powered))]
        if !powered { changed.append(("Discovering", .bool(false))) }
        emitChanged(Self.adapterPath, "org.bluez.Adapter1", changed, on: connection)
    }

    /// Sends `bytes` to the client as one notification, outside any SMP framing (a malformed one).
    public func injectNotification(_ bytes: Data) {
        deliver([bytes])
    }

    /// Whether a client holds the connection.
    public var isConnected: Bool { state.withLock { $0.connected } }

    /// Whether the device is paired (bonded) with the adapter.
    public var isPaired: Bool { state.withLock { $0.paired } }

    /// How many times a client read BlueZ's object tree (`GetManagedObjects`), which every
    /// connection attempt starts with.
    public var objectTreeReads: Int { state.withLock { $0.objectTreeReads } }

    /// How many times a client called `Device1.Pair`.
    public var pairCalls: Int { state.withLock { $0.pairCalls } }

    /// How many complete SMP packets (requests) the device has received from clients, each
    /// retransmission counted.
    public var receivedPackets: Int { state.withLock { $0.receivedPackets } }

    /// Makes the device answer requests (true, the default) or take them without an answer, as a
    /// device busy with something else does; what it received is counted either way.
    public func setAnswering(_ answering: Bool) {
        state.withLock { $0.answering = answering }
    }

    /// Makes `Device1.Disconnect` wait (unanswered, the link still up) until
    /// ``releaseDisconnects()``: a BlueZ slow to tear a link down.
    public func holdDisconnects() {
        state.withLock { $0.holdingDisconnects = true }
    }

    /// How many `Disconnect` calls wait for ``releaseDisconnects()``.
    public var heldDisconnects: Int { state.withLock { $0.heldDisconnects.count } }

    /// Carries out (and answers) the held `Disconnect` calls and stops holding new ones.
    public func releaseDisconnects() {
        let held = state.withLock { state in
            defer {
                state.holdingDisconnects = false
                state.heldDisconnects = []
            }
            return state.heldDisconnects
        }
        // BlueZ answers a Disconnect once the link is down (Connected false, the GATT objects gone).
        for call in held {
            disconnect(reason: "Disconnect")
            call.reply()
        }
    }

    // MARK: Objects and properties

    private func adapterProperties(_ state: State) -> [(String, DBusValue)] {
        [
            ("Address", .string("00:AA:01:00:00:01")), ("AddressType", .string("public")), ("Name", .string("aibuds-standin")),
            ("Alias", .string("aibuds-standin")), ("Class", .uint32(0)), ("Powered", .bool(state.powered)),
            ("PowerState", .string(state.powered ? "on" : "off")), ("Discoverable", .bool(false)),
            ("Pairable", .bool(true)), ("Discovering", .bool(state.discovering)),
            ("UUIDs", .strings(["00001800-0000-1000-8000-00805f9b34fb", "00001801-0000-1000-8000-00805f9b34fb"])),
            ("Modalias", .string("usb:v1D6Bp0246d0541")), ("Roles", .strings(["central", "peripheral"])),
        ]
    }

    private func manufacturerData() -> DBusValue {
        var bytes: [UInt8] = [0x41, 0x42, UInt8(bitPattern: Int8(clamping: product))]
        for part in address.split(separator: ":") { bytes.append(UInt8(part, radix: 16) ?? 0) }
        return .dict("q", "v", [DBusDictEntry(key: .uint16(0xFFFF), value: .variant(.bytes(Data(bytes))))])
    }

    private func deviceProperties(_ state: State) -> [(String, DBusValue)] {
        var properties: [(String, DBusValue)] = [
            ("Address", .string(address)), ("AddressType", .string("random")), ("Name", .string(name)),
            ("Alias", .string(name)), ("Paired", .bool(state.paired)), ("Bonded", .bool(state.paired)),
            ("Trusted", .bool(false)), ("Blocked", .bool(false)), ("LegacyPairing", .bool(false)),
            ("Connected", .bool(state.connected)), ("UUIDs", .strings([Self.smpServiceUUID])),
            ("Adapter", .objectPath(Self.adapterPath)), ("ServicesResolved", .bool(state.servicesResolved)),
            ("ManufacturerData", manufacturerData()),
            ("ServiceData", .dict("s", "v", [])),
        ]
        if state.discovering { properties.append(("RSSI", .int16(Int16(clamping: rssi)))) }
        return properties
    }

    private func serviceProperties() -> [(String, DBusValue)] {
        [("UUID", .string(Self.smpServiceUUID)), ("Device", .objectPath(devicePath)), ("Primary", .bool(true)),
         ("Includes", .array("o", [])), ("Handle", .uint16(0x0010))]
    }

    private func characteristicProperties(_ state: State) -> [(String, DBusValue)] {
        var properties: [(String, DBusValue)] = [
            ("UUID", .string(Self.smpCharacteristicUUID)), ("Service", .objectPath(servicePath)),
            ("Value", .bytes(Data())), ("Notifying", .bool(state.notifying)),
            ("Flags", .strings(options.requiresPairing
                ? ["write-without-response", "notify", "encrypt-write", "encrypt-notify"]
                : ["write-without-response", "notify"])), ("Handle", .uint16(0x0011)),
            ("MTU", .uint16(UInt16(attMTU))),
        ]
        if options.acquire {
            properties.append(("WriteAcquired", .bool(state.writeAcquired != nil)))
            properties.append(("NotifyAcquired", .bool(state.notifyAcquired != nil)))
        }
        return properties
    }

    /// The interfaces and properties of every object that exists now.
    private func managedObjects(_ state: State) -> [(String, [(String, [(String, DBusValue)])])] {
        var objects: [(String, [(String, [(String, DBusValue)])])] = []
        guard state.adapterPresent else { return objects }
        objects.append((Self.adapterPath, [("org.freedesktop.DBus.Introspectable", []), ("org.freedesktop.DBus.Properties", []),
                                           ("org.bluez.Adapter1", adapterProperties(state))]))
        if state.devicePresent {
            objects.append((devicePath, [("org.freedesktop.DBus.Introspectable", []), ("org.freedesktop.DBus.Properties", []),
                                         ("org.bluez.Device1", deviceProperties(state))]))
        }
        if state.gattPresent {
            objects.append((servicePath, [("org.freedesktop.DBus.Introspectable", []), ("org.freedesktop.DBus.Properties", []),
                                          ("org.bluez.GattService1", serviceProperties())]))
            if state.characteristicPresent {
                objects.append((characteristicPath, [("org.freedesktop.DBus.Introspectable", []),
                                                     ("org.freedesktop.DBus.Properties", []),
                                                     ("org.bluez.GattCharacteristic1", characteristicProperties(state))]))
            }
        }
        return objects
    }

    private static func interfacesValue(_ interfaces: [(String, [(String, DBusValue)])]) -> DBusValue {
        .dict("s", "a{sv}", interfaces.map { DBusDictEntry(key: .string($0.0), value: .properties($0.1)) })
    }

    private func interfaces(of path: String, _ state: State) -> [(String, [(String, DBusValue)])]? {
        managedObjects(state).first { $0.0 == path }?.1
    }

    // MARK: Signals

    private func emitChanged(_ path: String, _ interface: String, _ changed: [(String, DBusValue)], on connection: DBusConnection?) {
        try? connection?.emitSignal(
            path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            [.string(interface), .properties(changed), .strings([])])
    }

    private func emitAdded(_ path: String, _ interfaces: [(String, [(String, DBusValue)])], on connection: DBusConnection?) {
        try? connection?.emitSignal(
            path: "/", interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded",
            [.objectPath(path), Self.interfacesValue(interfaces)])
    }

    private func emitRemoved(_ path: String, _ interfaces: [String], on connection: DBusConnection?) {
        try? connection?.emitSignal(
            path: "/", interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesRemoved",
            [.objectPath(path), .strings(interfaces)])
    }

    // MARK: Method calls

    private static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    private static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"

    private func handle(_ call: DBusIncomingCall) {
        let message = call.message
        let path = message.path ?? ""
        let member = message.member ?? ""
        switch message.interface ?? "" {
        case "org.freedesktop.DBus.ObjectManager" where path == "/" && member == "GetManagedObjects":
            let objects = state.withLock { state in
                state.objectTreeReads += 1
                return managedObjects(state)
            }
            call.reply([.dict("o", "a{sa{sv}}", objects.map {
                DBusDictEntry(key: .objectPath($0.0), value: Self.interfacesValue($0.1))
            })])
        case "org.freedesktop.DBus.Properties":
            handleProperties(call, path: path, member: member)
        case "org.freedesktop.DBus.Introspectable":
            call.reply([.string(introspection(of: path))])
        case "org.bluez.Adapter1":
            handleAdapter(call, path: path, member: member)
        case "org.bluez.Device1":
            handleDevice(call, path: path, member: member)
        case "org.bluez.GattCharacteristic1":
            handleCharacteristic(call, path: path, member: member)
        default:
            call.fail(Self.unknownMethod, "no method \(message.interface ?? "?").\(member) on \(path)")
        }
    }

    private func introspection(of path: String) -> String {
        let interfaces = state.withLock { self.interfaces(of: path, $0) } ?? []
        let body = interfaces.map { "<interface name=\"\($0.0)\"/>" }.joined()
        return "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\" "
            + "\"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\"><node>\(body)</node>"
    }

    private func handleProperties(_ call: DBusIncomingCall, path: String, member: String) {
        let arguments = call.message.body
        guard let interface = arguments.first?.stringValue else {
            call.fail("org.freedesktop.DBus.Error.InvalidArgs", "an interface name is required")
            return
        }
        let properties = state.withLock { state in self.interfaces(of: path, state)?.first { $0.0 == interface }?.1 }
        guard let properties else {
            call.fail(Self.unknownObject, "no interface \(interface) at \(path)")
            return
        }
        switch member {
        case "GetAll":
            call.reply([.properties(properties)])
        case "Get":
            guard let name = arguments.dropFirst().first?.stringValue, let value = properties.first(where: { $0.0 == name })?.1 else {
                call.fail("org.freedesktop.DBus.Error.InvalidArgs", "no such property")
                return
            }
            call.reply([.variant(value)])
        case "Set":
            guard interface == "org.bluez.Adapter1", arguments.dropFirst().first?.stringValue == "Powered",
                let value = arguments.dropFirst(2).first?.boolValue
            else {
                call.fail("org.freedesktop.DBus.Error.PropertyReadOnly", "read-only property")
                return
            }
            call.reply()
            setPowered(value)
        default:
            call.fail(Self.unknownMethod, "no method org.freedesktop.DBus.Properties.\(member)")
        }
    }

    private func handleAdapter(_ call: DBusIncomingCall, path: String, member: String) {
        let (present, powered, connection) = state.withLock { ($0.adapterPresent, $0.powered, $0.connection) }
        guard path == Self.adapterPath, present else {
            call.fail(Self.unknownObject, "no adapter at \(path)")
            return
        }
        switch member {
        case "SetDiscoveryFilter":
            let filter = call.message.body.first?.propertyMap ?? [:]
            if let transport = filter["Transport"]?.stringValue, !["auto", "le", "bredr"].contains(transport) {
                call.fail("org.bluez.Error.InvalidArguments", "Invalid Arguments in method call")
                return
            }
            state.withLock { $0.filterUUIDs = (filter["UUIDs"]?.stringArray ?? []).map { $0.lowercased() } }
            call.reply()
        case "GetDiscoveryFilters":
            call.reply([.strings(["UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern"])])
        case "StartDiscovery":
            guard powered else {
                call.fail("org.bluez.Error.NotReady", "Resource Not Ready")
                return
            }
            let sender = call.message.sender ?? ""
            let (wasDiscovering, matches, appeared, snapshot) = state.withLock { state in
                let was = state.discovering
                state.discoveryClients.insert(sender)
                state.discovering = true
                let matches = state.filterUUIDs.isEmpty || state.filterUUIDs.contains(Self.smpServiceUUID)
                let appeared = matches && !state.devicePresent
                if matches { state.devicePresent = true }
                return (was, matches, appeared, state)
            }
            call.reply()
            if !wasDiscovering { emitChanged(Self.adapterPath, "org.bluez.Adapter1", [("Discovering", .bool(true))], on: connection) }
            if appeared {
                emitAdded(devicePath, [("org.freedesktop.DBus.Introspectable", []), ("org.freedesktop.DBus.Properties", []),
                                       ("org.bluez.Device1", deviceProperties(snapshot))], on: connection)
            } else if matches {
                emitChanged(devicePath, "org.bluez.Device1", [("RSSI", .int16(Int16(clamping: rssi)))], on: connection)
            }
        case "StopDiscovery":
            let sender = call.message.sender ?? ""
            let stopped = state.withLock { state -> Bool? in
                guard state.discoveryClients.remove(sender) != nil else { return nil }
                if state.discoveryClients.isEmpty { state.discovering = false }
                return !state.discovering
            }
            guard let stopped else {
                call.fail("org.bluez.Error.Failed", "No discovery started")
                return
            }
            call.reply()
            if stopped { emitChanged(Self.adapterPath, "org.bluez.Adapter1", [("Discovering", .bool(false))], on: connection) }
        case "RemoveDevice":
            guard call.message.body.first?.stringValue == devicePath, state.withLock({ $0.devicePresent }) else {
                call.fail("org.bluez.Error.DoesNotExist", "Does Not Exist")
                return
            }
            call.reply()
            removeDevice()
        default:
            call.fail(Self.unknownMethod, "no method org.bluez.Adapter1.\(member)")
        }
    }

    private func handleDevice(_ call: DBusIncomingCall, path: String, member: String) {
        let (present, powered, connection) = state.withLock { ($0.devicePresent && $0.adapterPresent, $0.powered, $0.connection) }
        guard path == devicePath, present else {
            call.fail(Self.unknownObject, "no device at \(path)")
            return
        }
        switch member {
        case "Connect":
            guard powered else {
                call.fail("org.bluez.Error.NotReady", "Resource Not Ready")
                return
            }
            guard !options.accessDenied else {
                call.fail("org.freedesktop.DBus.Error.AccessDenied",
                          "Rejected send message, 1 matched rules; type=\"method_call\", interface=\"org.bluez.Device1\"")
                return
            }
            guard !options.connectFails else {
                call.fail("org.bluez.Error.Failed", "le-connection-abort-by-local")
                return
            }
            let client = call.message.sender
            let already = state.withLock { state -> Bool in
                defer {
                    state.connected = true
                    state.client = client
                }
                return state.connected
            }
            guard !already else {
                call.fail("org.bluez.Error.AlreadyConnected", "Already Connected")
                return
            }
            emitChanged(devicePath, "org.bluez.Device1", [("Connected", .bool(true))], on: connection)
            call.reply()
            // Service discovery takes a few connection intervals after the link is up.
            let generation = state.withLock { $0.generation }
            guard !options.servicesNeverResolve else { return }
            delayLine.schedule(at: .now + .milliseconds(link == .ble ? 60 : 5)) { [weak self] in
                self?.resolveServices(generation: generation)
            }
        case "Disconnect":
            let held = state.withLock { state -> Bool in
                if state.holdingDisconnects { state.heldDisconnects.append(call) }
                return state.holdingDisconnects
            }
            guard !held else { return }
            disconnect(reason: "Disconnect")
            call.reply()
        case "Pair":
            state.withLock { $0.pairCalls += 1 }
            guard powered else {
                call.fail("org.bluez.Error.NotReady", "Resource Not Ready")
                return
            }
            guard !options.pairingFails else {
                call.fail("org.bluez.Error.AuthenticationFailed", "Authentication Failed")
                return
            }
            guard !options.pairingRejected else {
                call.fail("org.bluez.Error.AuthenticationRejected", "Authentication Rejected")
                return
            }
            let was = state.withLock { state -> Bool in
                defer { state.paired = true }
                return state.paired
            }
            guard !was else {
                call.fail("org.bluez.Error.AlreadyExists", "Already Exists")
                return
            }
            call.reply()
            emitChanged(devicePath, "org.bluez.Device1", [("Paired", .bool(true)), ("Bonded", .bool(true))], on: connection)
        case "CancelPairing":
            call.fail("org.bluez.Error.DoesNotExist", "Does Not Exist")
        default:
            call.fail(Self.unknownMethod, "no method org.bluez.Device1.\(member)")
        }
    }

    private func resolveServices(generation: Int) {
        let (snapshot, connection) = state.withLock { state -> (State?, DBusConnection?) in
            guard state.connected, state.generation == generation, !state.gattPresent else { return (nil, nil) }
            state.gattPresent = !options.withoutSMPService
            state.characteristicPresent = !options.withoutSMPService
            state.servicesResolved = true
            state.inbound = Data()
            return (state, state.connection)
        }
        guard let snapshot else { return }
        guard !options.withoutSMPService else {
            emitChanged(devicePath, "org.bluez.Device1", [("ServicesResolved", .bool(true))], on: connection)
            return
        }
        emitAdded(servicePath, [("org.freedesktop.DBus.Introspectable", []), ("org.freedesktop.DBus.Properties", []),
                                ("org.bluez.GattService1", serviceProperties())], on: connection)
        emitAdded(characteristicPath, [("org.freedesktop.DBus.Introspectable", []), ("org.freedesktop.DBus.Properties", []),
                                       ("org.bluez.GattCharacteristic1", characteristicProperties(snapshot))], on: connection)
        emitChanged(devicePath, "org.bluez.Device1", [("ServicesResolved", .bool(true))], on: connection)
    }

    private func disconnect(reason: String) {
        let (connection, wasConnected, hadGATT, hadCharacteristic, fds) = state.withLock { state in
            defer {
                state.connected = false
                state.servicesResolved = false
                state.gattPresent = false
                state.characteristicPresent = false
                state.notifying = false
                state.writeAcquired = nil
                state.notifyAcquired = nil
                state.client = nil
                state.inbound = Data()
                state.generation += 1
            }
            return (state.connection, state.connected, state.gattPresent, state.characteristicPresent,
                    [state.writeAcquired, state.notifyAcquired].compactMap { $0 })
        }
        for fd in fds {
            Glibc.shutdown(fd, Int32(SHUT_RDWR))
            Glibc.close(fd)
        }
        guard wasConnected else { return }
        logger.log(.info, "bluez", "\(address) disconnected: \(reason)")
        if hadCharacteristic {
            emitRemoved(characteristicPath, ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties",
                                             "org.bluez.GattCharacteristic1"], on: connection)
        }
        if hadGATT {
            emitRemoved(servicePath, ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties",
                                      "org.bluez.GattService1"], on: connection)
        }
        emitChanged(devicePath, "org.bluez.Device1", [("ServicesResolved", .bool(false)), ("Connected", .bool(false))],
                    on: connection)
    }

    // MARK: The SMP characteristic

    private func handleCharacteristic(_ call: DBusIncomingCall, path: String, member: String) {
        let (present, connected, connection) = state.withLock { ($0.characteristicPresent, $0.connected, $0.connection) }
        guard path == characteristicPath, present else {
            call.fail(Self.unknownObject, "no characteristic at \(path)")
            return
        }
        guard connected else {
            call.fail("org.bluez.Error.NotConnected", "Not Connected")
            return
        }
        if options.requiresPairing, ["AcquireWrite", "AcquireNotify", "WriteValue", "StartNotify"].contains(member),
            !state.withLock({ $0.paired })
        {
            // BlueZ's GATT client reports ATT's insufficient authentication or encryption so.
            call.fail("org.bluez.Error.NotPermitted", "Not paired")
            return
        }
        switch member {
        case "ReadValue":
            call.fail("org.bluez.Error.NotPermitted", "Read not permitted")
        case "WriteValue":
            guard let value = call.message.body.first?.dataValue else {
                call.fail("org.bluez.Error.InvalidArguments", "Invalid Arguments in method call")
                return
            }
            let options = call.message.body.dropFirst().first?.propertyMap ?? [:]
            if let type = options["type"]?.stringValue, !["command", "request", "reliable"].contains(type) {
                call.fail("org.bluez.Error.InvalidArguments", "Invalid Arguments in method call")
                return
            }
            guard state.withLock({ $0.writeAcquired == nil }) else {
                call.fail("org.bluez.Error.NotPermitted", "Write acquired")
                return
            }
            guard value.count <= 512 else {
                call.fail("org.bluez.Error.InvalidValueLength", "Invalid Length")
                return
            }
            call.reply()
            receive(fragment: value, peer: call.message.sender ?? "")
        case "AcquireWrite", "AcquireNotify":
            guard options.acquire else {
                call.fail(Self.unknownMethod, "no method org.bluez.GattCharacteristic1.\(member)")
                return
            }
            if options.linkDropsAtFirstAcquire, state.withLock({ state in
                defer { state.droppedAtAcquire = true }
                return !state.droppedAtAcquire
            }) {
                disconnect(reason: "link lost")
                call.fail(Self.unknownObject, "no characteristic at \(path)")
                return
            }
            acquire(call, write: member == "AcquireWrite", connection: connection)
        case "StartNotify":
            let (was, acquired) = state.withLock { state -> (Bool, Bool) in
                let result = (state.notifying, state.notifyAcquired != nil)
                if !result.1 { state.notifying = true }
                return result
            }
            guard !acquired else {
                call.fail("org.bluez.Error.NotPermitted", "Notify acquired")
                return
            }
            call.reply()
            if !was { emitChanged(characteristicPath, "org.bluez.GattCharacteristic1", [("Notifying", .bool(true))], on: connection) }
        case "StopNotify":
            let was = state.withLock { state -> Bool in
                defer { state.notifying = false }
                return state.notifying
            }
            guard was else {
                call.fail("org.bluez.Error.Failed", "No notify session started")
                return
            }
            call.reply()
            emitChanged(characteristicPath, "org.bluez.GattCharacteristic1", [("Notifying", .bool(false))], on: connection)
        default:
            call.fail(Self.unknownMethod, "no method org.bluez.GattCharacteristic1.\(member)")
        }
    }

    private func acquire(_ call: DBusIncomingCall, write: Bool, connection: DBusConnection?) {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            call.fail("org.bluez.Error.Failed", "socketpair: errno \(errno)")
            return
        }
        let ours = pair[0], theirs = pair[1]
        let taken = state.withLock { state -> Bool in
            if write {
                guard state.writeAcquired == nil else { return false }
                state.writeAcquired = ours
            } else {
                guard state.notifyAcquired == nil, !state.notifying else { return false }
                state.notifyAcquired = ours
            }
            return true
        }
        guard taken else {
            Glibc.close(ours)
            Glibc.close(theirs)
            call.fail("org.bluez.Error.NotPermitted", write ? "Write acquired" : "Notify acquired")
            return
        }
        call.reply([.unixFD(theirs), .uint16(UInt16(attMTU))])
        Glibc.close(theirs)  // libdbus sent a duplicate
        let property = write ? "WriteAcquired" : "NotifyAcquired"
        emitChanged(characteristicPath, "org.bluez.GattCharacteristic1", [(property, .bool(true))], on: connection)
        let peer = call.message.sender ?? ""
        let thread = Thread { [weak self] in self?.watch(ours, write: write, peer: peer) }
        thread.name = "aibuds-bluez-\(property)"
        thread.start()
    }

    /// Reads the acquired write socket (each packet one ATT write), or waits for the client to
    /// close the notify socket; then releases it as BlueZ does.
    private func watch(_ fd: Int32, write: Bool, peer: String) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if write {
                let count = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                receive(fragment: Data(buffer[0..<count]), peer: peer)
            } else {
                var poller = pollfd(fd: fd, events: Int16(0x2000), revents: 0)
                let ready = poll(&poller, 1, 200)
                if ready < 0, errno == EINTR { continue }
                let stillOurs = state.withLock { $0.notifyAcquired == fd }
                if !stillOurs { return }
                if ready > 0, poller.revents & Int16(0x2000 | POLLHUP | POLLERR | POLLNVAL) != 0 { break }
            }
        }
        let (released, connection) = state.withLock { state -> (Bool, DBusConnection?) in
            if write, state.writeAcquired == fd {
                state.writeAcquired = nil
                return (true, state.connection)
            }
            if !write, state.notifyAcquired == fd {
                state.notifyAcquired = nil
                return (true, state.connection)
            }
            return (false, state.connection)
        }
        guard released else { return }
        Glibc.close(fd)
        emitChanged(characteristicPath, "org.bluez.GattCharacteristic1",
                    [(write ? "WriteAcquired" : "NotifyAcquired", .bool(false))], on: connection)
    }

    /// Takes one ATT write; a complete SMP packet goes to the handler at its delivery time.
    private func receive(fragment: Data, peer: String) {
        let now = ContinuousClock.now
        let ready: (packets: [Data], at: ContinuousClock.Instant)? = state.withLock { state in
            guard state.connected else { return nil }
            var at = now
            if link == .ble {
                let elapsed = origin.duration(to: now)
                at = origin.advanced(by: state.uplink.deliveryTime(forDatagramOf: fragment.count, at: elapsed))
            }
            state.inbound.append(fragment)
            var packets: [Data] = []
            while state.inbound.count >= 8 {
                let start = state.inbound.startIndex
                let length = Int(state.inbound[start + 2]) << 8 | Int(state.inbound[start + 3])
                guard state.inbound.count >= 8 + length else { break }
                packets.append(Data(state.inbound.prefix(8 + length)))
                state.inbound = Data(state.inbound.dropFirst(8 + length))
            }
            state.receivedPackets += packets.count
            if !state.answering { packets = [] }
            return (packets, at)
        }
        guard let ready, !ready.packets.isEmpty else { return }
        let handler = self.handler
        let emulatorPeer = EmulatorPeer("bluez:\(peer)")
        let work: @Sendable () -> Void = { [weak self] in
            for packet in ready.packets {
                for response in handler.handle(packet, from: emulatorPeer) { self?.notify(response) }
            }
        }
        if ready.at <= now { work() } else { delayLine.schedule(at: ready.at, work) }
    }

    /// Sends one SMP packet to the client as notifications of at most ATT MTU - 3 bytes.
    private func notify(_ packet: Data) {
        let size = attMTU - 3
        var fragments: [Data] = []
        var offset = packet.startIndex
        while offset < packet.endIndex {
            let end = min(offset + size, packet.endIndex)
            fragments.append(Data(packet[offset..<end]))
            offset = end
        }
        deliver(fragments)
    }

    /// Delivers notifications in order, each at its link time.
    private func deliver(_ fragments: [Data]) {
        let now = ContinuousClock.now
        let times: [ContinuousClock.Instant]? = state.withLock { state in
            guard state.connected, state.notifyAcquired != nil || state.notifying else { return nil }
            guard link == .ble else { return fragments.map { _ in now } }
            let elapsed = origin.duration(to: now)
            return fragments.map { origin.advanced(by: state.downlink.deliveryTime(forDatagramOf: $0.count, at: elapsed)) }
        }
        guard let times else { return }
        for (fragment, time) in zip(fragments, times) {
            delayLine.schedule(at: time) { [weak self] in self?.transmit(fragment) }
        }
    }

    private func transmit(_ fragment: Data) {
        let (fd, notifying, connection) = state.withLock { ($0.notifyAcquired, $0.notifying, $0.connection) }
        if let fd {
            _ = fragment.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        } else if notifying {
            emitChanged(characteristicPath, "org.bluez.GattCharacteristic1", [("Value", .bytes(fragment))], on: connection)
        }
    }
}
