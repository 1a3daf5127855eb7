import AIBudsSync
import AIBudsWire

/// The local names one import aims at, so that no two of its files pick the same one.
///
/// Each file owns its own safe name from the start; a file whose name is taken on disk picks a
/// numbered one (`name (2).ext`) that no other file of the batch owns, and owns it from then on.
/// Without this, a file moved to `x (2).jpg` and the device's own `x (2).jpg` could both aim at
/// that name, and the one committed second would fail with `fileExists`. Local names are keys by
/// their exact bytes (``MediaFileName``), as the file system compares them.
final class LocalNameReservations: Sendable {
    private let owners: Locked<[MediaFileName: Int]>

    /// Reserves `names[i]` for file `i` (the batch's safe names, distinct; failures left out).
    init(names: [String?]) {
        var owners: [MediaFileName: Int] = [:]
        owners.reserveCapacity(names.count)
        for (index, name) in names.enumerated() {
            if let name, owners[MediaFileName(name)] == nil { owners[MediaFileName(name)] = index }
        }
        self.owners = Locked(owners)
    }

    /// Whether file `index` may use `name`: nobody owns it, or the file does.
    func isAvailable(_ name: String, for index: Int) -> Bool {
        owners.withLock { ($0[MediaFileName(name)] ?? index) == index }
    }

    /// Makes `name` file `index`'s; false when another file owns it already.
    func take(_ name: String, for index: Int) -> Bool {
        owners.withLock { owners in
            let key = MediaFileName(name)
            if let owner = owners[key], owner != index { return false }
            owners[key] = index
            return true
        }
    }
}
