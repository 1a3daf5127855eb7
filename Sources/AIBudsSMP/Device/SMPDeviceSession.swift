import AIBuds
import AIBudsFoundation
import AIBudsLog
import AIBudsNet
import AIBudsSMPClient
import AIBudsSync
import AIBudsCBOR
import AIBudsWire
import Foundation

/// One connection to an SMP device over UDP or another ``/AIBudsSMPClient/SMPTransport``: the SMP client, the device's identity, and the
/// position in the device's event stream.
public final class SMPDeviceSession: DeviceSession {
    /// The device's address.
    public let address: DeviceAddress
    /// The client every command of this connection goes through; it closes with the session.
    public let client: SMPClient
    private let eventWait: Duration
    private let logger: any LogService
    private let state = Locked<(identity: DeviceIdentity?, eventSeq: UInt64?)>((nil, nil))

    /// Opens a UDP transport and an SMP client to `address`; nothing is sent yet.
    public convenience init(address: DeviceAddress, commandTimeout: Duration, eventWait: Duration, logger: any LogService) throws {
        let udp: UDPTransport
        do {
            udp = try UDPTransport(url: address.description, logger: logger)
        } catch {
            throw AIBudsError(.peripheralUnavailable, "cannot open udp to \(address)", underlying: error.sdkError)
        }
        try self.init(transport: udp, address: address, commandTimeout: commandTimeout, eventWait: eventWait, logger: logger)
    }

    /// Starts an SMP client on an open `transport` to the device at `address` (another link, such as
    /// GATT through BlueZ); the session owns the transport. Nothing is sent yet.
    public init(
        transport link: any SMPTransport, address: DeviceAddress, commandTimeout: Duration, eventWait: Duration,
        logger: any LogService
    ) throws {
        self.address = address
        self.eventWait = eventWait
        self.logger = logger
        do {
            let spacing = AIBudsSDK.sdkConfiguration.bluetoothDataPacketIntervalInMilliseconds
            let transport: any SMPTransport = spacing > 0 ? PacedTransport(link, interval: .milliseconds(spacing)) : link
            client = try SMPClient(
                transport: transport,
                configuration: link.deliversReliably
                    ? SMPClientConfiguration(retransmitInterval: commandTimeout, retransmissions: 0)
                    : SMPClientConfiguration(retransmitInterval: commandTimeout / 4, retransmissions: 3),
                logger: logger)
        } catch {
            link.close()
            throw AIBudsError(.peripheralUnavailable, "cannot start SMP to \(address)", underlying: error.sdkError)
        }
    }

    /// The current command timeout (`SDKConfiguration.commandTimeoutInSeconds`).
    static var commandTimeout: Duration {
        .seconds(max(AIBudsSDK.sdkConfiguration.commandTimeoutInSeconds, 0.05))
    }

    /// Sends a request within the command timeout (or `timeout`), turning SMP errors into SDK errors.
    public func request<Request: SMPRequest>(_ request: Request, timeout: Duration? = nil) async throws -> Request.Response {
        do {
            return try await client.send(request, timeout: timeout ?? Self.commandTimeout)
        } catch {
            throw error.sdkError
        }
    }

    // MARK: DeviceSession

    /// Reads Device `info` (once per session; later calls return the first answer).
    public func readIdentity() async throws -> DeviceIdentity {
        try await readIdentity(timeout: nil)
    }

    /// Reads Device `info` within `timeout` (default: the command timeout).
    public func readIdentity(timeout: Duration?) async throws -> DeviceIdentity {
        if let identity = state.withLock({ $0.identity }) { return identity }
        let info = try await request(DeviceInfoRequest(), timeout: timeout)
        let identity = DeviceIdentity(
            name: info.name, product: DeviceProduct(lenientRawValue: info.product), model: info.model,
            serialNumber: info.serial, firmwareVersion: info.firmware, macAddress: info.mac,
            capabilities: Set(info.capabilities.map(DeviceCapability.init(rawValue:))), mtu: Int(clamping: info.mtu))
        client.setMTU(identity.mtu)
        state.withLock { $0.identity = identity }
        return identity
    }

