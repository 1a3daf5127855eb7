import AIBuds
import AIBudsFoundation
import AIBudsImport
import AIBudsLog
import AIBudsSMPClient
import AIBudsWire
import Foundation

/// A device reached over SMP/UDP (docs/protocol.md): the base of the per-product classes.
///
/// It implements every capability this link supports, and is a media channel
/// (``/AIBuds/MediaFileTransferChannel``, SMPDevice+MediaChannel.swift); the per-product subclasses
/// (``SMPGlassesDevice``, ``SMPEarbudsDevice``, ``SMPWatchDevice``) declare the capability protocols
/// their product has, so `device as? DeviceCameraAPI` fails for earbuds. Each command also checks the
/// capabilities the device itself reported and fails with `deviceNotSupport` when it lacks one. The AI
/// audio path (`DeviceAIAudioAPI`, glasses and earbuds) is added by module AIBudsSMPAudio, which
/// keeps its per-device state in `extensionState`.
open class SMPDevice: BaseDevice, DeviceInfoAPI, DeviceCommonAPI, DeviceOtaAPI, @unchecked Sendable {
    /// What modules that add capabilities by extension keep per device (AIBudsSMPAudio's AI audio
    /// path; DeviceExtensionState.swift).
    package let extensionState = DeviceExtensionState()

    /// Accepts found devices of the SMP link over UDP (`.smp`) and over Bluetooth LE (`.abmate`,
    /// whose plugin is an ``SMPSessionOpener``).
    public required init?(device: any FoundDeviceConvertible) {
        guard device.protocolKind == .smp || device.protocolKind == .abmate else { return nil }
        super.init(device: device)
    }

    /// Decodes a stored device.
    public required init(from decoder: any Decoder) throws {
        try super.init(from: decoder)
    }

    /// Opens an SMP session to the device's address, checking that the device there is this one.
    ///
    /// When the device does not answer at its address, the discovery folder is searched for an
    /// announcement with the same MAC address (an emulator restarted on another port) and the device
    /// moves there.
    open override func openSession(for params: ConnectParams) async throws -> any DeviceSession {
        if peripheral.address.scheme != "udp" {
            guard let opener = AIBudsSDK.plugin(for: protocolKind) as? any SMPSessionOpener else {
                throw AIBudsError(.pluginUnavailable, "no plugin reaches \(peripheral.address)")
            }
            let session = try await opener.openSMPSession(to: peripheral, logger: logger)
            do {
                let identity = try await session.readIdentity()
                // A BLE device's reported MAC often differs from its BLE address (a random address, a
                // classic-Bluetooth MAC): a device that never reported its identity (no serial number
                // yet) is taken at its address; once it has, the MAC it reported is checked.
                if deviceSerialNum != nil, let mac = macAddress,
                    DeviceStore.normalizedMACKey(mac) != DeviceStore.normalizedMACKey(identity.macAddress)
                {
                    throw AIBudsError(
                        .peripheralUnavailable, "another device (\(identity.macAddress)) answers at \(peripheral.address), not \(mac)")
                }
                return session
            } catch {
                await session.close()
                throw error
            }
        }
        let plugin = AIBudsSDK.plugin(for: .smp) as? SMPConnectSDK
        let eventWait = plugin?.eventWait ?? SMPConnectSDK.defaultEventWait
        do {
            return try await open(at: peripheral.address, eventWait: eventWait)
        } catch {
            guard let mac = macAddress,
                let moved = SMPDiscovery(directory: plugin?.discoveryDirectory).announcement(forMAC: mac),
                let address = DeviceAddress(moved.address), address != peripheral.address
            else { throw error }
            logger.log(.info, "smp", "\(name) moved from \(peripheral.address) to \(address)")
            let session = try await open(at: address, eventWait: eventWait)
            updatePeripheral(Peripheral(identifier: uuid, address: address, name: moved.name))
            return session
        }
    }

    private func open(at address: DeviceAddress, eventWait: Duration) async throws -> SMPDeviceSession {
        let session = try SMPDeviceSession(
            address: address, commandTimeout: SMPDeviceSession.commandTimeout, eventWait: eventWait, logger: logger)
        do {
            let identity = try await session.readIdentity()
            if let mac = macAddress, DeviceStore.normalizedMACKey(mac) != DeviceStore.normalizedMACKey(identity.macAddress) {
                throw AIBudsError(
                    .peripheralUnavailable, "another device (\(identity.macAddress)) answers at \(address), not \(mac)")
            }
            return session
        } catch {
            await session.close()
            throw error
        }
    }

    /// Runs a command on the ready device's SMP session.
    func run<Value: Sendable>(
        _ capability: DeviceCapability?, _ command: @escaping @Sendable (SMPDeviceSession) async throws -> Value
    ) async throws -> Value {
        try await perform(SMPDeviceSession.self, requiring: capability, command)
    }

