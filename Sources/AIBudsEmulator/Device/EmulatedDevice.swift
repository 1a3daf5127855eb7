import AIBudsFoundation
import AIBudsLog
import AIBudsSync
import AIBudsCBOR
import AIBudsWire
import Foundation

/// A hotspot configuration from Hotspot `configure`.
public struct HotspotConfiguration: Sendable, Equatable {
    /// How the Wi-Fi is set up.
    public var mode: HotspotMode
    /// The Wi-Fi channel.
    public var channel: UInt64
    /// The network name.
    public var ssid: String
    /// The passphrase.
    public var password: String

    /// Creates the hotspot settings: `HotspotMode`, Wi-Fi channel, network name and passphrase.
    public init(mode: HotspotMode, channel: UInt64, ssid: String, password: String) {
        self.mode = mode
        self.channel = channel
        self.ssid = ssid
        self.password = password
    }
}

/// What Hotspot `state` reports.
public struct HotspotStatus: Sendable, Equatable {
    /// Closed or open.
    public var state: HotspotState
    /// The configured network name, if any.
    public var ssid: String?
    /// The data plane's base URL while open.
    public var baseURL: String?
    /// The session's bearer token while open.
    public var token: String?
}

/// The behaviour of one emulated device, independent of any transport: identity, battery,
/// storage, clock, language, work state, numbered events, hotspot and transfer mode, capture, and
/// its media store. The SMP handler turns requests into calls here. Thread-safe.
public final class EmulatedDevice: Sendable {
    /// The device's profile.
    public let profile: DeviceProfile
    /// The camera's Gyroflow lens-profile JSON that Capture `lens profile` serves (the built-in
    /// ``EmulatedCamera/lensProfileJSON`` unless given); nil on a device without a camera.
    public let lensProfile: Data?
    /// The device's identity.
    public let identity: EmulatedIdentity
    /// The device's files.
    public let store: MediaStore
    /// The largest SMP packet, in bytes.
    public let mtu: Int
    /// The AI audio path: microphone and speaker streams (Audio group).
    public let audio: EmulatedAudio
    /// The largest Media `list` response, in bytes, for a client that takes packets that large
    /// (its request's `mtu`, docs/protocol.md §3); never below ``mtu``.
    public let maxListResponse: Int

    enum Transfer: Equatable {
        case off
        case opening
        case open(baseURL: String, token: String)
    }

    struct Recording {
        var video: Bool
        var ai = false
        var started: Duration
        var epoch: UInt64
    }

    struct State {
        var settings: DeviceSettings
        var battery = 87
        var charging = false
        var finding = false
        var hotspot: HotspotConfiguration?
        var transfer = Transfer.off
        var transferEpoch: UInt64 = 0
        var recording: Recording?
        var recordingEpoch: UInt64 = 0
        var aiConversation = false
        /// The live stream while the camera streams (EmulatedDevice+Live.swift).
        var live: LiveStateResponse?
        var powered = true
        /// Reasons the device is silent for a while (a reboot, a dropped link); 0 when answering.
        var offline = 0
        /// Whether a firmware upload is in progress (work state `ota`).
        var firmwareUpload = false
        var closed = false
        var events = DeviceEventLog()
        var reportedWorkState = WorkState.btOrBleConnectedIdle
        var nextObserver: UInt64 = 0
        var observers: [UInt64: @Sendable () -> Void] = [:]

        var workState: WorkState {
            if !powered { return .shuttingDown }
            if let recording { return recording.video ? .recordingVideo : recording.ai ? .aiConversing : .recordingAudio }
            if firmwareUpload { return .ota }
            if aiConversation { return .aiConversing }
            if live != nil { return .streaming }
            if transfer != .off { return .fileTransferring }
            return .btOrBleConnectedIdle
        }

        var hotspotState: HotspotState {
            if case .open = transfer { return .hotspotOpen }
            return .hotspotClose
        }

        /// Ends what the device is doing, as power off and factory reset do: the AI conversation,
        /// any recording (its scheduled stop is void) and transfer mode (its timers too).
        mutating func endActivities() {
            aiConversation = false
            recording = nil
            recordingEpoch += 1
            transfer = .off
            transferEpoch += 1
        }
    }

