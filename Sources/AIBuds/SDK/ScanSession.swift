import AIBudsFoundation
import AIBudsSync
import Foundation

/// One running scan: its handlers, the devices it reported, and whether it has finished.
///
/// Reports and the final stop are queued to the callback queue under one lock, so no report is
/// delivered after the stop handler. The SDK delegate of the scan's start also hears its stop, even
/// when the SDK was reset in between.
final class ScanSession: Sendable {
    /// Why a scan ended.
    enum EndReason: Sendable { case timeout, canceled, failed }

    private struct State {
        var seen: Set<UUID> = []
        var finished = false
        var task: Task<Void, Never>?
        weak var delegate: (any SDKDelegate)?
    }

    let foundHandler: AIBudsScanningOnDeviceFoundHandler?
    let stopHandler: AIBudsOnScanStopHandler?
    private let state: Locked<State>

    init(
        foundHandler: AIBudsScanningOnDeviceFoundHandler?, stopHandler: AIBudsOnScanStopHandler?,
        delegate: (any SDKDelegate)?
    ) {
        self.foundHandler = foundHandler
        self.stopHandler = stopHandler
        var initial = State()
        initial.delegate = delegate
        state = Locked(initial)
    }

    /// The SDK delegate the scan reports its start and stop to (held weakly).
    var delegate: (any SDKDelegate)? { state.withLock { $0.delegate } }

    func attach(_ task: Task<Void, Never>) {
        let finished = state.withLock { state -> Bool in
            state.task = task
            return state.finished
        }
        if finished { task.cancel() }
    }

    /// Reports a device unless the scan has finished; the first report of a peripheral is new, later
    /// ones are updates.
    func report(_ device: any FoundDeviceConvertible) {
        state.withLock { state in
            guard !state.finished else { return }
            let isExisting = !state.seen.insert(device.peripheral.identifier).inserted
            let handler = foundHandler
            AIBudsCall.deliver {
                handler?(device, isExisting)
                NotificationCenter.default.post(
                    name: isExisting ? .deviceUpdate : .deviceFound, object: nil,
                    userInfo: [AIBudsSDK.FoundDeviceKey: device])
            }
        }
    }

    /// Ends the scan once: cancels its work and queues the stop notifications and handler.
    func finish(_ reason: EndReason) {
        let task: Task<Void, Never>?? = state.withLock { state in
            guard !state.finished else { return .none }
            state.finished = true
            let stopHandler = self.stopHandler
            let delegate = state.delegate
            AIBudsCall.deliver {
                if reason == .canceled {
                    NotificationCenter.default.post(name: .scanningCanceled, object: nil)
                }
                NotificationCenter.default.post(name: .scanningStop, object: nil)
                delegate?.onScanningStatusChanged(false)
                stopHandler?()
            }
            return .some(state.task)
        }
        if case .some(let running) = task { running?.cancel() }
    }
}
