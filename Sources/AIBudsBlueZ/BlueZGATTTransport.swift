import AIBuds
import AIBudsDBus
import AIBudsFoundation
import AIBudsLog
import AIBudsSMPClient
import AIBudsSync
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// SMP over GATT through BlueZ, as Zephyr's mcumgr carries it: requests written without response
/// to the SMP characteristic, responses notified by it, each SMP packet cut into ATT values of
/// at most ATT MTU - 3 bytes and put together again from its header's length.
///
/// Writes go through the `AcquireWrite` socket where BlueZ offers it, else `WriteValue` with
/// `type=command` (in order, one at a time); notifications come from the `AcquireNotify` socket,
/// else from `StartNotify` and `PropertiesChanged` of `Value`. The transport fails (the SMP client
/// then fails every request, and the device treats it as a link loss) when `Connected` goes false,
/// when the characteristic, device or adapter leaves BlueZ's tree, when BlueZ leaves the bus, or
/// when the notification socket closes.
final class BlueZGATTTransport: SMPTransport {
    /// The largest SMP packet sent (the device's `buf_size` lowers the client's MTU further).
    let mtu: Int
    /// Value bytes per ATT write or notification (the acquired MTU - 3).
    let frameSize: Int
    let bus: BlueZBus
    let devicePath: String
    let adapterPath: String
    let characteristicPath: String
    /// Whether writes and notifications go through acquired sockets.
    let acquiredWrite: Bool
    /// True with an acquired write socket (in order, nothing lost while the link stands), so the
    /// SMP client never sends a request twice; `WriteValue` calls may fail one by one.
    var deliversReliably: Bool { acquiredWrite }
    let acquiredNotify: Bool

    private struct State {
        var writeFD: Int32?
        var notifyFD: Int32?
        var onReceive: (@Sendable (Data) -> Void)?
        var onFailure: (@Sendable (any Error) -> Void)?
        var failed = false
        var closed = false
        var reassembly = SMPReassembler()
        var signalToken: UInt64?
        /// Whether the notification thread reads `notifyFD`: then that thread closes it when its
        /// loop ends, so that `close()` never frees a number the thread may still read.
        var readerOwnsNotifyFD = false
    }

    /// How long a write waits for room in a full socket before the link counts as broken.
    static let writeStallLimit: Duration = .seconds(10)

    private let state: Locked<State>
    private let writeLock = Locked<Void>(())
    private let valueWrites: AsyncStream<Data>.Continuation?
    private let logger: any LogService

    init(bus: BlueZBus, adapterPath: String, devicePath: String, characteristicPath: String, writeFD: Int32?, notifyFD: Int32?,
         attMTU: Int, logger: any LogService) {
        self.bus = bus
        self.adapterPath = adapterPath
        self.devicePath = devicePath
        self.characteristicPath = characteristicPath
        self.logger = logger
        frameSize = max(attMTU - BlueZ.attHeader, 20)
        mtu = 1024
        acquiredWrite = writeFD != nil
        acquiredNotify = notifyFD != nil
        state = Locked(State(writeFD: writeFD, notifyFD: notifyFD))
        if writeFD == nil {
            let (stream, continuation) = AsyncStream<Data>.makeStream()
            valueWrites = continuation
            let path = characteristicPath
            Task { [weak bus] in
                for await frame in stream {
                    guard let bus else { return }
                    do {
                        _ = try await bus.call(
                            path, "org.bluez.GattCharacteristic1", "WriteValue",
                            [.bytes(frame), .properties([("type", .string("command"))])], timeout: .seconds(5),
                            what: "WriteValue")
                    } catch {
                        logger.log(.debug, "bluez", "a WriteValue failed (the SMP client retransmits): \(error)")
                    }
                }
            }
        } else {
            valueWrites = nil
        }
    }

    deinit { close() }

    func start(onReceive: @escaping @Sendable (Data) -> Void, onFailure: @escaping @Sendable (any Error) -> Void) throws {
        let token = bus.connection.onSignal { [weak self] signal in self?.signal(signal) }
        let notifyFD = state.withLock { state -> Int32? in
            state.onReceive = onReceive
            state.onFailure = onFailure
            state.signalToken = token
            state.readerOwnsNotifyFD = state.notifyFD != nil
            return state.notifyFD
        }
        bus.connection.onDisconnect { [weak self] in
            self?.fail(AIBudsError(.peripheralNotConnected, "the D-Bus connection to BlueZ ended"))
        }
        if let notifyFD {
            let thread = Thread { [weak self] in
                self?.readNotifications(notifyFD)
                Glibc.close(notifyFD)
            }
            thread.name = "aibuds-bluez-notify"
            thread.start()
        }
    }