    /// Reads battery, storage, media count, work state, language and (per capability) hotspot state
    /// and recording limits, and the device's current event number.
    public func readInitialState(capabilities: Set<DeviceCapability>) async throws -> [DeviceStateEvent] {
        async let battery = request(DeviceBatteryRequest())
        async let storage = request(DeviceStorageRequest())
        async let count = request(DeviceMediaCountRequest())
        async let work = request(DeviceWorkStateRequest())
        async let language = request(DeviceLanguageReadRequest())
        async let events = request(DeviceEventsRequest(since: 0, waitMs: 0))
        // The per-capability reads go out with the others: one round trip for all, not one each.
        async let hotspot = capabilities.contains(.hotspot) ? request(HotspotStateRequest()) : nil
        async let audioLimit = capabilities.contains(.audioRecording) ? request(CaptureMaxAudioReadRequest()) : nil
        async let videoLimit = capabilities.contains(.camera) ? request(CaptureMaxVideoReadRequest()) : nil
        var result: [DeviceStateEvent] = [
            .battery(BatteryStatusInfoModel(level: Int(clamping: try await battery.level), isCharging: try await battery.charging)),
            .storage(StorageInfoModel(usedSpaceInMB: Int(clamping: try await storage.usedMB), freeSpaceInMB: Int(clamping: try await storage.freeMB))),
            .mediaCount(Self.mediaCount(try await count)),
            .workState(WorkState(lenientRawValue: try await work.state)),
            .language(DeviceLanguage(rawValue: try await language.language)),
            .supportedLanguages(try await language.supported.map(DeviceLanguage.init(rawValue:))),
        ]
        let baseline = try await events.seq
        state.withLock { $0.eventSeq = baseline }
        if let hotspot = try await hotspot {
            result.append(.hotspotState(HotspotState(lenientRawValue: hotspot.state)))
        }
        if let limit = try await audioLimit {
            result.append(.maxAudioRecordDuration(Int(clamping: limit.seconds)))
        }
        if let limit = try await videoLimit {
            result.append(.maxVideoRecordDuration(Int(clamping: limit.seconds)))
        }
        return result + (try await readControls(capabilities: capabilities))
    }

    /// Reads the setting of every control capability the device reported, all at once; one after
    /// the other on a paced link (`bluetoothDataPacketIntervalInMilliseconds`), where requests queued
    /// behind each other would use up their command timeouts waiting for their turn.
    func readControls(capabilities: Set<DeviceCapability>) async throws -> [DeviceStateEvent] {
        let names = SMPControlMapping.settingOfCapability.filter { capabilities.contains($0.0) }.map(\.1)
        if AIBudsSDK.sdkConfiguration.bluetoothDataPacketIntervalInMilliseconds > 0 {
            var events: [DeviceStateEvent] = []
            for name in names {
                let response = try await request(DeviceSettingReadRequest(name: name))
                if let event = SMPControlMapping.event(name, response.value) { events.append(event) }
            }
            return events
        }
        return try await withThrowingTaskGroup(of: (Int, DeviceStateEvent?).self) { group in
            for (index, name) in names.enumerated() {
                group.addTask {
                    let response = try await self.request(DeviceSettingReadRequest(name: name))
                    return (index, SMPControlMapping.event(name, response.value))
                }
            }
            var events = [DeviceStateEvent?](repeating: nil, count: names.count)
            for try await (index, event) in group { events[index] = event }
            return events.compactMap { $0 }
        }
    }