    /// The device's success status code, when a command has no answer to carry one.
    static let ok = NSNumber(value: 0)

    /// The status code the device returned in a successful answer (0 when it left `rc` out).
    static func status(_ response: SMPEmptyResponse) -> NSNumber { NSNumber(value: response.rc ?? 0) }

    // MARK: DeviceInfoAPI

    /// The last known battery status.
    public var batteryStatusInfo: BatteryStatusInfoModel? { currentStatus.battery }
    /// The current UI language.
    public var languageSetting: DeviceLanguage? { currentStatus.language }
    /// The languages the device offers.
    public var supportedLanguages: [DeviceLanguage] { currentStatus.supportedLanguages }
    /// The last known storage use.
    public var storageInfo: StorageInfoModel? { currentStatus.storage }
    /// The last known media counts.
    public var mediaCountInfo: MediaCountInfoModel? { currentStatus.mediaCount }

    /// What the hardware has, from Device `info`'s capabilities and the settings read at connection.
    public var hardwareConfiguration: DeviceHardwareConfiguration {
        DeviceHardwareConfiguration(
            product: product, model: deviceModel, firmwareVersion: firmwareVersion, capabilities: capabilities,
            status: currentStatus)
    }

    /// Sets the device clock to now.
    public func syncDeviceTime() async throws -> NSNumber? {
        try await setDeviceTime(to: Date())
    }

    /// Sets the device clock (Device `time` write, whole seconds).
    public func setDeviceTime(to date: Date) async throws -> NSNumber? {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let response = try await run(.info) { try await $0.request(DeviceTimeWriteRequest(time: seconds)) }
        return Self.status(response)
    }

    /// Reads the device clock.
    public func requestQueryDeviceTime() async throws -> Date {
        let response = try await run(.info) { try await $0.request(DeviceTimeReadRequest()) }
        return Date(timeIntervalSince1970: TimeInterval(response.time))
    }

    /// Sets the UI language (Device `language` write).
    public func setDeviceLanguage(_ language: DeviceLanguage) async throws -> NSNumber? {
        let response = try await run(.info) { try await $0.request(DeviceLanguageWriteRequest(language: language.rawValue)) }
        apply([.language(language)], notify: false)
        return Self.status(response)
    }

    /// Reads the UI language and the supported languages.
    public func requestQueryLanguage() async throws -> DeviceLanguage {
        let response = try await run(.info) { try await $0.request(DeviceLanguageReadRequest()) }
        let language = DeviceLanguage(rawValue: response.language)
        apply([.language(language), .supportedLanguages(response.supported.map(DeviceLanguage.init(rawValue:)))], notify: false)
        return language
    }

    /// Reads the storage use.
    public func requestQueryStorageInfo() async throws -> StorageInfoModel {
        let response = try await run(.info) { try await $0.request(DeviceStorageRequest()) }
        let info = StorageInfoModel(usedSpaceInMB: Int(clamping: response.usedMB), freeSpaceInMB: Int(clamping: response.freeMB))
        apply([.storage(info)], notify: false)
        return info
    }

    /// Reads the media counts.
    public func requestQueryMediaCountInfo() async throws -> MediaCountInfoModel {
        let response = try await run(.info) { try await $0.request(DeviceMediaCountRequest()) }
        let info = SMPDeviceSession.mediaCount(response)
        apply([.mediaCount(info)], notify: false)
        return info
    }

    /// Reads the battery status.
    public func requestQueryBatteryStatus() async throws -> BatteryStatusInfoModel {
        let response = try await run(.info) { try await $0.request(DeviceBatteryRequest()) }
        let info = BatteryStatusInfoModel(level: Int(clamping: response.level), isCharging: response.charging)
        apply([.battery(info)], notify: false)
        return info
    }

    // MARK: DeviceCommonAPI

    /// Restores factory settings; the device deletes all its media.
    public func factoryReset() async throws {
        _ = try await run(.common) { try await $0.request(DeviceFactoryResetRequest()) }
    }

    /// Formats the media storage (Device `format storage`); see the protocol's summary for the
    /// rules around imports.
    public func formatMediaStorage() async throws -> Int {
        if let engine = (self as? any MediaImportEngineProvider)?.mediaImport {
            guard !engine.isBusy else {
                throw AIBudsError(.deviceBusy, "an import or fetch runs on this device: cancel it before formatting")
            }
            if capabilities.contains(.hotspot) { try await engine.endTransferSession() }
        }
        let response = try await run(.common) { try await $0.request(DeviceFormatStorageRequest()) }
        return Int(clamping: response.deleted)
    }

    /// Powers the device off; its session ends, so the SDK disconnects (delegates get a `nil` error).
    public func powerOff() async throws {
        _ = try await run(.common) { try await $0.request(DevicePowerOffRequest()) }
        disconnect()
    }

