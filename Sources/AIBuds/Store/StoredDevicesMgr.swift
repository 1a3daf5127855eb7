import AIBudsFoundation
import AIBudsSync
import Foundation

/// The user's persisted device list (static members only).
///
/// Kept in `SDKConfiguration.storedDevicesURL`, by default `$XDG_DATA_HOME/aibuds/devices.json`.
/// Changes are saved in the background and post `storedDevicesChanged`. Call
/// ``loadDevicesInBackgroundWithCompletion(_:)`` at launch (after `AIBudsSDK.initialize`, so that the
/// plugins can decode their devices); it also connects the devices marked for auto-reconnect.
public final class StoredDevicesMgr: Sendable {
    private static let current = Locked<DeviceStore?>(nil)

    private init() {}

    /// The store for the configured file (created on first use, and again when the file changes).
    static var store: DeviceStore {
        let url = AIBudsSDK.sdkConfiguration.storedDevicesURL ?? DataDirectory.storedDevicesFile
        return current.withLock { store in
            if let existing = store, existing.fileURL == url { return existing }
            let created = DeviceStore(fileURL: url, logger: AIBudsSDK.logger)
            store = created
            return created
        }
    }

    static func resetForTesting() {
        current.withLock { $0 = nil }
    }

    // MARK: The list

    /// The stored devices in the app's order.
    public static var allDevices: [any DeviceConvertible] { store.devices }

    /// Adds a device and saves in the background; `false` when it is already stored.
    @discardableResult
    public static func addDevice(_ device: any DeviceConvertible) -> Bool {
        guard store.add(device) else { return false }
        changed()
        return true
    }

    /// Removes a device and saves in the background.
    public static func removeDevice(_ device: any DeviceConvertible) {
        if store.remove(device) { changed() }
    }

    /// Moves the device at `from` to position `to` and saves in the background; `false` for a bad index.
    @discardableResult
    public static func moveDevice(from: Int, to: Int) -> Bool {
        guard store.move(from: from, to: to) else { return false }
        changed()
        return true
    }

    /// The stored device with this MAC address (case and separators ignored).
    public static func findDevice(byMacAddr macAddr: String) -> (any DeviceConvertible)? {
        store.find(macAddress: macAddr)
    }

    /// The stored device with this peripheral (by identifier, else by address).
    public static func findDevice(byPeripheral peripheral: Peripheral) -> (any DeviceConvertible)? {
        store.find(peripheral: peripheral)
    }

    // MARK: Loading and saving

    /// Loads the stored devices in the background; the completion runs once on the callback queue with
    /// the list and the load error, if any (a corrupt file is moved aside and reported, and the list is
    /// then what was in memory).
    public static func loadDevicesInBackgroundWithCompletion(
        _ completion: (@Sendable ([any DeviceConvertible], (any Error)?) -> Void)? = nil
    ) {
        Task.detached {
            let result: ([any DeviceConvertible], (any Error)?)
            do {
                result = (try await loadDevices(), nil)
            } catch {
                result = (allDevices, AIBudsError.nsError(from: error))
            }
            AIBudsCall.deliver { completion?(result.0, result.1) }
        }
    }

    /// The vendor's Swift spelling of ``loadDevicesInBackgroundWithCompletion(_:)``: the same load,
    /// with the completion (list, error) on the callback queue once.
    public static func loadDevicesInBackground(
        completion: (@Sendable ([any DeviceConvertible], (any Error)?) -> Void)? = nil
    ) {
        loadDevicesInBackgroundWithCompletion(completion)
    }

    /// Saves the stored devices in the background; the completion runs once on the callback queue.
    ///
    /// It saves the list configured when it is called, to that list's file: the save runs later,
    /// when the configured file may be another one (after a reset, an empty list went to the user's).
    public static func saveDevicesInBackgroundWithCompletion(_ completion: (@Sendable ((any Error)?) -> Void)?) {
        let store = self.store
        Task.detached {
            let failure: (any Error)?
            do {
                try store.save()
                failure = nil
            } catch {
                failure = AIBudsError.nsError(from: error)
            }
            AIBudsCall.deliver { completion?(failure) }
        }
    }

    /// Loads the stored devices, then connects those marked for auto-reconnect when
    /// `SDKConfiguration.shouldAutoReconnectWhenAppLaunch` is set.
    @discardableResult
    public static func loadDevices() async throws -> [any DeviceConvertible] {
        let store = self.store
        let before = Set(store.devices.map(\.uuid))
        let devices = try store.load { record in
            AIBudsSDK.plugin(for: BleProtocolKind(lenientRawValue: record.protocolKind))?
                .classForDeviceModel(product: DeviceProduct(lenientRawValue: record.product))
        }
        postChanged()
        if AIBudsSDK.sdkConfiguration.shouldAutoReconnectWhenAppLaunch {
            for device in devices
            where !before.contains(device.uuid) && device.shouldAutoReconnectWhenAppLaunch && !device.isAlreadyUnbind {
                device.connect(device.connectContext ?? ConnectParams())
            }
        }
        return devices
    }

    /// Writes every stored device to the JSON file now (through a temporary file, `fsync` and
    /// rename); throws when it cannot be written, or when the file was written by a newer SDK (it
    /// is then left untouched).
    public static func saveDevices() async throws {
        try store.save()
    }

    // MARK: Device hooks

    /// Adds `device` if needed and saves (`DeviceConvertible.save()`).
    static func storeDevice(_ device: any DeviceConvertible) {
        _ = store.add(device)
        changed()
    }

    /// Saves when `device` is stored (its fields changed, for example after a connection).
    static func deviceDidChange(_ device: any DeviceConvertible) {
        guard store.device(withUUID: device.uuid) != nil else { return }
        saveDevicesInBackgroundWithCompletion(nil)
    }

    private static func changed() {
        postChanged()
        saveDevicesInBackgroundWithCompletion { error in
            if let error { AIBudsSDK.logger.log(.error, "store", "saving stored devices failed: \(error)") }
        }
    }

    private static func postChanged() {
        AIBudsCall.deliver { NotificationCenter.default.post(name: .storedDevicesChanged, object: nil) }
    }
}