    func send(_ datagram: Data) throws {
        var frames: [Data] = []
        var offset = datagram.startIndex
        while offset < datagram.endIndex {
            let end = min(offset + frameSize, datagram.endIndex)
            frames.append(Data(datagram[offset..<end]))
            offset = end
        }
        // The frames of one packet go out together, never interleaved with another packet's. The
        // descriptor is read under the write lock, which `close()` takes before it closes it, so
        // a write never reaches a number that was closed and perhaps reused meanwhile.
        try writeLock.withLock { _ throws(AIBudsError) in
            let (fd, closed) = state.withLock { ($0.writeFD, $0.closed || $0.failed) }
            guard !closed else { throw AIBudsError(.peripheralNotConnected, "the BLE link is closed") }
            guard let fd else {
                for frame in frames { valueWrites?.yield(frame) }
                return
            }
            let deadline = ContinuousClock.now + Self.writeStallLimit
            for frame in frames {
                while true {
                    let sent = frame.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if sent == frame.count { break }
                    if sent < 0, errno == EINTR { continue }
                    if sent < 0, errno == EAGAIN {
                        guard ContinuousClock.now < deadline else {
                            throw AIBudsError(.blePacketWriteError, "the SMP characteristic took no data for \(Self.writeStallLimit)")
                        }
                        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&poller, 1, 1000)
                        continue
                    }
                    throw AIBudsError(.blePacketWriteError, "cannot write to the SMP characteristic (errno \(errno))")
                }
            }
        }
    }

    func close() {
        let (writeFD, notifyFD, readerOwnsNotifyFD, token, wasOpen) = state.withLock {
            state -> (Int32?, Int32?, Bool, UInt64?, Bool) in
            let wasOpen = !state.closed
            defer {
                state.closed = true
                state.writeFD = nil
                state.notifyFD = nil
                state.onReceive = nil
                state.onFailure = nil
                state.signalToken = nil
            }
            return (state.writeFD, state.notifyFD, state.readerOwnsNotifyFD, state.signalToken, wasOpen)
        }
        guard wasOpen else { return }
        // Shutting down wakes a write waiting for room and ends the notification thread's read;
        // the write socket is closed once no write holds it, the notification socket by its
        // reader (or here, when no reader took it).
        for fd in [writeFD, notifyFD].compactMap({ $0 }) { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
        if let writeFD { writeLock.withLock { _ in _ = Glibc.close(writeFD) } }
        if let notifyFD, !readerOwnsNotifyFD { Glibc.close(notifyFD) }
        if let token { bus.connection.removeSignalHandler(token) }
        valueWrites?.finish()
        // Ends the link as the SDK's disconnect means it; then leaves the bus. A new link to the
        // device waits for this (PendingDisconnects), so it cannot end that link. The wait is
        // long (32 s, LE's longest supervision timeout): BlueZ answers a Disconnect once the link
        // is down, which takes a few connection intervals on a radio and up to the supervision
        // timeout when the device is gone, and a new link that stopped waiting first would be
        // ended by it. (At 10 s, a test holding the Disconnect on a loaded machine saw exactly
        // that.)
        let bus = self.bus, devicePath = self.devicePath
        PendingDisconnects.start(bus: bus.connection.address, device: devicePath) {
            _ = try? await bus.call(devicePath, "org.bluez.Device1", "Disconnect", timeout: .seconds(32), what: "Disconnect")
            bus.close()
        }
    }

    // MARK: Receiving

    private func readNotifications(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            receive(Data(buffer[0..<count]))
        }
        fail(AIBudsError(.peripheralNotConnected, "BlueZ closed the notification socket of \(characteristicPath)"))
    }

    /// Takes one notification's value.
    func receive(_ value: Data) {
        let (packets, handler, dropped) = state.withLock { state -> ([Data], (@Sendable (Data) -> Void)?, Int) in
            let before = state.reassembly.dropped
            let packets = state.reassembly.add(value, at: ContinuousClock.now)
            return (packets, state.onReceive, state.reassembly.dropped - before)
        }
        if dropped > 0 { logger.log(.warning, "bluez", "dropped \(dropped) malformed notification bytes from \(devicePath)") }
        for packet in packets { handler?(packet) }
    }

    private func signal(_ signal: DBusMessage) {
        switch (signal.interface, signal.member) {
        case ("org.freedesktop.DBus.Properties", "PropertiesChanged"):
            guard let interface = signal.body.first?.stringValue, let changed = signal.body.dropFirst().first?.propertyMap else { return }
            if interface == "org.bluez.Device1", signal.path == devicePath, changed["Connected"]?.boolValue == false {
                fail(AIBudsError(.peripheralNotConnected, "the BLE link to \(devicePath) was lost"))
            } else if interface == "org.bluez.Adapter1", signal.path == adapterPath, changed["Powered"]?.boolValue == false {
                fail(AIBudsError(.scanningFailedDueToBluetoothPoweredOff, "the Bluetooth adapter was powered off"))
            } else if interface == "org.bluez.GattCharacteristic1", signal.path == characteristicPath, !acquiredNotify,
                let value = changed["Value"]?.dataValue
            {
                receive(value)
            }
        case ("org.freedesktop.DBus.ObjectManager", "InterfacesRemoved"):
            guard let path = signal.body.first?.stringValue else { return }
            if path == characteristicPath {
                fail(AIBudsError(.deviceNotSupport, "the SMP characteristic of \(devicePath) went away"))
            } else if path == devicePath {
                fail(AIBudsError(.peripheralUnavailable, "BlueZ removed the device \(devicePath)"))
            } else if path == adapterPath {
                fail(AIBudsError(.scanningFailedDueToBluetoothUnsupported, "the Bluetooth adapter \(adapterPath) was removed"))
            }
        case ("org.freedesktop.DBus", "NameOwnerChanged"):
            if signal.body.count == 3, signal.body[0].stringValue == BlueZ.service, signal.body[2].stringValue?.isEmpty == true {
                fail(AIBudsError(.peripheralNotConnected, "BlueZ left the bus"))
            }
        default:
            return
        }
    }

    private func fail(_ error: AIBudsError) {
        let handler = state.withLock { state -> (@Sendable (any Error) -> Void)? in
            guard !state.failed, !state.closed else { return nil }
            state.failed = true
            return state.onFailure
        }
        guard let handler else { return }
        logger.log(.info, "bluez", error.message)
        handler(error)
    }
}