    // MARK: Find

    /// Starts the find-my-device signal.
    public func findDevice() async throws {
        _ = try await run(.find) { try await $0.request(DeviceFindRequest(on: true)) }
    }

    /// Stops the find-my-device signal.
    public func stopFindDevice() async throws {
        _ = try await run(.find) { try await $0.request(DeviceFindRequest(on: false)) }
    }

    /// Reports the phone found (Device action `phone.found`).
    public func reportPhoneFound() async throws {
        try await act(DeviceActionName.phoneFound, .findPhone)
    }

    /// Whether the wearer is looking for the phone, as last reported.
    public var isFindingPhone: Bool { currentStatus.isFindingPhone ?? false }

    // MARK: Work state

    /// The last known work state.
    public var workState: WorkState { currentStatus.workState }

    /// Reads the work state.
    public func requestQueryWorkState() async throws -> WorkState {
        let response = try await run(.workState) { try await $0.request(DeviceWorkStateRequest()) }
        let state = WorkState(lenientRawValue: response.state)
        apply([.workState(state)], notify: false)
        return state
    }

    // MARK: Hotspot

    /// The last known hotspot state.
    public var hotspotState: HotspotState { currentStatus.hotspotState }

    /// Configures the hotspot; the password is registered with the log redactor.
    public func configureHotspot(withMode mode: HotspotMode, channel: Int, ssid: String, password: String) async throws -> NSNumber? {
        guard channel >= 0 else {
            throw AIBudsError(.operationFailedDueToWrongParameters, "the hotspot channel must not be negative")
        }
        LogRedactor.shared.register(password)
        let request = HotspotConfigureRequest(mode: mode.rawValue, channel: UInt64(channel), ssid: ssid, password: password)
        let response = try await run(.hotspot) { try await $0.request(request) }
        return Self.status(response)
    }

    /// Enters media transfer mode.
    public func enterFileTransferMode() async throws {
        _ = try await run(.hotspot) { try await $0.request(HotspotEnterTransferRequest()) }
    }

    /// Leaves media transfer mode.
    public func leaveFileTransferMode() async throws {
        _ = try await run(.hotspot) { try await $0.request(HotspotLeaveTransferRequest()) }
    }

    /// Ends the transfers in flight (Hotspot `cancel transfer`); rc 7 when not in transfer mode.
    public func cancelFileTransfer() async throws {
        _ = try await run(.hotspot) { try await $0.request(HotspotCancelTransferRequest()) }
    }

    /// Reads the hotspot state; the session token is registered with the log redactor.
    public func requestQueryHotspotStatus() async throws -> HotspotStatusInfo {
        let response = try await run(.hotspot) { try await $0.request(HotspotStateRequest()) }
        if let token = response.token { LogRedactor.shared.register(token) }
        let status = HotspotStatusInfo(
            state: HotspotState(lenientRawValue: response.state), ssid: response.ssid, baseUrl: response.baseURL,
            token: response.token)
        var events: [DeviceStateEvent] = [.hotspotState(status.state)]
        if let base = response.baseURL { events.append(.hotspotAddress(base)) }
        apply(events, notify: false)
        return status
    }

    // MARK: Audio recording

    /// The longest audio recording in seconds.
    public var maxAudioRecordDuration: NSNumber? { currentStatus.maxAudioRecordDuration.map { NSNumber(value: $0) } }

    /// Sets the longest audio recording.
    public func setMaxAudioRecordDuration(_ seconds: NSNumber) async throws -> NSNumber? {
        let value = try Self.seconds(seconds)
        let response = try await run(.audioRecording) { try await $0.request(CaptureMaxAudioWriteRequest(seconds: value)) }
        apply([.maxAudioRecordDuration(Int(value))], notify: false)
        return Self.status(response)
    }

    /// Reads the longest audio recording.
    public func requestQueryMaxAudioRecordDuration() async throws -> NSNumber {
        let response = try await run(.audioRecording) { try await $0.request(CaptureMaxAudioReadRequest()) }
        apply([.maxAudioRecordDuration(Int(clamping: response.seconds))], notify: false)
        return NSNumber(value: response.seconds)
    }

    /// Sends Capture `audio start`; the device answers busy when it is already recording. Returns
    /// status code 0.
    public func requestStartAudioRecording() async throws -> NSNumber? {
        let response = try await run(.audioRecording) { try await $0.request(CaptureAudioStartRequest()) }
        return Self.status(response)
    }

    /// Sends Capture `audio start` with `ai`; needs the `audioRecording.ai` capability.
    public func requestStartAIAudioRecording() async throws -> NSNumber? {
        guard capabilities.contains(.aiAudioRecording) else {
            throw AIBudsError(.deviceNotSupport, "\(name) makes no AI audio recordings")
        }
        let response = try await run(.audioRecording) { try await $0.request(CaptureAudioStartRequest(ai: true)) }
        return Self.status(response)
    }

