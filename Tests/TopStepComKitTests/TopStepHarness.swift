import AIBuds
import AIBudsEmulator
import AIBudsFoundation
import AIBudsSMP
import AIBudsSMPClient
import AIBudsSync
import AIBudsTestKit
import AIBudsCBOR
import AIBudsWire
import Foundation
import Testing
@testable import TopStepComKit

/// Whether a device is connected, switchable by a test, and how often the SDK asked.
final class Connectivity: Sendable {
    private let state = Locked((connected: true, reads: 0))
    /// Whether it is connected (counted as a read).
    var isConnected: Bool {
        get { state.withLock { $0.reads += 1; return $0.connected } }
        set { state.withLock { $0.connected = newValue } }
    }
    /// How many times `isConnected` was read.
    var reads: Int { state.withLock { $0.reads } }
}

/// An SMP transport in front of another that lets a test rewrite received datagrams.
final class RewritingTransport: SMPTransport {
    let inner: InMemoryTransport
    private let rewrite: @Sendable (Int, Data) -> Data
    private let count = Locked(0)

    init(_ inner: InMemoryTransport, rewrite: @escaping @Sendable (_ index: Int, _ datagram: Data) -> Data) {
        self.inner = inner
        self.rewrite = rewrite
    }

    var mtu: Int { inner.mtu }

    func start(onReceive: @escaping @Sendable (Data) -> Void, onFailure: @escaping @Sendable (any Error) -> Void) throws {
        try inner.start(onReceive: { [self] datagram in
            let index = count.withLock { value in
                defer { value += 1 }
                return value
            }
            onReceive(rewrite(index, datagram))
        }, onFailure: onFailure)
    }

    func send(_ datagram: Data) throws { try inner.send(datagram) }
    func close() { inner.close() }
}

/// An emulated watch (or another profile) with the real SMP request handler (`InMemoryDevice`),
/// reached by an `SMPClient` over an in-memory transport, bound to a fresh `TopStepComKit`.
final class WatchRig: Sendable {
    let emulated: InMemoryDevice
    let kit: TopStepComKit
    let connectivity = Connectivity()
    /// The client end of the link (what the SDK sent).
    let clientEnd: InMemoryTransport
    let client: SMPClient
    let identity: String
    private let folder: URL

    /// The emulated device.
    var device: EmulatedDevice { emulated.device }
    /// Its SMP handler.
    var handler: SMPRequestHandler { emulated.handler }

    /// A watch with `seeds` (the profile's default files when nil); the client's retransmissions and
    /// timeouts run on `clock`.
    init(
        profile: DeviceProfile = .watch, seeds: [MediaSeed]? = nil, identity: String = UUID().uuidString,
        link: InMemoryLink = InMemoryLink(), configuration: SMPClientConfiguration = .fastTest,
        rewrite: (@Sendable (Int, Data) -> Data)? = nil, kit: TopStepComKit = TopStepComKit(),
        clock: any Clock<Duration> = ContinuousClock()
    ) throws {
        emulated = try InMemoryDevice(profile: profile, files: seeds ?? profile.defaultMedia)
        let clientEnd = emulated.connect(link: link)
        self.clientEnd = clientEnd
        let transport: any SMPTransport = rewrite.map { RewritingTransport(clientEnd, rewrite: $0) } ?? clientEnd
        client = try SMPClient(transport: transport, configuration: configuration, clock: clock)
        self.identity = identity
        self.kit = kit
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("topstep-\(UUID().uuidString)")
        let connectivity = self.connectivity
        kit.bind(SMPMediaChannel(
            client: client, uuid: try #require(UUID(uuidString: identity)),
            capabilities: Set(profile.capabilities.map(DeviceCapability.init(rawValue:))),
            isConnected: { connectivity.isConnected }))
    }

