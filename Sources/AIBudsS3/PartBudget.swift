import Foundation

/// The places for parts in memory over every device of a station, shared fairly: a device may
/// take a place while it holds fewer than its share, the capacity divided by the devices that
/// hold or want places now (at least one each). A device on a slow link, whose parts fill slowly,
/// thus never holds the places the others need; a device alone may use them all.
final class PartBudget: @unchecked Sendable {
    /// Places in all.
    let capacity: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var held: [String: Int] = [:]
    private var waiting: [String: Int] = [:]
    private var total = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Takes a place for `device`, waiting for one within its share.
    func take(for device: String) {
        condition.lock()
        defer { condition.unlock() }
        waiting[device, default: 0] += 1
        while !mayTake(device) { condition.wait() }
        waiting[device, default: 0] -= 1
        if waiting[device] == 0 { waiting[device] = nil }
        held[device, default: 0] += 1
        total += 1
    }

    /// Takes a place for `device` if one is free within its share now; says whether it did.
    func tryTake(for device: String) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        waiting[device, default: 0] += 1
        let may = mayTake(device)
        waiting[device, default: 0] -= 1
        if waiting[device] == 0 { waiting[device] = nil }
        guard may else { return false }
        held[device, default: 0] += 1
        total += 1
        return true
    }

    /// Gives back a place of `device`.
    func give(for device: String) {
        condition.lock()
        held[device, default: 0] -= 1
        if held[device]! <= 0 { held[device] = nil }
        total -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Places `device` holds now.
    func places(of device: String) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return held[device] ?? 0
    }

    /// Whether `device` (counted as wanting a place) may take one now.
    private func mayTake(_ device: String) -> Bool {
        guard total < capacity else { return false }
        let devices = Set(held.keys).union(waiting.keys).count
        let share = max(1, capacity / max(1, devices))
        return (held[device] ?? 0) < share
    }
}
