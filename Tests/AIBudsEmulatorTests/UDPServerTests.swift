@testable import AIBudsEmulator
import AIBudsDigest
import AIBudsFoundation
import AIBudsNet
import AIBudsSMPClient
import AIBudsTestKit
import AIBudsWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing

/// A raw UDP client for the emulator: sends datagrams and collects what comes back.
final class UDPProbe: Sendable {
    let socket: UDPSocket
    private let inbox = DatagramInbox()

    init(to address: SocketAddress) throws {
        socket = try UDPSocket(remote: address)
        try socket.startReceiving { [inbox] datagram, sender in inbox.append(datagram, EmulatorPeer(sender.description)) }
    }

    deinit { socket.close() }

    func send(_ datagram: Data) throws { try socket.send(datagram) }

    /// Waits until `count` datagrams in total have come; returns all received so far. Throws
    /// `EventuallyTimeout` after `timeout`.
    func receive(count: Int = 1, timeout: Duration = .seconds(60)) async throws -> [Data] {
        try await eventually("\(count) datagrams from the emulator", timeout: timeout) { inbox.count >= count }
        return inbox.peek()
    }

    /// Takes everything received so far.
    func take() -> [Data] { inbox.take().map(\.0) }

    /// Sends `request` and waits for its response; nil on timeout.
    func call<R: SMPRequest>(_ request: R, sequence: UInt8, timeout: Duration = .seconds(60)) async throws -> R.Response? {
        _ = take()
        try send(request.packet(sequence: sequence).encoded())
        let datagram: Data
        do {
            guard let first = try await receive(timeout: timeout).first else { return nil }
            datagram = first
        } catch is EventuallyTimeout {
            return nil
        }
        return try R.decodeResponse(payload: SMPPacket.decode(datagram).payload)
    }
}

/// An emulator on a real socket, stopped by `stop()`.
func startEmulator(_ adjust: (inout EmulatorConfiguration) -> Void = { _ in }) throws -> (Emulator, SocketAddress) {
    var configuration = EmulatorConfiguration()
    configuration.listen = SocketAddress(host: "127.0.0.1", port: 0)
    configuration.announce = false
    adjust(&configuration)
    let emulator = try Emulator(configuration: configuration)
    return (emulator, try emulator.start())
}