    deinit {
        kit.mediaFileService.observer.stop()
        client.close()
        emulated.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A folder path under this rig's scratch folder (not created).
    func scratch(_ path: String) -> String { folder.appendingPathComponent(path).path }

    /// The device's media interface.
    var media: any TSMediaFileInterface { kit.mediaFile }

    /// How many datagrams the SDK has sent to the device.
    var sentCount: Int { clientEnd.sentDatagrams.count }

    /// The SMP packets the SDK sent, decoded.
    var sentPackets: [SMPPacket] { clientEnd.sentDatagrams.compactMap { try? SMPPacket.decode($0) } }

    /// The offsets of every File download request the SDK sent (retransmissions included).
    var downloadOffsets: [UInt64] {
        sentPackets.filter { $0.header.group == SMPGroupID.file && $0.header.command == 0 }
            .compactMap { try? CBORDecoder().decode(FileDownloadRequest.self, from: $0.payload).off }
    }

    /// The device's bytes of a file.
    func deviceBytes(_ name: String) throws -> Data {
        let object = try #require(device.store.object(named: MediaFileName(name)))
        return try device.store.read(object, offset: 0, count: Int(object.size))
    }

    /// Simulates the link going away: calls fail as not connected, in-flight ones end.
    func disconnect() {
        connectivity.isConnected = false
        client.close()
    }
}

extension InMemoryLink {
    /// A link that loses the device's responses whose index (counted from 0 over the responses)
    /// `lose` picks; requests always arrive.
    static func losingResponses(_ lose: @escaping @Sendable (Int) -> Bool) -> InMemoryLink {
        InMemoryLink { direction, index, _ in direction == .inbound && lose(index) }
    }
}

extension InMemoryLink {
    /// A link that drops mid-transfer and comes back: the device's response with index `start`
    /// is lost, and so is every answer to that request's retransmissions, until the request has
    /// been sent `transmissions` times (the SDK then gives up on it however late its timers fire;
    /// an outage measured in wall-clock time could end before that on a loaded machine). The
    /// default is what `SMPClientConfiguration.fastTest` sends.
    static func dropping(
        response start: Int, transmissions: Int = SMPClientConfiguration.fastTest.retransmissions + 1
    ) -> InMemoryLink {
        struct Outage {
            var sequence: UInt8
            var sent = 1
        }
        let state = Locked<(outage: Outage?, over: Bool)>((nil, false))
        return InMemoryLink(drop: { direction, index, datagram in
            guard datagram.count >= 8 else { return false }
            let sequence = datagram[datagram.startIndex + 6]  // SMP header byte 6
            return state.withLock { state in
                guard !state.over else { return false }
                if state.outage == nil, direction == .inbound, index >= start { state.outage = Outage(sequence: sequence) }
                guard var outage = state.outage, outage.sequence == sequence else { return false }
                if direction == .outbound {
                    outage.sent += 1
                    state.outage = outage
                    return false
                }
                state.over = outage.sent >= transmissions
                return true
            }
        })
    }
}

extension SMPClientConfiguration {
    /// Quick retransmissions, so that lost datagrams cost milliseconds in tests.
    static var fastTest: SMPClientConfiguration {
        SMPClientConfiguration(retransmitInterval: .milliseconds(40), retransmissions: 3, window: 8)
    }
}

/// The outcome of one facade call as the test saw it, plus how often its completion ran.
struct Outcome<Value: Sendable>: Sendable {
    var value: Value?
    var error: NSError?
    var calls: Int
}

/// Awaits a facade call whose completion must run exactly once on the main queue; returns its
/// arguments and the number of completion calls seen after the main queue drained.
func callOnce<Value: Sendable>(
    _ start: (@escaping @MainActor @Sendable (Value?, NSError?) -> Void) -> Void
) async -> Outcome<Value> {
    let calls = Recorder<Int>()
    let (value, error) = await withCheckedContinuation { (continuation: CheckedContinuation<(Value?, NSError?), Never>) in
        start { value, error in
            dispatchPrecondition(condition: .onQueue(.main))
            calls.append(1)
            // A second call is recorded and reported below, not resumed twice.
            if calls.values.count == 1 { continuation.resume(returning: (value, error)) }
        }
    }
    try? await Task.sleep(for: .milliseconds(20))
    await drainMainQueue()
    return Outcome(value: value, error: error, calls: calls.values.count)
}

extension TSMediaFileInterface {
    /// `fetchMediaFiles` awaited.
    func fetch(_ type: TSMediaFileType = .audioRecording) async -> Outcome<[TSMediaFileModel]> {
        await callOnce { done in fetchMediaFiles(of: type, completion: done) }
    }

    /// `downloadMediaFile` awaited, with the progress values seen (on the main queue).
    func download(_ model: TSMediaFileModel, to folder: String) async -> (Outcome<String>, [Double]) {
        let progress = Recorder<Double>()
        let outcome: Outcome<String> = await callOnce { done in
            downloadMediaFile(model, localFolderPath: folder, progress: { value in
                dispatchPrecondition(condition: .onQueue(.main))
                progress.append(value)
            }, completion: { path, error in
                progress.append(-1)  // marks the completion's place among the progress calls
                done(path, error)
            })
        }
        return (outcome, progress.values)
    }

    /// `deleteMediaFile` awaited.
    func delete(_ model: TSMediaFileModel) async -> Outcome<Bool> {
        await callOnce { done in deleteMediaFile(model) { ok, error in done(ok, error) } }
    }

    /// `deleteAllMediaFiles` awaited.
    func deleteAll(_ type: TSMediaFileType = .audioRecording) async -> Outcome<Bool> {
        await callOnce { done in deleteAllMediaFiles(of: type) { ok, error in done(ok, error) } }
    }
}
