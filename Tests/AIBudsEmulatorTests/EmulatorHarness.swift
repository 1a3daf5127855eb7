@testable import AIBudsEmulator
import AIBudsFoundation
import AIBudsSync
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// A fresh temporary folder, removed by `remove()`.
struct TemporaryFolder: Sendable {
    let url: URL

    init(_ label: String = "emu") throws {
        url = try makeTemporaryDirectory(label)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A data plane stand-in that records its sessions: for hotspot tests that are about the control
/// side, not HTTP.
final class RecordingDataPlane: TransferDataPlane {
    private let sessions = Locked<[String]>([])
    private let running = Locked(false)

    func start(store: MediaStore, token: String) throws -> String {
        sessions.withLock { $0.append(token) }
        running.withLock { $0 = true }
        return "http://127.0.0.1:9"
    }

    func stop() { running.withLock { $0 = false } }

    func dropConnections() { drops.withLock { $0 += 1 } }

    let drops = Locked(0)

    var tokens: [String] { sessions.withLock { $0 } }
    var isRunning: Bool { running.withLock { $0 } }
}

/// One emulated device driven directly through its SMP handler on a manual clock: what the SMP
/// client's deterministic tests do with an in-memory transport.
final class DeviceHarness: Sendable {
    let clock = ManualClock()
    let device: EmulatedDevice
    let handler: SMPRequestHandler
    let dataPlane = RecordingDataPlane()
    let peer = EmulatorPeer("127.0.0.1:50000")
    private let deferred = DatagramInbox()
    private let sequence = Locked<UInt8>(0)

    init(profile: DeviceProfile = .glasses, seeds: [MediaSeed]? = nil, stateDirectory: URL? = nil, mtu: Int = 1024,
         maxListResponse: Int? = nil, hotspotDelay: Duration = .zero, capacity: UInt64? = nil) throws {
        let store = try MediaStore(seeds: seeds ?? profile.defaultMedia, capacity: capacity ?? profile.capacity,
                                   stateDirectory: stateDirectory)
        device = try EmulatedDevice(profile: profile, name: "Test \(profile.kind.rawValue)", store: store, mtu: mtu,
                                    maxListResponse: maxListResponse, clock: clock, wallClockOrigin: Date(timeIntervalSince1970: 1_772_000_000),
                                    stateDirectory: stateDirectory, dataPlane: dataPlane, hotspotDelay: hotspotDelay)
        handler = SMPRequestHandler(device: device, clock: clock)
        handler.setDeferredSink { [deferred] data, peer in deferred.append(data, peer) }
    }

    deinit {
        handler.close()
        device.close()
    }

    var store: MediaStore { device.store }

    /// The next sequence number.
    func nextSequence() -> UInt8 {
        sequence.withLock { value in
            value &+= 1
            return value
        }
    }

    /// Sends raw bytes; returns the immediate response datagrams.
    func raw(_ datagram: Data, from peer: EmulatorPeer? = nil) -> [Data] {
        handler.handle(datagram, from: peer ?? self.peer)
    }

    /// The datagram of `request`.
    func datagram<R: SMPRequest>(_ request: R, sequence: UInt8, version: SMPVersion = .v2) throws -> Data {
        try request.packet(sequence: sequence, version: version).encoded()
    }

    /// Sends `request` and decodes its single immediate response: the typed response, or the
    /// device error it carries.
    func send<R: SMPRequest>(_ request: R, version: SMPVersion = .v2) throws -> Result<R.Response, SMPDeviceError> {
        let sequence = nextSequence()
        let responses = raw(try datagram(request, sequence: sequence, version: version))
        #expect(responses.count == 1, "one response to \(R.self)")
        guard let first = responses.first else { throw HarnessError("no response to \(R.self)") }
        return try Self.decode(first, as: R.self, sequence: sequence, version: version)
    }

    /// Sends `request` and expects success.
    func call<R: SMPRequest>(_ request: R, version: SMPVersion = .v2) throws -> R.Response {
        switch try send(request, version: version) {
        case .success(let response): return response
        case .failure(let error): throw error
        }
    }

    /// Sends `request` and expects an error.
    func failure<R: SMPRequest>(_ request: R, version: SMPVersion = .v2) throws -> SMPDeviceError {
        switch try send(request, version: version) {
        case .success(let response): throw HarnessError("expected an error, got \(response)")
        case .failure(let error): return error
        }
    }

    /// Decodes a response datagram to `R`.
    static func decode<R: SMPRequest>(_ datagram: Data, as type: R.Type, sequence: UInt8,
                                      version: SMPVersion) throws -> Result<R.Response, SMPDeviceError> {
        let packet = try SMPPacket.decode(datagram)
        #expect(packet.header.sequence == sequence)
        #expect(packet.header.group == R.group)
        #expect(packet.header.command == R.command)
        #expect(packet.header.operation == R.operation.response)
        #expect(packet.header.version == version)
        let map = try packet.payloadMap()
        if let error = SMPDeviceError.from(response: map, version: version) { return .failure(error) }
        return .success(try R.decodeResponse(payload: packet.payload))
    }

    /// Responses delivered later (held long-polls), taken out of the harness.
    func takeDeferred() -> [(Data, EmulatorPeer)] {
        deferred.take()
    }

    /// Downloads a whole file through the File group, checking every packet fits the MTU.
    func download(_ path: String, version: SMPVersion = .v2) throws -> Data {
        var data = Data()
        var total: UInt64?
        var chunkSizes: [Int] = []
        repeat {
            let sequence = nextSequence()
            let responses = raw(try datagram(FileDownloadRequest(off: UInt64(data.count), name: path), sequence: sequence,
                                             version: version))
            guard let response = responses.first else { throw HarnessError("no download response") }
            #expect(response.count <= device.mtu, "a download response of \(response.count) bytes exceeds the MTU")
            switch try Self.decode(response, as: FileDownloadRequest.self, sequence: sequence, version: version) {
            case .success(let chunk):
                #expect(chunk.off == UInt64(data.count))
                if chunk.off == 0 { total = chunk.len } else { #expect(chunk.len == nil) }
                guard !chunk.data.isEmpty || UInt64(data.count) == total else { throw HarnessError("empty chunk mid-file") }
                data.append(chunk.data)
                chunkSizes.append(chunk.data.count)
            case .failure(let error):
                throw error
            }
        } while UInt64(data.count) < (total ?? 0)
        #expect(Set(chunkSizes.dropLast()).count <= 1, "every chunk but the last has the same size")
        #expect(chunkSizes.last ?? 0 <= chunkSizes.first ?? 0)
        return data
    }
}

/// Datagrams delivered to a sink, in order.
final class DatagramInbox: Sendable {
    private let storage = Locked<[(Data, EmulatorPeer)]>([])

    func append(_ data: Data, _ peer: EmulatorPeer) { storage.withLock { $0.append((data, peer)) } }

    var count: Int { storage.withLock { $0.count } }

    func peek() -> [Data] { storage.withLock { $0.map(\.0) } }

    func take() -> [(Data, EmulatorPeer)] {
        storage.withLock { value in
            defer { value.removeAll() }
            return value
        }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