    /// Stops the audio recording; returns the new file's name.
    public func requestStopAudioRecording() async throws -> String {
        try await run(.audioRecording) { try await $0.request(CaptureAudioStopRequest()) }.name
    }

    // MARK: Camera

    /// The longest video in seconds.
    public var maxVideoRecordDuration: NSNumber? { currentStatus.maxVideoRecordDuration.map { NSNumber(value: $0) } }
    /// The camera module's own firmware version (Device `setting` `camera`), read at initialization.
    public var cameraFirmwareVersion: String? { currentStatus.cameraFirmwareVersion }

    /// Sets the longest video.
    public func setMaxVideoRecordDuration(_ seconds: NSNumber) async throws -> NSNumber? {
        let value = try Self.seconds(seconds)
        let response = try await run(.camera) { try await $0.request(CaptureMaxVideoWriteRequest(seconds: value)) }
        apply([.maxVideoRecordDuration(Int(value))], notify: false)
        return Self.status(response)
    }

    /// Reads the longest video.
    public func requestQueryMaxVideoRecordDuration() async throws -> NSNumber {
        let response = try await run(.camera) { try await $0.request(CaptureMaxVideoReadRequest()) }
        apply([.maxVideoRecordDuration(Int(clamping: response.seconds))], notify: false)
        return NSNumber(value: response.seconds)
    }

    /// The camera's Gyroflow lens-profile JSON, read in parts with Capture `lens profile` (at most
    /// 64 KiB); nil when the device answers that it has none (SMP `notSupported`).
    public func cameraLensProfile() async throws -> Data? {
        try await run(.camera) { session in
            var profile = Data()
            while true {
                let part: CaptureLensProfileResponse
                do {
                    part = try await session.request(CaptureLensProfileRequest(off: UInt64(profile.count)))
                } catch let error as AIBudsError where error.code == .deviceNotSupport && profile.isEmpty {
                    return nil
                }
                guard part.off == UInt64(profile.count), part.len <= 65_536,
                    UInt64(profile.count + part.data.count) <= part.len
                else {
                    throw AIBudsError(.operationFailedDueToDeviceResponseDataParsingFailed,
                                      "the device's lens profile parts do not fit together (off \(part.off), len \(part.len))")
                }
                profile.append(part.data)
                if UInt64(profile.count) == part.len { return profile }
                guard !part.data.isEmpty else {
                    throw AIBudsError(.operationFailedDueToDeviceResponseDataParsingFailed, "the device's lens profile ended early")
                }
            }
        }
    }

    /// Takes a photo; returns the new file's name.
    public func requestPhotoTaking(withCaptureMode mode: PhotoCaptureMode) async throws -> String {
        try await run(.camera) { try await $0.request(CapturePhotoRequest(mode: mode.rawValue)) }.name
    }

    /// Photos are taken at once on this link, so there is nothing to stop; succeeds when the device has a camera.
    public func requestStopPhotoTaking() async throws -> NSNumber? {
        try await run(.camera) { _ in Self.ok }
    }

    /// Starts recording video.
    public func requestVideoRecording() async throws -> NSNumber? {
        let response = try await run(.camera) { try await $0.request(CaptureVideoStartRequest()) }
        return Self.status(response)
    }

    /// Stops recording video; returns the new file's name.
    public func requestStopVideoRecording() async throws -> String {
        try await run(.camera) { try await $0.request(CaptureVideoStopRequest()) }.name
    }

    private static func seconds(_ value: NSNumber) throws -> UInt64 {
        let seconds = value.int64Value
        guard seconds > 0 else {
            throw AIBudsError(.operationFailedDueToWrongParameters, "a duration must be a positive number of seconds")
        }
        return UInt64(seconds)
    }
}

/// Earbuds over SMP: a true-wireless pair with audio controls (work mode, volume, equalizer, ANC,
/// wear detection, TWS state, music control, key mapping), audio recording, find and work state; the
/// AI audio path with AIBudsSMPAudio.
public final class SMPEarbudsDevice: SMPDevice, DeviceFindAPI, DeviceWorkStateAPI, DeviceAudioRecordingAPI,
    DeviceWorkModeAPI, DeviceVolumeControlAPI, DeviceEqualizerAPI, DeviceANCAPI, DeviceWearDetectionAPI, DeviceTWSAPI,
    DeviceMusicControlAPI, DevicePhysicalOperationsAPI, @unchecked Sendable {}

/// A watch over SMP: audio recording, find, work state.
public final class SMPWatchDevice: SMPDevice, DeviceFindAPI, DeviceWorkStateAPI, DeviceAudioRecordingAPI,
    @unchecked Sendable {}