    /// Long-polls Device `events` from the last event number seen.
    public func nextEvents() async throws -> [DeviceStateEvent] {
        let since = state.withLock { $0.eventSeq } ?? 0
        let waitMs = UInt64(eventWait.components.seconds * 1000 + eventWait.components.attoseconds / 1_000_000_000_000_000)
        let response: DeviceEventsResponse
        do {
            response = try await request(DeviceEventsRequest(since: since, waitMs: waitMs), timeout: eventWait + Self.commandTimeout)
        } catch let failure as AIBudsError where failure.code == .bleCommandExecFailedDueToTimeout {
            // On a lossy, busy link (the microphone streaming over BLE with datagrams lost) every
            // copy of a long-poll or of its answer can be lost while the link works: one short
            // request decides whether the link is lost. The next poll asks from the same event.
            guard (try? await request(DeviceWorkStateRequest())) != nil else { throw failure }
            logger.log(.info, "smp", "an events poll got no answer, but the device answers: polling on")
            return []
        }
        state.withLock { $0.eventSeq = response.seq }
        return response.events.compactMap { event in
            let mapped = Self.map(event)
            if mapped == nil { logger.log(.debug, "smp", "ignored device event \(event.kind)") }
            return mapped
        }
    }

    /// Sends Device `action` `auth.report` when the device has the `serviceAuth` capability; returns
    /// its new `serviceAuth` state.
    public func reportServiceAuthorization(success: Bool) async throws -> [DeviceStateEvent] {
        guard let identity = state.withLock({ $0.identity }), identity.capabilities.contains(.serviceAuth) else { return [] }
        let args = try CBOREncoder().encodeValue(AuthReportArgs(success: success))
        let response = try await request(DeviceActionRequest(name: DeviceActionName.authReport, args: args))
        guard let setting = response.setting, let value = response.value,
            let event = SMPControlMapping.event(setting, value)
        else { return [] }
        return [event]
    }

    /// Closes the client; requests in flight fail.
    public func close() async {
        client.close()
    }

    // MARK: Mapping

    static func mediaCount(_ response: DeviceMediaCountResponse) -> MediaCountInfoModel {
        MediaCountInfoModel(
            photoCount: Int(clamping: response.photos), videoCount: Int(clamping: response.videos),
            audioCount: Int(clamping: response.audios))
    }

    private struct StateValue: Decodable { var state: Int }

    /// The SDK event for a wire event; `nil` for kinds this SDK does not know or values that do not decode.
    static func map(_ event: AIBudsWire.DeviceEvent) -> DeviceStateEvent? {
        let decoder = CBORDecoder()
        switch event.kind {
        case DeviceEventKind.battery:
            guard let value = try? decoder.decode(DeviceBatteryResponse.self, from: event.value) else { return nil }
            return .battery(BatteryStatusInfoModel(level: Int(clamping: value.level), isCharging: value.charging))
        case DeviceEventKind.workState:
            guard let value = try? decoder.decode(StateValue.self, from: event.value) else { return nil }
            return .workState(WorkState(lenientRawValue: value.state))
        case DeviceEventKind.storage:
            guard let value = try? decoder.decode(DeviceStorageResponse.self, from: event.value) else { return nil }
            return .storage(StorageInfoModel(usedSpaceInMB: Int(clamping: value.usedMB), freeSpaceInMB: Int(clamping: value.freeMB)))
        case DeviceEventKind.mediaCount:
            guard let value = try? decoder.decode(DeviceMediaCountResponse.self, from: event.value) else { return nil }
            return .mediaCount(mediaCount(value))
        case DeviceEventKind.hotspotState:
            guard let value = try? decoder.decode(StateValue.self, from: event.value) else { return nil }
            return .hotspotState(HotspotState(lenientRawValue: value.state))
        case DeviceEventKind.mediaChanged:
            guard let value = try? decoder.decode(MediaChangedResponse.self, from: event.value) else { return nil }
            return .mediaChanged(generation: value.generation, types: value.types.map(MediaFileType.init(lenientRawValue:)))
        default:
            return SMPControlMapping.event(event.kind, event.value)
        }
    }
}