@Suite(.timeLimit(.minutes(1))) struct UDPServerTests {
    @Test func twoEmulatorsSideBySideOnOnePort() async throws {
        // Each on a loopback host of its own, checked free (never a fixed address another program may hold).
        let (glasses, glassesHost) = try startEmulatorOnOwnLoopbackHost(port: 1337) {
            $0.announce = false
            $0.name = "Left"
        }
        defer { glasses.stop() }
        let (watch, watchHost) = try startEmulatorOnOwnLoopbackHost(port: 1337) {
            $0.announce = false
            $0.profile = .watch
            $0.name = "Right"
        }
        defer { watch.stop() }
        let glassesAddress = SocketAddress(host: glassesHost, port: 1337)
        let watchAddress = SocketAddress(host: watchHost, port: 1337)
        #expect(glassesAddress.port == 1337 && watchAddress.port == 1337)
        let left = try SMPClient(transport: UDPTransport(address: glassesAddress))
        defer { left.close() }
        let right = try SMPClient(transport: UDPTransport(address: watchAddress))
        defer { right.close() }
        #expect(try await left.send(DeviceInfoRequest()).name == "Left")
        let rightInfo = try await right.send(DeviceInfoRequest())
        #expect(rightInfo.name == "Right" && rightInfo.product == DeviceProduct.watch.rawValue)
        // The SDK's own client downloads (pipelined, SHA-256 verified) from the emulator.
        let file = try #require(try await right.send(MediaListRequest()).files.first)
        var bytes = Data()
        try await right.downloadFile(path: "/media/" + file.name) { bytes.append($0) }
        #expect(UInt64(bytes.count) == file.size)
    }

    @Test func malformedDatagramsOverUDPLeaveTheServerServing() async throws {
        let (emulator, address) = try startEmulator()
        defer { emulator.stop() }
        let probe = try UDPProbe(to: address)
        var random = SeededRandom(seed: 7)
        for index in 0..<300 {
            let count = index == 0 ? 0 : Int(random.next() % 1500)
            try probe.send(Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        }
        try probe.send(Data(repeating: 0xA0, count: 65_000))
        #expect(try await probe.call(OSEchoRequest(d: "alive"), sequence: 1)?.r == "alive")
    }

    @Test func theBLELinkMakesEveryStopAndWaitExchangeWaitForTheInterval() async throws {
        let (emulator, address) = try startEmulator { $0.link = .ble }
        defer { emulator.stop() }
        let probe = try UDPProbe(to: address)
        #expect(try await probe.call(DeviceInfoRequest(), sequence: 0)?.mtu == 976)
        #expect(try await probe.call(OSParamsRequest(), sequence: 1)?.bufSize == 976)
        for sequence in UInt8(2)..<8 {
            let start = ContinuousClock.now
            let response = try await probe.call(FileDownloadRequest(off: 0, name: "/media/AUD_20260301_104000.m4a"), sequence: sequence)
            let elapsed = ContinuousClock.now - start
            #expect(response?.data.count ?? 0 > 900)
            #expect(elapsed >= .milliseconds(15), "a stop-and-wait exchange took \(elapsed)")
        }
        // 40 requests at once: their responses need 160 link packets, at most 11 per 15 ms.
        let start = ContinuousClock.now
        _ = probe.take()
        for index in 0..<40 {
            try probe.send(FileDownloadRequest(off: UInt64(index * 900), name: "/media/AUD_20260301_104000.m4a")
                .packet(sequence: UInt8(100 + index)).encoded())
        }
        let responses = try await probe.receive(count: 40, timeout: .seconds(20))
        let elapsed = ContinuousClock.now - start
        #expect(responses.count == 40)
        #expect(responses.allSatisfy { $0.count <= 976 })
        #expect(elapsed >= .milliseconds(14 * 15), "40 pipelined responses took \(elapsed)")
    }

    @Test func faultsLoseAndDuplicateDatagrams() async throws {
        // The server decides the fate of its datagrams in order from the seed (the first request,
        // the second, the second's answer): a seed that loses the first and delivers the others.
        let seed = try #require((1...1_000).first { seed in
            var faults = DatagramFaults(try! FaultConfiguration.parse(["lose=0.5,seed=\(seed)"]))
            return faults.plan().isEmpty && !faults.plan().isEmpty && !faults.plan().isEmpty
        })
        let (lossy, lossyAddress) = try startEmulator { $0.faults = try! FaultConfiguration.parse(["lose=0.5,seed=\(seed)"]) }
        defer { lossy.stop() }
        let lost = try UDPProbe(to: lossyAddress)
        try lost.send(OSEchoRequest(d: "lost").packet(sequence: 1).encoded())
        try lost.send(OSEchoRequest(d: "kept").packet(sequence: 2).encoded())
        // One peer's datagrams are handled and answered in order: an answer to the first would come
        // before the second's.
        let kept = try SMPPacket.decode(try #require(try await lost.receive().first))
        #expect(kept.header.sequence == 2, "the first request was answered")

        let (doubling, doublingAddress) = try startEmulator { $0.faults = try! FaultConfiguration.parse(["duplicate=1,seed=3"]) }
        defer { doubling.stop() }
        let probe = try UDPProbe(to: doublingAddress)
        try probe.send(OSEchoRequest(d: "twice").packet(sequence: 9).encoded())
        // The request arrives twice (the second from the replay cache) and each answer is doubled.
        let responses = try await probe.receive(count: 4)
        #expect(responses.count == 4)
        #expect(Set(responses).count == 1)
    }

    @Test func faultsDelayDatagramsAndInjectErrors() async throws {
        let (slow, slowAddress) = try startEmulator { $0.faults = try! FaultConfiguration.parse(["delay=100"]) }
        defer { slow.stop() }
        let probe = try UDPProbe(to: slowAddress)
        let start = ContinuousClock.now
        #expect(try await probe.call(OSEchoRequest(d: "late"), sequence: 1)?.r == "late")
        #expect(ContinuousClock.now - start >= .milliseconds(200), "100 ms each way")

        let (failing, failingAddress) = try startEmulator { $0.faults = try! FaultConfiguration.parse(["error=1"]) }
        defer { failing.stop() }
        let client = try SMPClient(transport: UDPTransport(address: failingAddress))
        defer { client.close() }
        let before = failing.device.store.generation
        let deleteError = await #expect(throws: SMPError.self) {
            _ = try await client.send(MediaDeleteRequest(name: "AUD_20260301_104000.m4a"))
        }
        #expect(deleteError?.deviceError == SMPDeviceError(group: 65, rc: 5, version: .v2))
        let echoError = await #expect(throws: SMPError.self) { _ = try await client.send(OSEchoRequest(d: "x")) }
        #expect(echoError?.deviceError?.mgmtError == .busy)
        #expect(failing.device.store.generation == before, "an injected error executes nothing")
    }

    @Test func aHeldLongPollIsAnsweredOverUDPWhenTheDeviceChanges() async throws {
        let (emulator, address) = try startEmulator()
        defer { emulator.stop() }
        let watcher = try UDPProbe(to: address)
        let actor = try UDPProbe(to: address)
        let generation = emulator.device.store.generation
        try watcher.send(MediaChangedRequest(since: generation, waitMs: 30_000).packet(sequence: 1).encoded())
        // Not answered at once: an echo sent after it on the same socket is answered first (the
        // server handles one peer's datagrams in order, answering each before reading the next).
        try watcher.send(OSEchoRequest(d: "after").packet(sequence: 2).encoded())
        let first = try SMPPacket.decode(try #require(try await watcher.receive().first))
        #expect(first.header.group == OSEchoRequest.group && first.header.sequence == 2, "the held poll was answered at once")
        #expect(try await actor.call(CaptureAudioStartRequest(), sequence: 1) != nil)
        let name = try #require(try await actor.call(CaptureAudioStopRequest(), sequence: 2)).name
        let answer = try #require(try await watcher.receive(count: 2).last)
        #expect(try MediaChangedRequest.decodeResponse(payload: SMPPacket.decode(answer).payload)
            == MediaChangedResponse(generation: generation + 1, types: [2]))
        #expect(emulator.device.store.record(named: MediaFileName(name)) != nil)
    }

    @Test func transferModeServesTheStoreOverHTTPWithTheSessionToken() async throws {
        let (emulator, address) = try startEmulator { $0.faults = try! FaultConfiguration.parse(["slow-hotspot=1000"]) }
        defer { emulator.stop() }
        let client = try SMPClient(transport: UDPTransport(address: address))
        defer { client.close() }
        _ = try await client.send(HotspotConfigureRequest(mode: 1, channel: 6, ssid: "g", password: "password1"))
        let entered = ContinuousClock.now
        _ = try await client.send(HotspotEnterTransferRequest())
        var state = try await client.send(HotspotStateRequest())
        try await eventually("the hotspot to open") {
            if state.state == 0 { state = try await client.send(HotspotStateRequest()) }
            return state.state != 0
        }
        #expect(ContinuousClock.now - entered >= .milliseconds(1000), "the hotspot opened only after the delay")
        let baseURL = try #require(state.baseURL)
        let token = try #require(state.token)
        #expect(state.state == 1 && baseURL.hasPrefix("http://127.0.0.1:"))

        let session = URLSession(configuration: .ephemeral)
        var request = URLRequest(url: try #require(URL(string: baseURL + "/media/VID_20260301_103010.mp4")))
        let (_, unauthorised) = try await session.data(for: request)
        #expect((unauthorised as? HTTPURLResponse)?.statusCode == 401)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (body, response) = try await session.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let object = try #require(emulator.device.store.object(named: MediaFileName("VID_20260301_103010.mp4")))
        #expect(SHA256.hash(body) == (try emulator.device.store.digest(.sha256, of: object).digest).sha256Bytes)
        var sidecar = URLRequest(url: try #require(URL(string: baseURL + "/media/VID_20260301_103010.mp4.gcsv")))
        sidecar.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (gcsv, _) = try await session.data(for: sidecar)
        #expect(String(decoding: gcsv.prefix(16), as: UTF8.self) == "GYROFLOW IMU LOG")

        _ = try await client.send(HotspotLeaveTransferRequest())
        #expect(try await client.send(HotspotStateRequest()).state == 0)
        await #expect(throws: (any Error).self) { _ = try await session.data(for: request) }
    }

    @Test func stateAndAnnouncementFollowTheEmulatorsLife() async throws {
        let folder = try TemporaryFolder("life")
        defer { folder.remove() }
        let discovery = folder.url.appendingPathComponent("devices")
        let state = folder.url.appendingPathComponent("state")
        func configure(_ configuration: inout EmulatorConfiguration) {
            configuration.announce = true
            configuration.discoveryDirectory = discovery
            configuration.stateDirectory = state
            configuration.profile = .earbuds
            configuration.name = "Buds"
        }
        let (first, address) = try startEmulator(configure)
        let file = try #require(first.announcementFile)
        #expect(file.lastPathComponent == "\(getpid())-\(address.port).json")
        let announcement = try JSONDecoder().decode(DiscoveryAnnouncement.self, from: Data(contentsOf: file))
        #expect(announcement == DiscoveryAnnouncement(name: "Buds", address: "udp://\(address)", product: 4,
                                                      mac: first.device.identity.mac, pid: getpid(), rssi: -60))
        let client = try SMPClient(transport: UDPTransport(address: address))
        let generation = try await client.send(MediaDeleteRequest(name: "REC_20260301_083000.opus")).generation
        _ = try await client.uploadFile(path: "/media/new.opus", data: Data(repeating: 5, count: 3000))
        _ = try await client.send(DeviceLanguageWriteRequest(language: "ko"))
        client.close()
        first.stop()
        #expect(!FileManager.default.fileExists(atPath: file.path))

        let (second, secondAddress) = try startEmulator(configure)
        defer { second.stop() }
        let again = try SMPClient(transport: UDPTransport(address: secondAddress))
        defer { again.close() }
        let list = try await again.send(MediaListRequest())
        #expect(list.generation == generation + 1)
        #expect(list.files.map(\.name) == ["REC_20260301_080000.opus", "REC_20260301_090000.wav", "new.opus"])
        #expect(try await again.send(DeviceLanguageReadRequest()).language == "ko")
        #expect(second.device.identity == first.device.identity)
    }
}

extension MediaDigest {
    /// The bytes of a SHA-256 digest.
    var sha256Bytes: [UInt8]? {
        if case .sha256(let bytes) = self { return bytes }
        return nil
    }
}