    private let clock: any EmulatorClock
    private let wallClockOrigin: Date
    let stateDirectory: URL?
    private let dataPlane: (any TransferDataPlane)?
    private let hotspotDelay: Duration
    private let fixedToken: String?
    private let logger: any LogService
    let state: Locked<State>
    /// The firmware slots and the upload in progress (EmulatedDevice+Firmware.swift).
    let firmware: Locked<FirmwareRuntime>
    /// The camera's live stream server, when the emulator has one (glasses).
    let liveStream: (any LiveStreamService)?

    /// Creates a device of `profile` named `name` that serves the files of `store`.
    ///
    /// - Parameters:
    ///   - profile: the product (glasses, earbuds, watch): its capabilities, media and firmware.
    ///   - name: the name the device reports and advertises.
    ///   - store: the device's media files.
    ///   - mtu: the largest SMP packet the device sends (Device `info`'s `mtu`, OS `buf_size`).
    ///   - clock: the device's clock (a manual one makes long-polls and timers deterministic).
    ///   - wallClockOrigin: the host wall-clock time at the clock's uptime zero (the device clock
    ///     starts there plus any persisted offset).
    ///   - dataPlane: the HTTP data plane opened in transfer mode (nil: the hotspot never opens).
    ///   - hotspotDelay: how long after `enter transfer mode` the hotspot opens.
    ///   - fixedToken: the bearer token of every transfer session (nil: a random one each time).
    ///   - maxListResponse: the largest Media `list` response for a client that takes it (nil: `mtu`).
    ///   - stateDirectory: where settings, deletions, uploads and firmware slots persist (nil: for this run only).
    ///   - lensProfile: the Gyroflow lens-profile JSON the camera serves (nil: the built-in one; ignored without a camera).
    ///   - firmwareFaults: the faults firmware updates meet (link drops, a flipped byte, a failing boot, power loss).
    ///   - audio: what the microphone hears and where the speaker's sound goes.
    ///   - liveStream: the camera's live stream server (ignored without a camera; nil: no live streaming).
    ///   - logger: receives the device's log lines.
    public init(profile: DeviceProfile, name: String, store: MediaStore, mtu: Int = 1024, maxListResponse: Int? = nil,
                clock: any EmulatorClock = SystemEmulatorClock(), wallClockOrigin: Date = Date(),
                stateDirectory: URL? = nil, dataPlane: (any TransferDataPlane)? = nil,
                hotspotDelay: Duration = .zero, fixedToken: String? = nil, lensProfile: Data? = nil,
                firmwareFaults: FirmwareFaults = FirmwareFaults(), audio: EmulatedAudioIO = EmulatedAudioIO(),
                liveStream: (any LiveStreamService)? = nil,
                logger: any LogService = NullLogService()) throws(EmulatorError) {
        self.audio = EmulatedAudio(io: audio, clock: clock)
        self.profile = profile
        self.lensProfile = profile.hasCamera ? lensProfile ?? Data(EmulatedCamera.lensProfileJSON.utf8) : nil
        self.identity = EmulatedIdentity(name: name, profile: profile.kind)
        self.store = store
        self.mtu = mtu
        self.maxListResponse = max(mtu, maxListResponse ?? mtu)
        self.clock = clock
        self.wallClockOrigin = wallClockOrigin
        self.stateDirectory = stateDirectory
        self.dataPlane = dataPlane
        self.hotspotDelay = hotspotDelay
        self.fixedToken = fixedToken
        self.liveStream = profile.hasCamera ? liveStream : nil
        self.logger = logger
        let settings = try DeviceSettings.load(from: stateDirectory) ?? DeviceSettings(language: profile.languages[0])
        state = Locked(State(settings: settings))
        firmware = Locked(try FirmwareRuntime.start(profile: profile, stateDirectory: stateDirectory, faults: firmwareFaults,
                                                    logger: logger))
        store.setChangeObserver { [weak self] change in self?.mediaChanged(change) }
        scheduleBatteryDrain()
    }

    /// Stops the device's timers and its data plane; the device answers nothing afterwards.
    public func close() {
        state.withLock { state in
            state.closed = true
            state.transfer = .off
            state.transferEpoch += 1
            state.observers.removeAll()
            state.live = nil
        }
        liveStream?.stop()
        dataPlane?.stop()
        store.setChangeObserver(nil)
    }

    // MARK: - Observers