/// Puts SMP packets together from notification values: a packet starts a value, its 8-byte header
/// gives its length, and it may span several values.
///
/// A value that cannot start a response (shorter than a header, or not a response operation)
/// while no packet is open is dropped; so is a partial packet that the next value does not
/// continue within two seconds.
struct SMPReassembler: Sendable {
    private var buffer = Data()
    private var startedAt: ContinuousClock.Instant?
    /// Bytes dropped as malformed so far.
    private(set) var dropped = 0

    /// Adds one value received at `now` and returns the packets it completes.
    mutating func add(_ value: Data, at now: ContinuousClock.Instant) -> [Data] {
        if let startedAt, now - startedAt > .seconds(2) {
            dropped += buffer.count
            buffer = Data()
            self.startedAt = nil
        }
        if buffer.isEmpty {
            guard value.count >= 8, Self.isResponseOperation(value[value.startIndex]) else {
                dropped += value.count
                return []
            }
            startedAt = now
        }
        buffer.append(value)
        var packets: [Data] = []
        while buffer.count >= 8 {
            let start = buffer.startIndex
            let length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            guard buffer.count >= 8 + length else { break }
            packets.append(Data(buffer.prefix(8 + length)))
            buffer = Data(buffer.dropFirst(8 + length))
            if !buffer.isEmpty, !Self.isResponseOperation(buffer[buffer.startIndex]) {
                dropped += buffer.count
                buffer = Data()
            }
        }
        startedAt = buffer.isEmpty ? nil : (startedAt ?? now)
        return packets
    }

    /// Read response (1) or write response (3), in the low three bits of the first header byte.
    private static func isResponseOperation(_ byte: UInt8) -> Bool {
        let operation = byte & 0x07
        return operation == 1 || operation == 3
    }
}