    /// Registers `observer`, called (outside any lock) after every new event; returns its key.
    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            state.nextObserver += 1
            state.observers[state.nextObserver] = observer
            return state.nextObserver
        }
    }

    /// Stops calling the observer that ``addObserver(_:)`` registered under `key`.
    public func removeObserver(_ key: UInt64) {
        _ = state.withLock { $0.observers.removeValue(forKey: key) }
    }

    /// Runs `body` under the lock, then appends the events it implies (work state, hotspot state)
    /// and tells the observers when anything was appended.
    func update<R>(_ body: (inout State) throws(EmulatorError) -> R) throws(EmulatorError) -> R {
        let (result, observers) = try state.withLock { state throws(EmulatorError) -> (R, [@Sendable () -> Void]) in
            let before = state.events.lastSeq
            let hotspotBefore = state.hotspotState
            let result = try body(&state)
            if state.workState != state.reportedWorkState {
                state.reportedWorkState = state.workState
                state.events.append(DeviceEventKind.workState, ["state": CBOR(integer: state.workState.rawValue)])
            }
            if state.hotspotState != hotspotBefore {
                state.events.append(DeviceEventKind.hotspotState, ["state": CBOR(integer: state.hotspotState.rawValue)])
            }
            return (result, state.events.lastSeq != before ? Array(state.observers.values) : [])
        }
        for observer in observers { observer() }
        return result
    }

    private func mediaChanged(_ change: MediaChange) {
        let counts = store.counts()
        let storage = self.storage()
        _ = try? update { state throws(EmulatorError) in
            state.events.append(DeviceEventKind.mediaChanged, ["generation": .unsigned(change.generation),
                                                  "types": .array(change.types.map { CBOR(integer: $0.rawValue) })])
            state.events.append(DeviceEventKind.mediaCount, ["photos": CBOR(integer: counts.photos), "videos": CBOR(integer: counts.videos),
                                                "audios": CBOR(integer: counts.audios)])
            state.events.append(DeviceEventKind.storage, ["used_mb": .unsigned(storage.usedMB), "free_mb": .unsigned(storage.freeMB)])
        }
    }

    /// Runs `body` on the controls under the device's lock; each setting it reports changed (and
    /// that the profile has) becomes an event, and the settings are saved when any did.
    func withControls<R>(
        _ body: (inout ControlState) throws(EmulatorError) -> (R, [String])
    ) throws(EmulatorError) -> R {
        let kind = profile.kind
        let firmware = cameraFirmware
        return try update { state throws(EmulatorError) -> R in
            var controls = state.settings.controls ?? ControlState.defaults(for: kind)
            let (result, changed) = try body(&controls)
            state.settings.controls = controls
            let supported = ControlState.settings(of: kind)
            let reported = changed.filter(supported.contains)
            for name in reported { state.events.append(name, controls.value(name, camera: firmware)) }
            if !changed.isEmpty { try? state.settings.save(to: stateDirectory) }
            return result
        }
    }

    /// Enters or leaves the AI conversation (work state `aiConversing`, with its event).
    func setAIConversation(open: Bool) {
        _ = try? update { state throws(EmulatorError) in state.aiConversation = open }
    }

    /// Tells the observers to look again (a new microphone frame) without an event.
    func notifyObservers() {
        for observer in state.withLock({ Array($0.observers.values) }) { observer() }
    }

    /// Logs a warning of the device.
    func logWarning(_ message: String) {
        logger.log(.warning, "emulator", message)
    }

    /// Runs `body` on the device's clock after `delay`.
    func clockSchedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) {
        clock.schedule(after: delay, body)
    }

    /// Runs `body` on the live stream's state under the device's lock; a change raises the
    /// `liveStream` event (and the `workState` one).
    func withLiveState<R>(_ body: (inout LiveStateResponse?) throws(EmulatorError) -> R) throws(EmulatorError) -> R {
        try update { state throws(EmulatorError) -> R in
            let before = state.live
            let result = try body(&state.live)
            if state.live != before { state.events.append(DeviceEventKind.liveStream, liveStateMap(state.live)) }
            return result
        }
    }

    /// Whether the device records now (a stream cannot start then).
    var isRecording: Bool { state.withLock { $0.recording != nil } }

    /// Appends an event that reports something the wearer did (a key press, a wake word).
    func appendEvent(_ kind: String, _ value: CBOR) {
        _ = try? update { state throws(EmulatorError) in state.events.append(kind, value) }
    }

    // MARK: - Power and session

    /// Whether the device answers requests (false after `power off`).
    public var isPoweredOn: Bool { state.withLock { $0.powered && !$0.closed && $0.offline == 0 } }

    /// Turns the device off: it ends transfer mode and recording and answers nothing until
    /// ``powerOn()`` (or a restart of the emulator).
    public func powerOff() {
        _ = try? update { state throws(EmulatorError) in
            state.powered = false
            state.endActivities()
            state.live = nil
        }
        audio.endAll()
        liveStream?.stop()
        dataPlane?.stop()
        store.cancelUploads()
    }

    /// Turns a powered-off device back on.
    public func powerOn() {
        _ = try? update { state throws(EmulatorError) in state.powered = true }
    }

    /// Ends the control session (OS `reset`): leaves transfer mode, voids the token and abandons
    /// uploads in progress.
    public func resetSession() {
        leaveTransferMode()
        store.cancelUploads()
    }

    /// Deletes every file, abandons uploads, stops recording and transfer mode, and restores the
    /// default settings.
    public func factoryReset() {
        audio.endAll()
        _ = try? update { state throws(EmulatorError) in
            state.endActivities()
            state.hotspot = nil
            state.finding = false
            state.settings = DeviceSettings(language: profile.languages[0])
            try? state.settings.save(to: stateDirectory)
        }
        dataPlane?.stop()
        store.cancelUploads()
        store.deleteAll()
    }

    /// Formats the media storage: every media file is deleted, nothing else changes. Busy while
    /// the device records or serves its files in transfer mode. Returns how many files it deleted.
    public func formatStorage() throws(EmulatorError) -> Int {
        let busy = state.withLock { state -> String? in
            if state.recording != nil || state.aiConversation { return "the device is recording" }
            if state.transfer != .off { return "the device is in transfer mode: leave it first" }
            return nil
        }
        if let busy { throw EmulatorError(.busy, busy) }
        store.cancelUploads()
        let deleted = store.deleteAll().deleted
        logger.log(.info, "emulator", "formatted the media storage: \(deleted) files deleted")
        return deleted
    }

    // MARK: - Information

    /// The battery level (0–100) and whether it is charging.
    public func battery() -> (level: Int, charging: Bool) {
        state.withLock { ($0.battery, $0.charging) }
    }

    /// Sets the battery level and charging state (for tests and demos); raises a `battery` event.
    public func setBattery(level: Int, charging: Bool) {
        _ = try? update { state throws(EmulatorError) in
            state.battery = max(0, min(100, level))
            state.charging = charging
            state.events.append(DeviceEventKind.battery, ["level": CBOR(integer: state.battery), "charging": .bool(charging)])
        }
    }

    /// Storage use in MiB: used rounded up, free rounded down.
    public func storage() -> (usedMB: UInt64, freeMB: UInt64) {
        let mib: UInt64 = 1 << 20
        let used = store.usedBytes
        return (used / mib + (used % mib == 0 ? 0 : 1), store.freeBytes / mib)
    }

    /// The device's clock.
    public var time: Date {
        let offset = state.withLock { $0.settings.clockOffset }
        return wallClockOrigin.addingTimeInterval(clock.uptime.seconds + offset)
    }

    /// Sets the device's clock.
    public func setTime(_ date: Date) {
        let now = wallClockOrigin.addingTimeInterval(clock.uptime.seconds)
        _ = try? update { state throws(EmulatorError) in
            state.settings.clockOffset = date.timeIntervalSince(now)
            try? state.settings.save(to: stateDirectory)
        }
    }

    /// The current language and the languages offered.
    public func language() -> (current: String, supported: [String]) {
        (state.withLock { $0.settings.language }, profile.languages)
    }

    /// Sets the language; it must be one the device offers.
    public func setLanguage(_ language: String) throws(EmulatorError) {
        guard profile.languages.contains(language) else {
            throw EmulatorError(.invalidArgument, "the device does not offer the language \(language)")
        }
        try update { state throws(EmulatorError) in
            state.settings.language = language
            try state.settings.save(to: stateDirectory)
        }
    }

    /// What the device reports doing (recording, transferring files, idle, ...).
    public var workState: WorkState { state.withLock { $0.workState } }

    /// Whether the find signal (sound, light) is on.
    public var isFinding: Bool { state.withLock { $0.finding } }

    /// Turns the find signal on or off.
    public func setFinding(_ on: Bool) {
        state.withLock { $0.finding = on }
    }

    /// The events after `since` and the latest event number.
    ///
    /// When `since` is outside what the device remembers (older than its last 64 events, or from
    /// an earlier run), the answer is the current value of every state, as fresh events numbered
    /// with the latest number.
    public func events(since: UInt64) -> (seq: UInt64, events: [DeviceEvent]) {
        let counts = store.counts()
        let storage = self.storage()
        let generation = store.generation
        return state.withLock { state in
            let last = state.events.lastSeq
            if let events = state.events.events(since: since) { return (last, events) }
            let snapshot: [(String, CBOR)] = [
                (DeviceEventKind.battery, ["level": CBOR(integer: state.battery), "charging": .bool(state.charging)]),
                (DeviceEventKind.workState, ["state": CBOR(integer: state.workState.rawValue)]),
                (DeviceEventKind.storage, ["used_mb": .unsigned(storage.usedMB), "free_mb": .unsigned(storage.freeMB)]),
                (DeviceEventKind.mediaCount, ["photos": CBOR(integer: counts.photos), "videos": CBOR(integer: counts.videos),
                                "audios": CBOR(integer: counts.audios)]),
                (DeviceEventKind.hotspotState, ["state": CBOR(integer: state.hotspotState.rawValue)]),
                (DeviceEventKind.mediaChanged, ["generation": .unsigned(generation), "types": [1, 2, 3]]),
            ]
            let all = snapshot + controlSnapshot(state.settings.controls)
            return (last, all.map { DeviceEvent(seq: last, kind: $0.0, value: $0.1) })
        }
    }

    private func controlSnapshot(_ controls: ControlState?) -> [(String, CBOR)] {
        let controls = controls ?? ControlState.defaults(for: profile.kind)
        let supported = ControlState.settings(of: profile.kind)
        return DeviceSettingName.all.filter(supported.contains).map { ($0, controls.value($0, camera: cameraFirmware)) }
    }

    // MARK: - Hotspot and transfer mode

    /// Stores a hotspot configuration.
    public func configureHotspot(_ configuration: HotspotConfiguration) throws(EmulatorError) {
        try requireHotspot()
        let ssidBytes = configuration.ssid.utf8.count
        guard (1...32).contains(ssidBytes) else {
            throw EmulatorError(.invalidArgument, "the SSID must be 1 to 32 bytes, not \(ssidBytes)")
        }
        let passwordBytes = configuration.password.utf8.count
        guard passwordBytes == 0 || (8...63).contains(passwordBytes) else {
            throw EmulatorError(.invalidArgument, "the password must be empty or 8 to 63 bytes, not \(passwordBytes)")
        }
        guard configuration.channel <= 196 else {
            throw EmulatorError(.invalidArgument, "there is no Wi-Fi channel \(configuration.channel)")
        }
        try update { state throws(EmulatorError) in state.hotspot = configuration }
    }

    /// Enters transfer mode: the hotspot opens after the configured delay, with the data plane.
    public func enterTransferMode() throws(EmulatorError) {
        try requireHotspot()
        let epoch = try update { state throws(EmulatorError) -> UInt64? in
            guard state.hotspot != nil else {
                throw EmulatorError(.badState, "configure the hotspot before entering transfer mode")
            }
            guard state.transfer == .off else { return nil }
            state.transfer = .opening
            state.transferEpoch += 1
            return state.transferEpoch
        }
        guard let epoch else { return }
        if hotspotDelay <= .zero {
            openHotspot(epoch: epoch)
        } else {
            clock.schedule(after: hotspotDelay) { [weak self] in self?.openHotspot(epoch: epoch) }
        }
    }

    /// Leaves transfer mode: the hotspot closes, the data plane stops and the token is void.
    public func leaveTransferMode() {
        let wasOn = try? update { state throws(EmulatorError) -> Bool in
            guard state.transfer != .off else { return false }
            state.transfer = .off
            state.transferEpoch += 1
            return true
        }
        if wasOn == true { dataPlane?.stop() }
    }

    /// Ends every data-plane response in flight (the app cancelled its import); transfer mode, the
    /// hotspot and the token stay. `badState` when the device is not in transfer mode.
    public func cancelTransfers() throws(EmulatorError) {
        let on = state.withLock { $0.transfer != .off }
        guard on else { throw EmulatorError(.badState, "not in transfer mode: no transfer to cancel") }
        dataPlane?.dropConnections()
    }

    /// The hotspot's state, network name, and (while open) the data plane's address and token.
    public func hotspotStatus() throws(EmulatorError) -> HotspotStatus {
        try requireHotspot()
        return state.withLock { state in
            if case .open(let baseURL, let token) = state.transfer {
                return HotspotStatus(state: .hotspotOpen, ssid: state.hotspot?.ssid, baseURL: baseURL, token: token)
            }
            return HotspotStatus(state: .hotspotClose, ssid: state.hotspot?.ssid, baseURL: nil, token: nil)
        }
    }

    /// Configures the hotspot and opens it at once (for `--hotspot-open`).
    public func openHotspotNow(ssid: String, password: String) throws(EmulatorError) {
        try configureHotspot(HotspotConfiguration(mode: .ap, channel: 6, ssid: ssid, password: password))
        let epoch = try update { state throws(EmulatorError) -> UInt64 in
            state.transfer = .opening
            state.transferEpoch += 1
            return state.transferEpoch
        }
        openHotspot(epoch: epoch)
        guard case .hotspotOpen = try hotspotStatus().state else {
            throw EmulatorError(.io, "the data plane did not start")
        }
    }

    private func openHotspot(epoch: UInt64) {
        let current = state.withLock { $0.transferEpoch == epoch && $0.transfer == .opening && !$0.closed }
        guard current else { return }
        guard let dataPlane else {
            logger.log(.error, "emulator", "transfer mode has no data plane; the hotspot stays closed")
            return
        }
        let token = fixedToken ?? Self.randomToken()
        let baseURL: String
        do { baseURL = try dataPlane.start(store: store, token: token) } catch {
            logger.log(.error, "emulator", "the data plane did not start: \(error)")
            _ = try? update { state throws(EmulatorError) in
                if state.transferEpoch == epoch { state.transfer = .off }
            }
            return
        }
        let opened = (try? update { state throws(EmulatorError) -> Bool in
            guard state.transferEpoch == epoch, state.transfer == .opening else { return false }
            state.transfer = .open(baseURL: baseURL, token: token)
            return true
        }) ?? false
        if !opened { dataPlane.stop() }
    }

    private func requireHotspot() throws(EmulatorError) {
        guard profile.hasHotspot else { throw EmulatorError(.notSupported, "the \(profile.kind.rawValue) profile has no hotspot") }
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
    }

    // MARK: - Capture

    /// Starts an audio (or, with `video`, a video) recording.
    public func startRecording(video: Bool, ai: Bool = false) throws(EmulatorError) {
        if ai, !profile.capabilities.contains("audioRecording.ai") {
            throw EmulatorError(.notSupported, "the \(profile.kind.rawValue) profile makes no AI audio recordings")
        }
        if video {
            guard profile.hasCamera else { throw EmulatorError(.notSupported, "the \(profile.kind.rawValue) profile has no camera") }
        } else {
            guard profile.hasAudioRecording else {
                throw EmulatorError(.notSupported, "the \(profile.kind.rawValue) profile does not record audio")
            }
        }
        let now = clock.uptime
        let (epoch, limit) = try update { state throws(EmulatorError) -> (UInt64, UInt64) in
            guard state.recording == nil else { throw EmulatorError(.busy, "the device is already recording") }
            guard !video || state.live == nil else { throw EmulatorError(.busy, "the camera is streaming live") }
            state.recordingEpoch += 1
            state.recording = Recording(video: video, ai: ai && !video, started: now, epoch: state.recordingEpoch)
            return (state.recordingEpoch, video ? state.settings.maxVideoSeconds : state.settings.maxAudioSeconds)
        }
        clock.schedule(after: .seconds(Int64(limit))) { [weak self] in
            _ = try? self?.stopRecording(video: video, epoch: epoch)
        }
    }

    /// Stops the recording and stores it as a new file; returns its name.
    public func stopRecording(video: Bool) throws(EmulatorError) -> MediaFileName {
        try stopRecording(video: video, epoch: nil)
    }

    private func stopRecording(video: Bool, epoch: UInt64?) throws(EmulatorError) -> MediaFileName {
        if video, !profile.hasCamera { throw EmulatorError(.notSupported, "the \(profile.kind.rawValue) profile has no camera") }
        if !video, !profile.hasAudioRecording {
            throw EmulatorError(.notSupported, "the \(profile.kind.rawValue) profile does not record audio")
        }
        let now = clock.uptime
        let (recording, limit) = try update { state throws(EmulatorError) -> (Recording, UInt64) in
            guard let recording = state.recording, recording.video == video, epoch == nil || epoch == recording.epoch else {
                throw EmulatorError(.badState, "the device is not recording \(video ? "video" : "audio")")
            }
            state.recording = nil
            return (recording, video ? state.settings.maxVideoSeconds : state.settings.maxAudioSeconds)
        }
        let seconds = max(1, min(limit, UInt64((now - recording.started).seconds.rounded())))
        let stamp = UTCTime.fileStamp(time)
        let record: MediaRecord
        if video {
            record = try store.addGenerated(stem: "VID_\(stamp)", extension: "mp4", type: .video,
                                            size: seconds * profile.videoBytesPerSecond, sixaxis: profile.videosHaveSixAxis)
        } else {
            record = try store.addGenerated(stem: "\(recording.ai ? "AI" : "REC")_\(stamp)", extension: profile.audioExtension, type: .audio,
                                            size: seconds * profile.audioBytesPerSecond)
        }
        return record.name
    }

    /// Takes a photo; returns its name.
    public func takePhoto(mode: Int = 0) throws(EmulatorError) -> MediaFileName {
        guard profile.hasCamera else { throw EmulatorError(.notSupported, "the \(profile.kind.rawValue) profile has no camera") }
        let recordingVideo = state.withLock { $0.recording?.video == true }
        guard !recordingVideo else { throw EmulatorError(.busy, "the camera is recording a video") }
        let jitter = UInt64(clock.uptime.nanoseconds & 0xFFFF) * 4
        return try store.addGenerated(stem: "IMG_\(UTCTime.fileStamp(time))", extension: "jpg", type: .image,
                                      size: profile.photoSize + jitter).name
    }

    /// The longest recording, in seconds (audio, or video with `video`).
    public func maxDuration(video: Bool) throws(EmulatorError) -> UInt64 {
        try requireCapture(video: video)
        return state.withLock { video ? $0.settings.maxVideoSeconds : $0.settings.maxAudioSeconds }
    }

    /// Sets the longest recording, 1 to 86,400 seconds.
    public func setMaxDuration(video: Bool, seconds: UInt64) throws(EmulatorError) {
        try requireCapture(video: video)
        guard (1...86_400).contains(seconds) else {
            throw EmulatorError(.invalidArgument, "a recording limit must be 1 to 86400 seconds, not \(seconds)")
        }
        try update { state throws(EmulatorError) in
            if video { state.settings.maxVideoSeconds = seconds } else { state.settings.maxAudioSeconds = seconds }
            try state.settings.save(to: stateDirectory)
        }
    }

    private func requireCapture(video: Bool) throws(EmulatorError) {
        if video ? !profile.hasCamera : !profile.hasAudioRecording {
            throw EmulatorError(.notSupported, "the \(profile.kind.rawValue) profile does not record \(video ? "video" : "audio")")
        }
    }

    /// Makes a new audio recording every `interval` (as if the wearer recorded on the device),
    /// 20 to 90 seconds long, until the device closes.
    public func startPeriodicRecordings(every interval: Duration) {
        guard interval > .zero, profile.hasAudioRecording else { return }
        clock.schedule(after: interval) { [weak self] in
            guard let self, self.state.withLock({ !$0.closed }) else { return }
            if self.isPoweredOn {
                var random = SeededRandom(seed: UInt64(truncatingIfNeeded: self.clock.uptime.nanoseconds))
                let seconds = 20 + random.next() % 71
                do {
                    let record = try self.store.addGenerated(
                        stem: "REC_\(UTCTime.fileStamp(self.time))", extension: self.profile.audioExtension, type: .audio,
                        size: seconds * self.profile.audioBytesPerSecond)
                    self.logger.log(.info, "emulator", "recorded \(record.name) (\(record.size) bytes)")
                } catch {
                    self.logger.log(.warning, "emulator", "periodic recording failed: \(error)")
                }
            }
            self.startPeriodicRecordings(every: interval)
        }
    }

    /// The battery drops by one percent every five minutes while not charging, down to 5 %.
    private func scheduleBatteryDrain() {
        clock.schedule(after: .seconds(300)) { [weak self] in
            guard let self, self.state.withLock({ !$0.closed }) else { return }
            let (level, charging) = self.battery()
            if !charging, level > 5, self.isPoweredOn { self.setBattery(level: level - 1, charging: false) }
            self.scheduleBatteryDrain()
        }
    }
}
